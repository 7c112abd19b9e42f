import { defineEventRule } from '../../core/engine.ts';
import { isObj } from '../../core/value.ts';
import { ASSESSMENT_TYPES, isAssessment, isTargetIdName } from '../assessment.ts';
import type { AepEvent } from '../event.ts';

/** `aep/assessment-target-id`. The names are read by a pattern; the payload is open, so any other member passes. */
export const assessmentTargetId = defineEventRule({
  id: 'aep/assessment-target-id',
  severity: 'error',
  description:
    'An assessment payload carries no separate response or target id: the envelope (run, session, cause) is the link (AEP-0009 §2: "A payload MUST NOT introduce a separate response/target id"). A member of the payload, or of one object inside it, whose name reads as a target id (its letters end in "id" after a word naming assessed work, e.g. gen_ai.response.id, target_id, run_id, event_id, or the name is target) is reported.',
  spec: 'AEP-0009 §2, §6',
  messages: {
    member:
      'The assessment payload member {member:json} reads as a separate target id; an assessment names the work it judges through the envelope (run, session, cause), never a payload id.',
  },
  types: ASSESSMENT_TYPES,
  check(ev: AepEvent, ctx) {
    if (!isAssessment(ev.type)) return;
    const data = ev.value.data;
    if (!isObj(data)) return;
    for (const [k, v] of Object.entries(data)) {
      if (isTargetIdName(k)) ctx.report({ pointer: `/data/${esc(k)}`, args: { member: k } });
      else if (isObj(v))
        for (const k2 of Object.keys(v))
          if (isTargetIdName(k2)) ctx.report({ pointer: `/data/${esc(k)}/${esc(k2)}`, args: { member: `${k}.${k2}` } });
    }
  },
});

/** An RFC 6901 reference token. */
function esc(k: string): string {
  return k.replace(/~/g, '~0').replace(/\//g, '~1');
}
