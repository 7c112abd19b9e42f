import { defineStreamRule } from '../../core/engine.ts';
import { markLocation } from '../../core/mark.ts';
import type { AepFacts } from '../analyzers/model.ts';

/** `aep/assessment-target-mismatch`. Decided when the event `cause` names is in the input with a `run`. */
export const assessmentTargetMismatch = defineStreamRule({
  id: 'aep/assessment-target-mismatch',
  severity: 'error',
  description:
    "An assessment whose cause names an assessed event in the input carries that event's run and session in its own envelope.",
  detail:
    "An assessed event is a run terminal, tool.completed, tool.failed or message.agent.replied with a run (AEP-0009 §2: the assessed run and session are named by the envelope's run and session, the assessed event by cause).",
  spec: 'AEP-0009 §2',
  messages: {
    session:
      'The event this {type} judges (its cause, at {assessed}) is in another session; the assessed run and session are named by the envelope of the assessment.',
    run: 'The event this {type} judges (its cause, at {assessed}) belongs to another run than this envelope names; the assessed run and session are named by the envelope of the assessment.',
  },
  on: ['assessedElsewhere'],
  onEvent(f: AepFacts, ctx) {
    // a member that failed the schema stage is unknown, not absent: its own finding says so
    if (f.ev.untrusted?.has('run') || f.ev.untrusted?.has('cause')) return;
    const a = f.assessedElsewhere;
    if (!a) return;
    const assessed = markLocation(a.at, a.type === 'run' ? '/run' : '/session');
    ctx.report({ pointer: `/${a.type}`, messageId: a.type, args: { type: f.ev.type, assessed }, related: [assessed] });
  },
});
