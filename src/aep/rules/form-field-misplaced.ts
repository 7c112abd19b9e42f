import { defineEventRule } from '../../core/engine.ts';
import { isObj, own } from '../../core/value.ts';
import type { AepEvent } from '../event.ts';
import { requestData } from '../form-text.ts';

/**
 * Members a field_spec restricts to one field type (AEP-0006 field_spec: `min`/`max` "type:\"number\" only", `other`
 * "type:\"select\" only"); `other: false` is its stated default written out and claims nothing.
 */
const RESTRICTED = [
  ['min', 'number'],
  ['max', 'number'],
  ['other', 'select'],
] as const;

/** `aep/form-field-misplaced`. */
export const formFieldMisplaced = defineEventRule({
  id: 'aep/form-field-misplaced',
  severity: 'error',
  description:
    'A form field carries `min`/`max` only when its type is "number" and `other` (but its default false) only when its type is "select" (AEP-0006 field_spec).',
  spec: 'AEP-0006; AEP-0002 §5.2 field_spec',
  messages: {
    number: '`{member}` is for number fields only; this field has type {fieldType:json}.',
    select: '`{member}` is for select fields only; this field has type {fieldType:json}.',
  },
  types: ['attention.requested'], // requestData
  check(ev: AepEvent, ctx) {
    const d = requestData(ev);
    if (!d) return;
    (Array.isArray(d.fields) ? (d.fields as unknown[]) : []).forEach((f, i) => {
      if (!isObj(f)) return;
      const fieldType = String(f.type);
      for (const [member, want] of RESTRICTED)
        if (own(f, member) && f.type !== want && !(member === 'other' && f.other === false))
          ctx.report({ pointer: `/data/fields/${i}/${member}`, messageId: want, args: { member, fieldType } });
    });
  },
});
