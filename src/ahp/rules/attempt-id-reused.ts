import { markLocation } from '../../core/mark.ts';
import { defineAhpStreamRule } from '../analyzers/model.ts';

/** A delivery retry keeps the event id, so it is no new occurrence (analyzers/occurrences.ts reads first occurrences). */
export const attemptIdReused = defineAhpStreamRule({
  id: 'ahp/attempt-id-reused',
  severity: 'error',
  description:
    'A new provider attempt has a new identity: an `attempt.id` reused for another attempt `number` or another `model.request.before` is an error.',
  detail:
    'An error: an `attempt.id` that names two attempt `number`s (on model.request.before, model.response.after or model.error), or two `model.request.before` events (different event ids from the same `source`) for one `attempt.id`. A retry of the same event keeps its id and payload and is not a new attempt. Judged across the sessions and turns of one `source`: the sentence names no narrower scope (README). Also cited: the same section (retries "are not new logical occurrences or provider attempts"); §Execution, calls, and model attempts (attempts use `{id, number}`).',
  spec: 'AHP execution-payloads.md §Identity and native boundary duties',
  quote: 'New provider attempts have distinct identities',
  messages: {
    number:
      'Attempt id is reused with another attempt number (first at {prior}); new provider attempts have distinct identities.',
    request:
      'A second model.request.before for this attempt id (first, another event, at {prior}); a new provider attempt has a new attempt identity.',
  },
  on: ['occurrence'],
  onEvent(facts, ctx) {
    const o = facts.event?.occurrence;
    if (!o || (o.kind !== 'attempt-number' && o.kind !== 'attempt-request')) return;
    const prior = markLocation(o.prior, '/params/event');
    ctx.report({
      pointer: `/params/event${o.member}`,
      messageId: o.kind === 'attempt-number' ? 'number' : 'request',
      args: { prior },
      related: [prior],
    });
  },
});
