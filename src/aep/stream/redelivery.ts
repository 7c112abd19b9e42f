/**
 * aep/redelivery: an event repeated byte-for-byte (canonical JSON) under the same
 * `(source, id)`.
 *
 * Redelivery is legal at-least-once delivery on the wire (AEP-0001 §7.4; AEP-0004 §2.3, §3),
 * but a captured file has no fan-out to dedupe for it, so it is reported as a warning (notes
 * The repeat is counted once: the tracker withholds it from every other stream rule.
 */
import { markLocation, trackedRule } from './tracker.ts';

/** The `aep/redelivery` rule, as described in the module comment above. */
export const redelivery = trackedRule(
  {
    id: 'aep/redelivery',
    severity: 'warning',
    description: 'An event repeated exactly under the same (source, id) is redelivery: reported once and counted once.',
    spec: 'AEP-0001 §7.4; AEP-0002 §2 convention 5; AEP-0004 §3',
  },
  () => ({
    onEvent(obs, ctx) {
      if (!obs.redelivery) return;
      ctx.report({
        message: `This event repeats the event at line ${obs.redelivery.line} exactly (same source and id ${JSON.stringify(obs.ev.value.id)}, same canonical content): a redelivery, counted once.`,
        related: [markLocation(obs.redelivery)],
      });
    },
  }),
  { seesRedeliveries: true },
);
