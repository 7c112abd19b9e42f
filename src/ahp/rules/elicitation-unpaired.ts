/**
 * ahp/elicitation-unpaired (error): a `user.elicitation.result` names the
 * `user.elicitation.request` it answers: its `parentEventId` is the id of that request event of
 * the same source ("`parentEventId` correlates the result with the AHP request event").
 * Reported: a parent that is a known event of another type. No `parentEventId` at all is
 * ahp/elicitation-uncorrelated (warning).
 * A parent that is not in the input is reported by ahp/parent-unknown (info), and an answer that
 * therefore cannot be checked by ahp/elicitation-content-schema (info). Judged on the first
 * occurrence of the result event.
 * AHP interaction-payloads.md §MCP elicitation binding (2025-11-25); task-workspace-lineage.md
 * §Lineage and actual changes.
 */
import { markLocation } from '../../core/mark.ts';
import { defineAhpStreamRule } from '../analyzers/model.ts';

/** The `ahp/elicitation-unpaired` rule, as described in the module comment above. */
export const elicitationUnpaired = defineAhpStreamRule({
  id: 'ahp/elicitation-unpaired',
  severity: 'error',
  description:
    "A user.elicitation.result's parentEventId names the user.elicitation.request it answers (a missing parentEventId is ahp/elicitation-uncorrelated).",
  spec: 'AHP interaction-payloads.md §MCP elicitation binding (2025-11-25); task-workspace-lineage.md §Lineage and actual changes',
  onEvent(facts, ctx) {
    const pair = facts.event?.pair;
    if (pair?.parent !== 'not-request') return;
    ctx.report({
      pointer: '/params/event/parentEventId',
      message: `The parent of this elicitation result is a ${pair.parentType} event (line ${pair.parentAt!.line}), not the user.elicitation.request it answers.`,
      related: [markLocation(pair.parentAt!)],
    });
  },
});
