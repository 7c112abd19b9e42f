import { defineStreamRule } from '../../core/engine.ts';
import { markLocation } from '../../core/mark.ts';
import { copiesAt } from '../analyzers/identity-facts.ts';
import type { AepFacts } from '../analyzers/model.ts';

/**
 * `aep/ack-exclusive`. A byte-identical re-ack is redelivery, deduped by the identity analyzer first; one under the same
 * id with other content is reported here as a re-emit that is not byte-identical.
 */
export const ackExclusive = defineStreamRule({
  id: 'aep/ack-exclusive',
  severity: 'error',
  description:
    'A target makes one ack decision per command: one distinct ack per (ack source, cause), re-emitted only byte-identically.',
  spec: 'AEP-0004 §3',
  messages: {
    second:
      'Command {cause:json} was already acknowledged by this source at {prior}; this is a second {type}, but a target makes exactly one ack decision per command.',
    reemit:
      'Command {cause:json} was already acknowledged by this source at {prior} under this same ack id; this copy differs from it, but a target re-emits the recorded ack byte-identically (same id, same position), never a second decision.',
    conflicting:
      'Command {cause:json} was already acknowledged by this source at {prior}; this is a conflicting decision ({type} after {priorType}), but a target makes exactly one ack decision per command.',
  },
  on: ['ack'],
  onEvent(f: AepFacts, ctx) {
    const prior = f.ack?.prior;
    const cause = f.ack?.cause;
    if (!prior || cause === undefined) return;
    const at = markLocation(prior.at);
    // the same ack id again: a re-emit (AEP-0004 §3), one finding here (aep/id-collision steps aside); a copy that
    // cannot be compared is aep/id-unverifiable's
    const copy = copiesAt(f, prior.at);
    if (copy && !f.collision) return;
    ctx.report({
      pointer: copy ? '/id' : '/cause',
      messageId: copy ? 'reemit' : prior.type === f.ev.type ? 'second' : 'conflicting',
      args: { cause, prior: at, type: f.ev.type, priorType: prior.type },
      related: [at],
    });
  },
});
