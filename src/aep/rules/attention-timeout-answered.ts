import { defineStreamRule } from '../../core/engine.ts';
import { markLocation } from '../../core/mark.ts';
import type { AepFacts } from '../analyzers/model.ts';

/** A warning as `aep/attention-answered-late` is: the §7 order, not a MUST of the emitter's (README §AEP-0002). */
export const attentionTimeoutAnswered = defineStreamRule({
  id: 'aep/attention-timeout-answered',
  severity: 'warning',
  description:
    'An attention request its emitter session answered (attention.answered) is closed by attention.resolved, not by attention.timeout.',
  detail:
    'A timeout is a request that "expired unanswered" (AEP-0002 §4.1); after attention.answered the §7 lifecycle goes on to attention.resolved.',
  spec: 'AEP-0002 §4.1, §7',
  messages: {
    answered:
      'attention.timeout for request {subject:json}, which was answered at {answered}: a timeout is a request that expired unanswered, and an answered request resolves (attention.resolved, AEP-0002 §4.1, §7).',
  },
  on: ['timeoutAnswered'],
  onEvent(f: AepFacts, ctx) {
    const at = markLocation(f.timeoutAnswered!);
    ctx.report({ pointer: '/type', args: { subject: f.ev.value.subject as string, answered: at }, related: [at] });
  },
});
