/**
 * AEP-0006 field_spec shape rules on `attention.requested` (beyond the payload schema).
 * Each rule is a separate export; they share the walk over `fields`.
 */
import type { EventRule, RuleContext } from '../../core/rule.ts';
import { CAPTURE_RANK, type AepEvent } from '../event.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const own = (o: Obj, k: string) => Object.prototype.hasOwnProperty.call(o, k);

function requestData(ev: AepEvent): Obj | undefined {
  if (ev.type !== 'attention.requested') return undefined;
  const d = ev.value.data;
  return isObj(d) ? d : undefined;
}

function fieldsOf(d: Obj): Obj[] {
  return Array.isArray(d.fields) ? (d.fields as unknown[]).filter(isObj) : [];
}

/** aep/form-fields-kind: `fields` appears only when `kind` is "form". AEP-0002 §5.3; AEP-0006. */
export const formFieldsKind: EventRule<AepEvent> = {
  id: 'aep/form-fields-kind',
  severity: 'warning',
  description: '`fields` appears on attention.requested only with kind "form".',
  spec: 'AEP-0006; AEP-0002 §5.3',
  check(ev, ctx) {
    const d = requestData(ev);
    if (!d || !own(d, 'fields') || d.kind === 'form') return;
    ctx.report({ pointer: '/data/fields', message: `\`fields\` is only meaningful with kind "form", but kind is ${typeof d.kind === 'string' ? `"${d.kind}"` : 'absent'}.` });
  },
};

/** aep/form-field-constraint: `min`/`max` only on number fields; `multi`/`other` only on select fields. AEP-0006. */
export const formFieldConstraint: EventRule<AepEvent> = {
  id: 'aep/form-field-constraint',
  severity: 'warning',
  description: '`min`/`max` appear only on number fields, `multi`/`other` only on select fields, and min <= max.',
  spec: 'AEP-0006; AEP-0002 §5.2 field_spec',
  check(ev, ctx) {
    const d = requestData(ev);
    if (!d) return;
    (Array.isArray(d.fields) ? (d.fields as unknown[]) : []).forEach((f, i) => {
      if (!isObj(f)) return;
      for (const k of ['min', 'max']) {
        if (own(f, k) && f.type !== 'number') ctx.report({ pointer: `/data/fields/${i}/${k}`, message: `\`${k}\` applies only to number fields; this field has type ${JSON.stringify(f.type)}.` });
      }
      for (const k of ['multi', 'other']) {
        if (own(f, k) && f.type !== 'select') ctx.report({ pointer: `/data/fields/${i}/${k}`, message: `\`${k}\` applies only to select fields; this field has type ${JSON.stringify(f.type)}.` });
      }
      if (typeof f.min === 'number' && typeof f.max === 'number' && f.min > f.max) {
        ctx.report({ pointer: `/data/fields/${i}/min`, message: `\`min\` (${f.min}) is greater than \`max\` (${f.max}); no number can satisfy the field.` });
      }
    });
  },
};

function reportDuplicates(list: unknown[], base: string, what: string, ctx: RuleContext): void {
  const seen = new Map<string, number>();
  list.forEach((x, i) => {
    if (!isObj(x) || typeof x.id !== 'string') return;
    const prev = seen.get(x.id);
    if (prev !== undefined) ctx.report({ pointer: `${base}/${i}/id`, message: `${what} id ${JSON.stringify(x.id)} repeats the id at index ${prev}; answers keyed by it are ambiguous.` });
    else seen.set(x.id, i);
  });
}

/** aep/form-duplicate-id: field ids unique within a form, choice ids unique within a field. AEP-0006 (recommended). */
export const formDuplicateId: EventRule<AepEvent> = {
  id: 'aep/form-duplicate-id',
  severity: 'warning',
  description: 'Field ids are unique within a form, and choice ids within a field.',
  spec: 'AEP-0006; AEP-0002 §5.3 values',
  check(ev, ctx) {
    const d = requestData(ev);
    if (!d || !Array.isArray(d.fields)) return;
    reportDuplicates(d.fields as unknown[], '/data/fields', 'Field', ctx);
    (d.fields as unknown[]).forEach((f, i) => {
      if (isObj(f) && Array.isArray(f.choices)) reportDuplicates(f.choices as unknown[], `/data/fields/${i}/choices`, 'Choice', ctx);
    });
    if (Array.isArray(d.options)) reportDuplicates(d.options as unknown[], '/data/options', 'Option', ctx);
  },
};

/**
 * aep/form-label-placeholder: below capture `redacted`, option, field and choice labels are
 * structural placeholders (the id, or the 1-based position as a string). Heuristic warning.
 * AEP-0002 §5.3 / §8 `[metadata*]`; AEP-0003 §9.2.
 */
export const formLabelPlaceholder: EventRule<AepEvent> = {
  id: 'aep/form-label-placeholder',
  severity: 'warning',
  description: 'Below capture "redacted", labels are structural placeholders (the id or the 1-based position), never authored text.',
  spec: 'AEP-0002 §5.3, §8 [metadata*]; AEP-0006; AEP-0003 §9.2',
  check(ev, ctx) {
    const d = requestData(ev);
    if (!d || CAPTURE_RANK[ev.capture] >= CAPTURE_RANK.redacted) return;
    const check = (list: unknown, base: string) => {
      if (!Array.isArray(list)) return;
      list.forEach((x, i) => {
        if (!isObj(x) || typeof x.label !== 'string') return;
        if (x.label === x.id || x.label === String(i + 1)) return;
        ctx.report({
          pointer: `${base}/${i}/label`,
          message: `At capture "${ev.capture}" a label must be a structural placeholder (its id or "${i + 1}"); this one is a string of ${[...x.label].length} chars.`,
        });
      });
    };
    check(d.options, '/data/options');
    check(d.fields, '/data/fields');
    fieldsOf(d).forEach((f, i) => check(f.choices, `/data/fields/${i}/choices`));
  },
};
