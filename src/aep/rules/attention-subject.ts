/**
 * aep/attention-subject: every attention lifecycle event after the request
 * (`attention.routed`, `.answered`, `.resolved`, `.timeout`) and every
 * `control.attention.respond` sets `subject` to the `id` of the `attention.requested` event.
 * AEP-0002 §7.1; AEP-0004 §5, §6.
 */
import { defineStreamRule } from '../../core/engine.ts';
import type { AepFacts } from '../analyzers/model.ts';

/** The `aep/attention-subject` rule, as described in the module comment above. */
export const attentionSubject = defineStreamRule({
  id: 'aep/attention-subject',
  severity: 'error',
  description: 'Attention lifecycle events and control.attention.respond carry subject = the attention request id.',
  spec: 'AEP-0002 §7.1; AEP-0004 §5, §6',
  on: ['attention'],
  onEvent(f: AepFacts, ctx) {
    if (!f.attention || f.attention.subject !== undefined) return;
    ctx.report({
      pointer: '/subject',
      message: `${f.ev.type} has no \`subject\`; it must name the id of the attention.requested event it belongs to.`,
    });
  },
});
