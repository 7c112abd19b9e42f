/**
 * aep/ack-cause: an ack (`control.accepted` / `control.rejected`) carries `cause` = the id of
 * the command it decides. AEP-0004 §3, §6.
 */
import { defineStreamRule } from '../../core/engine.ts';
import type { AepFacts } from '../analyzers/model.ts';

/** The `aep/ack-cause` rule, as described in the module comment above. */
export const ackCause = defineStreamRule({
  id: 'aep/ack-cause',
  severity: 'error',
  description: 'control.accepted and control.rejected carry cause = the command id.',
  spec: 'AEP-0004 §3, §6',
  on: ['ack'],
  onEvent(f: AepFacts, ctx) {
    if (!f.ack || f.ack.cause !== undefined) return;
    ctx.report({
      pointer: '/cause',
      message: `${f.ev.type} has no \`cause\`; an ack names the command it decides by its id.`,
    });
  },
});
