/**
 * ahp/parent-cycle (error): following `parentEventId` links (within one source) leads back to
 * the event itself. Parentage is single and acyclic; an event cannot be its own ancestor. Cycles
 * closed by a late parent are found when the parent arrives (reported at that event, with the
 * other events of the cycle as related locations). AHP task-workspace-lineage.md §Lineage and
 * actual changes ("Parentage is single and acyclic").
 */
import { markLocation } from '../../core/mark.ts';
import { defineAhpStreamRule } from '../analyzers/model.ts';

/** The `ahp/parent-cycle` rule, as described in the module comment above. */
export const parentCycle = defineAhpStreamRule({
  id: 'ahp/parent-cycle',
  severity: 'error',
  description: 'Event lineage is acyclic: following parentEventId links never leads back to the event itself.',
  spec: 'AHP task-workspace-lineage.md §Lineage and actual changes',
  onEvent(facts, ctx) {
    const cycle = facts.event?.cycle;
    if (!cycle) return;
    ctx.report({
      pointer: '/params/event/parentEventId',
      message:
        cycle.length === 1
          ? 'The event names itself as its parent; parentage is single and acyclic.'
          : `Following parentEventId from this event leads back to it through ${cycle.length - 1} other event${cycle.length === 2 ? '' : 's'} (line${cycle.length === 2 ? '' : 's'} ${cycle
              .slice(1)
              .map((m) => m.line)
              .join(', ')}); parentage is single and acyclic.`,
      related: cycle.slice(1).map((m) => markLocation(m, '/params/event/parentEventId')),
    });
  },
});
