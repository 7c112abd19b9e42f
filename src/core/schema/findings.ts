/**
 * The one ajv-error-to-finding mapper: rule id from `x-rule`, wording from `x-message` or the protocol's generic
 * sentence; messages describe what was found, never the value (docs/architecture.md §Schema stage).
 */
import type { ErrorObject } from 'ajv/dist/2020.js';
import { childPointer, getAt } from '../pointer.ts';
import type { Obj } from '../value.ts';
import { ownAnnotation, ruleOfNode, type SchemaIndex } from './annotations.ts';
import { explainDateTime } from './formats.ts';

/** One schema finding. `pointer` is an RFC 6901 JSON Pointer (with the mapper's `base`). */
export interface SchemaFinding {
  ruleId: string;
  pointer: string;
  message: string;
}

/** What a wording function gets for one error. */
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
  generic(): string;
}

/** How one protocol words schema errors. */
export interface Wording {
  generic(c: MessageContext): string;
  /** Sentences for `x-message` keys (`@name` in a schema; the key here without `@`). */
  keys: Readonly<Record<string, (c: MessageContext) => string>>;
  /** Where a `required` error points: the missing member, or the object that lacks it. */
  requiredPointer: 'member' | 'object';
  /** Where an `additionalProperties` error points: the extra member, or its object. */
  additionalPointer: 'member' | 'object';
  /** Last touch on every sentence (e.g. capitalise and end with a full stop). */
  finish?(s: string): string;
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
 * Findings of `errors` in order, each (rule, pointer, message) once; `if` wrappers dropped, `propertyNames` errors via
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
    let message: string;
    if (text === undefined) message = ctx.generic();
    else if (text.startsWith('@')) {
      const key = wording.keys[text.slice(1)];
      if (!key) throw new Error(`schema message key ${text} has no wording`);
      message = key(ctx);
    } else if (keyword === 'format' && e.params.format === 'date-time' && typeof value === 'string') {
      // a fixed sentence names the rule; the value's own fault (which month, which offset) is what a user fixes
      const why = explainDateTime(value);
      message = why ? `${text.replace(/\.$/, '')}: ${why}.` : text;
    } else message = keyword === 'additionalProperties' ? text.replace('{prop}', member ?? '') : text;
    if (wording.finish) message = wording.finish(message);
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
    const f = { ruleId, pointer: ctx.pointer, message };
    seen.set(k, f);
    if (viaRef) sharedLeaves.set(leafKey, f);
    out.push(f);
  }
  return out;
}
