import { defineStreamRule } from '../../core/engine.ts';
import { markLocation } from '../../core/mark.ts';
import type { AepFacts } from '../analyzers/model.ts';

/**
 * Legal at-least-once delivery, but a capture has no fan-out to dedupe for it: a warning. Nothing after identity runs
 * on it.
 */
export const redelivery = defineStreamRule({
  id: 'aep/redelivery',
  severity: 'warning',
  description:
    'An event repeated under the same (source, id), exactly or down-leveled to a lower capture, is redelivery: reported once and counted once.',
  spec: 'AEP-0001 §7.4, §8.2(b); AEP-0002 §2 convention 5; AEP-0004 §3',
  messages: {
    exact:
      'This event repeats the event at {prior} exactly (same source and id {id:json}, same canonical content): a redelivery, counted once.',
    downleveled:
      "This event repeats the event at {prior} down-leveled from {from} to {capture} (same source, id and envelope; the content is that event's at this capture): a redelivery, counted once.",
  },
  on: ['redelivery'],
  onEvent(f: AepFacts, ctx) {
    if (!f.redelivery) return;
    const prior = markLocation(f.redelivery);
    ctx.report({
      messageId: f.downleveledFrom ? 'downleveled' : 'exact',
      args: { prior, id: String(f.ev.value.id), from: f.downleveledFrom, capture: f.ev.capture },
      related: [prior],
    });
  },
});
