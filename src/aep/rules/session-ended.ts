import { defineStreamRule } from '../../core/engine.ts';
import { markLocation } from '../../core/mark.ts';
import type { AepFacts } from '../analyzers/model.ts';

/** `aep/session-ended`: across all epochs. */
export const sessionEnded = defineStreamRule({
  id: 'aep/session-ended',
  severity: 'error',
  description: 'A session has at most one distinct session.ended.',
  detail:
    "A copy under the first terminal's own (source, id) is one event to a consumer that dedupes: aep/id-collision (or aep/redelivery) judges it, never this rule.",
  spec: 'AEP-0002 §2 convention 5',
  messages: {
    second:
      'This session already ended at {prior}; a second distinct session.ended is a second terminal for the session.',
  },
  on: ['sessionEnded'],
  onEvent(f: AepFacts, ctx) {
    if (!f.sessionEnded) return;
    const prior = markLocation(f.sessionEnded);
    ctx.report({ pointer: '/type', args: { prior }, related: [prior] });
  },
});
