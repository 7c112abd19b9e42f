/**
 * aep/command-unacked (info): at the end of input, commands to a session whose emitter is in
 * the input but which no `control.accepted` / `control.rejected` answered, summarised once per
 * session (at its first such command, the others as related locations). The target makes one
 * ack decision per command within the ack window; a capture may end before it, so this is a
 * note, not an error. Commands to a session with no emitter in the input (a sender-side log)
 * are not listed. Reads the pending commands of control.ts. AEP-0004 §3.
 */
import { defineStreamRule } from '../../core/engine.ts';
import { markLocation } from '../../core/mark.ts';
import type { PendingCommand } from '../analyzers/control.ts';
import type { AepStreamState } from '../analyzers/model.ts';

/** Most commands listed as related locations on one finding. */
const MAX_LISTED = 20;

/** The `aep/command-unacked` rule, as described in the module comment above. */
export const commandUnacked = defineStreamRule({
  id: 'aep/command-unacked',
  severity: 'info',
  description:
    'Commands to a session present in the input that no ack answered by the end of input are listed (a capture may end early).',
  spec: 'AEP-0004 §3',
  onEnd(state: AepStreamState, ctx) {
    const bySession = new Map<string, PendingCommand[]>();
    for (const cmd of state.control.pendingCommands()) {
      if (!cmd.targetSeen) continue;
      const list = bySession.get(cmd.session);
      if (list) list.push(cmd);
      else bySession.set(cmd.session, [cmd]);
    }
    for (const [session, cmds] of bySession) {
      const first = cmds[0];
      const what = cmds.length === 1 ? `Command ${first.type}` : `${cmds.length} commands (the first: ${first.type})`;
      ctx.report({
        at: markLocation(first.at, '/id'),
        message: `${what} to session ${JSON.stringify(session)} ${cmds.length === 1 ? 'has' : 'have'} no control.accepted or control.rejected in the input; the target makes one ack decision per command within the ack window (the capture may end before it).`,
        data: { commands: cmds.length },
        related: cmds.slice(1, MAX_LISTED + 1).map((c) => markLocation(c.at, '/id')),
      });
    }
  },
});
