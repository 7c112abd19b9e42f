import { defineEventRule } from '../../core/engine.ts';
import { isObj } from '../../core/value.ts';
import { ASSESSMENT_MEMBERS, ASSESSMENT_TYPES, isAssessment, isTargetIdName } from '../assessment.ts';
import type { AepEvent } from '../event.ts';

/** `aep/assessment-target-id`. The names are read by a pattern; the payload is open, so any other member passes. */
export const assessmentTargetId = defineEventRule({
  id: 'aep/assessment-target-id',
  severity: 'error',
  description:
    'An assessment payload carries no separate response or target id: the envelope (run, session, cause) is the link.',
  detail:
    'AEP-0009 §2: "A payload MUST NOT introduce a separate response/target id". A member of the payload, or of one object inside it, whose name reads as a target id (its letters end in "id" after a word naming assessed work, e.g. gen_ai.response.id, target_id, run_id, event_id, or target with a reference word: target_event, targetRef) is reported, and so is a member AEP-0009 does not define whose string value repeats the envelope\'s cause or run (the target id itself).',
  spec: 'AEP-0009 §2, §6',
  messages: {
    member:
      'The assessment payload member {member:json} reads as a separate target id; an assessment names the work it judges through the envelope (run, session, cause), never a payload id.',
    value:
      'The assessment payload member {member:json} repeats the envelope {attr} as a separate target id; an assessment names the work it judges through the envelope (run, session, cause), never a payload id.',
  },
  types: ASSESSMENT_TYPES,
  check(ev: AepEvent, ctx) {
    if (!isAssessment(ev.type)) return;
    const data = ev.value.data;
    if (!isObj(data)) return;
    const links: [string, unknown][] = [
      ['cause', ev.value.cause],
      ['run', ev.value.run],
    ];
    const member = (pointer: string, name: string, k: string, v: unknown) => {
      const link = ASSESSMENT_MEMBERS.has(k) ? undefined : links.find(([, id]) => typeof id === 'string' && id === v);
      if (isTargetIdName(k)) ctx.report({ pointer, messageId: 'member', args: { member: name } });
      else if (link) ctx.report({ pointer, messageId: 'value', args: { member: name, attr: link[0] } });
      return !isTargetIdName(k);
    };
    for (const [k, v] of Object.entries(data)) {
      if (member(`/data/${esc(k)}`, k, k, v) && isObj(v))
        for (const [k2, v2] of Object.entries(v)) member(`/data/${esc(k)}/${esc(k2)}`, `${k}.${k2}`, k2, v2);
    }
  },
});

/** An RFC 6901 reference token. */
function esc(k: string): string {
  return k.replace(/~/g, '~0').replace(/\//g, '~1');
}
