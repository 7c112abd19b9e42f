import { markLocation, mayFollow } from '../../core/mark.ts';
import { defineAhpStreamRule } from '../analyzers/model.ts';

/** `ahp/change-after-denied`: the task and workspace twin of `ahp/config-after-denied`. */
export const changeAfterDenied = defineAhpStreamRule({
  id: 'ahp/change-after-denied',
  severity: 'error',
  description:
    'No task.change.after or workspace.change.after parents to a task.change.before or workspace.change.before that was refused.',
  detail:
    'Refused means an accepted `deny`, or a fail-closed `hook.failure` naming it: a denied proposal has no actual change and produces no after event. Also cited: base/failure.md §Failure policy.',
  spec: 'AHP task-workspace-lineage.md §Lineage and actual changes',
  quote: 'A denied proposal with no actual change produces no after event',
  messages: {
    denied:
      "This after event's proposal, the {beforeType} at {before}, was refused at {denied}; a denied proposal produces no after event.",
  },
  on: ['changeAfterDenied'],
  onEvent(facts, ctx, state) {
    const d = facts.event?.changeAfterDenied;
    if (!d) return;
    // a line between the request and the denial that gave no message may have been a hook.failure making the denial late (base/failure.md §Deadlines)
    if (state.unreadable && mayFollow(state.unreadable, d.before) && mayFollow(d.deniedAt, state.unreadable)) return;
    const before = markLocation(d.before);
    const denied = markLocation(d.deniedAt);
    ctx.report({
      pointer: '/params/event/parentEventId',
      args: { beforeType: d.beforeType, before, denied },
      related: [before, denied],
    });
  },
});
