/**
 * aep/digest-shape: a `*_digest` payload member (`args_digest`, `result_digest`,
 * `query_digest`, and any other member so named at any depth) is "SHA-256 (hex, first 16
 * bytes) over the canonical JSON of the original content" (AEP-0003 §9 item 3): 32 hex
 * digits, lowercase as `digest().toString('hex')` writes them. Info only: the item is adapter
 * guidance, our schemas leave the shape open, and the upstream golden corpus itself carries a
 * `sha256:`-prefixed short digest; a consumer joining redacted streams by digest is who loses.
 */
import type { EventRule } from '../../core/rule.ts';
import { childPointer } from '../../core/pointer.ts';
import type { AepEvent } from '../event.ts';

const DIGEST = /^[0-9a-f]{32}$/;

/** The `aep/digest-shape` rule, as described in the module comment above. */
export const digestShape: EventRule<AepEvent> = {
  id: 'aep/digest-shape',
  severity: 'info',
  description: 'A *_digest payload member is 32 lowercase hex digits (the first 16 bytes of a SHA-256).',
  spec: 'AEP-0003 §9 item 3',
  check(ev, ctx) {
    const data = ev.value.data;
    // the common event has no digest: one native scan of the line instead of a walk
    if (data === null || typeof data !== 'object' || !ev.text.includes('_digest"')) return;
    const stack: [unknown, string][] = [[data, '/data']];
    while (stack.length) {
      const [v, ptr] = stack.pop()!;
      if (v === null || typeof v !== 'object') continue;
      if (Array.isArray(v)) {
        for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], childPointer(ptr, i)]);
        continue;
      }
      for (const [k, x] of Object.entries(v)) {
        const p = childPointer(ptr, k);
        if (k.endsWith('_digest') && typeof x === 'string') {
          if (!DIGEST.test(x)) {
            ctx.report({
              pointer: p,
              message: `Field ${p} is a string of ${[...x].length} chars, not 32 lowercase hex digits (SHA-256, first 16 bytes, AEP-0003 §9.3); streams joined by this digest may not correlate.`,
            });
          }
        } else stack.push([x, p]);
      }
    }
  },
};
