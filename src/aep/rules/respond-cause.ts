import { defineEventRule } from '../../core/engine.ts';
import { attr, type AepEvent } from '../event.ts';

/** `aep/respond-cause`. A SHOULD, hence a warning. */
export const respondCause = defineEventRule({
  id: 'aep/respond-cause',
  severity: 'warning',
  description:
    'A control.attention.respond names in cause the attention.requested that prompted it, the same id as its subject.',
  detail:
    'AEP-0004 §6: command.cause SHOULD reference the Event that prompted it, for control.attention.respond the attention.requested id.',
  spec: 'AEP-0004 §6',
  messages: {
    missing:
      'This control.attention.respond has no `cause`; a command should name the Event that prompted it, for a respond the attention.requested it answers, whose id subject carries.',
    other:
      'The cause of this control.attention.respond differs from its subject; a command should name the Event that prompted it, for a respond the attention.requested it answers, whose id subject carries.',
  },
  types: ['control.attention.respond'],
  check(ev: AepEvent, ctx) {
    // a member that failed the schema stage is unknown, not absent: its own finding says so
    if (ev.untrusted?.has('cause') || ev.untrusted?.has('subject')) return;
    if (ev.type !== 'control.attention.respond') return;
    const subject = attr(ev, 'subject');
    const cause = attr(ev, 'cause');
    if (subject === undefined || cause === subject) return;
    ctx.report({ pointer: '/cause', messageId: cause === undefined ? 'missing' : 'other' });
  },
});
