/**
 * aep/digest-shape: a `*_digest` payload member (`tool.requested.args_digest`,
 * `tool.completed.result_digest`, `resource.retrieval.*.query_digest`) is "SHA-256 (hex,
 * first 16 bytes) over the canonical JSON of the original content" (AEP-0003 §9 item 3): 32
 * hex digits, lowercase as `digest().toString('hex')` writes them. Info only: the item is
 * adapter guidance, our schemas leave the shape open, and the upstream golden corpus itself
 * carries a `sha256:`-prefixed short digest; a consumer joining redacted streams by digest is
 * who loses. Top-level payload members only: a few property reads per event, no walk.
 */
import type { EventRule } from '../../core/rule.ts';
import type { AepEvent } from '../event.ts';

const DIGEST = /^[0-9a-f]{32}$/;
/** The digest members the payload schemas define (schemas/aep/types). */
const DIGEST_MEMBERS = ['args_digest', 'result_digest', 'query_digest'] as const;

/** The `aep/digest-shape` rule, as described in the module comment above. */
export const digestShape: EventRule<AepEvent> = {
  id: 'aep/digest-shape',
  severity: 'info',
  description: 'A *_digest payload member is 32 lowercase hex digits (the first 16 bytes of a SHA-256).',
  spec: 'AEP-0003 §9 item 3',
  check(ev, ctx) {
    const data = ev.value.data as Record<string, unknown> | null | undefined;
    if (data === null || typeof data !== 'object') return;
    for (const k of DIGEST_MEMBERS) {
      const x = data[k];
      if (typeof x !== 'string' || DIGEST.test(x)) continue;
      ctx.report({
        pointer: `/data/${k}`,
        message: `Field /data/${k} is a string of ${[...x].length} chars, not 32 lowercase hex digits (SHA-256, first 16 bytes, AEP-0003 §9.3); streams joined by this digest may not correlate.`,
      });
    }
  },
};
