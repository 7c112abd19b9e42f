import { defineEventRule } from '../../core/engine.ts';
import { ASSESSMENT_TYPES, isAssessment } from '../assessment.ts';
import type { AepEvent } from '../event.ts';

/** `aep/assessment-cause`. A SHOULD, hence a warning. */
export const assessmentCause = defineEventRule({
  id: 'aep/assessment-cause',
  severity: 'warning',
  description:
    "An assessment names the specific event it judges in cause (AEP-0009 §2, §6: the assessed event, e.g. a run.finished, SHOULD be named by the envelope's cause).",
  spec: 'AEP-0009 §2, §6',
  messages: {
    missing:
      "This {type} has no `cause`; an assessment should name the event it judges (e.g. the run's terminal) in cause.",
  },
  types: ASSESSMENT_TYPES,
  check(ev: AepEvent, ctx) {
    // a member that failed the schema stage is unknown, not absent: its own finding says so
    if (ev.untrusted?.has('cause')) return;
    if (!isAssessment(ev.type)) return;
    if (typeof ev.value.cause === 'string') return;
    ctx.report({ pointer: '/cause', args: { type: ev.type } });
  },
});
