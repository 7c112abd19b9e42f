/**
 * Per-event rules over a message's JSON-RPC envelope and its event that JSON Schema cannot
 * express: the intercept request id (AHP base/events.md §Intercept request) and the attention
 * text shape (AHP interaction-payloads.md).
 */
import { describeValue } from '../../core/finding.ts';
import { defineEventRule } from '../../core/engine.ts';
import type { AhpMessage } from '../message.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A hooks/intercept request's JSON-RPC id equals `params.event.id` (a retry reuses both). */
export const interceptIdMismatch = defineEventRule<AhpMessage, 'ahp/intercept-id-mismatch'>({
  id: 'ahp/intercept-id-mismatch',
  severity: 'error',
  description: 'The JSON-RPC id of a hooks/intercept request equals params.event.id.',
  spec: 'AHP base/events.md §Intercept request (AHP-CORE-004)',
  check(msg, ctx) {
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
    if ((typeof id === 'string' || typeof id === 'number') && typeof eventId === 'string' && id !== eventId) {
      ctx.report({
        pointer: '/id',
        message: `The JSON-RPC \`id\` of a hooks/intercept request must equal \`params.event.id\` (found ${describeValue(id)} and ${describeValue(eventId)}); a retry reuses both.`,
      });
    }
  },
});

/** user.attention `message` / `title` as a single text part: the prose wording, not the schema's list. */
export const attentionShape = defineEventRule<AhpMessage, 'ahp/attention-shape'>({
  id: 'ahp/attention-shape',
  severity: 'warning',
  description:
    'user.attention message and title are lists of text parts in the draft schema; a single text part (the prose wording) is accepted with a warning.',
  spec: 'AHP interaction-payloads.md (attention message and title)',
  check(msg, ctx) {
    const event = msg.event;
    if (msg.eventPointer === undefined || !event || event.type !== 'user.attention' || !isObj(event.attention)) return;
    for (const k of ['message', 'title'] as const) {
      if (isObj(event.attention[k])) {
        ctx.report({
          pointer: `${msg.eventPointer}/attention/${k}`,
          message: `Attention \`${k}\` is a single text part; the draft schema types it as a list of text parts (the prose calls it a singular text part), so receivers may expect a list.`,
        });
      }
    }
  },
});
