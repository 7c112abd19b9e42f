import { defineEventRule } from '../../core/engine.ts';
import type { AepEvent } from '../event.ts';
import { dataPointer, DIGEST_SHAPE, digestsOf, LABELLED_DIGEST } from '../capture-checks.ts';

/** An error (AEP-0003 §9 item 3); the golden stream's labelled form is aep/digest-labelled's. */
export const digestShape = defineEventRule({
  id: 'aep/digest-shape',
  severity: 'error',
  description: 'A *_digest payload member is 32 hex digits, the first 16 bytes of a SHA-256 (AEP-0003 §9 item 3).',
  detail:
    'The algorithm-labelled form "sha256:" + hex digits of the upstream golden stream is aep/digest-labelled (an info) instead.',
  spec: 'AEP-0003 §9 item 3',
  messages: {
    shape:
      'Field /data/{member} is a string of {length} char{length:s}, not 32 hex digits (SHA-256, first 16 bytes, AEP-0003 §9.3); streams joined by this digest cannot correlate.',
  },
  check(ev: AepEvent, ctx) {
    const digests = digestsOf(ev.value.data);
    for (let i = 0; i < digests.length; i += 2) {
      const member = digests[i]!;
      const v = digests[i + 1]!;
      if (DIGEST_SHAPE.test(v) || LABELLED_DIGEST.test(v)) continue;
      ctx.report({ pointer: dataPointer(member), args: { member, length: [...v].length } });
    }
  },
});
