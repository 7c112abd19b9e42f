import { defineStreamRule } from '../../core/engine.ts';
import type { AepFacts } from '../analyzers/model.ts';

/** `aep/attention-subject`. */
export const attentionSubject = defineStreamRule({
  id: 'aep/attention-subject',
  severity: 'error',
  description: 'Attention lifecycle events and control.attention.respond carry subject = the attention request id.',
  spec: 'AEP-0002 §7.1; AEP-0004 §5, §6',
  messages: { missing: '{type} has no `subject`; it must name the id of the attention.requested event it belongs to.' },
  on: ['attention'],
  onEvent(f: AepFacts, ctx) {
    if (!f.attention || f.attention.subject !== undefined) return;
    ctx.report({ pointer: '/subject', args: { type: f.ev.type } });
  },
});
