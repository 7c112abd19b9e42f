import { defineStreamRule } from '../../core/engine.ts';
import { markLocation } from '../../core/mark.ts';
import type { AepFacts } from '../analyzers/model.ts';

/** An error as `aep/redaction-home-path` is: AEP-0007 §6's window is the whole §9.4 pipeline, rule (c) included. */
export const streamSplitHomePath = defineStreamRule({
  id: 'aep/stream-split-home-path',
  severity: 'error',
  description:
    'With --profile aep-0007: at capture "redacted", the text of a stream\'s deltas taken together holds no user home directory path that a single delta does not show.',
  detail:
    'That is a home path (AEP-0003 §9.4 rule (c): /home/<user>, /Users/<user>, C:\\Users\\<user>) split across delta boundaries; the last 1024 characters before each delta are kept.',
  spec: 'AEP-0007 §6 (redaction across delta boundaries); AEP-0003 §9.4 (c)',
  messages: {
    split:
      'stream.delta text completes a user home directory path with the text of the deltas before it (from {from}): the redaction pipeline was applied per fragment, not over a window spanning delta boundaries (AEP-0007 §6).',
  },
  on: ['splitHome'],
  onEvent(f: AepFacts, ctx) {
    const from = markLocation(f.splitHome!);
    ctx.report({ pointer: '/data/text', args: { from }, related: [from] });
  },
});
