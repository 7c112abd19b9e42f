/**
 * aep/epoch-regression: within one `(source, session)` the `epoch` of seq-bearing events never
 * decreases in arrival order (an earlier epoch is never reused). An absent `epoch` is 0.
 * Exact integers (bigint). AEP-0001 §7.2.
 */
import { defineStreamRule } from '../../core/engine.ts';
import { markLocation } from '../../core/mark.ts';
import type { AepFacts } from '../analyzers/model.ts';

/** The `aep/epoch-regression` rule, as described in the module comment above. */
export const epochRegression = defineStreamRule({
  id: 'aep/epoch-regression',
  severity: 'error',
  description: 'Within one (source, session), epoch never decreases.',
  spec: 'AEP-0001 §7.2',
  on: ['order'],
  onEvent(f: AepFacts, ctx) {
    if (f.order?.kind !== 'epoch') return;
    const { epoch, prev } = f.order;
    const has = Object.hasOwn(f.ev.value, 'epoch');
    ctx.report({
      pointer: has ? '/epoch' : '/seq',
      message: `Epoch ${epoch}${has ? '' : ' (absent, so 0)'} is below epoch ${prev.epoch} already used by this session at line ${prev.at.line}; an emitter never reuses an earlier epoch.`,
      data: { epoch: String(epoch), previousEpoch: String(prev.epoch) },
      related: [markLocation(prev.at)],
    });
  },
});
