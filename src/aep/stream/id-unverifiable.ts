/**
 * aep/id-unverifiable (warning): an event repeats the `(source, id)` of an earlier line that
 * can no longer be read back as it was, so whether it is a redelivery or an id collision
 * cannot be decided ("cannot verify", never a pass).
 *
 * Read from a regular file, the first occurrence of an id is kept only as a fingerprint and is
 * read back from the file to compare (identity.ts). When the file changed while it was checked,
 * the repeat is not deduplicated by guess: it is counted like a first occurrence and this
 * warning says so. Standard input and pipes keep a digest instead and never report it.
 * AEP-0001 §5.1 #2, §7.4.
 */
import { defineStreamRule } from '../../core/engine.ts';
import { markLocation } from '../../core/mark.ts';
import type { AepFacts } from './model.ts';

/** The `aep/id-unverifiable` rule, as described in the module comment above. */
export const idUnverifiable = defineStreamRule({
  id: 'aep/id-unverifiable',
  severity: 'warning',
  description: 'A repeated (source, id) whose first line can no longer be read back cannot be classified as redelivery or collision.',
  spec: 'AEP-0001 §5.1 #2, §7.4',
  on: ['unverifiable'],
  onEvent(f: AepFacts, ctx) {
    if (!f.unverifiable) return;
    ctx.report({
      pointer: '/id',
      message: `Event id ${JSON.stringify(f.ev.value.id)} was already used by this source at line ${f.unverifiable.line}, but that line could not be read back as it was to compare them (the file changed while it was checked); this event is not deduplicated.`,
      related: [markLocation(f.unverifiable, '/id')],
    });
  },
});
