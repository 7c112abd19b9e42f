/**
 * The AHP issue model and the mapping from ajv errors to issues: rule attribution through the
 * schema annotations indexed by `schemas.ts`, plain sentences that never echo instance values
 * (they give the JSON type and length instead), and exact RFC 6901 pointers.
 */
import type { ErrorObject } from 'ajv/dist/2020.js';
import { describeValue, type Severity } from '../core/finding.ts';
import { childPointer, getAt } from '../core/pointer.ts';
import { ahpRule } from './rules.ts';
import { ahpSchemas, type ContextRecord } from './schemas.ts';

/**
 * One problem found in an AHP message or registration document.
 * - `ruleId`: a stable `ahp/<name>` id listed in `AHP_MESSAGE_RULES`.
 * - `pointer`: RFC 6901 JSON Pointer into the validated value (`""` = the whole value). For a
 *   problem inside embedded MCP JSON it names the text member of the part (`…/request/text`).
 * - `message`: one plain sentence; never echoes a content value (type and length instead).
 * - `spec`: citation, e.g. `AHP interaction-payloads.md §MCP elicitation binding (2025-11-25)`.
 * - `embedded`: for problems inside the MCP JSON serialized in a text part: the part's pointer and
 *   a pointer into the parsed embedded value.
 */
export interface AhpIssue {
  ruleId: string;
  severity: Severity;
  pointer: string;
  message: string;
  spec: string;
  embedded?: { partPointer: string; innerPointer: string };
}

/** Build an issue with the rule's default severity and citation. */
export function issue(ruleId: string, pointer: string, message: string, extra?: Pick<AhpIssue, 'embedded'>): AhpIssue {
  const r = ahpRule(ruleId);
  const out: AhpIssue = { ruleId, severity: r.severity, pointer, message, spec: r.spec };
  if (extra?.embedded) out.embedded = extra.embedded;
  return out;
}

const TYPE_NAMES: Record<string, string> = {
  object: 'an object',
  array: 'an array',
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'a boolean',
  null: 'null',
};

const FORMAT_NAMES: Record<string, string> = {
  'date-time': 'an RFC 3339 date-time (YYYY-MM-DDThh:mm:ss with Z or ±hh:mm)',
  uri: 'an absolute RFC 3986 URI',
};

function lit(v: unknown): string {
  return JSON.stringify(v);
}

function hasOwn(o: unknown, k: string): boolean {
  return o !== null && typeof o === 'object' && Object.prototype.hasOwnProperty.call(o, k);
}

function ensureSentence(s: string): string {
  const t = s.charAt(0).toUpperCase() + s.slice(1);
  return /[.!?]$/.test(t) ? t : t + '.';
}

/** The instance location an error is about (the member for additionalProperties, property names and `not required`). */
function errorPath(e: ErrorObject, instance: unknown): string {
  const p = e.params as Record<string, unknown>;
  if (e.keyword === 'additionalProperties' && typeof p.additionalProperty === 'string') return childPointer(e.instancePath, p.additionalProperty);
  const propertyName = (e as { propertyName?: string }).propertyName;
  if (typeof propertyName === 'string') return childPointer(e.instancePath, propertyName);
  if (e.keyword === 'not') {
    const s = e.schema as { required?: unknown } | undefined;
    if (s && Array.isArray(s.required) && s.required.length === 1 && typeof s.required[0] === 'string') {
      const target = getAt(instance, e.instancePath);
      if (hasOwn(target, s.required[0])) return childPointer(e.instancePath, s.required[0]);
    }
  }
  return e.instancePath;
}

/** A generic sentence for one ajv error, describing (never echoing) what was found. */
function genericMessage(e: ErrorObject, instance: unknown): string {
  const p = e.params as Record<string, unknown>;
  const found = () => describeValue(getAt(instance, e.instancePath));
  switch (e.keyword) {
    case 'required':
      return `\`${String(p.missingProperty)}\` is required here`;
    case 'additionalProperties':
      return `\`${String(p.additionalProperty)}\` is not allowed here (closed object)`;
    case 'type': {
      const types = (Array.isArray(p.type) ? p.type : String(p.type).split(',')).map((t) => TYPE_NAMES[String(t)] ?? String(t));
      return `must be ${types.join(' or ')}, found ${found()}`;
    }
    case 'const':
      return `must be ${lit(p.allowedValue)}`;
    case 'enum':
      return `must be one of ${(p.allowedValues as unknown[]).map(lit).join(', ')}`;
    case 'pattern':
      return `does not have the required form (found ${found()})`;
    case 'format':
      return `must be ${FORMAT_NAMES[String(p.format)] ?? `a valid ${String(p.format)}`}`;
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return `must be ${String(p.comparison)} ${String(p.limit)}`;
    case 'minLength':
      return Number(p.limit) === 1 ? 'must not be empty' : `must be at least ${String(p.limit)} characters long (found ${found()})`;
    case 'maxLength':
      return `must be at most ${String(p.limit)} characters long (found ${found()})`;
    case 'minItems':
      return Number(p.limit) === 1 ? 'must not be empty' : `must have at least ${String(p.limit)} items (found ${found()})`;
    case 'maxItems':
      return Number(p.limit) === 0 ? `must be empty (found ${found()})` : `must have at most ${String(p.limit)} items (found ${found()})`;
    case 'minProperties':
      return `must have at least ${String(p.limit)} members`;
    case 'uniqueItems':
      return `must not repeat items (items ${String(p.j)} and ${String(p.i)} are equal)`;
    case 'contains':
      return 'must contain a matching item';
    case 'propertyNames':
      return 'has a member name that is not allowed';
    case 'false schema':
      return 'is not allowed here';
    case 'oneOf':
      return p.passingSchemas ? 'matches more than one of its allowed shapes' : 'matches none of its allowed shapes';
    case 'anyOf':
      return 'matches none of its allowed shapes';
    case 'not':
      return 'has a shape that is not allowed here';
    default:
      return e.message ?? 'is invalid';
  }
}

/** Pick the rule of the longest recorded context path containing `path` (explicit before implicit, then the latest). */
function contextRule(path: string, records: readonly ContextRecord[]): string | undefined {
  let best: ContextRecord | undefined;
  for (const r of records) {
    if (!(path === r.path || r.path === '' || path.startsWith(r.path + '/'))) continue;
    if (!best || r.path.length > best.path.length || (r.path.length === best.path.length && (r.explicit || !best.explicit))) best = r;
  }
  return best?.rule;
}

const FOLDED = new Set(['anyOf', 'oneOf', 'contains']);

/** True when `node` sits (statically) inside `union`'s anyOf/oneOf branches or its contains schema. */
function insideUnion(node: object | undefined, union: object): boolean {
  const nodes = ahpSchemas().nodes;
  let cur = node;
  while (cur) {
    const info = nodes.get(cur);
    if (!info || !info.parent) return false;
    if (info.parent === union && FOLDED.has(info.parentKey ?? '')) return true;
    cur = info.parent;
  }
  return false;
}

function schemaString(node: unknown, key: string): string | undefined {
  if (node !== null && typeof node === 'object') {
    const v = (node as Record<string, unknown>)[key];
    if (typeof v === 'string') return v;
  }
  return undefined;
}

/**
 * Map ajv errors (from a validator compiled by `ahpSchemas()`, `allErrors` + `verbose`) to
 * issues. `base` is prefixed to every pointer; `records` come from `ahpSchemas().recording`.
 * `if` wrappers, and the branch errors of annotated anyOf/oneOf/contains nodes, are folded into
 * the one sentence of that node.
 */
export function mapAjvErrors(errors: readonly ErrorObject[] | null | undefined, records: readonly ContextRecord[], instance: unknown, base = ''): AhpIssue[] {
  if (!errors || errors.length === 0) return [];
  const nodes = ahpSchemas().nodes;
  const unions = errors
    .filter((e) => FOLDED.has(e.keyword) && schemaString(e.parentSchema, 'x-ahp-message'))
    .map((e) => ({ node: e.parentSchema as object, path: e.instancePath }));
  const innerPropertyNames = new Set(errors.filter((e) => typeof (e as { propertyName?: string }).propertyName === 'string').map((e) => e.instancePath));
  const out: AhpIssue[] = [];
  const seen = new Set<string>();
  for (const e of errors) {
    if (e.keyword === 'if') continue;
    if (e.keyword === 'propertyNames' && innerPropertyNames.has(e.instancePath)) continue;
    const parent = e.parentSchema as object | undefined;
    if (unions.some((u) => u.node !== parent && (e.instancePath === u.path || e.instancePath.startsWith(u.path + '/')) && insideUnion(parent, u.node))) continue;
    const info = parent ? nodes.get(parent) : undefined;
    const path = errorPath(e, instance);
    const ruleId = info?.defRule ?? contextRule(path, records) ?? info?.docRule ?? 'ahp/wire-root';
    let text: string | undefined;
    if (e.keyword === 'additionalProperties') {
      const tpl = schemaString(parent, 'x-ahp-additional');
      if (tpl) text = tpl.replace('{prop}', String((e.params as Record<string, unknown>).additionalProperty));
    } else {
      text = schemaString(parent, 'x-ahp-message');
    }
    const message = ensureSentence(text ?? genericMessage(e, instance));
    const pointer = base + path;
    const key = `${ruleId}\u0000${pointer}\u0000${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(issue(ruleId, pointer, message));
  }
  return out;
}
