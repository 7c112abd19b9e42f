/**
 * aep/seq-regression: within one `(source, session)` and one `epoch`, `seq` strictly
 * increases in arrival order (gaps are legal; an equal `seq` is a duplicate position).
 * Only seq-bearing events take part; compared as exact integers (bigint), so 2^53 + 1 after
 * 2^53 is an increase. AEP-0001 §7.2-§7.3.
 */
import { defineStreamRule } from '../../core/engine.ts';
import { markLocation } from '../../core/mark.ts';
import type { AepFacts } from '../analyzers/model.ts';

/** The `aep/seq-regression` rule, as described in the module comment above. */
export const seqRegression = defineStreamRule({
  id: 'aep/seq-regression',
  severity: 'error',
  description: 'Within one (source, session) and epoch, seq strictly increases in arrival order.',
  spec: 'AEP-0001 §7.2-§7.3',
  on: ['order'],
  onEvent(f: AepFacts, ctx) {
    if (f.order?.kind !== 'seq') return;
    const { seq, epoch, prev } = f.order;
    const what = seq === prev.seq ? 'repeats' : 'is below';
    ctx.report({
      pointer: '/seq',
      message: `seq ${seq} ${what} seq ${prev.seq} of this session at line ${prev.at.line} in the same epoch ${epoch}; within an epoch seq strictly increases (a new epoch must be declared).`,
      data: { seq: String(seq), previousSeq: String(prev.seq), epoch: String(epoch) },
      related: [markLocation(prev.at, '/seq')],
    });
  },
});
