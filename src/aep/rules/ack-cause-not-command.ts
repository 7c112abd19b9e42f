import { markLocation } from '../../core/mark.ts';
import { defineStreamRule } from '../../core/engine.ts';
import type { AepFacts } from '../analyzers/model.ts';

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
  on: ['ack'],
  onEvent(f: AepFacts, ctx) {
    const at = f.ack?.own ?? f.ack?.other;
    if (!at || f.unreadable) return;
    const named = markLocation(at);
    const messageId = f.ack!.own ? 'own' : 'other';
    ctx.report({
      pointer: '/cause',
      messageId,
      args: { type: f.ev.type, cause: f.ack!.cause!, named },
      related: [named],
    });
  },
});
