/**
 * aep/run-terminal: a run (one `run` value within one `(source, session)`) reaches at most
 * one terminal: `run.finished`, `run.failed` and `run.cancelled` are mutually exclusive and
 * unrepeatable across all epochs. Events after the terminal stay legal; redelivery of the
 * same terminal is deduped first. AEP-0002 §2 convention 5.
 */
import { defineStreamRule } from '../../core/engine.ts';
import { markLocation } from '../../core/mark.ts';
import type { AepFacts } from '../analyzers/model.ts';

/** The `aep/run-terminal` rule, as described in the module comment above. */
export const runTerminal = defineStreamRule({
  id: 'aep/run-terminal',
  severity: 'error',
  description: 'A run reaches at most one terminal (run.finished, run.failed or run.cancelled).',
  spec: 'AEP-0002 §2 convention 5',
  on: ['runTerminal'],
  onEvent(f: AepFacts, ctx) {
    const t = f.runTerminal;
    if (!t) return;
    ctx.report({
      pointer: '/type',
      message: `Run ${JSON.stringify(t.run)} already ended with ${t.priorType} at line ${t.prior.line}; ${f.ev.type} is a second terminal for the same run.`,
      related: [markLocation(t.prior)],
    });
  },
});
