/**
 * ahp/elicitation-session-mismatch (error): a `user.elicitation.result` whose parent request
 * belongs to another session. The result correlates with its request through `parentEventId`
 * and repeats the request's identity ("`parentEventId` correlates the result with the AHP
 * request event"; "The result repeats that identity and normalized mode"): an answer in one
 * session to a request of another is miscorrelated. Judged on the first occurrence of the result
 * when both events carry a session id (an optional session that is absent is not compared:
 * optional sessions do not justify fabricated ones, execution-payloads.md §Identity and native
 * boundary duties).
 * AHP interaction-payloads.md §MCP elicitation binding (2025-11-25).
 */
import { markLocation } from '../../core/mark.ts';
import { defineAhpStreamRule } from './model.ts';

/** The `ahp/elicitation-session-mismatch` rule, as described in the module comment above. */
export const elicitationSessionMismatch = defineAhpStreamRule({
  id: 'ahp/elicitation-session-mismatch',
  severity: 'error',
  description: 'A user.elicitation.result is in the same session as the request its parentEventId names (when both carry a session id).',
  spec: 'AHP interaction-payloads.md §MCP elicitation binding (2025-11-25)',
  onEvent(facts, ctx) {
    const pair = facts.event?.pair;
    if (pair?.parent !== 'request' || !pair.sessionMismatch) return;
    ctx.report({
      pointer: '/params/event/session/id',
      message: `This result is in another session than the request it names as parent (line ${pair.parentAt!.line}); an answer belongs to the session of its request.`,
      related: [markLocation(pair.parentAt!, '/params/event/session/id')],
    });
  },
});
