/**
 * aep/id-collision: one emitter used one `id` for two different events.
 *
 * `id` is unique per emitter (`source`) and is the dedupe key `(source, id)`; a second event
 * with the same `(source, id)` and different canonical content is not redelivery but a
 * collision. The same `id` from two sources is legal and never compared.
 *
 * Read from a regular file, the first occurrence is read back from the file to compare (the
 * tracker keeps only a fingerprint of it). When it can no longer be read as it was (the file
 * changed while it was checked), the repeat cannot be classified: a warning says so, and the
 * event is counted like a first occurrence.
 * AEP-0001 §5.1 #2, §7.4.
 */
import { markLocation, trackedRule } from './tracker.ts';

/** The `aep/id-collision` rule, as described in the module comment above. */
export const idCollision = trackedRule(
  {
    id: 'aep/id-collision',
    severity: 'error',
    description: 'The same (source, id) never names two events with different content.',
    spec: 'AEP-0001 §5.1 #2, §7.4',
  },
  () => ({
    onEvent(obs, ctx) {
      if (obs.unverifiable) {
        ctx.report({
          pointer: '/id',
          severity: 'warning',
          message: `Event id ${JSON.stringify(obs.ev.value.id)} was already used by this source at line ${obs.unverifiable.line}, but that line could not be read back as it was to compare them (the file changed while it was checked); this event is not deduplicated.`,
          related: [markLocation(obs.unverifiable, '/id')],
        });
      }
      if (!obs.collision) return;
      ctx.report({
        pointer: '/id',
        message: `Event id ${JSON.stringify(obs.ev.value.id)} was already used by this source at line ${obs.collision.line} for an event with different content; an id is unique per emitter (a redelivery repeats the event exactly).`,
        related: [markLocation(obs.collision, '/id')],
      });
    },
  }),
);
