import { markLocation } from '../../core/mark.ts';
import { defineStreamRule } from '../../core/engine.ts';
import type { AepFacts } from '../analyzers/model.ts';

/** Only where the input provably holds the session from its start; otherwise aep/attention-unknown-request. */
export const attentionRequestMissing = defineStreamRule({
  id: 'aep/attention-request-missing',
  severity: 'error',
  description:
    'An attention.answered, resolved, timeout or routed names in subject no attention.requested of its session, although the input holds that session from its start with no gap before it.',
  detail:
    "From its start means its session.started first; seq 0 proves no start, AEP-0001 §7 never says a counter starts at 0. AEP-0002 §7.1 makes subject the request's id, and the request can neither precede such a capture nor be lost in a gap. Captures that start mid-session, or with a gap, an epoch change or a session end before the follower, get aep/attention-unknown-request (info) instead, since gaps are legal (AEP-0001 §7.2). A subject that is the id of an earlier event of the emitter whose request it names (its own source; for attention.routed, the session's one emitter) that is no attention.requested is this error in any capture: ids are unique per source (AEP-0001 §5.1 #2). An attention.routed, a foreign event (AEP-0002 §7.3), is judged as aep/respond-request-missing judges a command: where the session it addresses has one emitter, held from its start.",
  spec: 'AEP-0002 §7.1; AEP-0001 §7.2-§7.4',
  messages: {
    notRequest:
      'The subject {subject:json} of this {type} is the id of the event at {named}, which is not an attention.requested, and ids are unique per emitter; subject must be the id of the request it follows.',
    missing:
      'No attention.requested with id {subject:json} precedes this {type} in its session, which the input holds from its start with no gap; subject must be the id of the request it follows.',
    routed:
      'No attention.requested with id {subject:json} precedes this attention.routed in the session it addresses, whose one emitter the input holds from its start with no gap; subject must be the id of the request routed.',
  },
  on: ['attention'],
  onEvent(f: AepFacts, ctx) {
    const a = f.attention;
    if (!a || a.subject === undefined || a.link.status !== 'missing' || f.unreadable) return;
    if (a.notRequest && f.ev.type !== 'control.attention.respond') {
      const named = markLocation(a.notRequest);
      ctx.report({
        pointer: '/subject',
        messageId: 'notRequest',
        args: { subject: a.subject, type: f.ev.type, named },
        related: [named],
      });
    } else if (a.fromStart)
      ctx.report({ pointer: '/subject', messageId: 'missing', args: { subject: a.subject, type: f.ev.type } });
    else if (a.targetFromStart && f.ev.type === 'attention.routed')
      ctx.report({ pointer: '/subject', messageId: 'routed', args: { subject: a.subject } });
  },
});
