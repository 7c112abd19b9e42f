import { markLocation } from '../../core/mark.ts';
import { defineAhpStreamRule } from '../analyzers/model.ts';

/** A parent that is a known event of another type; judged on the result's first occurrence. */
export const elicitationUnpaired = defineAhpStreamRule({
  id: 'ahp/elicitation-unpaired',
  severity: 'error',
  description:
    "A user.elicitation.result's parentEventId names the user.elicitation.request it answers (a missing parentEventId is ahp/elicitation-uncorrelated).",
  detail: 'Also cited: task-workspace-lineage.md §Lineage and actual changes.',
  spec: 'AHP interaction-payloads.md §MCP elicitation binding (2025-11-25)',
  messages: {
    notRequest:
      'The parent of this elicitation result is a {parentType} event ({parent}), not the user.elicitation.request it answers.',
  },
  on: ['pair'],
  onEvent(facts, ctx) {
    const pair = facts.event?.pair;
    if (pair?.parent !== 'not-request') return;
    const parent = markLocation(pair.parentAt!);
    ctx.report({
      pointer: '/params/event/parentEventId',
      args: { parentType: pair.parentType!, parent },
      related: [parent],
    });
  },
});
