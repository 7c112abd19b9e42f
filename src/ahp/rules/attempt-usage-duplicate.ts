import { markLocation } from '../../core/mark.ts';
import { defineAhpStreamRule } from '../analyzers/model.ts';

/** A delivery retry or another view keeps the event id, so it is no second amount (analyzers/occurrences.ts). */
export const attemptUsageDuplicate = defineAhpStreamRule({
  id: 'ahp/attempt-usage-duplicate',
  severity: 'error',
  description: 'A provider attempt publishes at most one usage amount.',
  detail:
    'A second `model.response.after` or `model.error` (another event id from the same `source`) carrying `usage` for an `attempt.id` that already published one is an error, since a consumer adding both counts the attempt twice. A retry or another subscription view of the same event keeps its id and is not a second amount.',
  spec: 'AHP execution-payloads.md §Content and accounting',
  quote:
    'Publish at most one finalized amount per provider attempt. Deduplicate delivery retries and subscription views.',
  messages: {
    usage:
      'A second usage amount for this provider attempt (the first, another event, at {prior}); publish at most one finalized amount per provider attempt.',
  },
  on: ['occurrence'],
  onEvent(facts, ctx) {
    const o = facts.event?.occurrence;
    if (o?.kind !== 'attempt-usage') return;
    const prior = markLocation(o.prior, '/params/event/usage');
    ctx.report({ pointer: `/params/event${o.member}`, args: { prior }, related: [prior] });
  },
});
