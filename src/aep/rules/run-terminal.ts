import { defineStreamRule } from '../../core/engine.ts';
import { markLocation } from '../../core/mark.ts';
import type { AepFacts } from '../analyzers/model.ts';

/** `aep/run-terminal`: across all epochs; events after the terminal stay legal. */
export const runTerminal = defineStreamRule({
  id: 'aep/run-terminal',
  severity: 'error',
  description: 'A run reaches at most one terminal (run.finished, run.failed or run.cancelled).',
  detail:
    "A copy under the first terminal's own (source, id) is one event to a consumer that dedupes: aep/id-collision (or aep/redelivery) judges it, never this rule.",
  spec: 'AEP-0002 §2 convention 5',
  messages: {
    second: 'Run {run:json} already ended with {priorType} at {prior}; {type} is a second terminal for the same run.',
  },
  on: ['runTerminal'],
  onEvent(f: AepFacts, ctx) {
    const t = f.runTerminal;
    if (!t) return;
    const prior = markLocation(t.prior);
    ctx.report({
      pointer: '/type',
      args: { run: t.run, priorType: t.priorType, prior, type: f.ev.type },
      related: [prior],
    });
  },
});
