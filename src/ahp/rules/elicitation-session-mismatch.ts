/**
 * ahp/elicitation-session-mismatch (error): a `user.elicitation.result` whose parent request
 * carries a session id that the result does not repeat: the result names another session, or
 * none. The result correlates with its request through `parentEventId` and repeats the request's
 * identity ("`parentEventId` correlates the result with the AHP request event"; "The result
 * repeats that identity and normalized mode"), and identities are retained across the boundaries
 * of one interaction (execution-payloads.md §Identity and native boundary duties): an answer
 * outside the session of its request, or dropping it, is miscorrelated, as the upstream
 * elicitation correlation tests reject both. A request without a session is not compared (an
 * optional session is never demanded of detached work, same section). Judged on the first
 * occurrence of the result.
 * AHP interaction-payloads.md §MCP elicitation binding (2025-11-25).
 */
import { markLocation } from '../../core/mark.ts';
import { defineAhpStreamRule } from '../analyzers/model.ts';

/** The `ahp/elicitation-session-mismatch` rule, as described in the module comment above. */
export const elicitationSessionMismatch = defineAhpStreamRule({
  id: 'ahp/elicitation-session-mismatch',
  severity: 'error',
  description:
    'A user.elicitation.result repeats the session id of the request its parentEventId names (when the request carries one): another session, or none, is a correlation failure.',
  spec: 'AHP interaction-payloads.md §MCP elicitation binding (2025-11-25); execution-payloads.md §Identity and native boundary duties',
  onEvent(facts, ctx) {
    const pair = facts.event?.pair;
    if (pair?.parent !== 'request' || !pair.sessionMismatch) return;
    if (pair.sessionMismatch === 'absent') {
      ctx.report({
        pointer: '/params/event',
        message: `This result carries no session, but the request it names as parent (line ${pair.parentAt!.line}) is in a session; an answer repeats the session of its request.`,
        related: [markLocation(pair.parentAt!, '/params/event/session/id')],
      });
      return;
    }
    ctx.report({
      pointer: '/params/event/session/id',
      message: `This result is in another session than the request it names as parent (line ${pair.parentAt!.line}); an answer belongs to the session of its request.`,
      related: [markLocation(pair.parentAt!, '/params/event/session/id')],
    });
  },
});
