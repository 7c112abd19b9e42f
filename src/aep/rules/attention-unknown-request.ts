import { markLocation } from '../../core/mark.ts';
import { defineStreamRule } from '../../core/engine.ts';
import type { AepFacts } from '../analyzers/model.ts';

/** "Cannot verify": partial captures are normal (AEP-0001 §7.4); foreign followers match any source's session. */
export const attentionUnknownRequest = defineStreamRule({
  id: 'aep/attention-unknown-request',
  severity: 'info',
  description:
    'The attention request named by subject is not in the stream, so the link cannot be verified (the capture may start after the request, or lose it in a gap).',
  spec: 'AEP-0002 §7.1; AEP-0001 §7.4',
  messages: {
    session:
      'Cannot verify: no attention.requested with id {subject:json} was seen in this session (the request may precede the capture).',
    source:
      'Cannot verify: no attention.requested with id {subject:json} was seen in this source and session (the request may precede the capture).',
    unreadable:
      'Cannot verify: no attention.requested with id {subject:json} was seen in this session, but {unreadable} could not be read as an event and may have held it.',
  },
  on: ['attention'],
  onEvent(f: AepFacts, ctx) {
    const a = f.attention;
    // an id its emitter used for another event is no request: aep/attention-request-missing or respond-request-missing
    if (!a || a.subject === undefined || a.link.status !== 'missing' || (a.notRequest && !f.unreadable)) return;
    if (a.fromStart || a.targetFromStart) {
      // what would be aep/attention-request-missing or aep/respond-request-missing after a line that gave no event
      if (f.unreadable) {
        const unreadable = markLocation(f.unreadable);
        ctx.report({ pointer: '/subject', messageId: 'unreadable', args: { subject: a.subject, unreadable } });
      }
      return;
    }
    const foreign = f.ev.type === 'attention.routed' || f.ev.type === 'control.attention.respond';
    ctx.report({ pointer: '/subject', messageId: foreign ? 'session' : 'source', args: { subject: a.subject } });
  },
});
