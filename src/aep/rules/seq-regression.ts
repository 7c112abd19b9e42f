import { defineStreamRule } from '../../core/engine.ts';
import { markLocation } from '../../core/mark.ts';
import type { AepFacts } from '../analyzers/model.ts';

/** `aep/seq-regression`: gaps are legal; compared as exact integers, so 2^53 + 1 after 2^53 is an increase. */
export const seqRegression = defineStreamRule({
  id: 'aep/seq-regression',
  severity: 'error',
  description: 'Within one (source, session) and epoch, seq strictly increases in arrival order.',
  spec: 'AEP-0001 §7.2-§7.3',
  messages: {
    repeats:
      'seq {seq} repeats seq {previousSeq} of this session at {prior} in the same epoch {epoch}; within an epoch seq strictly increases (a new epoch must be declared).',
    below:
      'seq {seq} is below seq {previousSeq} of this session at {prior} in the same epoch {epoch}; within an epoch seq strictly increases (a new epoch must be declared).',
  },
  on: ['order'],
  onEvent(f: AepFacts, ctx) {
    if (f.order?.kind !== 'seq') return;
    const { seq, epoch, prev } = f.order;
    const prior = markLocation(prev.at, '/seq');
    ctx.report({
      pointer: '/seq',
      messageId: seq === prev.seq ? 'repeats' : 'below',
      args: { seq: String(seq), previousSeq: String(prev.seq), epoch: String(epoch), prior },
      related: [prior],
    });
  },
});
