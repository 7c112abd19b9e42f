import { defineEventRule } from '../../core/engine.ts';
import { compareNumberLiterals, numberLiteralAt } from '../../core/json.ts';
import { isObj, own } from '../../core/value.ts';
import type { AepEvent } from '../event.ts';
import { requestData } from '../form-text.ts';

/** `aep/form-field-constraint`. */
export const formFieldConstraint = defineEventRule({
  id: 'aep/form-field-constraint',
  severity: 'warning',
  description: '`multi` (but its default false) appears only on select fields, and min <= max.',
  detail:
    'A warning: AEP-0006 calls `multi` "only meaningful when type:"select"" (no prohibition; `multi: false`, its default written out, is not noted), and no sentence states min <= max (such a field cannot be answered); `min`/`max` off a number field and `other` off a select field are aep/form-field-misplaced (an error). AEP-0006 types the bounds `number` with no range limit, so a literal beyond a double (1e400) is a bound like any other and min <= max is decided on the exact literals; an answer value beyond a double is a number too (AEP-0006 checks no answer against the bounds).',
  spec: 'AEP-0006; AEP-0002 §5.2 field_spec',
  messages: {
    select: '`{member}` is only meaningful on select fields; this field has type {fieldType:json}.',
    range: '`min` ({min}) is greater than `max` ({max}); no number can satisfy the field.',
  },
  types: ['attention.requested'], // requestData
  check(ev: AepEvent, ctx) {
    const d = requestData(ev);
    if (!d) return;
    (Array.isArray(d.fields) ? (d.fields as unknown[]) : []).forEach((f, i) => {
      if (!isObj(f)) return;
      const fieldType = String(f.type);
      // `multi: false` is the stated default written out: it claims nothing (AEP-0006 field_spec)
      if (own(f, 'multi') && f.multi !== false && f.type !== 'select')
        ctx.report({ pointer: `/data/fields/${i}/multi`, messageId: 'select', args: { member: 'multi', fieldType } });
      if (typeof f.min === 'number' && typeof f.max === 'number' && minAboveMax(ev, i, f.min, f.max)) {
        // a bound is structural metadata of the form (AEP-0006 [metadata]): quoting it echoes no answer
        const shown = (v: number, k: string) =>
          Number.isFinite(v) ? String(v) : (numberLiteralAt(ev.text, `/data/fields/${i}/${k}`) ?? String(v));
        ctx.report({
          pointer: `/data/fields/${i}/min`,
          messageId: 'range',
          args: { min: shown(f.min, 'min'), max: shown(f.max, 'max') },
        });
      }
    });
  },
});

/** `1e400` is a bound like any other (AEP-0006 types both `number`): compared exactly from the text. */
function minAboveMax(ev: AepEvent, i: number, min: number, max: number): boolean {
  if (Number.isFinite(min) && Number.isFinite(max)) return min > max;
  const lo = numberLiteralAt(ev.text, `/data/fields/${i}/min`);
  const hi = numberLiteralAt(ev.text, `/data/fields/${i}/max`);
  if (lo === undefined || hi === undefined) return min > max;
  return compareNumberLiterals(lo, hi) === 1;
}
