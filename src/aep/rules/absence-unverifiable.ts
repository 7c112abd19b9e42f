import { defineStreamRule } from '../../core/engine.ts';
import { markLocation } from '../../core/mark.ts';
import type { AepFacts, AepStreamState } from '../analyzers/model.ts';

/**
 * `aep/absence-unverifiable`: aep/ended-with-open-attention, aep/ack-overdue and aep/stream-fact-missing after a line
 * of the stream that gave no event (README §Decisions on unreadable lines): that line may have held what is missing.
 */
export const absenceUnverifiable = defineStreamRule({
  id: 'aep/absence-unverifiable',
  severity: 'info',
  description:
    'A verdict that an event is missing (a terminal, an ack, a durable fact) is not given after a line of the stream that could not be read as an event, which may have held it (not verified).',
  detail:
    'Any earlier unreadable line of the stream counts (invalid JSON, over --max-line-bytes, too deep, not an object, invalid UTF-8, a cut gzip stream): what it held is unknown. The framing finding at that line is the error. It replaces aep/ended-with-open-attention (AEP-0002 §7.2), aep/ack-overdue (AEP-0004 §3, §7) and aep/stream-fact-missing (AEP-0007 §5); a missing attention request is aep/attention-unknown-request.',
  spec: 'AEP-0003 §3.1; AEP-0001 §7.4',
  messages: {
    open: 'session.ended while an attention request of this session ({first}) has no terminal in the input, but {unreadable} could not be read as an event and may have held it; not verified.',
    overdue:
      'The command at {command} to this session has no ack in the input past its ack window, but {unreadable} could not be read as an event and may have held the ack; not verified.',
    fact: 'The {kind} stream {subject:json} finished with no durable fact after it in the input, but {unreadable} could not be read as an event and may have held it; not verified.',
  },
  on: ['endedWithOpen', 'overdue'],
  onEvent(f: AepFacts, ctx) {
    if (!f.unreadable) return;
    const unreadable = markLocation(f.unreadable);
    const open = f.endedWithOpen;
    if (open?.length)
      ctx.report({
        pointer: '/type',
        messageId: 'open',
        args: { first: markLocation(open[0]!.at), unreadable },
        related: [unreadable, ...open.slice(0, 20).map((r) => markLocation(r.at))],
      });
    const late = f.overdue;
    if (late?.length)
      ctx.report({
        pointer: '/time',
        messageId: 'overdue',
        args: { command: markLocation(late[0]!.at, '/time'), unreadable },
        related: [unreadable, ...late.slice(0, 20).map((c) => markLocation(c.at, '/time'))],
      });
  },
  onEnd(state: AepStreamState, ctx) {
    if (!state.unreadable) return;
    const unreadable = markLocation(state.unreadable);
    for (const r of state.streams.owing())
      ctx.report({
        at: markLocation(r.finished!),
        messageId: 'fact',
        args: { kind: r.kind === 'tool_args' ? 'tool_args' : 'message', subject: r.subject, unreadable },
        related: [unreadable],
      });
  },
});
