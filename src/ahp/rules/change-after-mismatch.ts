import { markLocation } from '../../core/mark.ts';
import { defineAhpStreamRule } from '../analyzers/model.ts';

/** `ahp/change-after-mismatch`: after values may differ from the proposal, the change they belong to may not. */
export const changeAfterMismatch = defineAhpStreamRule({
  id: 'ahp/change-after-mismatch',
  severity: 'error',
  description:
    'A task.change.after keeps the task id and operation, and a workspace.change.after the kind, of the before event it parents to.',
  detail:
    'After values may differ from the proposal, the change may not. Compared when the before precedes its after in the input.',
  spec: 'AHP task-workspace-lineage.md §Lineage and actual changes',
  messages: {
    one: "This after event parents to the {beforeType} of {before} but its `{field}` differs from that proposal's; an after event reports the applied side of its own proposal (a proposal for another change needs its own before).",
    two: "This after event parents to the {beforeType} of {before} but its `{field}` and `{other}` differ from that proposal's; an after event reports the applied side of its own proposal (a proposal for another change needs its own before).",
  },
  on: ['changeAfterMismatch'],
  onEvent(facts, ctx) {
    const m = facts.event?.changeAfterMismatch;
    if (!m) return;
    const before = markLocation(m.before);
    ctx.report({
      pointer: '/params/event/parentEventId',
      messageId: m.fields.length === 1 ? 'one' : 'two',
      args: { beforeType: m.beforeType, before, field: m.fields[0]!, other: m.fields[1] },
      related: [before],
    });
  },
});
