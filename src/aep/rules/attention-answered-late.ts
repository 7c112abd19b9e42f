import { defineStreamRule } from '../../core/engine.ts';
import { markLocation } from '../../core/mark.ts';
import type { AepFacts } from '../analyzers/model.ts';

/**
 * `aep/attention-answered-late`: a warning, not an error: AEP-0002 §2 convention 5 keeps session-scoped events after a
 * terminal legal ("asynchronous hook runtimes deliver late completions"), so only the §7 order is judged.
 */
export const attentionAnsweredLate = defineStreamRule({
  id: 'aep/attention-answered-late',
  severity: 'warning',
  description:
    "An attention.answered comes before its request's terminal (attention.resolved or attention.timeout) from the same emitter session.",
  detail:
    'The lifecycle runs requested, routed, answered, then resolved, and a timeout is a request that expired unanswered.',
  spec: 'AEP-0002 §7, §4.1',
  messages: {
    late: "attention.answered for request {subject:json} comes after the request's terminal ({priorType}) at {prior}; the lifecycle answers before it resolves or times out (AEP-0002 §7).",
  },
  on: ['answeredLate'],
  onEvent(f: AepFacts, ctx) {
    const prior = f.answeredLate!;
    const at = markLocation(prior.at);
    ctx.report({
      pointer: '/subject',
      args: { subject: f.ev.value.subject as string, priorType: prior.type, prior: at },
      related: [at],
    });
  },
});
