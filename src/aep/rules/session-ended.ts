/**
 * aep/session-ended: at most one distinct `session.ended` per `(source, session)`, across all
 * epochs (an exact repeat is redelivery, deduped first). AEP-0002 §2 convention 5.
 */
import { defineStreamRule } from '../../core/engine.ts';
import { markLocation } from '../../core/mark.ts';
import type { AepFacts } from '../analyzers/model.ts';

/** The `aep/session-ended` rule, as described in the module comment above. */
export const sessionEnded = defineStreamRule({
  id: 'aep/session-ended',
  severity: 'error',
  description: 'A session has at most one distinct session.ended.',
  spec: 'AEP-0002 §2 convention 5',
  on: ['sessionEnded'],
  onEvent(f: AepFacts, ctx) {
    if (!f.sessionEnded) return;
    ctx.report({
      pointer: '/type',
      message: `This session already ended at line ${f.sessionEnded.line}; a second distinct session.ended is a second terminal for the session.`,
      related: [markLocation(f.sessionEnded)],
    });
  },
});
