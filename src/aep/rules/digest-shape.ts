import { defineEventRule } from '../../core/engine.ts';
import { isObj } from '../../core/value.ts';
import type { RuleContext } from '../../core/rule.ts';
import type { AepEvent } from '../event.ts';

const DIGEST = /^[0-9a-f]{32}$/;
/** The digest members the payload schemas define (schemas/aep/types); top level only, so no walk. */
type DigestMember = 'args_digest' | 'result_digest' | 'query_digest';

function reportShape(ctx: RuleContext, member: DigestMember, x: string): void {
  ctx.report({ pointer: `/data/${member}`, args: { member, length: [...x].length } });
}

/**
 * Info only: AEP-0003 §9 item 3 is adapter guidance, and the upstream golden corpus itself has a `sha256:`-prefixed
 * short digest.
 */
export const digestShape = defineEventRule<AepEvent, 'aep/digest-shape'>({
  id: 'aep/digest-shape',
  severity: 'info',
  description: 'A *_digest payload member is 32 lowercase hex digits (the first 16 bytes of a SHA-256).',
  spec: 'AEP-0003 §9 item 3',
  messages: {
    shape:
      'Field /data/{member} is a string of {length} chars, not 32 lowercase hex digits (SHA-256, first 16 bytes, AEP-0003 §9.3); streams joined by this digest may not correlate.',
  },
  check(ev, ctx) {
    const data = ev.value.data;
    if (!isObj(data)) return;
    // named reads, not a loop of keyed reads of mostly absent members (1.8% of an AEP run)
    const a = data.args_digest;
    const r = data.result_digest;
    const q = data.query_digest;
    if (typeof a === 'string' && !DIGEST.test(a)) reportShape(ctx, 'args_digest', a);
    if (typeof r === 'string' && !DIGEST.test(r)) reportShape(ctx, 'result_digest', r);
    if (typeof q === 'string' && !DIGEST.test(q)) reportShape(ctx, 'query_digest', q);
  },
});
