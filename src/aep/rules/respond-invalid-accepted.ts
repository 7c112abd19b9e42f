import { defineStreamRule } from '../../core/engine.ts';
import { markLocation } from '../../core/mark.ts';
import type { AepFacts } from '../analyzers/model.ts';

/** Once per command: "An emitter MUST reject" (AEP-0002 §5.3, AEP-0006): accepting is the target's violation. */
export const respondInvalidAccepted = defineStreamRule({
  id: 'aep/respond-invalid-accepted',
  severity: 'error',
  description: 'A control.attention.respond with invalid form values is rejected, not accepted or answered.',
  detail:
    'Invalid: a required field left unanswered, a select field without `other` answered by a string that is no choice id, or a value of another type than its field takes. The first decision counts: a control.rejected with reason invalid is the required behaviour and leaves no finding (nor the aep/respond-values-* warning); a rejection for another reason leaves that warning alone.',
  spec: 'AEP-0002 §5.3 values; AEP-0006; AEP-0004 §3',
  messages: {
    accepted:
      'This control.accepted accepts the control.attention.respond at {respond}, whose form values break the form\'s rules; such a command must be rejected with reason "invalid".',
    answered:
      'This {type} records an answer caused by the control.attention.respond at {respond}, whose form values break the form\'s rules; such a command must be rejected with reason "invalid".',
  },
  on: ['endorsesInvalid', 'earlyAck'],
  onEvent(f: AepFacts, ctx) {
    // the respond came after its control.accepted in the input: reported at the ack's line, as in the other order
    if (f.earlyAck?.endorsesInvalid) {
      const respond = markLocation(f.at!, '/data/answer/values');
      ctx.report({
        at: markLocation(f.earlyAck.at, '/cause'),
        messageId: 'accepted',
        args: { type: f.earlyAck.type, respond },
        related: [respond],
      });
    }
    if (!f.endorsesInvalid) return;
    const respond = markLocation(f.endorsesInvalid, '/data/answer/values');
    ctx.report({
      pointer: '/cause',
      messageId: f.ev.type === 'control.accepted' ? 'accepted' : 'answered',
      args: { type: f.ev.type, respond },
      related: [respond],
    });
  },
});
