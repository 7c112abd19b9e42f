import { markLocation } from '../../core/mark.ts';
import { defineStreamRule } from '../../core/engine.ts';
import type { AepStreamState } from '../analyzers/model.ts';

/** A warning, not an error: a command outside the input may carry the same bare id (AEP-0001 §7.4). */
export const ackCauseNotCommand = defineStreamRule({
  id: 'aep/ack-cause-not-command',
  severity: 'warning',
  description:
    "An ack's cause names its own emitter's event or a command to another session, and no command with that id addressed to its session is in the input.",
  detail:
    "AEP-0004 §3 and §6 make an ack's cause the command's id; the emitter's own sequenced events are not commands (a command is a foreign event, §2.2), and a command addressed to another session is not one its target decides (§2.2, §4.5). It stays a warning: ids are unique per emitter only, and AEP-0001 §7.4 accepts that a bare id may also be a foreign event's, so a command the input does not hold may carry the same id. A cause naming nothing in the input gets no finding.",
  spec: 'AEP-0004 §3, §6; AEP-0001 §7.4',
  messages: {
    own: "{type}'s cause {cause:json} names this emitter's own event at {named}, and no command with that id addressed to this session is in the input; cause must be the id of the command decided.",
    other:
      "{type}'s cause {cause:json} names the command at {named}, addressed to another session, and no command with that id addressed to this session is in the input; a target acks the commands addressed to it.",
  },
  // decided at the end: the command may follow its ack in the input (AEP-0001 §5.2), and is then matched to it
  onEnd(state: AepStreamState, ctx) {
    if (state.unreadable) return; // a line that gave no event may have held the command (either side of the ack)
    for (const { ack, cause, named: at, own } of state.control.unmatchedAcks()) {
      const named = markLocation(at);
      ctx.report({
        at: markLocation(ack.at, '/cause'),
        messageId: own ? 'own' : 'other',
        args: { type: ack.type, cause, named },
        related: [named],
      });
    }
  },
});
