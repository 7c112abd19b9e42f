import { defineStreamRule } from '../../core/engine.ts';
import { markLocation } from '../../core/mark.ts';
import type { AepFacts } from '../analyzers/model.ts';

/** `aep/attention-terminal`: also when the request itself is not in the stream. */
export const attentionTerminal = defineStreamRule({
  id: 'aep/attention-terminal',
  severity: 'error',
  description: 'An attention request reaches at most one terminal (attention.resolved or attention.timeout).',
  detail:
    "A copy under the first terminal's own (source, id) is one event to a consumer that dedupes: aep/id-collision (or aep/redelivery) judges it, never this rule.",
  spec: 'AEP-0002 §2 convention 5, §7',
  messages: {
    second:
      'Attention request {subject:json} already reached its terminal ({priorType}) at {prior}; {type} is a second terminal.',
  },
  on: ['attention'],
  onEvent(f: AepFacts, ctx) {
    const prior = f.attention?.priorTerminal;
    const subject = f.attention?.subject;
    if (!prior || subject === undefined) return;
    const at = markLocation(prior.at);
    ctx.report({
      pointer: '/subject',
      args: { subject, priorType: prior.type, prior: at, type: f.ev.type },
      related: [at],
    });
  },
});
