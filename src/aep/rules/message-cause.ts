import { defineStreamRule } from '../../core/engine.ts';
import { markLocation } from '../../core/mark.ts';
import type { AepFacts } from '../analyzers/model.ts';

/**
 * `aep/message-cause`: under `--profile aep-0007` only. A message is taken as produced by a stream when a finished
 * `message` stream has its subject (the AG-UI mapping sets both to the message id, AEP-0007 Annex).
 */
export const messageCause = defineStreamRule({
  id: 'aep/message-cause',
  severity: 'warning',
  description:
    'With --profile aep-0007: a message.* event produced by a stream (a finished kind "message" stream of the same subject) sets cause to the id of that stream.finished.',
  spec: 'AEP-0007 §3 item 4, §5 item 2',
  messages: {
    cause:
      '{type} was produced by the stream that finished at {finished} but does not name that stream.finished in cause (AEP-0007 §3).',
  },
  on: ['messageCause'],
  onEvent(f: AepFacts, ctx) {
    const at = markLocation(f.messageCause!.finished);
    ctx.report({
      pointer: typeof f.ev.value.cause === 'string' ? '/cause' : '',
      args: { type: f.ev.type, finished: at },
      related: [at],
    });
  },
});
