/**
 * ahp/elicitation-uncorrelated (warning): a `user.elicitation.result` without `parentEventId`
 * whose request is not in the input (no earlier, unanswered request of the same source,
 * session, server and mode). A producer omits a parent it does not know, but then the answer
 * cannot be correlated with the request it answers ("`parentEventId` correlates the result with
 * the AHP request event"), so neither the pairing nor the answer is verified: the "cannot
 * verify" case. When the request is in the input, ahp/elicitation-parent-missing (error)
 * reports the result instead. Judged on the first occurrence of the result
 * (ahp/elicitation-unpaired reports a parent of another type).
 * AHP interaction-payloads.md §MCP elicitation binding (2025-11-25); task-workspace-lineage.md
 * §Lineage and actual changes.
 */
import { defineAhpStreamRule } from '../analyzers/model.ts';

/** The `ahp/elicitation-uncorrelated` rule, as described in the module comment above. */
export const elicitationUncorrelated = defineAhpStreamRule({
  id: 'ahp/elicitation-uncorrelated',
  severity: 'warning',
  description:
    'A user.elicitation.result has no parentEventId and its request is not in the input, so it cannot be correlated with the request it answers (not verified). Never an error for a request absent from the input: AHP has no marker that proves a capture holds a session from its start (session.start is optional and only SHOULD come first; events carry no position, and a subscriber may not have received an event).',
  spec: 'AHP interaction-payloads.md §MCP elicitation binding (2025-11-25); task-workspace-lineage.md §Lineage and actual changes',
  onEvent(facts, ctx) {
    const pair = facts.event?.pair;
    if (pair?.parent !== 'absent' || pair.candidate) return;
    ctx.report({
      pointer: '/params/event',
      message:
        "This elicitation result has no `parentEventId` and no request it could answer is in the input, so it cannot be correlated with its request (the result repeats the request's server and mode and names it as parent).",
    });
  },
});
