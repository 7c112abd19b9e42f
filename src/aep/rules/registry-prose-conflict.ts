import { defineEventRule } from '../../core/engine.ts';
import { escapeToken } from '../../core/pointer.ts';
import type { RuleContext } from '../../core/rule.ts';
import { isObj, own } from '../../core/value.ts';
import type { AepEvent } from '../event.ts';

/** The rule's templates, shared with the helpers that report for it. */
const MESSAGES = {
  citation:
    'Citation {index} has no `source`: AEP-0002 §5.2 ("a citation with no source is not a citation") marks it REQUIRED, but the registry schema, which is authoritative (AEP-0002 Abstract), does not require it (prose and registry conflict; the event stays valid).',
  category:
    'Guardrail category {index} has no `name`: AEP-0002 §5.2 guardrail marks it REQUIRED, but the registry schema, which is authoritative (AEP-0002 Abstract), does not require it (prose and registry conflict; the event stays valid).',
  values:
    'This `values` entry is {shape}: AEP-0006 makes each entry a string, number, boolean or array of choice ids, but the registry schema, which is authoritative (AEP-0002 Abstract), does not constrain the entries (prose and registry conflict).',
} as const;

/** A value of one of the shapes AEP-0006 lists for a `values` entry. */
function isValuesEntry(v: unknown): boolean {
  const t = typeof v;
  return (
    t === 'string' || t === 'number' || t === 'boolean' || (Array.isArray(v) && v.every((x) => typeof x === 'string'))
  );
}

/** Object items of `list` lacking `member`, which the prose marks REQ and the registry does not require. */
function missingMember(
  list: unknown,
  base: string,
  member: string,
  messageId: 'citation' | 'category',
  ctx: RuleContext<typeof MESSAGES>,
): void {
  if (!Array.isArray(list)) return;
  list.forEach((x, index) => {
    if (isObj(x) && !own(x, member)) ctx.report({ pointer: `${base}/${index}`, messageId, args: { index } });
  });
}

/**
 * AEP-0002 Abstract: "the registry is authoritative and the disagreement is a defect": the event stays valid, the
 * conflict named (schemas/aep/deviations.json says why).
 */
export const registryProseConflict = defineEventRule({
  id: 'aep/registry-prose-conflict',
  severity: 'warning',
  description: 'A constraint of the AEP-0002 / AEP-0006 prose that the authoritative registry schema lacks is met.',
  detail:
    'A citation has its REQ `source`, a guardrail category its REQ `name`, and each `answer.values` entry is a string, number, boolean or array of strings. A miss is reported as the conflict it is, not an error.',
  spec: 'AEP-0002 Abstract, §5.2 citation, guardrail; AEP-0006 values',
  messages: MESSAGES,
  types: [
    'resource.citation.recorded',
    'assessment.guardrail.recorded',
    'attention.answered',
    'control.attention.respond',
  ],
  check(ev: AepEvent, ctx) {
    const d = ev.value.data;
    if (!isObj(d)) return;
    switch (ev.type) {
      case 'resource.citation.recorded':
        missingMember(d.citations, '/data/citations', 'source', 'citation', ctx);
        return;
      case 'assessment.guardrail.recorded':
        if (isObj(d.guardrail))
          missingMember(d.guardrail.categories, '/data/guardrail/categories', 'name', 'category', ctx);
        return;
      case 'attention.answered':
      case 'control.attention.respond': {
        const values = isObj(d.answer) ? d.answer.values : undefined;
        if (!isObj(values)) return;
        for (const k of Object.keys(values)) {
          const v = values[k];
          if (isValuesEntry(v)) continue;
          const shape =
            v === null
              ? 'null'
              : Array.isArray(v)
                ? 'an array with non-string items'
                : `a${typeof v === 'object' ? 'n' : ''} ${typeof v}`;
          ctx.report({ pointer: `/data/answer/values/${escapeToken(k)}`, messageId: 'values', args: { shape } });
        }
        return;
      }
    }
  },
});
