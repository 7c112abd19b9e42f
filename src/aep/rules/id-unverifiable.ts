/**
 * aep/id-unverifiable (warning): an event repeats the `(source, id)` of an earlier line, and
 * whether it is a redelivery or an id collision cannot be decided ("cannot verify", never a
 * pass): the earlier line can no longer be read back as it was, or the repeat is a `redacted`
 * copy of a `full` event that equals it at `metadata` but whose free text differs from what the
 * AEP-0003 §9.4 pipeline gives (a redacting re-emitter, AEP-0001 §8.2(e), may redact more than
 * that floor, AEP-0003 §9 item 4; identity.ts).
 *
 * Read from a regular file, the first occurrence of an id is kept only as a fingerprint and is
 * read back from the file to compare (identity.ts). When the file changed while it was checked,
 * the repeat is not deduplicated by guess: it is counted like a first occurrence and this
 * warning says so. Standard input and pipes keep a digest instead and never report the first case.
 * AEP-0001 §5.1 #2, §7.4.
 */
import { defineStreamRule } from '../../core/engine.ts';
import { markLocation } from '../../core/mark.ts';
import type { AepFacts } from '../analyzers/model.ts';

/** The `aep/id-unverifiable` rule, as described in the module comment above. */
export const idUnverifiable = defineStreamRule({
  id: 'aep/id-unverifiable',
  severity: 'warning',
  description:
    'A repeated (source, id) whose first line can no longer be read back, or a redacted copy of a full event redacted beyond the AEP-0003 §9.4 floor, cannot be classified as redelivery or collision.',
  spec: 'AEP-0001 §5.1 #2, §7.4, §8.2(e)',
  on: ['unverifiable'],
  onEvent(f: AepFacts, ctx) {
    if (!f.unverifiable) return;
    ctx.report({
      pointer: '/id',
      message:
        f.unverifiableWhy === 'redaction'
          ? `Event id ${JSON.stringify(f.ev.value.id)} was already used by this source at line ${f.unverifiable.line} for a full event; this redacted copy matches it at metadata, but its free text is not what the AEP-0003 §9.4 pipeline gives (a pipeline may redact more), so whether it is a redelivery cannot be decided; it is counted once, as its envelope is that event's.`
          : `Event id ${JSON.stringify(f.ev.value.id)} was already used by this source at line ${f.unverifiable.line}, but that line could not be read back as it was to compare them (the file changed while it was checked); this event is not deduplicated.`,
      related: [markLocation(f.unverifiable, '/id')],
    });
  },
});
