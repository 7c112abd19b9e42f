import { defineEventRule } from '../../core/engine.ts';
import { describeValue } from '../../core/finding.ts';
import { isObj } from '../../core/value.ts';
import type { AhpMessage } from '../message.ts';

/** `ahp/intercept-id-mismatch`: a retry reuses both ids, so they must agree. */
export const interceptIdMismatch = defineEventRule({
  id: 'ahp/intercept-id-mismatch',
  severity: 'error',
  description: 'The JSON-RPC id of a hooks/intercept request equals params.event.id.',
  spec: 'AHP base/events.md §Intercept request (AHP-CORE-004)',
  messages: {
    differ:
      'The JSON-RPC `id` of a hooks/intercept request must equal `params.event.id` (found {id} and {eventId}); a retry reuses both.',
  },
  check(msg: AhpMessage, ctx) {
    const v = msg.value;
    if (
      msg.kind === 'event' ||
      msg.kind === 'registration' ||
      v.method !== 'hooks/intercept' ||
      !isObj(v.params) ||
      !isObj(v.params.event)
    )
      return;
    const id = v.id;
    const eventId = v.params.event.id;
    if ((typeof id === 'string' || typeof id === 'number') && typeof eventId === 'string' && id !== eventId)
      ctx.report({ pointer: '/id', args: { id: describeValue(id), eventId: describeValue(eventId) } });
  },
});
