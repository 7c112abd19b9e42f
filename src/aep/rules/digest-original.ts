import { defineEventRule } from '../../core/engine.ts';
import type { AepEvent } from '../event.ts';
import { dataPointer, digestOfValue, DIGEST_SHAPE, digestsOf, holdsMarker } from '../capture-checks.ts';

/** AEP-0003 §9 item 3: proven wrong only at capture `full`, where the original is verbatim (AEP-0001 §8.2). */
export const digestOriginal = defineEventRule({
  id: 'aep/digest-original',
  severity: 'error',
  description:
    'A well-formed <name>_digest member is the SHA-256 (first 16 bytes, hex) of the canonical JSON of the original <name> member.',
  detail:
    'At capture "full", where <name> is present verbatim, it equals that digest; at capture "redacted" it is not the digest of <name> text that holds a redaction marker (computed after redaction).',
  spec: 'AEP-0003 §9 item 3',
  messages: {
    differs:
      'Field /data/{member} is not the digest of /data/{original} (SHA-256 of its canonical JSON, first 16 bytes), which the event carries verbatim at capture "full" (AEP-0003 §9.3).',
    afterRedaction:
      'Field /data/{member} is the digest of the redacted /data/{original}, not of the original content: AEP-0003 §9.3 computes digests before any redaction.',
  },
  check(ev: AepEvent, ctx) {
    // an unknown capture level gates nothing, and claims nothing either
    if (ev.untrusted?.has('capture')) return;
    if (ev.capture !== 'full' && ev.capture !== 'redacted') return;
    const data = ev.value.data as Record<string, unknown> | undefined;
    const digests = digestsOf(data);
    for (let i = 0; i < digests.length; i += 2) {
      const member = digests[i]!;
      const v = digests[i + 1]!;
      if (!DIGEST_SHAPE.test(v)) continue;
      const original = member.slice(0, -'_digest'.length);
      if (!Object.hasOwn(data!, original)) continue;
      const value = data![original];
      if (ev.capture === 'redacted' && !holdsMarker(value)) continue;
      const same = digestOfValue(ev, dataPointer(original), value) === v.toLowerCase();
      if (ev.capture === 'full' ? same : !same) continue;
      ctx.report({
        pointer: dataPointer(member),
        messageId: ev.capture === 'full' ? 'differs' : 'afterRedaction',
        args: { member, original },
      });
    }
  },
});
