import { defineStreamRule } from '../../core/engine.ts';
import type { AepFacts } from '../analyzers/model.ts';

/** `aep/ack-cause`. */
export const ackCause = defineStreamRule({
  id: 'aep/ack-cause',
  severity: 'error',
  description: 'control.accepted and control.rejected carry cause = the command id.',
  spec: 'AEP-0004 §3, §6',
  messages: { missing: '{type} has no `cause`; an ack names the command it decides by its id.' },
  on: ['ack'],
  onEvent(f: AepFacts, ctx) {
    if (!f.ack || f.ack.cause !== undefined) return;
    ctx.report({ pointer: '/cause', args: { type: f.ev.type } });
  },
});
