import { defineStreamRule } from '../../core/engine.ts';
import { markLocation } from '../../core/mark.ts';
import type { AepFacts } from '../analyzers/model.ts';

/** `aep/ack-exclusive`. A byte-identical re-ack is redelivery, deduped by the identity analyzer first. */
export const ackExclusive = defineStreamRule({
  id: 'aep/ack-exclusive',
  severity: 'error',
  description: 'A target makes one ack decision per command: one distinct ack per (ack source, cause).',
  spec: 'AEP-0004 §3',
  messages: {
    second:
      'Command {cause:json} was already acknowledged by this source at {prior}; this is a second {type}, but a target makes exactly one ack decision per command.',
    conflicting:
      'Command {cause:json} was already acknowledged by this source at {prior}; this is a conflicting decision ({type} after {priorType}), but a target makes exactly one ack decision per command.',
  },
  on: ['ack'],
  onEvent(f: AepFacts, ctx) {
    const prior = f.ack?.prior;
    const cause = f.ack?.cause;
    if (!prior || cause === undefined) return;
    const at = markLocation(prior.at);
    ctx.report({
      pointer: '/cause',
      messageId: prior.type === f.ev.type ? 'second' : 'conflicting',
      args: { cause, prior: at, type: f.ev.type, priorType: prior.type },
      related: [at],
    });
  },
});
