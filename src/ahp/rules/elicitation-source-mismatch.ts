/**
 * ahp/elicitation-source-mismatch (error): a `user.elicitation.result` whose `parentEventId` is
 * the id of a `user.elicitation.request` from another source, with no event of that id in its
 * own source. `parentEventId` is an event id in the same source (event identity is `(source,
 * id)`), and the requesting server's identity is scoped by the adapter/source, so the result
 * names a request it cannot answer. A parent that is nowhere in the input stays
 * ahp/parent-unknown (info): not verified. Judged on the first occurrence of the result against
 * the requests seen before it (a bounded window, elicitation.ts).
 * AHP interaction-payloads.md §MCP elicitation binding (2025-11-25); task-workspace-lineage.md
 * §Lineage and actual changes.
 */
import { markLocation } from '../../core/mark.ts';
import { defineAhpStreamRule } from '../analyzers/model.ts';

/** The `ahp/elicitation-source-mismatch` rule, as described in the module comment above. */
export const elicitationSourceMismatch = defineAhpStreamRule({
  id: 'ahp/elicitation-source-mismatch',
  severity: 'error',
  description:
    "A user.elicitation.result's parentEventId names a request of its own source, not a request from another source.",
  spec: 'AHP interaction-payloads.md §MCP elicitation binding (2025-11-25); task-workspace-lineage.md §Lineage and actual changes',
  onEvent(facts, ctx) {
    const pair = facts.event?.pair;
    if (pair?.parent !== 'unknown' || !pair.otherSource) return;
    ctx.report({
      pointer: '/params/event/parentEventId',
      message: `The parent this elicitation result names is a user.elicitation.request from another source (line ${pair.otherSource.line}); a parent is an event of the same source, and a result answers only requests of its own source.`,
      related: [markLocation(pair.otherSource, '/params/event/source')],
    });
  },
});
