import { defineStreamRule } from '../../core/engine.ts';
import { markLocation } from '../../core/mark.ts';
import type { AepStreamState } from '../analyzers/model.ts';

/**
 * `aep/stream-fact-missing`: under `--profile aep-0007` only, at the end of input. A warning: a capture may end between
 * a stream.finished and its fact, and the join keys (the message's `cause` or subject, the tool call id as the stream
 * subject) are the Annex's AG-UI conventions.
 */
export const streamFactMissing = defineStreamRule({
  id: 'aep/stream-fact-missing',
  severity: 'warning',
  description:
    'With --profile aep-0007: a completed kind "message" or "tool_args" stream is followed by its assembled durable fact.',
  detail:
    'A completed kind "message" stream is followed by its assembled message.* fact (cause = the stream.finished id, or the same subject), and a completed kind "tool_args" stream by the tool.requested whose tool.call_id is the stream subject: streams complement, never replace, the durable facts.',
  spec: 'AEP-0007 §5 items 2 and 4',
  messages: {
    message:
      'The message stream {subject:json} finished but no message.* fact names it (by cause or subject) by the end of input; an emitter that streams a message SHOULD emit the assembled message.* (AEP-0007 §5).',
    tool: 'The tool_args stream {subject:json} finished but no tool.requested with that tool.call_id follows by the end of input; tool_args streams complement, never replace, tool.requested (AEP-0007 §5).',
  },
  onEnd(state: AepStreamState, ctx) {
    if (state.unreadable) return; // aep/absence-unverifiable
    for (const r of state.streams.owing())
      ctx.report({
        at: markLocation(r.finished!),
        messageId: r.kind === 'tool_args' ? 'tool' : 'message',
        args: { subject: r.subject },
      });
  },
});
