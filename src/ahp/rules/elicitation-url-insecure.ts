import { defineEventRule } from '../../core/engine.ts';
import { requestUrlOf } from '../elicitation-body.ts';
import { isLoopback } from '../../core/loopback.ts';
import type { AhpMessage } from '../message.ts';

/** `ahp/elicitation-url-insecure`: a SHOULD whose exception (a development environment) is read as loopback. */
export const elicitationUrlInsecure = defineEventRule({
  id: 'ahp/elicitation-url-insecure',
  severity: 'warning',
  description:
    "A URL elicitation's `url` uses https: another scheme, or plain `http://` to a host that is not loopback, is a warning.",
  detail:
    'Loopback is `localhost`, `*.localhost` (also `localhost.`), 127.0.0.0/8, `[::1]` and `[::ffff:127.0.0.1]` (as ahp/endpoint-insecure): plain http there is the development environment the sentence exempts; another development host cannot be told from the wire, hence a SHOULD read as a warning. A `javascript:`, `data:`, `file:` or custom-scheme URL is not an HTTPS URL either.',
  spec: 'MCP 2025-11-25 elicitation §Safe URL Handling',
  quote: 'SHOULD use HTTPS URLs for non-development environments.',
  messages: {
    http: 'The `url` of the serialized MCP request uses plain http to a host that is not loopback; servers should use HTTPS URLs outside development (MCP §Safe URL Handling).',
    scheme:
      'The `url` of the serialized MCP request uses the scheme {scheme:json}, not https; servers should use HTTPS URLs outside development (MCP §Safe URL Handling).',
  },
  types: ['user.elicitation.request'],
  check(msg: AhpMessage, ctx) {
    const at = requestUrlOf(msg.elicitation);
    if (!at) return;
    const { c, u } = at;
    if (!u) return;
    const args = { partPointer: c.partPointer, innerPointer: '/url' };
    if (u.protocol === 'https:') return;
    if (u.protocol === 'http:') {
      if (!isLoopback(u.hostname)) ctx.report({ pointer: c.checks.textPointer, messageId: 'http', args });
    } else
      ctx.report({
        pointer: c.checks.textPointer,
        messageId: 'scheme',
        args: { ...args, scheme: u.protocol.slice(0, -1).slice(0, 32) },
      });
  },
});
