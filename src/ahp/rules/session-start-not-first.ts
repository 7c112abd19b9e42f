import { markLocation } from '../../core/mark.ts';
import { defineAhpStreamRule } from '../analyzers/model.ts';

/** Read from analyzers/session-order.ts: creation times of one `(source, session.id)`, first occurrences only. */
export const sessionStartNotFirst = defineAhpStreamRule({
  id: 'ahp/session-start-not-first',
  severity: 'warning',
  description:
    'A `session.start` is the first AHP event of its session: another event of the same source and `session.id` with an earlier `time` is a warning.',
  detail:
    '`time` is when the harness created the event (base/events.md §Common event fields), so the order is read from it, never from the order of the input: observation delivery has no session-wide arrival-order guarantees (observation-disposition.md). Only strictly earlier times count, between events of one `source` (one clock; a session id is not unique across harnesses); a retry or an observation of an event keeps its `id` and is not another event. The sentence makes no exception for a `session.start` emitted again for a session that already had events (any `trigger`), so that is warned too.',
  spec: 'AHP server/lifecycle-observation.md §session.start',
  quote: 'It SHOULD be the first AHP event for the session when supported.',
  messages: {
    start:
      'This `session.start` was created after another event of its session (the event at {prior}, with an earlier `time`); it should be the first AHP event for the session.',
    event:
      'This event was created (`time`) before the `session.start` of its session at {prior}; the `session.start` should be the first AHP event for the session.',
  },
  on: ['startNotFirst'],
  onEvent(facts, ctx) {
    const o = facts.event?.startNotFirst;
    if (!o) return;
    const prior = markLocation(o.prior, '/params/event/time');
    ctx.report({ pointer: '/params/event/time', messageId: o.kind, args: { prior }, related: [prior] });
  },
});
