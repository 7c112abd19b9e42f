import { markLocation } from '../../core/mark.ts';
import { defineAhpStreamRule } from '../analyzers/model.ts';

/** Read from analyzers/call-order.ts: creation times of one `(source, session.id, call.id)`, first occurrences only. */
export const permissionBeforeCall = defineAhpStreamRule({
  id: 'ahp/permission-before-call',
  severity: 'error',
  description:
    'A tool call reaches its permission stage after its `tool.before`: a `tool.permission.request` or `.resolved` of the call with an earlier `time` is an error.',
  detail:
    '`time` is when the harness created the event (base/events.md §Common event fields), so the order is read from it, never from the order of the input: observation delivery has no session-wide arrival-order guarantees (observation-disposition.md). Only strictly earlier times count, between events of one `source` (one clock), one `session.id` and one `call.id` (calls retain identity across before, permission, progress and completion; a call id is not unique across sessions); a retry keeps its event `id` and is not another event. Also cited: server/lifecycle-observation.md §tool.before ("AHP interception SHOULD occur before the harness displays its own permission prompt").',
  spec: 'AHP execution-payloads.md §Identity and native boundary duties',
  quote: '`tool.before` precedes invocation side effects and the permission stage.',
  messages: {
    before:
      'This `tool.before` was created after the permission-stage event of its call at {prior} (an earlier `time`); `tool.before` precedes the permission stage.',
    permission:
      'This permission-stage event was created (`time`) before the `tool.before` of its call at {prior}; `tool.before` precedes the permission stage.',
  },
  on: ['permissionFirst'],
  onEvent(facts, ctx) {
    const o = facts.event?.permissionFirst;
    if (!o) return;
    const prior = markLocation(o.prior, '/params/event/time');
    ctx.report({ pointer: '/params/event/time', messageId: o.kind, args: { prior }, related: [prior] });
  },
});
