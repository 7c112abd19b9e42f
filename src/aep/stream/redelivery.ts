/**
 * aep/redelivery: an event repeated byte-for-byte (canonical JSON) under the same
 * `(source, id)`.
 *
 * Redelivery is legal at-least-once delivery on the wire (AEP-0001 §7.4; AEP-0004 §2.3, §3),
 * but a captured file has no fan-out to dedupe for it, so it is reported as a warning. The
 * repeat is counted once: the model runs no analyzer after identity on it (model.ts), so no
 * other stream rule sees it. Reads {@link IdentityFacts} (identity.ts).
 */
import { defineStreamRule } from '../../core/engine.ts';
import { markLocation } from '../../core/mark.ts';
import type { IdentityFacts } from './identity.ts';
import type { AepFacts } from './model.ts';

/** The `aep/redelivery` rule, as described in the module comment above. */
export const redelivery = defineStreamRule({
  id: 'aep/redelivery',
  severity: 'warning',
  description: 'An event repeated exactly under the same (source, id) is redelivery: reported once and counted once.',
  spec: 'AEP-0001 §7.4; AEP-0002 §2 convention 5; AEP-0004 §3',
  on: ['redelivery'],
  onEvent(f: AepFacts, ctx) {
    if (!f.redelivery) return;
    ctx.report({
      message: `This event repeats the event at line ${f.redelivery.line} exactly (same source and id ${JSON.stringify(f.ev.value.id)}, same canonical content): a redelivery, counted once.`,
      related: [markLocation(f.redelivery)],
    });
  },
});
