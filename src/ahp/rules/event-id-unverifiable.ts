import { markLocation } from '../../core/mark.ts';
import { defineAhpStreamRule } from '../analyzers/model.ts';

/** `ahp/event-id-unverifiable`: whether a retry is identical is not verified, never guessed. */
export const eventIdUnverifiable = defineAhpStreamRule({
  id: 'ahp/event-id-unverifiable',
  severity: 'warning',
  description:
    'A re-sent intercepted event could not be compared with its first copy, because that line of the input could not be read back as it was.',
  spec: 'AHP base/failure.md §Duplicate delivery and retries (AHP-CORE-004)',
  messages: {
    unreadable:
      'This intercept request re-sends the event of {prior}, but that line could not be read back as it was to compare them (the file changed while it was checked).',
  },
  on: ['reuse'],
  onEvent(facts, ctx) {
    const r = facts.event?.reuse;
    if (r?.kind !== 'unverifiable') return;
    const prior = markLocation(r.prior, '/params/event/id');
    ctx.report({ pointer: '/params/event/id', args: { prior }, related: [prior] });
  },
});
