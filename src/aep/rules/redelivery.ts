/**
 * aep/redelivery: an event repeated under the same `(source, id)`: byte-for-byte (canonical
 * JSON), or down-leveled by a re-emitting hop (AEP-0001 §8.2(b): the first copy brought to the
 * repeat's lower `capture`, identity.ts).
 *
 * Redelivery is legal at-least-once delivery on the wire (AEP-0001 §7.4; AEP-0004 §2.3, §3),
 * but a captured file has no fan-out to dedupe for it, so it is reported as a warning. The
 * repeat is counted once: the model runs no analyzer after identity on it (model.ts), so no
 * other stream rule sees it. Reads {@link IdentityFacts} (identity.ts).
 */
import { defineStreamRule } from '../../core/engine.ts';
import { markLocation } from '../../core/mark.ts';
import type { AepFacts } from '../analyzers/model.ts';

/** The `aep/redelivery` rule, as described in the module comment above. */
export const redelivery = defineStreamRule({
  id: 'aep/redelivery',
  severity: 'warning',
  description:
    'An event repeated under the same (source, id), exactly or down-leveled to a lower capture, is redelivery: reported once and counted once.',
  spec: 'AEP-0001 §7.4, §8.2(b); AEP-0002 §2 convention 5; AEP-0004 §3',
  on: ['redelivery'],
  onEvent(f: AepFacts, ctx) {
    if (!f.redelivery) return;
    const how = f.downleveledFrom
      ? `down-leveled from ${f.downleveledFrom} to ${f.ev.capture} (same source, id and envelope; the content is that event's at this capture)`
      : 'exactly (same source and id ' + JSON.stringify(f.ev.value.id) + ', same canonical content)';
    ctx.report({
      message: `This event repeats the event at line ${f.redelivery.line} ${how}: a redelivery, counted once.`,
      related: [markLocation(f.redelivery)],
    });
  },
});
