import { defineEventRule } from '../../core/engine.ts';
import { checksOf, parsedObject } from '../elicitation-body.ts';
import type { AhpMessage } from '../message.ts';
import { urlSecrets } from '../sensitive-names.ts';

/** `ahp/elicitation-url-secret`: parameter values are never read or printed. */
export const elicitationUrlSecret = defineEventRule({
  id: 'ahp/elicitation-url-secret',
  severity: 'warning',
  description:
    "A URL elicitation's `url` carries no secret: userinfo (`user:password@`) or a query or fragment parameter whose name asks for a credential (the form heuristic of ahp/elicitation-form-sensitive, plus `key`, `sig` and `signature` of keyed or signed URLs) is a warning, since the URL is shown, logged and must not be pre-authenticated. A name heuristic, hence a warning; parameter values are never read or printed.",
  spec: 'AHP interaction-payloads.md §MCP elicitation binding ("without exposing secrets in logs"); MCP 2025-11-25 elicitation §Safe URL Handling',
  messages: {
    carries:
      'The `url` of the serialized MCP request carries {what}; a URL elicitation must not expose secrets in logs or be pre-authenticated (MCP §Safe URL Handling).',
  },
  types: ['user.elicitation.request'],
  check(msg: AhpMessage, ctx) {
    const c = checksOf(msg.elicitation);
    if (c?.checks.kind !== 'request') return;
    const value = parsedObject(c.checks);
    if (value?.mode !== 'url' || typeof value.url !== 'string') return;
    let u: URL;
    try {
      u = new URL(value.url);
    } catch {
      return; // not a URL: ahp/elicitation-body says so
    }
    for (const what of urlSecrets(u))
      ctx.report({
        pointer: c.checks.textPointer,
        args: { what, partPointer: c.partPointer, innerPointer: '/url' },
      });
  },
});
