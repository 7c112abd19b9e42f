import { markLocation } from '../../core/mark.ts';
import { defineAhpStreamRule } from '../analyzers/model.ts';

/**
 * `ahp/turn-end-duplicate`: a repeat of the same event `(source, id)` (a retry, another subscription's view, the
 * observation after interception) is no second end; analyzers/occurrences.ts reads first occurrences only.
 */
export const turnEndDuplicate = defineAhpStreamRule({
  id: 'ahp/turn-end-duplicate',
  severity: 'error',
  description:
    'A turn ends once, on real completion: a second `turn.end` (another event `id`, same `source`) for the same `turn.id` is an error.',
  detail:
    "A turn that ended was complete, so a later end of it means one of the two was not real completion. `turn.finish.before` is not `turn.end` and may come again for one turn; a continuation into a new turn is another turn id. A retry or an observation of an event keeps its `id`, so a repeat under the same id is not counted. An end whose `session.id` differs from another's (both present) belongs to another turn, and the session is part of the key (a second end in a later session is judged against that session's end): no sentence makes a turn id unique across sessions; so is not judged an end with a `session.id` beside one without (sessions are optional).",
  spec: 'AHP execution-payloads.md §Identity and native boundary duties',
  quote: '`turn.finish.before` is not `turn.end`; a turn ends only on real completion',
  messages: {
    again:
      'A second `turn.end` for this turn (the first, another event, at {prior}); a turn ends only on real completion, once, and a retry or an observation keeps the event id.',
  },
  on: ['occurrence'],
  onEvent(facts, ctx) {
    const o = facts.event?.occurrence;
    if (o?.kind !== 'turn.end') return;
    const prior = markLocation(o.prior, '/params/event');
    ctx.report({ pointer: `/params/event${o.member}`, args: { prior }, related: [prior] });
  },
});
