import { defineEventRule } from '../../core/engine.ts';
import { isObj } from '../../core/value.ts';
import type { AhpMessage } from '../message.ts';

/** `ahp/attention-shape`: the prose's single text part, against the schema's list. */
export const attentionShape = defineEventRule({
  id: 'ahp/attention-shape',
  severity: 'warning',
  description:
    'user.attention message and title are lists of text parts in the draft schema; a single text part (the prose wording), or a list of several, is a warning.',
  spec: 'AHP interaction-payloads.md (attention message and title)',
  messages: {
    single:
      'Attention `{member}` is a single text part; the draft schema types it as a list of text parts (the prose calls it a singular text part), so receivers may expect a list.',
    several:
      'Attention `{member}` is a list of {count} text parts; the prose calls it a singular text part (interaction-payloads.md), which a list of one (or the single part) satisfies.',
  },
  types: ['user.attention'],
  check(msg: AhpMessage, ctx) {
    const event = msg.event;
    if (msg.eventPointer === undefined || !event || event.type !== 'user.attention' || !isObj(event.attention)) return;
    for (const member of ['message', 'title'] as const) {
      const v = event.attention[member];
      const pointer = `${msg.eventPointer}/attention/${member}`;
      if (isObj(v)) ctx.report({ pointer, messageId: 'single', args: { member } });
      // the schema's list takes any length, the sentence one part: a second part breaks only the sentence
      else if (Array.isArray(v) && v.length > 1)
        ctx.report({ pointer: `${pointer}/1`, messageId: 'several', args: { member, count: v.length } });
    }
  },
});
