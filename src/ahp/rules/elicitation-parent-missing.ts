import { markLocation, mayFollow } from '../../core/mark.ts';
import { defineAhpStreamRule } from '../analyzers/model.ts';

/** `ahp/elicitation-parent-missing`: the request it answers is earlier in the input, so it can be named. */
export const elicitationParentMissing = defineAhpStreamRule({
  id: 'ahp/elicitation-parent-missing',
  severity: 'error',
  description:
    'A user.elicitation.result names its request in parentEventId when that request (same source, session, server and mode, not yet answered) is earlier in the input.',
  detail: 'Also cited: task-workspace-lineage.md §Lineage and actual changes.',
  spec: 'AHP interaction-payloads.md §MCP elicitation binding (2025-11-25)',
  messages: {
    missing:
      'This elicitation result has no `parentEventId`, but the request it answers is in the input ({request}: same source, session, server and mode); a result names its request as parent.',
  },
  on: ['pair'],
  onEvent(facts, ctx, state) {
    const pair = facts.event?.pair;
    if (pair?.parent !== 'absent' || !pair.candidate) return;
    // a line after the request that gave no message may have held its result: ahp/parent-unverifiable
    if (state.unreadable && mayFollow(state.unreadable, pair.candidate)) return;
    const request = markLocation(pair.candidate, '/params/event');
    ctx.report({ pointer: '/params/event', args: { request }, related: [request] });
  },
});
