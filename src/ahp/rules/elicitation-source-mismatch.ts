import { markLocation } from '../../core/mark.ts';
import { defineAhpStreamRule } from '../analyzers/model.ts';

/** `ahp/elicitation-source-mismatch`: a parent is an event of the same source. */
export const elicitationSourceMismatch = defineAhpStreamRule({
  id: 'ahp/elicitation-source-mismatch',
  severity: 'error',
  description:
    "A user.elicitation.result's parentEventId names a request of its own source, not a request from another source.",
  detail: 'Also cited: task-workspace-lineage.md §Lineage and actual changes.',
  spec: 'AHP interaction-payloads.md §MCP elicitation binding (2025-11-25)',
  messages: {
    otherSource:
      'The parent this elicitation result names is a user.elicitation.request from another source ({request}); a parent is an event of the same source, and a result answers only requests of its own source.',
  },
  on: ['pair'],
  onEvent(facts, ctx, state) {
    const pair = facts.event?.pair;
    // after an unreadable line, the request of its own source may have been there: ahp/parent-unverifiable
    if (pair?.parent !== 'unknown' || !pair.otherSource || state.unreadable) return;
    const request = markLocation(pair.otherSource, '/params/event/source');
    ctx.report({ pointer: '/params/event/parentEventId', args: { request }, related: [request] });
  },
});
