import { defineStreamRule } from '../../core/engine.ts';
import { markLocation } from '../../core/mark.ts';
import type { AepFacts } from '../analyzers/model.ts';

/** `aep/stream-finished-cause`: under `--profile aep-0007` only. */
export const streamFinishedCause = defineStreamRule({
  id: 'aep/stream-finished-cause',
  severity: 'warning',
  description:
    'With --profile aep-0007: a stream.finished sets cause to the id of its stream.started (judged against the stream.started of the same subject when the input holds it, else only present).',
  spec: 'AEP-0007 §3 item 3; AEP-0002 §2 convention 1',
  messages: {
    missing: 'stream.finished has no cause; it SHOULD name its stream.started (AEP-0007 §3).',
    other: 'stream.finished does not name in cause its stream.started at {started} (AEP-0007 §3).',
  },
  on: ['finishedCause'],
  onEvent(f: AepFacts, ctx) {
    const c = f.finishedCause!;
    if (c.started === undefined) {
      ctx.report({ pointer: '', messageId: 'missing', args: {} });
      return;
    }
    const at = markLocation(c.started);
    ctx.report({
      pointer: typeof f.ev.value.cause === 'string' ? '/cause' : '',
      messageId: 'other',
      args: { started: at },
      related: [at],
    });
  },
});
