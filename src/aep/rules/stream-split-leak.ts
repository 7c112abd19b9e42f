import { defineStreamRule } from '../../core/engine.ts';
import { markLocation } from '../../core/mark.ts';
import { CLASS_DESCRIPTIONS } from '../../core/secrets.ts';
import type { AepFacts } from '../analyzers/model.ts';

/**
 * `aep/stream-split-leak`: under `--profile aep-0007` only. The deltas of one stream concatenate in `seq` order
 * (AEP-0007 §5.3); the analyzer keeps a bounded tail of that text (src/aep/analyzers/streams.ts `DELTA_TAIL`).
 */
export const streamSplitLeak = defineStreamRule({
  id: 'aep/stream-split-leak',
  severity: 'error',
  description:
    'With --profile aep-0007: at capture "redacted", the text of a stream\'s deltas taken together holds no AEP-0003 §9.4 rule (a) secret that a single delta does not show.',
  detail: 'That is a secret split across delta boundaries; the last 1024 characters before each delta are kept.',
  spec: 'AEP-0007 §6 (redaction across delta boundaries); AEP-0003 §9.4',
  messages: {
    split:
      'stream.delta text completes {secret} with the text of the deltas before it (from {from}): the redaction pipeline was applied per fragment, not over a window spanning delta boundaries (AEP-0007 §6).',
  },
  on: ['splitLeak'],
  onEvent(f: AepFacts, ctx) {
    const leak = f.splitLeak!;
    const from = markLocation(leak.from);
    for (const cls of leak.classes)
      ctx.report({
        pointer: '/data/text',
        args: { secret: CLASS_DESCRIPTIONS[cls], class: cls, from },
        related: [from],
      });
  },
});
