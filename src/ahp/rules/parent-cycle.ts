import { markLocation } from '../../core/mark.ts';
import { defineAhpStreamRule } from '../analyzers/model.ts';

/** `ahp/parent-cycle`: a cycle closed by a late parent is reported when that parent arrives. */
export const parentCycle = defineAhpStreamRule({
  id: 'ahp/parent-cycle',
  severity: 'error',
  description: 'Event lineage is acyclic: following parentEventId links never leads back to the event itself.',
  spec: 'AHP task-workspace-lineage.md §Lineage and actual changes',
  messages: {
    self: 'The event names itself as its parent; parentage is single and acyclic.',
    cycle:
      'Following parentEventId from this event leads back to it through {others} other event{others:s} (line{others:s} {lines}); parentage is single and acyclic.',
  },
  on: ['cycle'],
  onEvent(facts, ctx) {
    const cycle = facts.event?.cycle;
    if (!cycle) return;
    const others = cycle.slice(1);
    ctx.report({
      pointer: '/params/event/parentEventId',
      messageId: others.length === 0 ? 'self' : 'cycle',
      args: { others: others.length, lines: others.map((m) => m.line).join(', ') },
      related: others.map((m) => markLocation(m, '/params/event/parentEventId')),
    });
  },
});
