/**
 * The one ajv-error-to-finding mapper: rule id from `x-rule`, message as data (a template key of the protocol's table
 * and its arguments) from `x-message` or the protocol's generic choice; arguments describe what was found, never the
 * value (docs/architecture.md §Schema stage). The sentence is the template rendered by src/core/message.ts.
 */
import type { ErrorObject } from 'ajv/dist/2020.js';
import { type MessageArg, type MessageTemplates, renderMessage } from '../message.ts';
import { childPointer, getAt } from '../pointer.ts';
import type { Obj } from '../value.ts';
import { ownAnnotation, ruleOfNode, type SchemaIndex } from './annotations.ts';
import { explainDateTime } from './formats.ts';

/** The arguments of one schema message: the ajv keyword, the params its template names, what was found. */
export type SchemaArgs = Record<string, MessageArg>;

/** One schema message as data: the key of a template in the protocol's table, and its arguments. */
export interface SchemaMessage {
  messageId: string;
  args: SchemaArgs;
}

/** One schema finding. `pointer` is an RFC 6901 JSON Pointer (with the mapper's `base`). */
export interface SchemaFinding extends SchemaMessage {
  ruleId: string;
  pointer: string;
}

/** What choosing the template of one error gets. */
export interface MessageContext {
  error: ErrorObject;
  /** The error's keyword; a `{"not": {}}` that was a `false` schema is `false schema` again. */
  keyword: string;
  /** The validated value, and the value at the error's instance path in it. */
  instance: unknown;
  value: unknown;
  /** The error's instance path with the mapper's `base` (where the sentence says the problem is). */
  path: string;
  /** The finding's pointer (the member itself for member-naming errors, per the wording). */
  pointer: string;
  /** The member an error names (missing, additional, or a rejected member name), if any. */
  member?: string;
  ruleId: string;
  generic(): SchemaMessage;
}

/** How one protocol words schema errors: its template table and the choice of template and arguments per error. */
export interface Wording {
  /** The templates, by message id (every id the functions below choose, plus `x-message` and `x-message.why`). */
  templates: MessageTemplates;
  generic(c: MessageContext): SchemaMessage;
  /** Template choices for `x-message` keys (`@name` in a schema; the key here without `@`). */
  keys: Readonly<Record<string, (c: MessageContext) => SchemaMessage>>;
  /** Where a `required` error points: the missing member, or the object that lacks it. */
  requiredPointer: 'member' | 'object';
  /** Where an `additionalProperties` error points: the extra member, or its object. */
  additionalPointer: 'member' | 'object';
  /** The templates are sentences (capitalised, ending with a full stop): text from outside the table (an `x-message`
   * sentence, ajv's own message) is made one too. */
  sentences?: boolean;
}

/** Capitalise the first character. */
export const capitalise = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

/** Capitalise and end with a full stop (the predicate style's finish). */
export function sentence(s: string): string {
  const t = capitalise(s);
  return /[.!?]$/.test(t) ? t : t + '.';
}

/** The sentence of `m` in `wording`'s table (a rendering for text that embeds it; reporters render findings). */
export function schemaSentence(wording: Wording, m: SchemaMessage): string {
  const t = wording.templates[m.messageId];
  if (t === undefined) throw new Error(`schema message ${m.messageId} has no template`);
  return renderMessage(t, m.args, '');
}

/** Options of {@link mapSchemaErrors}. */
export interface MapOptions {
  index: SchemaIndex;
  wording: Wording;
  fallbackRule: string;
  /** Prefixed to every pointer and path (the validated value's place in the line). */
  base?: string;
}

const FOLDED = new Set(['anyOf', 'oneOf', 'contains']);

function isEmptyObject(v: unknown): boolean {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0;
}

/** Keywords that assert only about values of one JSON type: every value of another type satisfies them. */
const TYPED_KEYWORDS: Record<string, 'object' | 'array' | 'string' | 'number'> = {
  required: 'object',
  properties: 'object',
  patternProperties: 'object',
  additionalProperties: 'object',
  propertyNames: 'object',
  dependentRequired: 'object',
  minProperties: 'object',
  maxProperties: 'object',
  contains: 'array',
  items: 'array',
  prefixItems: 'array',
  minItems: 'array',
  maxItems: 'array',
  uniqueItems: 'array',
  minLength: 'string',
  maxLength: 'string',
  pattern: 'string',
  minimum: 'number',
  maximum: 'number',
  exclusiveMinimum: 'number',
  exclusiveMaximum: 'number',
  multipleOf: 'number',
};

function jsonTypeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

/** True when `s` holds only keywords of types other than `value`'s (or unions of such): `value` satisfies it vacuously. */
function vacuousFor(s: unknown, t: string): boolean {
  if (s === null || typeof s !== 'object' || Array.isArray(s)) return false;
  let any = false;
  for (const [k, v] of Object.entries(s)) {
    if (k.startsWith('x-') || k === '$comment' || k === 'description' || k === 'title') continue;
    if (k === 'anyOf' || k === 'oneOf' || k === 'allOf') {
      if (!Array.isArray(v) || !v.every((x) => vacuousFor(x, t))) return false;
    } else if (TYPED_KEYWORDS[k] === undefined || TYPED_KEYWORDS[k] === t) return false;
    any = true;
  }
  return any;
}

function hasOwn(o: unknown, k: string): boolean {
  return o !== null && typeof o === 'object' && Object.hasOwn(o, k);
}

/** True when `node` sits (statically) inside `union`'s anyOf/oneOf branches or its contains schema. */
function insideUnion(index: SchemaIndex, node: object | undefined, union: object): boolean {
  let cur = node;
  while (cur) {
    const info = index.get(cur);
    if (!info?.parent) return false;
    if (info.parent === union && FOLDED.has(info.parentKey ?? '')) return true;
    cur = info.parent;
  }
  return false;
}

/**
 * Findings of `errors` in order, each (rule, pointer, message) and each (rule, object, missing member) once; `if` wrappers dropped, `propertyNames` errors via
 * the name's, anyOf / oneOf / contains branches folded into their location's `x-message`.
 */
export function mapSchemaErrors(
  errors: readonly ErrorObject[] | null | undefined,
  instance: unknown,
  opts: MapOptions,
): SchemaFinding[] {
  if (!errors || errors.length === 0) return [];
  const { index, wording } = opts;
  const base = opts.base ?? '';
  const unions: Array<{ node: object; path: string }> = [];
  const innerNames = new Set<string>();
  for (const e of errors) {
    const parent = e.parentSchema as Obj | undefined;
    if (FOLDED.has(e.keyword) && parent && ownAnnotation(parent['x-message'], e.keyword, false, true) !== undefined)
      unions.push({ node: parent, path: e.instancePath });
    if (typeof (e as { propertyName?: string }).propertyName === 'string') innerNames.add(e.instancePath);
  }
  const out: SchemaFinding[] = [];
  const seen = new Map<string, SchemaFinding>();
  const sharedLeaves = new Map<string, SchemaFinding>();
  const missing = new Set<string>();
  for (const e of errors) {
    if (e.keyword === 'if') continue;
    if (e.keyword === 'propertyNames' && innerNames.has(e.instancePath)) continue;
    const parent = e.parentSchema as Obj | undefined;
    if (
      unions.some(
        (u) =>
          u.node !== parent &&
          (e.instancePath === u.path || e.instancePath.startsWith(u.path + '/')) &&
          insideUnion(index, parent, u.node),
      )
    )
      continue;
    const keyword = e.keyword === 'not' && isEmptyObject(e.schema) ? 'false schema' : e.keyword;
    const value = getAt(instance, e.instancePath);
    // `not` over keywords of another type fails vacuously: the value's own type error says it
    if (keyword === 'not' && vacuousFor(e.schema, jsonTypeOf(value))) continue;
    const isNull = keyword === 'type' && value === null;
    const p = e.params as Record<string, unknown>;
    const propertyName = (e as { propertyName?: string }).propertyName;
    let member: string | undefined;
    let at = e.instancePath;
    if (keyword === 'required') {
      member = String(p.missingProperty);
      if (wording.requiredPointer === 'member') at = childPointer(at, member);
    } else if (keyword === 'additionalProperties') {
      member = String(p.additionalProperty);
      if (wording.additionalPointer === 'member') at = childPointer(at, member);
    } else if (typeof propertyName === 'string') {
      member = propertyName;
      at = childPointer(at, propertyName);
    } else if (keyword === 'not') {
      // `not: {required: [m]}`: the member that must be absent
      const s = e.schema as { required?: unknown } | undefined;
      if (
        s &&
        Array.isArray(s.required) &&
        s.required.length === 1 &&
        typeof s.required[0] === 'string' &&
        hasOwn(value, s.required[0])
      )
        at = childPointer(at, s.required[0]);
    }
    const info = parent ? index.get(parent) : undefined;
    // a `false` subschema's own annotations are its host's entries keyed `false schema`
    const host = (info?.falseHost ?? parent) as Obj | undefined;
    const own = (key: 'x-rule' | 'x-message'): string | undefined => {
      if (!host) return undefined;
      const a = host[key];
      if (host !== parent)
        return a !== null && typeof a === 'object' && typeof (a as Obj)['false schema'] === 'string'
          ? ((a as Obj)['false schema'] as string)
          : undefined;
      return ownAnnotation(a, keyword, isNull, key === 'x-message');
    };
    const ownRule = own('x-rule');
    const ruleId = ownRule ?? (parent && info ? ruleOfNode(parent, info) : undefined) ?? opts.fallbackRule;
    // One missing member is one defect: a schema that requires it twice at one object (a closed variant repeating its
    // outer object's `required`) words it twice, once per node; the first wording stands.
    if (member !== undefined && keyword === 'required') {
      const rk = `${ruleId}\u0000${base + at}\u0000${member}`;
      if (missing.has(rk)) continue;
      missing.add(rk);
    }
    const ctx: MessageContext = {
      error: e,
      keyword,
      instance,
      value,
      path: base + e.instancePath,
      pointer: base + at,
      member,
      ruleId,
      generic: () => wording.generic(ctx),
    };
    const text = own('x-message');
    let m: SchemaMessage;
    if (text === undefined) m = ctx.generic();
    else if (text.startsWith('@')) {
      const key = wording.keys[text.slice(1)];
      if (!key) throw new Error(`schema message key ${text} has no wording`);
      m = key(ctx);
    } else m = literalMessage(wording, text, keyword, e, value, member);
    if (m.messageId === 'ajv' && wording.sentences) m.args.ajv = sentence(String(m.args.ajv));
    const message = schemaSentence(wording, m);
    // Each (rule, pointer, message) once: an envelope and its overlay saying the same at one place are one finding.
    const k = `${ruleId}\u0000${ctx.pointer}\u0000${message}`;
    if (seen.has(k)) continue;
    const viaRef = ownRule === undefined && info?.rule === undefined && info?.context !== undefined;
    const leafKey = `${ctx.pointer}\u0000${message}`;
    const earlier = viaRef ? sharedLeaves.get(leafKey) : undefined;
    if (earlier) {
      seen.set(k, earlier);
      earlier.ruleId = ruleId;
      continue;
    }
    const f: SchemaFinding = { ruleId, pointer: ctx.pointer, messageId: m.messageId, args: m.args };
    seen.set(k, f);
    if (viaRef) sharedLeaves.set(leafKey, f);
    out.push(f);
  }
  return out;
}

/**
 * A fixed `x-message` sentence of the schema (the schema is its table): `{text}`, with the member an
 * `additionalProperties` sentence names put in for `{prop}`, and what fails in a `date-time` (which month, which offset:
 * what a user fixes) as `{why}`.
 */
function literalMessage(
  wording: Wording,
  text: string,
  keyword: string,
  e: ErrorObject,
  value: unknown,
  member: string | undefined,
): SchemaMessage {
  const why =
    keyword === 'format' && e.params.format === 'date-time' && typeof value === 'string'
      ? explainDateTime(value)
      : undefined;
  if (why) {
    const t = text.replace(/\.$/, '');
    return { messageId: 'x-message.why', args: { keyword, text: wording.sentences ? capitalise(t) : t, why } };
  }
  const t = keyword === 'additionalProperties' ? text.replace('{prop}', member ?? '') : text;
  return { messageId: 'x-message', args: { keyword, text: wording.sentences ? sentence(t) : t } };
}
