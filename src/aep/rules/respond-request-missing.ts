import { markLocation } from '../../core/mark.ts';
import { defineStreamRule } from '../../core/engine.ts';
import type { AepFacts } from '../analyzers/model.ts';

/** `aep/respond-request-missing`: only where the input holds the session's one emitter from its start. */
export const respondRequestMissing = defineStreamRule({
  id: 'aep/respond-request-missing',
  severity: 'error',
  description:
    'A control.attention.respond names in subject no attention.requested of the session it addresses, although the input holds that session from its start with no gap.',
  detail:
    "That is, the input holds that session's one emitter from its start (its session.started first) with no gap before the command: AEP-0004 §5 and §6 make subject the id of the attention.requested answered. With more than one emitter of the session name, a capture that starts mid-session, a gap, or the session ended, aep/attention-unknown-request (info) instead, unless subject is the id of an earlier event of that one emitter that is no attention.requested: ids are unique per source (AEP-0001 §5.1 #2), so that id names no request, gap or not.",
  spec: 'AEP-0004 §5, §6',
  messages: {
    notRequest:
      'The subject {subject:json} of this control.attention.respond is the id of the event at {named}, which is not an attention.requested, and ids are unique per emitter; subject must be the id of the attention.requested answered.',
    missing:
      'No attention.requested with id {subject:json} precedes this control.attention.respond in the session it addresses, which the input holds from its start with no gap; subject must be the id of the attention.requested answered.',
  },
  on: ['attention'],
  onEvent(f: AepFacts, ctx) {
    const a = f.attention;
    if (a?.notRequest && f.ev.type === 'control.attention.respond' && !f.unreadable) {
      const named = markLocation(a.notRequest);
      ctx.report({
        pointer: '/subject',
        messageId: 'notRequest',
        args: { subject: a.subject!, named },
        related: [named],
      });
      return;
    }
    if (
      !a?.targetFromStart ||
      f.ev.type === 'attention.routed' ||
      a.subject === undefined ||
      a.link.status !== 'missing' ||
      f.unreadable
    )
      return;
    ctx.report({ pointer: '/subject', messageId: 'missing', args: { subject: a.subject } });
  },
});
