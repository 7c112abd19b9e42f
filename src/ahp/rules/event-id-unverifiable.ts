/**
 * ahp/event-id-unverifiable (warning): an intercept request re-sends an event whose first
 * intercepted copy was read from a regular file and is compared by reading that line back
 * (identity.ts), but the line can no longer be read as it was (the file changed while it was
 * checked), so whether the retry is identical is not verified, never guessed. AHP
 * base/failure.md §Duplicate delivery and retries (AHP-CORE-004: a retry reuses the event
 * contents exactly).
 */
import { markLocation } from '../../core/mark.ts';
import { defineAhpStreamRule } from '../analyzers/model.ts';

/** The `ahp/event-id-unverifiable` rule, as described in the module comment above. */
export const eventIdUnverifiable = defineAhpStreamRule({
  id: 'ahp/event-id-unverifiable',
  severity: 'warning',
  description:
    'A re-sent intercepted event could not be compared with its first copy, because that line of the input could not be read back as it was.',
  spec: 'AHP base/failure.md §Duplicate delivery and retries (AHP-CORE-004)',
  onEvent(facts, ctx) {
    const r = facts.event?.reuse;
    if (r?.kind !== 'unverifiable') return;
    ctx.report({
      pointer: '/params/event/id',
      message: `This intercept request re-sends the event of line ${r.prior.line}, but that line could not be read back as it was to compare them (the file changed while it was checked).`,
      related: [markLocation(r.prior, '/params/event/id')],
    });
  },
});
