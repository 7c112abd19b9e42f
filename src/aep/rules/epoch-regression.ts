import { defineStreamRule } from '../../core/engine.ts';
import { markLocation } from '../../core/mark.ts';
import type { AepFacts } from '../analyzers/model.ts';

/** `aep/epoch-regression`: an absent `epoch` is 0; compared as exact integers. */
export const epochRegression = defineStreamRule({
  id: 'aep/epoch-regression',
  severity: 'error',
  description: 'Within one (source, session), epoch never decreases.',
  spec: 'AEP-0001 §7.2',
  messages: {
    below:
      'Epoch {epoch} is below epoch {previousEpoch} already used by this session at {prior}; an emitter never reuses an earlier epoch.',
    absent:
      'Epoch {epoch} (absent, so 0) is below epoch {previousEpoch} already used by this session at {prior}; an emitter never reuses an earlier epoch.',
  },
  on: ['order'],
  onEvent(f: AepFacts, ctx) {
    if (f.order?.kind !== 'epoch') return;
    const { epoch, prev } = f.order;
    const has = Object.hasOwn(f.ev.value, 'epoch');
    const prior = markLocation(prev.at);
    ctx.report({
      // an absent epoch is located at the member it lacks, with no column (as other absent members)
      pointer: '/epoch',
      messageId: has ? 'below' : 'absent',
      args: { epoch: String(epoch), previousEpoch: String(prev.epoch), prior },
      related: [prior],
    });
  },
});
