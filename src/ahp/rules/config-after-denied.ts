/**
 * ahp/config-after-denied (error): a `config.change.after` event whose parent
 * `config.change.before` was denied in the input. A denied proposal produces no after event
 * ("Denied proposals MUST NOT generate fictitious after events"; "no after event represents a
 * denied or unchanged proposal"). Denied means: an accepted intercept response to the before
 * event contained `deny` (a response rejected as a whole denies nothing by itself), or a
 * `hook.failure` for it applied the `fail-closed` policy (a synthetic denial). An unchanged
 * proposal cannot be told from the stream.
 * AHP interaction-payloads.md (configuration payloads); task-workspace-lineage.md §Lineage and
 * actual changes; base/failure.md §Failure policy.
 */
import { markLocation } from '../../core/mark.ts';
import { defineAhpStreamRule } from '../analyzers/model.ts';

/** The `ahp/config-after-denied` rule, as described in the module comment above. */
export const configAfterDenied = defineAhpStreamRule({
  id: 'ahp/config-after-denied',
  severity: 'error',
  description: 'No config.change.after follows a config.change.before that was denied (no fictitious after events).',
  spec: 'AHP interaction-payloads.md (Configuration change); task-workspace-lineage.md §Lineage and actual changes',
  onEvent(facts, ctx) {
    const d = facts.event?.configAfterDenied;
    if (!d) return;
    ctx.report({
      pointer: '/params/event/parentEventId',
      message: `This after event's proposal (line ${d.before.line}) was denied on line ${d.deniedAt.line}; a denied configuration proposal produces no after event.`,
      related: [markLocation(d.before), markLocation(d.deniedAt)],
    });
  },
});
