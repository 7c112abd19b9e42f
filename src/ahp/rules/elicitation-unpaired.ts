import { markLocation } from '../../core/mark.ts';
import { defineAhpStreamRule } from '../analyzers/model.ts';

/** A parent that is a known event of another type; judged on the result's first occurrence. */
export const elicitationUnpaired = defineAhpStreamRule({
  id: 'ahp/elicitation-unpaired',
  severity: 'error',
  description:
    "A user.elicitation.result's parentEventId names the user.elicitation.request it answers, and no second result of another event answers that request otherwise.",
  detail:
    'A missing parentEventId is ahp/elicitation-uncorrelated. A second result (another event id) with another `action`, or another parsed ElicitResult, for the same request contradicts the first: an MCP elicitation/create is answered by one ElicitResult (MCP 2025-11-25 client elicitation §Response Actions). A repeat of the same event is a retry or another view (base/failure.md §Duplicate delivery and retries) and is not judged here. Also cited: task-workspace-lineage.md §Lineage and actual changes.',
  spec: 'AHP interaction-payloads.md §MCP elicitation binding (2025-11-25)',
  messages: {
    notRequest:
      'The parent of this elicitation result is a {parentType} event ({parent}), not the user.elicitation.request it answers.',
    answered:
      'The user.elicitation.request at {parent} was already answered otherwise by the result at {first}; one elicitation/create has one ElicitResult.',
  },
  on: ['pair'],
  onEvent(facts, ctx) {
    const pair = facts.event?.pair;
    if (pair?.answered && pair.parentAt) {
      const [parent, first] = [markLocation(pair.parentAt), markLocation(pair.answered)];
      ctx.report({
        pointer: '/params/event/elicitation',
        messageId: 'answered',
        args: { parent, first },
        related: [first],
      });
    }
    if (pair?.parent !== 'not-request') return;
    const parent = markLocation(pair.parentAt!);
    ctx.report({
      pointer: '/params/event/parentEventId',
      messageId: 'notRequest',
      args: { parentType: pair.parentType!, parent },
      related: [parent],
    });
  },
});
