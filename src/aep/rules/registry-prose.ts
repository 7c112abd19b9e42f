/**
 * aep/registry-prose-conflict (warning): the AEP-0002 prose states a constraint that the
 * machine-readable registry schema does not have. AEP-0002 Abstract: "where prose and
 * registry disagree, the registry is authoritative and the disagreement is a defect", so the
 * event is valid (no error), and the conflict is named so that its emitter can still see it.
 * The conflicts (schemas/aep/deviations.json says why they are not listed as deviations there):
 * - AEP-0002 §5.2 citation: `source: {...} REQ`, "`source` is REQUIRED, since a citation with
 *   no source is not a citation"; the registry's citation items require nothing.
 * - AEP-0002 §5.2 guardrail: `categories?: [{ name: string [metadata], score?: ... }]` (`name`
 *   without `?` is required); the registry's category items require nothing.
 * - AEP-0006 / AEP-0002 §5.3 `values`: "a flat map of `field_spec.id` to the field's answer: a
 *   string ..., a number ..., a boolean ..., an array of `choices[].id` strings"; the
 *   registry's `values` is a bare object. An entry of another shape is reported here; against
 *   its form it is also a type error of the form-values rules (AEP-0006 MUST-reject).
 */
import type { EventRule, RuleContext } from '../../core/rule.ts';
import { escapeToken } from '../../core/pointer.ts';
import type { AepEvent } from '../event.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const own = (o: Obj, k: string) => Object.hasOwn(o, k);
const REGISTRY = 'the registry schema, which is authoritative (AEP-0002 Abstract), does not';

/** A value of one of the shapes AEP-0006 lists for a `values` entry. */
function isValuesEntry(v: unknown): boolean {
  const t = typeof v;
  return (
    t === 'string' || t === 'number' || t === 'boolean' || (Array.isArray(v) && v.every((x) => typeof x === 'string'))
  );
}

/** Items of `list` (an array) that are objects lacking `member`: reported as the prose REQ conflict. */
function missingMember(
  list: unknown,
  base: string,
  what: string,
  member: string,
  where: string,
  ctx: RuleContext,
): void {
  if (!Array.isArray(list)) return;
  list.forEach((x, i) => {
    if (isObj(x) && !own(x, member)) {
      ctx.report({
        pointer: `${base}/${i}`,
        message: `${what} ${i} has no \`${member}\`: ${where} marks it REQUIRED, but ${REGISTRY} require it (prose and registry conflict; the event stays valid).`,
      });
    }
  });
}

/** The `aep/registry-prose-conflict` rule, as described in the module comment above. */
export const registryProseConflict: EventRule<AepEvent> = {
  id: 'aep/registry-prose-conflict',
  severity: 'warning',
  description:
    'A constraint of the AEP-0002 / AEP-0006 prose that the authoritative registry schema lacks is met: a citation has its REQ `source`, a guardrail category its REQ `name`, and each `answer.values` entry is a string, number, boolean or array of strings. A miss is reported as the conflict it is, not an error.',
  spec: 'AEP-0002 Abstract, §5.2 citation, guardrail; AEP-0006 values',
  check(ev, ctx) {
    const d = ev.value.data;
    if (!isObj(d)) return;
    switch (ev.type) {
      case 'resource.citation.recorded':
        missingMember(
          d.citations,
          '/data/citations',
          'Citation',
          'source',
          'AEP-0002 §5.2 ("a citation with no source is not a citation")',
          ctx,
        );
        return;
      case 'assessment.guardrail.recorded':
        if (isObj(d.guardrail))
          missingMember(
            d.guardrail.categories,
            '/data/guardrail/categories',
            'Guardrail category',
            'name',
            'AEP-0002 §5.2 guardrail',
            ctx,
          );
        return;
      case 'attention.answered':
      case 'control.attention.respond': {
        const values = isObj(d.answer) ? d.answer.values : undefined;
        if (!isObj(values)) return;
        for (const k of Object.keys(values)) {
          if (isValuesEntry(values[k])) continue;
          const v = values[k];
          const shape =
            v === null
              ? 'null'
              : Array.isArray(v)
                ? 'an array with non-string items'
                : `a${typeof v === 'object' ? 'n' : ''} ${typeof v}`;
          ctx.report({
            pointer: `/data/answer/values/${escapeToken(k)}`,
            message: `This \`values\` entry is ${shape}: AEP-0006 makes each entry a string, number, boolean or array of choice ids, but ${REGISTRY} constrain the entries (prose and registry conflict).`,
          });
        }
        return;
      }
    }
  },
};
