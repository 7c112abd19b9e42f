/**
 * aep/attention-terminal: an attention request reaches at most one terminal
 * (`attention.resolved` or `attention.timeout`, matched by `subject` within the same
 * `(source, session)`), also when the request itself is not in the stream.
 * AEP-0002 §2 convention 5, §7.
 */
import { defineStreamRule } from '../../core/engine.ts';
import { markLocation } from '../../core/mark.ts';
import type { AepFacts } from '../analyzers/model.ts';

/** The `aep/attention-terminal` rule, as described in the module comment above. */
export const attentionTerminal = defineStreamRule({
  id: 'aep/attention-terminal',
  severity: 'error',
  description: 'An attention request reaches at most one terminal (attention.resolved or attention.timeout).',
  spec: 'AEP-0002 §2 convention 5, §7',
  on: ['attention'],
  onEvent(f: AepFacts, ctx) {
    const prior = f.attention?.priorTerminal;
    if (!prior) return;
    ctx.report({
      pointer: '/subject',
      message: `Attention request ${JSON.stringify(f.attention!.subject)} already reached its terminal (${prior.type}) at line ${prior.at.line}; ${f.ev.type} is a second terminal.`,
      related: [markLocation(prior.at)],
    });
  },
});
