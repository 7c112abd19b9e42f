/**
 * ahp/elicitation-parent-missing (error): a `user.elicitation.result` without `parentEventId`
 * while the request it answers is in the input: an earlier `user.elicitation.request` of the
 * same source, session, server and mode that no result has named as parent yet. The producer
 * knew the request (it delivered it), so the result must name it ("`parentEventId` correlates
 * the result with the AHP request event"; "A producer must know its parent; omit the field
 * otherwise"). With no such request in the input the result cannot be verified and
 * ahp/elicitation-uncorrelated (warning) says so instead. Judged on the first occurrence of the
 * result; requests are remembered in a bounded window (elicitation.ts).
 * AHP interaction-payloads.md §MCP elicitation binding (2025-11-25); task-workspace-lineage.md
 * §Lineage and actual changes.
 */
import { markLocation } from '../../core/mark.ts';
import { defineAhpStreamRule } from '../analyzers/model.ts';

/** The `ahp/elicitation-parent-missing` rule, as described in the module comment above. */
export const elicitationParentMissing = defineAhpStreamRule({
  id: 'ahp/elicitation-parent-missing',
  severity: 'error',
  description:
    'A user.elicitation.result names its request in parentEventId when that request (same source, session, server and mode, not yet answered) is earlier in the input.',
  spec: 'AHP interaction-payloads.md §MCP elicitation binding (2025-11-25); task-workspace-lineage.md §Lineage and actual changes',
  onEvent(facts, ctx) {
    const pair = facts.event?.pair;
    if (pair?.parent !== 'absent' || !pair.candidate) return;
    ctx.report({
      pointer: '/params/event',
      message: `This elicitation result has no \`parentEventId\`, but the request it answers is in the input (line ${pair.candidate.line}: same source, session, server and mode); a result names its request as parent.`,
      related: [markLocation(pair.candidate, '/params/event')],
    });
  },
});
