import { markLocation, mayFollow } from '../../core/mark.ts';
import { defineAhpStreamRule } from '../analyzers/model.ts';

/** Denied: a `deny` or a fail-closed `hook.failure` (base/failure.md §Failure policy). */
export const configAfterDenied = defineAhpStreamRule({
  id: 'ahp/config-after-denied',
  severity: 'error',
  description: 'No config.change.after follows a config.change.before that was denied (no fictitious after events).',
  detail: 'Also cited: task-workspace-lineage.md §Lineage and actual changes.',
  spec: 'AHP interaction-payloads.md (Configuration change)',
  messages: {
    denied:
      "This after event's proposal ({before}) was denied on {denied}; a denied configuration proposal produces no after event.",
  },
  on: ['configAfterDenied'],
  onEvent(facts, ctx, state) {
    const d = facts.event?.configAfterDenied;
    if (!d) return;
    // a line between the request and the denial that gave no message may have been a hook.failure making the denial late (base/failure.md §Deadlines)
    if (state.unreadable && mayFollow(state.unreadable, d.before) && mayFollow(d.deniedAt, state.unreadable)) return;
    const before = markLocation(d.before);
    const denied = markLocation(d.deniedAt);
    ctx.report({ pointer: '/params/event/parentEventId', args: { before, denied }, related: [before, denied] });
  },
});
