/**
 * ahp/change-after-mismatch (error): a `task.change.after` whose task `id` or `operation`, or a
 * `workspace.change.after` whose `kind`, differs from the `*.change.before` it parents to. The
 * after event reports the actual application of that proposal: its values may differ from the
 * proposed ones, the change they belong to may not. AHP task-workspace-lineage.md §Lineage and
 * actual changes ("When both task boundaries exist, after parents to its corresponding before";
 * "Workspace after similarly links to its known proposal"; "matching task identity/operation for
 * known proposal parents"). Facts: changes.ts.
 */
import { markLocation } from '../../core/mark.ts';
import { defineAhpStreamRule } from '../analyzers/model.ts';

/** The `ahp/change-after-mismatch` rule, as described in the module comment above. */
export const changeAfterMismatch = defineAhpStreamRule({
  id: 'ahp/change-after-mismatch',
  severity: 'error',
  description:
    'A task.change.after keeps the task id and operation, and a workspace.change.after the kind, of the before event it parents to (after values may differ from the proposal, the change may not). Compared when the before precedes its after in the input.',
  spec: 'AHP task-workspace-lineage.md §Lineage and actual changes',
  onEvent(facts, ctx) {
    const m = facts.event?.changeAfterMismatch;
    if (!m) return;
    const what = m.fields.map((f) => `\`${f}\``).join(' and ');
    ctx.report({
      pointer: '/params/event/parentEventId',
      message: `This after event parents to the ${m.beforeType} of line ${m.before.line} but its ${what} differ${m.fields.length === 1 ? 's' : ''} from that proposal's; an after event reports the applied side of its own proposal (a proposal for another change needs its own before).`,
      related: [markLocation(m.before)],
    });
  },
});
