import { markLocation } from '../../core/mark.ts';
import { defineAhpStreamRule } from '../analyzers/model.ts';

/** A delivery retry keeps the event id, so it is no second outcome (analyzers/occurrences.ts reads first occurrences). */
export const attemptOutcomeConflict = defineAhpStreamRule({
  id: 'ahp/attempt-outcome-conflict',
  severity: 'error',
  description:
    'A failed attempt gets no fabricated success: a `model.response.after` after a `model.error` (another event id, same `source`) of one `attempt.id` is an error.',
  detail:
    'A failed attempt reports its usage on its `model.error`; a `model.response.after` of the same attempt after it is a success the attempt did not have. The other order is not judged: a `model.error` after a response may be the harness failing on that response, which no sentence forbids. A retry or a view of an event keeps its id and is not counted. A new attempt has its own identity, so a retry after an error is another `attempt.id`. A second usage for one attempt is ahp/attempt-usage-duplicate, reported instead of this error at that event. Also cited: §Identity and native boundary duties ("New provider attempts have distinct identities").',
  spec: 'AHP execution-payloads.md §Content and accounting',
  quote: 'Failed attempts can have usage without a fabricated success.',
  messages: {
    both: 'This attempt already failed at {prior}: a failed attempt reports its usage on its `model.error`, not on a success it did not have, and a new attempt has a new identity.',
  },
  on: ['occurrence'],
  onEvent(facts, ctx) {
    const o = facts.event?.occurrence;
    if (o?.kind !== 'attempt-outcome') return;
    const prior = markLocation(o.prior, '/params/event');
    ctx.report({ pointer: `/params/event${o.member}`, args: { prior }, related: [prior] });
  },
});
