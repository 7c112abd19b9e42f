import { defineStreamRule } from '../../core/engine.ts';
import { markLocation } from '../../core/mark.ts';
import { CLASS_DESCRIPTIONS } from '../../core/secrets.ts';
import type { AepFacts } from '../analyzers/model.ts';

/** A warning as `aep/redaction-leak-pii` is: AEP-0003 §9.4 rule (d) is "operator-disableable", not in the stream. */
export const streamSplitPii = defineStreamRule({
  id: 'aep/stream-split-pii',
  severity: 'warning',
  description:
    'With --profile aep-0007: at capture "redacted", the text of a stream\'s deltas taken together holds no email address or phone number that a single delta does not show.',
  detail:
    'That is PII (AEP-0003 §9.4 rule (d), on by default, operator-disableable) split across delta boundaries; the last 1024 characters before each delta are kept.',
  spec: 'AEP-0007 §6 (redaction across delta boundaries); AEP-0003 §9.4 (d)',
  messages: {
    split:
      'stream.delta text completes {pii} with the text of the deltas before it (from {from}): the redaction pipeline was applied per fragment, not over a window spanning delta boundaries (AEP-0007 §6).',
  },
  on: ['splitPii'],
  onEvent(f: AepFacts, ctx) {
    const leak = f.splitPii!;
    const from = markLocation(leak.from);
    for (const cls of leak.classes)
      ctx.report({ pointer: '/data/text', args: { pii: CLASS_DESCRIPTIONS[cls], class: cls, from }, related: [from] });
  },
});
