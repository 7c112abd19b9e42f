import { defineAhpStreamRule } from '../analyzers/model.ts';

/** Never an error: no AHP marker proves that a capture holds a session from its start. */
export const elicitationUncorrelated = defineAhpStreamRule({
  id: 'ahp/elicitation-uncorrelated',
  severity: 'warning',
  description:
    'A user.elicitation.result has no parentEventId and its request is not in the input, so it cannot be correlated with the request it answers (not verified).',
  detail:
    'Never an error for a request absent from the input: AHP has no marker that proves a capture holds a session from its start (session.start is optional and only SHOULD come first; events carry no position, and a subscriber may not have received an event). Also cited: task-workspace-lineage.md §Lineage and actual changes.',
  spec: 'AHP interaction-payloads.md §MCP elicitation binding (2025-11-25)',
  messages: {
    uncorrelated:
      "This elicitation result has no `parentEventId` and no request it could answer is in the input, so it cannot be correlated with its request (the result repeats the request's server and mode and names it as parent).",
  },
  on: ['pair'],
  onEvent(facts, ctx) {
    const pair = facts.event?.pair;
    if (pair?.parent === 'absent' && !pair.candidate) ctx.report({ pointer: '/params/event' });
  },
});
