/**
 * aep/ack-exclusive: one ack decision per command: for one `(ack source, cause)` at most one
 * distinct `control.accepted` / `control.rejected` (a byte-identical re-ack is redelivery,
 * deduped first). Rejection reasons come from the registry enum, which the
 * `control.rejected` payload schema already checks (aep/payload-schema).
 * AEP-0004 §3.
 */
import { defineStreamRule } from '../../core/engine.ts';
import { markLocation } from '../../core/mark.ts';
import type { AepFacts } from './model.ts';

/** The `aep/ack-exclusive` rule, as described in the module comment above. */
export const ackExclusive = defineStreamRule({
  id: 'aep/ack-exclusive',
  severity: 'error',
  description: 'A target makes one ack decision per command: one distinct ack per (ack source, cause).',
  spec: 'AEP-0004 §3',
  on: ['ack'],
  onEvent(f: AepFacts, ctx) {
    const prior = f.ack?.prior;
    if (!prior) return;
    const how =
      prior.type === f.ev.type ? `a second ${f.ev.type}` : `a conflicting decision (${f.ev.type} after ${prior.type})`;
    ctx.report({
      pointer: '/cause',
      message: `Command ${JSON.stringify(f.ack!.cause)} was already acknowledged by this source at line ${prior.at.line}; this is ${how}, but a target makes exactly one ack decision per command.`,
      related: [markLocation(prior.at)],
    });
  },
});
