import { defineStreamRule } from '../../core/engine.ts';
import { markLocation } from '../../core/mark.ts';
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
    const prior = markLocation(f.collision, '/id');
    ctx.report({ pointer: '/id', args: { id: String(f.ev.value.id), prior }, related: [prior] });
  },
});
