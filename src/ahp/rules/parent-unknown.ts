/**
 * ahp/parent-unknown (info): an event's `parentEventId` names no event of the same source in
 * the input. Event identity is `(source, id)`, so a parent with that id from another source does
 * not count. Legal: a subscriber may not have received the parent and must not demand ancestry,
 * so this is information (the lineage is not verified), not an error. Parents may arrive after
 * their children (observation order is not guaranteed), so this is decided at the end of input,
 * one finding per naming event. AHP task-workspace-lineage.md §Lineage and actual changes.
 */
import { defineAhpStreamRule } from '../analyzers/model.ts';

/** The `ahp/parent-unknown` rule, as described in the module comment above. */
export const parentUnknown = defineAhpStreamRule({
  id: 'ahp/parent-unknown',
  severity: 'info',
  description:
    "An event's parentEventId names no event of the same source anywhere in the input (legal: the lineage is not verified).",
  spec: 'AHP task-workspace-lineage.md §Lineage and actual changes',
  onEnd(state, ctx) {
    for (const u of state.lineage.unresolvedParents()) {
      ctx.report({
        at: u.at,
        message:
          'The parent event is not in the input (no event of the same source has this id), so this lineage link is not verified; a subscriber may legitimately lack the parent.',
      });
    }
  },
});
