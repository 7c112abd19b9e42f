import { defineEventRule } from '../../core/engine.ts';
import type { RuleContext } from '../../core/rule.ts';
import { isObj } from '../../core/value.ts';
import type { AepEvent } from '../event.ts';
import { requestData } from '../form-text.ts';

/** The rule's templates, shared with the helpers that report for it. */
const MESSAGES = {
  field: 'Field id {id:json} repeats the id at index {first}; answers keyed by it are ambiguous.',
  choice: 'Choice id {id:json} repeats the id at index {first}; answers keyed by it are ambiguous.',
  option: 'Option id {id:json} repeats the id at index {first}; answers keyed by it are ambiguous.',
} as const;

type Kind = 'field' | 'choice' | 'option';

function reportDuplicates(list: unknown[], base: string, kind: Kind, ctx: RuleContext<typeof MESSAGES>): void {
  const seen = new Map<string, number>();
  list.forEach((x, i) => {
    if (!isObj(x) || typeof x.id !== 'string') return;
    const first = seen.get(x.id);
    if (first !== undefined) ctx.report({ pointer: `${base}/${i}/id`, messageId: kind, args: { id: x.id, first } });
    else seen.set(x.id, i);
  });
}

/** `aep/form-duplicate-id` (AEP-0006 recommends unique ids). */
export const formDuplicateId = defineEventRule({
  id: 'aep/form-duplicate-id',
  severity: 'warning',
  description: 'Field ids are unique within a form, and choice ids within a field.',
  spec: 'AEP-0006; AEP-0002 §5.3 values',
  messages: MESSAGES,
  types: ['attention.requested'], // requestData
  check(ev: AepEvent, ctx) {
    const d = requestData(ev);
    if (!d || !Array.isArray(d.fields)) return;
    reportDuplicates(d.fields as unknown[], '/data/fields', 'field', ctx);
    (d.fields as unknown[]).forEach((f, i) => {
      if (isObj(f) && Array.isArray(f.choices))
        reportDuplicates(f.choices as unknown[], `/data/fields/${i}/choices`, 'choice', ctx);
    });
    if (Array.isArray(d.options)) reportDuplicates(d.options as unknown[], '/data/options', 'option', ctx);
  },
});
