/**
 * aep/ack-window (warning): the target acknowledges a command within the ack window:
 * `hello.capabilities.control.ack_window_ms`, default 10 000 ms (`--ack-window`). Checked when
 * both the command and its ack are in the input, by their `time` attributes (control.ts).
 * `time` comes from two clocks (sender and target) and is display-only for ordering
 * (AEP-0001 §7.3), so a late ack is a warning, not an error; the sender treats silence past
 * the window as a `timeout` nack, which never appears on the wire. AEP-0004 §3.
 */
import { defineStreamRule } from '../../core/engine.ts';
import { markLocation } from '../../core/mark.ts';
import type { AepFacts, AepStreamState } from '../analyzers/model.ts';

/** The `aep/ack-window` rule, as described in the module comment above. */
export const ackWindow = defineStreamRule({
  id: 'aep/ack-window',
  severity: 'warning',
  description:
    "A command is acknowledged within the ack window (10 000 ms by default), by the two events' time attributes.",
  spec: 'AEP-0004 §3',
  on: ['ack'],
  onEvent(f: AepFacts, ctx, state: AepStreamState) {
    const cmd = f.ack?.command;
    if (cmd?.lateByMs === undefined) return;
    const window = state.control.ackWindowMs;
    ctx.report({
      pointer: '/time',
      message: `This ${f.ev.type} comes ${((window + cmd.lateByMs) / 1000).toFixed(3)} s after its command (${cmd.type}, line ${cmd.at.line}), past the ack window of ${window} ms; a sender has treated the command as a timeout nack by then (times come from two clocks).`,
      data: { windowMs: window, lateByMs: cmd.lateByMs },
      related: [markLocation(cmd.at, '/time')],
    });
  },
});
