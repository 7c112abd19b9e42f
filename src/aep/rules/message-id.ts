import { defineEventRule } from '../../core/engine.ts';
import { isObj } from '../../core/value.ts';
import type { AepEvent } from '../event.ts';
import { MESSAGE_TYPES } from '../subprofile.ts';

/** `aep/message-id`: under `--profile aep-0007` only; a missing subject is aep/stream-subject's. */
export const messageId = defineEventRule({
  id: 'aep/message-id',
  severity: 'error',
  description:
    'With --profile aep-0007: a message.* payload has message_id (REQUIRED, a string at every capture but none) equal to the event subject.',
  spec: 'AEP-0007 §4 (message_id mirrors subject); AEP-0007 §3 item 2',
  messages: {
    missing:
      '{type} has no data.message_id; the message id is REQUIRED in the payload and mirrors subject (AEP-0007 §4).',
    differs:
      '{type} has data.message_id ({length} char{length:s}) different from its subject ({subjectLength} char{subjectLength:s}); message_id mirrors subject (AEP-0007 §4).',
  },
  types: [...MESSAGE_TYPES],
  check(ev: AepEvent, ctx) {
    // a member that failed the schema stage is unknown, not absent: its own finding says so
    if (ev.untrusted?.has('subject') || ev.untrusted?.has('data') || ev.untrusted?.has('capture')) return;
    if (!ev.subprofile || !MESSAGE_TYPES.has(ev.type) || ev.capture === 'none') return;
    const data = ev.value.data;
    const id = isObj(data) ? data.message_id : undefined;
    if (typeof id !== 'string') {
      // a present non-string is aep/stream-payload's
      if (id === undefined)
        ctx.report({ pointer: isObj(data) ? '/data' : '', messageId: 'missing', args: { type: ev.type } });
      return;
    }
    const subject = ev.value.subject;
    if (typeof subject === 'string' && subject !== id)
      ctx.report({
        pointer: '/data/message_id',
        messageId: 'differs',
        args: { type: ev.type, length: [...id].length, subjectLength: [...subject].length },
      });
  },
});
