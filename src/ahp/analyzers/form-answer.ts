/**
 * MCP elicitation answers against the pinned shape and their form (AHP interaction-payloads.md §MCP elicitation
 * binding), pure and total: defaults never injected, undeclared members allowed, lengths in code points, no RegExp
 * built from input.
 */
import { describeValue } from '../../core/finding.ts';
import { childPointer } from '../../core/pointer.ts';
import { STRICT_FORMATS, type FormatName } from '../../core/schema/formats.ts';
import { FORMAT_WORDS } from '../../core/schema/wording.ts';

import { renderMessage, type MessageArgs } from '../../core/message.ts';
import { isObj, own, type Obj } from '../../core/value.ts';

/** How each answer problem reads, as a phrase the reporting rules' templates embed (`{problem}`). */
export const ANSWER_PHRASES = {
  notAnswerObject: 'an elicitation answer is an object of field values, found {found}',
  answerValue: 'an answer value is a string, number (one a double holds), boolean or array of strings, found {found}',
  notFormObject: 'an answer to a form is an object, found {found}',
  required: 'the form requires field {name:json}, which the answer does not hold',
  requiredDefault:
    'the form requires field {name:json}, which the answer does not hold (its `default` is an annotation, never injected into an answer)',
  string: 'must be a string, found {found}',
  noOption: 'must be one of the 0 options the form offers (found {found})',
  option: 'must be one of the {count} option{count:s} the form offers ({options}) (found {found})',
  minLength: 'must be at least {limit} characters long (found {found})',
  maxLength: 'must be at most {limit} characters long (found {found})',
  format: 'must be {meaning} (format {format:json})',
  number: 'must be a number, found {found}',
  double: 'must be a number a double holds, found a literal beyond the double range',
  integer: 'must be an integer, found a number with a fractional part',
  minimum: 'must be at least {limit}',
  maximum: 'must be at most {limit}',
  boolean: 'must be a boolean, found {found}',
  stringArray: 'must be an array of strings (a multi-select answer), found {found}',
  minItems: 'must select at least {limit} option{limit:s} (found {count})',
  maxItems: 'must select at most {limit} option{limit:s} (found {count})',
} as const;

/** The key of an {@link ANSWER_PHRASES} entry. */
export type AnswerPhraseId = keyof typeof ANSWER_PHRASES;

/** One answer problem: `pointer` into the answer, the failing `keyword`, its phrase. */
export interface AnswerProblem {
  pointer: string;
  keyword: string;
  messageId: AnswerPhraseId;
  args: MessageArgs;
}

/** The answer field `p` is about (its pointer's first token, unescaped): a `{field}` argument, or a key to look up. */
export function answerField(p: AnswerProblem): string {
  const token = p.pointer.slice(1).split('/', 1)[0] ?? '';
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

/**
 * The `{field}` argument of a field problem and, for one inside the field's value (a multi-select item), `{item}`:
 * both unescaped, the field quoted by its template (`{field:json}`) as other messages quote member names.
 */
export function fieldArgs(p: AnswerProblem): { field: string; item?: string } {
  const rest = p.pointer.slice(1).split('/').slice(1);
  return rest.length ? { field: answerField(p), item: rest.join('/') } : { field: answerField(p) };
}

/** The phrase of `p` (lower case, no final stop), for a rule's `{problem}` argument. */
export function answerPhrase(p: AnswerProblem): string {
  return renderMessage(ANSWER_PHRASES[p.messageId], p.args, '');
}

const problem = (
  pointer: string,
  keyword: string,
  messageId: AnswerPhraseId,
  args: MessageArgs = {},
): AnswerProblem => ({
  pointer,
  keyword,
  messageId,
  args,
});

/** True when `v` is an MCP 2025-11-25 answer value: string, number, boolean or array of strings. */
export function isAnswerValue(v: unknown): boolean {
  if (typeof v === 'string' || typeof v === 'boolean') return true;
  if (typeof v === 'number') return Number.isFinite(v);
  return Array.isArray(v) && v.every((x) => typeof x === 'string');
}

/** Problems of `content` against the pinned MCP answer shape (an object of answer values). */
export function answerShapeProblems(content: unknown): AnswerProblem[] {
  if (!isObj(content)) return [problem('', 'answer', 'notAnswerObject', { found: describeValue(content) })];
  const out: AnswerProblem[] = [];
  // Object.keys, not Object.entries: entries cost ~0.7 us for a four-member answer on Node 20
  const keys = Object.keys(content);
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    const v = content[k];
    if (!isAnswerValue(v))
      out.push(
        problem(childPointer('', k), 'answer', 'answerValue', {
          found: typeof v === 'number' ? 'a literal beyond the double range' : describeValue(v),
        }),
      );
  }
  return out;
}

/** The four string formats of the pinned StringSchema: the schema stage's strict formats. */
const FORMATS: Readonly<Record<string, ((s: string) => boolean) | undefined>> = STRICT_FORMATS;

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const strings = (v: unknown): string[] | undefined =>
  Array.isArray(v) && v.every((x) => typeof x === 'string') ? (v as string[]) : undefined;

/** Allowed values of a single-select field (`enum` or titled `oneOf`), or undefined when it has none. */
function singleChoices(field: Obj): string[] | undefined {
  if (Array.isArray(field.oneOf))
    return field.oneOf
      .filter(isObj)
      .map((o) => o.const)
      .filter((c): c is string => typeof c === 'string');
  return strings(field.enum);
}

/** Allowed values of a multi-select field (`items.enum` or titled `items.anyOf`). */
function multiChoices(field: Obj): string[] | undefined {
  const items = field.items;
  if (!isObj(items)) return undefined;
  if (Array.isArray(items.anyOf))
    return items.anyOf
      .filter(isObj)
      .map((o) => o.const)
      .filter((c): c is string => typeof c === 'string');
  return strings(items.enum);
}

/** Up to five of the form's own choices, quoted (the request's schema, not answer content). */
function listed(choices: readonly string[]): string {
  const shown = choices.slice(0, 5).map((c) => JSON.stringify(c));
  return `${shown.join(', ')}${choices.length > 5 ? `, and ${choices.length - 5} more` : ''}`;
}

const codePoints = (s: string): number => {
  let n = 0;
  for (const _ of s) n++;
  return n;
};

const option = (choices: readonly string[], v: unknown): [AnswerPhraseId, MessageArgs] =>
  choices.length
    ? ['option', { count: choices.length, options: listed(choices), found: describeValue(v) }]
    : ['noOption', { found: describeValue(v) }];

function fieldProblems(ptr: string, field: Obj, v: unknown): AnswerProblem[] {
  const out: AnswerProblem[] = [];
  const p = (keyword: string, messageId: AnswerPhraseId, args: MessageArgs = {}) =>
    out.push(problem(ptr, keyword, messageId, args));
  switch (field.type) {
    case 'string': {
      if (typeof v !== 'string') {
        p('type', 'string', { found: describeValue(v) });
        break;
      }
      const choices = singleChoices(field);
      if (choices !== undefined) {
        if (!choices.includes(v)) p('enum', ...option(choices, v));
        break;
      }
      const len = codePoints(v);
      const min = num(field.minLength);
      const max = num(field.maxLength);
      if (min !== undefined && len < min) p('minLength', 'minLength', { limit: min, found: describeValue(v) });
      if (max !== undefined && len > max) p('maxLength', 'maxLength', { limit: max, found: describeValue(v) });
      const fmt =
        typeof field.format === 'string' && Object.hasOwn(FORMATS, field.format) ? FORMATS[field.format] : undefined;
      if (fmt && !fmt(v))
        p('format', 'format', {
          meaning: FORMAT_WORDS[field.format as FormatName].answer,
          format: field.format as string,
        });
      break;
    }
    case 'number':
    case 'integer': {
      if (typeof v !== 'number') {
        p('type', 'number', { found: describeValue(v) });
        break;
      }
      if (!Number.isFinite(v)) {
        p('type', 'double');
        break;
      }
      if (field.type === 'integer' && !Number.isInteger(v)) {
        p('type', 'integer');
        break;
      }
      const min = num(field.minimum);
      const max = num(field.maximum);
      if (min !== undefined && v < min) p('minimum', 'minimum', { limit: min });
      if (max !== undefined && v > max) p('maximum', 'maximum', { limit: max });
      break;
    }
    case 'boolean':
      if (typeof v !== 'boolean') p('type', 'boolean', { found: describeValue(v) });
      break;
    case 'array': {
      if (!Array.isArray(v) || !v.every((x) => typeof x === 'string')) {
        p('type', 'stringArray', { found: describeValue(v) });
        break;
      }
      const choices = multiChoices(field);
      if (choices !== undefined) {
        v.forEach((x, i) => {
          if (!choices.includes(x)) out.push(problem(childPointer(ptr, i), 'enum', ...option(choices, x)));
        });
      }
      const min = num(field.minItems);
      const max = num(field.maxItems);
      if (min !== undefined && v.length < min) p('minItems', 'minItems', { limit: min, count: v.length });
      if (max !== undefined && v.length > max) p('maxItems', 'maxItems', { limit: max, count: v.length });
      break;
    }
    default:
      // not a field of the pinned subset: reported by ahp/elicitation-body, not guessed here
      break;
  }
  return out;
}

/** Problems of the answer `content` against `requestedSchema` (the form of the request). */
export function formAnswerProblems(content: unknown, requestedSchema: unknown): AnswerProblem[] {
  if (!isObj(requestedSchema) || !isObj(requestedSchema.properties)) return [];
  if (!isObj(content)) return [problem('', 'type', 'notFormObject', { found: describeValue(content) })];
  const props = requestedSchema.properties;
  const out: AnswerProblem[] = [];
  for (const name of strings(requestedSchema.required) ?? []) {
    if (!own(content, name)) {
      const hasDefault = isObj(props[name]) && own(props[name] as Obj, 'default');
      out.push(problem(childPointer('', name), 'required', hasDefault ? 'requiredDefault' : 'required', { name }));
    }
  }
  const names = Object.keys(content);
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!;
    if (!own(props, name)) continue;
    const v = content[name];
    const field = props[name];
    if (isObj(field)) out.push(...fieldProblems(childPointer('', name), field, v));
  }
  return out;
}

/** True when `requestedSchema` is usable for {@link formAnswerProblems} (an object with `properties`). */
export function isUsableForm(requestedSchema: unknown): boolean {
  return isObj(requestedSchema) && isObj(requestedSchema.properties);
}
