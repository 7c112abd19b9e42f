import { defineEventRule } from '../../core/engine.ts';
import { ASSESSMENT_TYPES, isAssessment } from '../assessment.ts';
import type { AepEvent } from '../event.ts';

/** `aep/assessment-run`: a warning, as a whole-session assessment has no run (AEP-0009 §2; see `detail`). */
export const assessmentRun = defineEventRule({
  id: 'aep/assessment-run',
  severity: 'warning',
  description: 'An assessment names the run it judges in the envelope attribute run.',
  detail:
    'AEP-0009 §2: "the assessed run and session are named by the envelope\'s run and session". A warning: an assessment of a whole session has no run, and the stream cannot tell which one an event without run is.',
  spec: 'AEP-0009 §2',
  messages: {
    missing:
      'This {type} has no `run`; the assessed run is named by the envelope attribute run (an assessment of a whole session has none).',
  },
  types: ASSESSMENT_TYPES,
  check(ev: AepEvent, ctx) {
    // a member that failed the schema stage is unknown, not absent: its own finding says so
    if (ev.untrusted?.has('run')) return;
    if (!isAssessment(ev.type)) return;
    if (typeof ev.value.run === 'string') return;
    ctx.report({ pointer: '/run', args: { type: ev.type } });
  },
});
