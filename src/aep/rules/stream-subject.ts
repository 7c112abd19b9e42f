import { defineEventRule } from '../../core/engine.ts';
import type { AepEvent } from '../event.ts';
import { isSubprofileType, MESSAGE_TYPES, STREAM_TYPES } from '../subprofile.ts';

/** `aep/stream-subject`: under `--profile aep-0007` only (src/aep/subprofile.ts). */
export const streamSubject = defineEventRule({
  id: 'aep/stream-subject',
  severity: 'error',
  description:
    'With --profile aep-0007: every stream.* event sets subject to its stream id and every message.* event to its message id.',
  spec: 'AEP-0007 §3 items 1-2',
  messages: {
    stream: '{type} has no subject; every stream.* event sets subject to the stream id (AEP-0007 §3).',
    message: '{type} has no subject; every message.* event sets subject to the message id (AEP-0007 §3).',
  },
  types: [...MESSAGE_TYPES, ...STREAM_TYPES],
  check(ev: AepEvent, ctx) {
    if (!ev.subprofile || !isSubprofileType(ev.type) || typeof ev.value.subject === 'string') return;
    ctx.report({ pointer: '', messageId: STREAM_TYPES.has(ev.type) ? 'stream' : 'message', args: { type: ev.type } });
  },
});
