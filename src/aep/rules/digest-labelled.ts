import { defineEventRule } from '../../core/engine.ts';
import type { AepEvent } from '../event.ts';
import { dataPointer, digestsOf, LABELLED_DIGEST } from '../capture-checks.ts';

/** An info, not the error of aep/digest-shape: the upstream golden stream writes this form (see `detail`). */
export const digestLabelled = defineEventRule({
  id: 'aep/digest-labelled',
  severity: 'info',
  description:
    'A *_digest payload member in the algorithm-labelled form "sha256:" + hex digits is noted, not rejected, as not the AEP-0003 §9 item 3 shape.',
  detail:
    'Noted, not rejected, since the upstream golden stream (which writes query_digest this way) must stay accepted; the §9 item 3 shape is 32 hex digits, no label.',
  spec: 'AEP-0003 §9 item 3',
  messages: {
    labelled:
      'Field /data/{member} is an algorithm-labelled digest of {length} char{length:s}, not 32 hex digits (AEP-0003 §9.3); it cannot be joined with digests of that shape.',
  },
  check(ev: AepEvent, ctx) {
    const digests = digestsOf(ev.value.data);
    for (let i = 0; i < digests.length; i += 2) {
      const member = digests[i]!;
      const v = digests[i + 1]!;
      if (LABELLED_DIGEST.test(v)) ctx.report({ pointer: dataPointer(member), args: { member, length: v.length } });
    }
  },
});
