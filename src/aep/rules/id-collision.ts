/**
 * aep/id-collision: one emitter used one `id` for two different events.
 *
 * `id` is unique per emitter (`source`) and is the dedupe key `(source, id)`; a second event
 * with the same `(source, id)` and different canonical content is not redelivery but a
 * collision. The same `id` from two sources is legal and never compared. Reads the identity
 * facts (identity.ts). AEP-0001 §5.1 #2, §7.4.
 */
import { defineStreamRule } from '../../core/engine.ts';
import { markLocation } from '../../core/mark.ts';
import type { AepFacts } from '../analyzers/model.ts';

/** The `aep/id-collision` rule, as described in the module comment above. */
export const idCollision = defineStreamRule({
  id: 'aep/id-collision',
  severity: 'error',
  description: 'The same (source, id) never names two events with different content.',
  spec: 'AEP-0001 §5.1 #2, §7.4',
  on: ['collision'],
  onEvent(f: AepFacts, ctx) {
    if (!f.collision) return;
    ctx.report({
      pointer: '/id',
      message: `Event id ${JSON.stringify(f.ev.value.id)} was already used by this source at line ${f.collision.line} for an event with different content; an id is unique per emitter (a redelivery repeats the event exactly).`,
      related: [markLocation(f.collision, '/id')],
    });
  },
});
