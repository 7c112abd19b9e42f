/**
 * AEP-0006 field_spec shape rules on `attention.requested` (beyond the payload schema).
 * Each rule is a separate export; they share the walk over `fields`.
 */
import { compareNumberLiterals, numberLiteralAt } from '../../core/json.ts';
import type { EventRule, RuleContext } from '../../core/rule.ts';
import { CAPTURE_RANK, type AepEvent } from '../event.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const own = (o: Obj, k: string) => Object.hasOwn(o, k);

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
    ctx.report({
      pointer: '/data/fields',
      message: `\`fields\` is only meaningful with kind "form", but kind is ${typeof d.kind === 'string' ? `"${d.kind}"` : 'absent'}.`,
    });
  },
};

/** aep/form-field-constraint: `min`/`max` only on number fields; `multi`/`other` only on select fields. AEP-0006. */
export const formFieldConstraint: EventRule<AepEvent> = {
  id: 'aep/form-field-constraint',
  severity: 'warning',
  description:
    '`min`/`max` appear only on number fields, `multi`/`other` only on select fields, and min <= max. AEP-0006 types the bounds `number` with no range limit, so a literal beyond a double (1e400) is a bound like any other and min <= max is decided on the exact literals; an answer value beyond a double is a number too (AEP-0006 checks no answer against the bounds).',
  spec: 'AEP-0006; AEP-0002 §5.2 field_spec',
  check(ev, ctx) {
    const d = requestData(ev);
    if (!d) return;
    (Array.isArray(d.fields) ? (d.fields as unknown[]) : []).forEach((f, i) => {
      if (!isObj(f)) return;
      for (const k of ['min', 'max']) {
        if (own(f, k) && f.type !== 'number')
          ctx.report({
            pointer: `/data/fields/${i}/${k}`,
            message: `\`${k}\` applies only to number fields; this field has type ${JSON.stringify(f.type)}.`,
          });
      }
      for (const k of ['multi', 'other']) {
        if (own(f, k) && f.type !== 'select')
          ctx.report({
            pointer: `/data/fields/${i}/${k}`,
            message: `\`${k}\` applies only to select fields; this field has type ${JSON.stringify(f.type)}.`,
          });
      }
      if (typeof f.min === 'number' && typeof f.max === 'number' && minAboveMax(ev, i, f.min, f.max)) {
        // a bound is structural metadata of the form (AEP-0006 [metadata]): quoting it echoes no answer
        const shown = (v: number, k: string) =>
          Number.isFinite(v) ? String(v) : (numberLiteralAt(ev.text, `/data/fields/${i}/${k}`) ?? String(v));
        ctx.report({
          pointer: `/data/fields/${i}/min`,
          message: `\`min\` (${shown(f.min, 'min')}) is greater than \`max\` (${shown(f.max, 'max')}); no number can satisfy the field.`,
        });
      }
    });
  },
};

/**
 * `min > max` for field `i`, by value: AEP-0006 types both `number` and no sentence limits
 * their range, so a literal beyond a double (`1e400`, read as Infinity) is a bound like any
 * other and is compared exactly from the line's text (RFC 8259 §6: the JSON text holds it).
 */
function minAboveMax(ev: AepEvent, i: number, min: number, max: number): boolean {
  if (Number.isFinite(min) && Number.isFinite(max)) return min > max;
  const lo = numberLiteralAt(ev.text, `/data/fields/${i}/min`);
  const hi = numberLiteralAt(ev.text, `/data/fields/${i}/max`);
  if (lo === undefined || hi === undefined) return min > max;
  return compareNumberLiterals(lo, hi) === 1;
}

function reportDuplicates(list: unknown[], base: string, what: string, ctx: RuleContext): void {
  const seen = new Map<string, number>();
  list.forEach((x, i) => {
    if (!isObj(x) || typeof x.id !== 'string') return;
    const prev = seen.get(x.id);
    if (prev !== undefined)
      ctx.report({
        pointer: `${base}/${i}/id`,
        message: `${what} id ${JSON.stringify(x.id)} repeats the id at index ${prev}; answers keyed by it are ambiguous.`,
      });
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
      if (isObj(f) && Array.isArray(f.choices))
        reportDuplicates(f.choices as unknown[], `/data/fields/${i}/choices`, 'Choice', ctx);
    });
    if (Array.isArray(d.options)) reportDuplicates(d.options as unknown[], '/data/options', 'Option', ctx);
  },
};

/** Words of the AEP-0003 §9.2 synthesis templates, and the `kind` values (lower case). */
const TEMPLATE_WORDS: ReadonlySet<string> = new Set([
  'requests',
  'request',
  'asks',
  'ask',
  'question',
  'questions',
  'field',
  'fields',
  'option',
  'options',
  'choice',
  'choices',
  'permission',
  'input',
  'auth',
  'review',
  'form',
  'other',
]);
/** Punctuation a template may put around a token: `{agent} requests {kind}: {subject}`, `(4 fields)`. */
const EDGE = /^[\s:;,.()[\]{}"'`\u2013\u2014-]+|[\s:;,.()[\]{}"'`\u2013\u2014-]+$/g;

/**
 * The one structural-text heuristic of the `[metadata*]` fields (AEP-0002 §5.3, AEP-0006,
 * AEP-0003 §9.2): a text is structural when every whitespace-separated token, trimmed of
 * template punctuation, is one of the event's own structural values (`structural`), a number
 * (a position or a count), or a word of the synthesis templates (`requests`, `asks`,
 * `question(s)`, `field(s)`, `option(s)`, `choice(s)`, the `kind` values); any other word is
 * taken as authored text. `"{agent} requests {kind}: {subject}"` (AEP-0003 §9.2), a label
 * equal to its id or its 1-based position, and `"{agent} asks 2 questions"` are structural;
 * `"Which database?"` is not. A heuristic (the spec gives examples, not a grammar), so its
 * rules are warnings.
 */
export function isStructuralText(text: string, structural: ReadonlySet<string>): boolean {
  if (structural.has(text)) return true;
  for (const raw of text.split(/\s+/)) {
    const t = raw.replace(EDGE, '');
    if (t === '' || structural.has(t) || structural.has(raw) || /^\d+$/.test(t) || TEMPLATE_WORDS.has(t.toLowerCase()))
      continue;
    return false;
  }
  return true;
}

/**
 * aep/form-label-placeholder: below capture `redacted`, option, field and choice labels are
 * structural placeholders: structural text ({@link isStructuralText}) over the item's own id
 * and 1-based position. Heuristic warning. AEP-0002 §5.3 / §8 `[metadata*]`; AEP-0006;
 * AEP-0003 §9.2.
 */
export const formLabelPlaceholder: EventRule<AepEvent> = {
  id: 'aep/form-label-placeholder',
  severity: 'warning',
  description:
    'Below capture "redacted", option, field and choice labels are structural placeholders, never authored text. Heuristic: every word of the label is its id, a number (e.g. its 1-based position) or a word of the synthesis templates (requests, asks, question(s), field(s), option(s), choice(s), the kind values); any other word counts as authored text.',
  spec: 'AEP-0002 §5.3, §8 [metadata*]; AEP-0006; AEP-0003 §9.2',
  check(ev, ctx) {
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
          message: `At capture "${ev.capture}" a label must be a structural placeholder (its id or "${i + 1}"); this one is a string of ${[...x.label].length} chars with other words.`,
        });
      });
    };
    check(d.options, '/data/options');
    check(d.fields, '/data/fields');
    fieldsOf(d).forEach((f, i) => check(f.choices, `/data/fields/${i}/choices`));
  },
};

/** The structural values an `attention.requested` prompt may be synthesised from (AEP-0003 §9.2). */
function promptStructure(ev: AepEvent, d: Obj): Set<string> {
  const out = new Set<string>();
  for (const name of ['agent', 'subject', 'type', 'session', 'run', 'step'] as const) {
    const v = ev.value[name];
    if (typeof v === 'string') out.add(v);
  }
  if (typeof d.kind === 'string') out.add(d.kind);
  const ids = (list: unknown) => {
    if (Array.isArray(list)) for (const x of list) if (isObj(x) && typeof x.id === 'string') out.add(x.id);
  };
  ids(d.options);
  ids(d.fields);
  fieldsOf(d).forEach((f) => ids(f.choices));
  return out;
}

/**
 * The AEP-0003 §9.2 template itself: `"{agent} requests {kind}: {subject}"` with the event's
 * agent and kind, and its `subject`; without a `subject` on the event, any one token (the
 * hook's subject: a tool name, a task id) stands for it. `"{agent} requests {kind}"` too.
 */
function isSynthesisedPrompt(ev: AepEvent, d: Obj, prompt: string): boolean {
  const head = `${String(ev.value.agent)} requests ${String(d.kind)}`;
  if (prompt === head) return true;
  if (!prompt.startsWith(head + ': ')) return false;
  const rest = prompt.slice(head.length + 2);
  const subject = ev.value.subject;
  return typeof subject === 'string' ? rest === subject : rest !== '' && !/\s/.test(rest);
}

/**
 * aep/prompt-placeholder: below capture `redacted`, an `attention.requested` `prompt` is
 * synthesised from structural metadata only, e.g. `"{agent} requests {kind}: {subject}"`
 * (AEP-0002 §5.3 `prompt` [metadata*]; AEP-0003 §9.2). The same heuristic as the labels
 * ({@link isStructuralText}), over the event's agent, subject, type, session, run, step, kind and
 * option/field/choice ids, after the template itself ({@link isSynthesisedPrompt}). Heuristic warning.
 */
export const promptPlaceholder: EventRule<AepEvent> = {
  id: 'aep/prompt-placeholder',
  severity: 'warning',
  description:
    'Below capture "redacted", an attention.requested prompt is synthesised from structural metadata only, e.g. "{agent} requests {kind}: {subject}". Heuristic: the prompt is that template with the event\'s agent, kind and subject (without a subject on the event, one token without spaces stands for it), or, as for aep/form-label-placeholder, every word is one of the event\'s structural values (agent, subject, type, session, run, step, kind, option/field/choice ids), a number, or a word of the synthesis templates (requests, asks, question(s), field(s), option(s), choice(s), the kind values); any other word counts as authored text.',
  spec: 'AEP-0002 §5.3 prompt [metadata*]; AEP-0003 §9.2',
  check(ev, ctx) {
    const d = requestData(ev);
    if (!d || typeof d.prompt !== 'string' || CAPTURE_RANK[ev.capture] >= CAPTURE_RANK.redacted) return;
    if (isSynthesisedPrompt(ev, d, d.prompt) || isStructuralText(d.prompt, promptStructure(ev, d))) return;
    ctx.report({
      pointer: '/data/prompt',
      message: `At capture "${ev.capture}" the prompt must be synthesised from structural metadata (e.g. "{agent} requests {kind}: {subject}"); this one is a string of ${[...d.prompt].length} chars with other words.`,
    });
  },
};
