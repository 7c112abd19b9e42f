import { defineEventRule } from '../../core/engine.ts';
import { requestUrlOf } from '../elicitation-body.ts';
import type { AhpMessage } from '../message.ts';
import { urlCredentialIn, urlSecrets } from '../sensitive-names.ts';

/** `ahp/elicitation-url-secret`: parameter values are never printed. */
export const elicitationUrlSecret = defineEventRule({
  id: 'ahp/elicitation-url-secret',
  severity: 'warning',
  description:
    "A URL elicitation's `url` carries no secret: userinfo or a query or fragment parameter whose name asks for a credential is a warning.",
  detail:
    'Userinfo is `user:password@`; a credential parameter name is one the form heuristic of ahp/elicitation-form-sensitive matches, plus `key`, `sig` and `signature` of keyed or signed URLs, since the URL is shown, logged and must not be pre-authenticated. A name heuristic, hence a warning; a URL in which the credential detector finds a value is the error of ahp/credential-exposed instead, and no value is printed. Also cited: MCP 2025-11-25 elicitation §Safe URL Handling.',
  spec: 'AHP interaction-payloads.md §MCP elicitation binding',
  quote: 'without exposing secrets in logs',
  messages: {
    carries:
      'The `url` of the serialized MCP request carries {what}; a URL elicitation must not expose secrets in logs or be pre-authenticated (MCP §Safe URL Handling).',
  },
  types: ['user.elicitation.request'],
  check(msg: AhpMessage, ctx) {
    const at = requestUrlOf(msg.elicitation);
    if (!at) return;
    // a credential the shared detector sees is ahp/credential-exposed's error: one URL, one answer (issue 43)
    if (urlCredentialIn(at.url, at.u)) return;
    const { c, u } = at;
    if (!u) return;
    for (const what of urlSecrets(u))
      ctx.report({
        pointer: c.checks.textPointer,
        args: { what, partPointer: c.partPointer, innerPointer: '/url' },
      });
  },
});
