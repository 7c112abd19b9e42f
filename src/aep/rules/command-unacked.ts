import { defineStreamRule } from '../../core/engine.ts';
import { markLocation } from '../../core/mark.ts';
import type { PendingCommand } from '../analyzers/control.ts';
import type { AepStreamState } from '../analyzers/model.ts';

const MAX_LISTED = 20;

/** A note, once per session: a capture may end before the ack; sender-side logs (no emitter) are not listed. */
export const commandUnacked = defineStreamRule({
  id: 'aep/command-unacked',
  severity: 'info',
  description:
    'Commands to a session present in the input (ended or not) that no ack answered by the end of input are listed (a capture may end early).',
  spec: 'AEP-0004 §3',
  messages: {
    one: 'Command {type} to session {session:json} has no control.accepted or control.rejected in the input; the target makes one ack decision per command within the ack window (the capture may end before it).',
    many: '{commands} commands (the first: {type}) to session {session:json} have no control.accepted or control.rejected in the input; the target makes one ack decision per command within the ack window (the capture may end before it).',
    ended:
      '{commands} command(s) (the first: {type}) to session {session:json} came after its session.ended at {ended} and have no control.accepted or control.rejected in the input; a target still connected acks each, else a relay answers no-route with a connection-scoped error frame no history holds.',

    forgotten:
      '{commands} command(s) (the first: {type}) to session {session:json} have no control.accepted or control.rejected that the check still holds; an ack earlier in the input than its command may have been forgotten under the memory budget (--max-state-mb; library: `stream: { maxStateMb }`); raise it for a complete check.',
  },
  onEnd(state: AepStreamState, ctx) {
    const bySession = new Map<string, PendingCommand[]>();
    for (const cmd of state.control.pendingCommands()) {
      if (!cmd.targetSeen || cmd.overdue || state.control.mayBeAcked(cmd.session)) continue; // overdue: aep/ack-overdue reported it
      // commands after the session's end, or whose ack the memory budget may have forgotten, are listed apart
      const k = (cmd.ackForgotten ? 'f' : cmd.afterEnd ? 'e' : 'l') + cmd.session;
      const list = bySession.get(k);
      if (list) list.push(cmd);
      else bySession.set(k, [cmd]);
    }
    for (const cmds of bySession.values()) {
      const { afterEnd: ended, session, ackForgotten } = cmds[0]!;
      ctx.report({
        at: markLocation(cmds[0]!.at, '/id'),
        messageId: ackForgotten ? 'forgotten' : ended ? 'ended' : cmds.length === 1 ? 'one' : 'many',
        args: { commands: cmds.length, type: cmds[0]!.type, session, ended: ended ? markLocation(ended) : '' },
        related: cmds.slice(1, MAX_LISTED + 1).map((c) => markLocation(c.at, '/id')),
      });
    }
  },
});
