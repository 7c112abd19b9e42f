/**
 * aep/ended-with-open-attention: an emitter closes every attention request it raised in a
 * session (`attention.resolved` or `attention.timeout` with `subject` = the request id;
 * `attention.answered` does not close it) before that session's `session.ended`.
 * Checked at the first `session.ended` of the session. AEP-0002 §7.2.
 */
import { defineStreamRule } from '../../core/engine.ts';
import { markLocation } from '../../core/mark.ts';
import type { AepFacts } from '../analyzers/model.ts';

/** Most related locations listed on one finding. */
const MAX_RELATED = 20;

/** The `aep/ended-with-open-attention` rule, as described in the module comment above. */
export const endedWithOpenAttention = defineStreamRule({
  id: 'aep/ended-with-open-attention',
  severity: 'error',
  description: 'A session does not end while an attention request it raised is still open.',
  spec: 'AEP-0002 §7.2',
  on: ['endedWithOpen'],
  onEvent(f: AepFacts, ctx) {
    const open = f.endedWithOpen;
    if (!open) return;
    const n = open.length;
    ctx.report({
      pointer: '/type',
      message: `session.ended while ${n} attention request${n === 1 ? '' : 's'} raised in this session ${n === 1 ? 'is' : 'are'} still open (first at line ${open[0].at.line}); close each with attention.resolved or attention.timeout before ending the session.`,
      data: { open: n },
      related: open.slice(0, MAX_RELATED).map((r) => markLocation(r.at)),
    });
  },
});
