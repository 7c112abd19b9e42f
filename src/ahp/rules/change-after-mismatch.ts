import { markLocation } from '../../core/mark.ts';
import { defineAhpStreamRule } from '../analyzers/model.ts';

/** `ahp/change-after-mismatch`: after values may differ from the proposal, the change they belong to may not. */
export const changeAfterMismatch = defineAhpStreamRule({
  id: 'ahp/change-after-mismatch',
  severity: 'error',
  description:
    'A task.change.after keeps the task id and operation, and a workspace.change.after the kind, of the before event it parents to.',
  detail:
    'After values may differ from the proposal, the change may not. Compared in either arrival order: when the after arrives first (a subscriber may receive it before its parent), the finding is on the before, naming the after.',
  spec: 'AHP task-workspace-lineage.md §Lineage and actual changes',
  messages: {
    one: "This after event parents to the {beforeType} of {before} but its `{field}` differs from that proposal's; an after event reports the applied side of its own proposal (a proposal for another change needs its own before).",
    two: "This after event parents to the {beforeType} of {before} but its `{field}` and `{other}` differ from that proposal's; an after event reports the applied side of its own proposal (a proposal for another change needs its own before).",
    lateOne:
      "This {afterType} at {after} parents to this proposal but its `{field}` differs from this proposal's; an after event reports the applied side of its own proposal, whichever arrives first.",
    lateTwo:
      "This {afterType} at {after} parents to this proposal but its `{field}` and `{other}` differ from this proposal's; an after event reports the applied side of its own proposal, whichever arrives first.",
  },
  on: ['changeAfterMismatch'],
  onEvent(facts, ctx) {
    const late = facts.event?.changeBeforeMismatch;
    if (late) {
      const after = markLocation(late.after);
      ctx.report({
        pointer: `/params/event/${late.fields[0]!.replace('.', '/')}`,
        messageId: late.fields.length === 1 ? 'lateOne' : 'lateTwo',
        args: { afterType: late.afterType, after, field: late.fields[0]!, other: late.fields[1] },
        related: [after],
      });
    }
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
