import { defineStreamRule } from '../../core/engine.ts';
import { markLocation } from '../../core/mark.ts';
import { copiesAt } from '../analyzers/identity-facts.ts';
import type { AepFacts } from '../analyzers/model.ts';

/** `aep/id-collision`: the same `id` from two sources is legal and never compared. */
export const idCollision = defineStreamRule({
  id: 'aep/id-collision',
  severity: 'error',
  description: 'The same (source, id) never names two events with different content.',
  spec: 'AEP-0001 §5.1 #2, §7.4',
  messages: {
    collision:
      'Event id {id:json} was already used by this source at {prior} for an event with different content; an id is unique per emitter (a redelivery repeats the event exactly).',
  },
  on: ['collision'],
  onEvent(f: AepFacts, ctx) {
    if (!f.collision) return;
    // an ack under the id of the earlier ack of its command: a re-emit not byte-identical, aep/ack-exclusive's (AEP-0004 §3)
    if (f.ack?.prior && copiesAt(f, f.ack.prior.at)) return;
    const prior = markLocation(f.collision, '/id');
    ctx.report({ pointer: '/id', args: { id: String(f.ev.value.id), prior }, related: [prior] });
  },
});
