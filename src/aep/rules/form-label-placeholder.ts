import { defineEventRule } from '../../core/engine.ts';
import { isObj } from '../../core/value.ts';
import { CAPTURE_RANK, type AepEvent } from '../event.ts';
import { fieldsOf, isStructuralText, requestData } from '../form-text.ts';

/** `aep/form-label-placeholder`: a label's structural values are the item's own id and 1-based position. */
export const formLabelPlaceholder = defineEventRule({
  id: 'aep/form-label-placeholder',
  severity: 'warning',
  description:
    'Below capture "redacted", option, field and choice labels are structural placeholders, never authored text.',
  detail:
    'Heuristic: every word of the label is its id, a number (e.g. its 1-based position) or a word of the synthesis templates (requests, asks, question(s), field(s), option(s), choice(s), the kind values); any other word counts as authored text.',
  spec: 'AEP-0002 §5.3, §8 [metadata*]; AEP-0006; AEP-0003 §9.2',
  messages: {
    label:
      'At capture {capture:json} a label must be a structural placeholder (its id or "{position}"); this one is a string of {length} char{length:s} with other words.',
  },
  types: ['attention.requested'], // requestData
  check(ev: AepEvent, ctx) {
    const d = requestData(ev);
    if (!d || CAPTURE_RANK[ev.capture] >= CAPTURE_RANK.redacted) return;
    const check = (list: unknown, base: string) => {
      if (!Array.isArray(list)) return;
      list.forEach((x, i) => {
        if (!isObj(x) || typeof x.label !== 'string') return;
        const own = new Set([String(i + 1)]);
        if (typeof x.id === 'string') own.add(x.id);
        if (isStructuralText(x.label, own)) return;
        ctx.report({
          pointer: `${base}/${i}/label`,
          args: { capture: ev.capture, position: i + 1, length: [...x.label].length },
        });
      });
    };
    check(d.options, '/data/options');
    check(d.fields, '/data/fields');
    for (const [i, f] of fieldsOf(d).entries()) check(f.choices, `/data/fields/${i}/choices`);
  },
});
