import { defineStreamRule } from '../../core/engine.ts';
import { markLocation } from '../../core/mark.ts';
import type { AepFacts, AepStreamState } from '../analyzers/model.ts';

/**
 * A warning: `time` comes from two clocks (AEP-0001 §7.3), and the sender's `timeout` nack never appears on the wire.
 */
export const ackWindow = defineStreamRule({
  id: 'aep/ack-window',
  severity: 'warning',
  description:
    "A command is acknowledged within the ack window (10 000 ms by default, --ack-window), by the two events' time attributes.",
  detail:
    'A warning, though AEP-0004 §3 and §7 make the window a MUST: the window is negotiated at hello, which a recorded stream does not hold, and the two times come from two clocks (AEP-0001 §5.1 #5: time is display metadata, never ordering). Measured by the times, not the lines: an ack earlier in the input than its command is judged alike. A command repeated in the input before its ack is a retry (AEP-0004 §2.3: the same envelope, so the same time) that the ack may answer within its own window, whose start the input does not hold: not judged.',
  spec: 'AEP-0004 §3',
  messages: {
    late: 'This {type} comes {seconds} s after its command ({commandType}, {command}), past the ack window of {windowMs} ms; a sender has treated the command as a timeout nack by then (times come from two clocks).',
  },
  on: ['ack', 'earlyAck'],
  onEvent(f: AepFacts, ctx, state: AepStreamState) {
    // an ack earlier in the input than its command is judged when the command comes, at the ack's line
    const early = f.earlyAck;
    const cmd = early ? { at: f.at!, type: f.ev.type, lateByMs: early.lateByMs } : f.ack?.command;
    if (cmd?.lateByMs === undefined) return;
    const windowMs = state.control.ackWindowMs;
    const command = markLocation(cmd.at, '/time');
    ctx.report({
      ...(early ? { at: markLocation(early.at, '/time') } : { pointer: '/time' }),
      args: {
        type: early ? early.type : f.ev.type,
        seconds: ((windowMs + cmd.lateByMs) / 1000).toFixed(3),
        commandType: cmd.type,
        command,
        windowMs,
        lateByMs: cmd.lateByMs,
      },
      related: [command],
    });
  },
});
