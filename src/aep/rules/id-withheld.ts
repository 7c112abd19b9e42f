import { defineStreamRule } from '../../core/engine.ts';
import { markLocation } from '../../core/mark.ts';
import type { AepFacts } from '../analyzers/model.ts';

/**
 * "Cannot verify", from a bridge: an exporter at its ceiling withholds a payload (AEP-0005 §3.3, §4.6), so copies of one
 * id on both sides of it compare by envelope only. Not a warning: the bridge, not the emitter, hid the content.
 */
export const idWithheld = defineStreamRule({
  id: 'aep/id-withheld',
  severity: 'info',
  description:
    "A repeated (source, id) where a bridge withheld one copy's payload at its ceiling cannot be classified as redelivery or collision: with the same envelope it is not checked as a second event.",
  detail: 'The contents are not compared (AEP-0005 §3.3, §4.6); a different envelope is aep/id-collision.',
  spec: 'AEP-0005 §3.3, §4.6; AEP-0001 §5.1 #2, §7.4',
  messages: {
    this: "Event id {id:json} was already used by this source at {prior}, with the same envelope; the bridge withheld this copy's payload (declared capture {capture}) at its ceiling, so whether the contents agree cannot be verified; it is not checked as a second event.",
    first:
      "Event id {id:json} was already used by this source at {prior}, with the same envelope; the bridge withheld that copy's payload at its ceiling, so whether the contents agree cannot be verified; it is not checked as a second event.",
    both: 'Event id {id:json} was already used by this source at {prior}, with the same envelope; the bridge withheld the payloads of both copies at its ceiling, so whether the contents agree cannot be verified; it is not checked as a second event.',
  },
  on: ['unverifiable'],
  onEvent(f: AepFacts, ctx) {
    if (!f.unverifiable || f.unverifiableWhy !== 'withheld') return;
    const prior = markLocation(f.unverifiable, '/id');
    ctx.report({
      pointer: '/id',
      messageId: f.withheldCopy ?? 'this',
      args: { id: String(f.ev.value.id), prior, capture: f.ev.withheld ?? f.ev.capture },
      related: [prior],
    });
  },
});
