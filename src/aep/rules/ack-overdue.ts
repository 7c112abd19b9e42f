import { defineStreamRule } from '../../core/engine.ts';
import { markLocation } from '../../core/mark.ts';
import type { AepFacts, AepStreamState } from '../analyzers/model.ts';

/** `aep/ack-overdue`: a warning, not an error (its `detail` says why: relays, negotiated window, two clocks). */
export const ackOverdue = defineStreamRule({
  id: 'aep/ack-overdue',
  severity: 'warning',
  description: 'A command to a session is acknowledged before its target emits past the ack window.',
  detail:
    "An event of the addressed session whose time is more than the window (10 000 ms by default) after the command's, while the command has no ack, shows a live target that did not ack or nack within the window (AEP-0004 §3, §7). A warning: a relay may have refused the command on the target's behalf with a connection-scoped error frame that never enters the session history (§4.2, §8), the negotiated window is not in the stream, and the times come from two clocks. Without later target events the command is listed by aep/command-unacked (info). A command repeated in the input before its ack is a retry (AEP-0004 §2.3: the same envelope, so the same time) whose delivery the input does not date: not judged.",
  spec: 'AEP-0004 §3, §7',
  messages: {
    one: "The command {commandType} at {command} to this session has no ack, yet this {type} of the session comes {seconds} s after it, past the ack window of {windowMs} ms; a target acks or nacks every command within the window (unless a relay refused it on the target's behalf).",
    many: "{commands} commands to this session (the first: {commandType} at {command}) have no ack, yet this {type} of the session comes past their ack window of {windowMs} ms; a target acks or nacks every command within the window (unless a relay refused them on the target's behalf).",
  },
  on: ['overdue'],
  onEvent(f: AepFacts, ctx, state: AepStreamState) {
    const late = f.overdue;
    if (!late?.length || f.unreadable) return; // aep/absence-unverifiable
    const first = late[0]!;
    const command = markLocation(first.at, '/time');
    const evTime = Date.parse(String(f.ev.value.time));
    ctx.report({
      pointer: '/time',
      messageId: late.length === 1 ? 'one' : 'many',
      args: {
        commands: late.length,
        commandType: first.type,
        command,
        type: f.ev.type,
        seconds: ((evTime - first.timeMs!) / 1000).toFixed(3),
        windowMs: state.control.ackWindowMs,
      },
      related: late.slice(0, 20).map((c) => markLocation(c.at, '/time')),
    });
  },
});
