import { defineAhpStreamRule } from '../analyzers/model.ts';

/**
 * Identity is `(source, id)` (another source's parent does not count); parents may come later, so decided at the end.
 */
export const parentUnknown = defineAhpStreamRule({
  id: 'ahp/parent-unknown',
  severity: 'info',
  description:
    "An event's parentEventId names no event of the same source anywhere in the input (legal: the lineage is not verified).",
  spec: 'AHP task-workspace-lineage.md §Lineage and actual changes',
  messages: {
    absent:
      'The parent event is not in the input (no event of the same source has this id), so this lineage link is not verified; a subscriber may legitimately lack the parent.',
  },
  onEnd(state, ctx) {
    for (const u of state.lineage.unresolvedParents()) ctx.report({ at: u.at });
  },
});
