/**
 * The one parse of an elicitation event's MCP body (a body-selected text part only) and its check against the pinned
 * closed subset (schemas/mcp/mcp-elicitation.schema.json).
 */
import type { ErrorObject } from '../../core/schema/ajv.ts';
import { isWebUrl as isWebUrlFormat } from '../../core/schema/formats.ts';
import { mapSchemaErrors, type Wording } from '../../core/schema/findings.ts';
import { phraseMessage } from '../../core/schema/wording.ts';
import { describeValue } from '../../core/finding.ts';
import { DEFAULT_MAX_DEPTH, type ParseOutcome, parseJsonText } from '../../core/json.ts';
import { differingCopies } from '../../core/json-copies.ts';
import { childPointer } from '../../core/pointer.ts';
import { isObj, own, type Obj } from '../../core/value.ts';
import {
  type BodyProblem,
  type ElicitationBody,
  type ElicitationChecks,
  JSON_RPC_ENVELOPE,
} from '../elicitation-body.ts';
import { ahpSchemas } from './schemas.ts';
import { MCP_TEMPLATES } from './templates.ts';

const NO_POINTERS: readonly string[] = [];
const NO_PROBLEMS: readonly BodyProblem[] = [];

/** The types an MCP answer value may have (2025-11-25 `ElicitResult.content` values). */
function isAnswerValue(v: unknown): boolean {
  if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return true;
  return Array.isArray(v) && v.every((x) => typeof x === 'string');
}

/** How errors inside the embedded MCP value are worded. */
const MCP_WORDING: Wording = {
  templates: MCP_TEMPLATES,
  generic(c) {
    const p = c.error.params as Record<string, unknown>;
    const m = (messageId: string, args: Record<string, string> = {}) => ({
      messageId,
      args: { keyword: c.keyword, ...args },
    });
    switch (c.keyword) {
      case 'required':
        return m('required', { member: String(p.missingProperty) });
      case 'additionalProperties':
        return m('additionalProperties', { member: String(p.additionalProperty) });
      case 'type':
      case 'const':
      case 'enum':
        return phraseMessage(c);
      case 'format':
        return p.format === 'uri' ? m('format-uri') : m('format', { format: String(p.format) });
      case 'anyOf':
      case 'oneOf':
        return m('shapes');
      default:
        return m('ajv', { ajv: c.error.message ?? 'is invalid' });
    }
  },
  keys: {},
  requiredPointer: 'object',
  additionalPointer: 'member',
};

/** Choose the PrimitiveSchemaDefinition variant a field schema is meant to be. */
function fieldVariant(s: unknown): string | undefined {
  if (!isObj(s)) return undefined;
  switch (s.type) {
    case 'string':
      if ('oneOf' in s) return 'TitledSingleSelectEnumSchema';
      if ('enumNames' in s) return 'LegacyTitledEnumSchema';
      if ('enum' in s) return 'UntitledSingleSelectEnumSchema';
      return 'StringSchema';
    case 'number':
    case 'integer':
      return 'NumberSchema';
    case 'boolean':
      return 'BooleanSchema';
    case 'array':
      return isObj(s.items) && 'anyOf' in s.items ? 'TitledMultiSelectEnumSchema' : 'UntitledMultiSelectEnumSchema';
    default:
      return undefined;
  }
}

const WEB_SCHEME = /^https?:/i;

/**
 * False for an http(s) `url` that RFC 3986 admits but that names no host to open (MCP "MUST contain a valid URL"): an
 * empty host (`https://`), `https:host` or `https:/host` (a URL parser repairs them, nothing names the host), a port
 * beyond 65535, a host that is no valid IPv4 address though it ends in a number.
 */
function isWebUrl(url: unknown): boolean {
  return typeof url !== 'string' || !WEB_SCHEME.test(url) || isWebUrlFormat(url);
}

/** The problem of a URL request whose `url` passes the schema's `uri` format but is no valid web URL. */
function webUrlProblems(value: unknown): BodyProblem[] {
  return isObj(value) && value.mode === 'url' && !isWebUrl(value.url) ? [problem('/url', 'schema.web-url')] : [];
}

/** A problem at `inner` of the body, worded by template `messageId` of `ahp/elicitation-body`. */
const problem = (inner: string, messageId: string, args: BodyProblem['args'] = {}): BodyProblem => ({
  inner,
  messageId,
  args,
});

/** Validate `value` against the MCP definition `def`, returning its {@link BodyProblem}s. */
function mcpProblems(def: 'request' | 'result', value: unknown): BodyProblem[] {
  const reg = ahpSchemas();
  const check = reg.mcpCheck(def);
  if (!check) return [problem('', 'noDefinition', { def })];
  if (check(value)) return def === 'request' ? webUrlProblems(value) : [];
  // the diagnostic validators are built on the first failure only
  const root = reg.mcpValidator(def)!;
  const out: BodyProblem[] = [];
  const fromErrors = (
    errors: readonly ErrorObject[] | null | undefined,
    target: unknown,
    prefix: string,
    skip?: (e: ErrorObject) => boolean,
  ) => {
    const kept = skip ? (errors ?? []).filter((e) => !skip(e)) : errors;
    for (const f of mapSchemaErrors(kept, target, {
      index: reg.index,
      wording: MCP_WORDING,
      fallbackRule: 'ahp/elicitation-body',
      base: prefix,
    }))
      out.push(problem(f.pointer, `${f.pointer === '' ? 'schemaRoot' : 'schema'}.${f.messageId}`, f.args));
  };
  if (!isObj(value)) {
    out.push(problem('', 'notObject', { found: describeValue(value) }));
    return out;
  }
  if (def === 'result') {
    const v = reg.mcpValidator('ElicitResult') ?? root;
    v(value);
    fromErrors(v.errors, value, '', (e) => e.instancePath.startsWith('/content/'));
    if (isObj(value.content)) {
      for (const [k, x] of Object.entries(value.content)) {
        if (!isAnswerValue(x))
          out.push(problem(childPointer('/content', k), 'answerValue', { found: describeValue(x) }));
      }
    }
    return out;
  }
  // request
  const variant =
    value.mode === 'url'
      ? 'ElicitRequestURLParams'
      : value.mode === undefined || value.mode === 'form'
        ? 'ElicitRequestFormParams'
        : undefined;
  if (!variant) {
    out.push(problem('/mode', 'mode'));
    return out;
  }
  const v = reg.mcpValidator(variant);
  if (!v) {
    root(value);
    fromErrors(root.errors, value, '');
    return out;
  }
  v(value);
  const fieldPath = /^\/requestedSchema\/properties\/[^/]+/;
  fromErrors(v.errors, value, '', (e) => fieldPath.test(e.instancePath));
  if (variant === 'ElicitRequestURLParams' && !out.some((p) => p.inner === '/url')) out.push(...webUrlProblems(value));
  const rs = value.requestedSchema;
  if (variant === 'ElicitRequestFormParams' && isObj(rs) && isObj(rs.properties)) {
    const prim = reg.mcpCheck('PrimitiveSchemaDefinition');
    for (const [name, field] of Object.entries(rs.properties)) {
      if (!prim || prim(field)) continue;
      const base = childPointer('/requestedSchema/properties', name);
      const fv = fieldVariant(field);
      const fval = fv ? reg.mcpValidator(fv) : undefined;
      if (!fval) {
        // a field without `type` (a bare titled `oneOf`, as fastmcp once sent) names what it lacks
        out.push(problem(base, isObj(field) && !own(field, 'type') ? 'fieldNoType' : 'fieldShape'));
        continue;
      }
      fval(field);
      fromErrors(fval.errors, field, base);
    }
  }
  return out;
}

/** Numbers of the MCP value beyond the double range (`1e400`, read as ±Infinity), outside `_meta` objects. */
function beyondDouble(value: unknown): BodyProblem[] {
  const out: BodyProblem[] = [];
  // an explicit stack: the body may nest as deep as --max-depth allows
  const stack: Array<[unknown, string]> = [[value, '']];
  while (stack.length) {
    const [v, ptr] = stack.pop()!;
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) out.push(problem(ptr, ptr === '' ? 'beyondDoubleRoot' : 'beyondDouble'));
    } else if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) stack.push([v[i], childPointer(ptr, i)]);
    } else if (isObj(v)) {
      for (const [k, x] of Object.entries(v))
        if (k !== '_meta' && x !== null && (typeof x === 'object' || typeof x === 'number'))
          stack.push([x, childPointer(ptr, k)]);
    }
  }
  return out.reverse();
}

// bodies repeat (a harness sends the same form again and again): a text found clean keeps its parse (never mutated:
// the analyzers copy before they edit), a bounded number of them, for the depth limit they were parsed under
const CLEAN_MEMO = 512;
const CLEAN_TEXT_MAX = 16384;
const cleanBodies = { request: new Map<string, ParseOutcome>(), result: new Map<string, ParseOutcome>() };
let cleanDepth = DEFAULT_MAX_DEPTH;
// the last clean text of each kind, compared before the memo: a body that repeats is most often the last one again, and
// comparing it costs less than hashing the new copy of the text for the memo's lookup
const lastClean: Record<'request' | 'result', { text: string; parsed: ParseOutcome } | undefined> = {
  request: undefined,
  result: undefined,
};

/** The kept parse of `text` found clean, or `undefined`. */
function cleanParse(kind: 'request' | 'result', text: string): ParseOutcome | undefined {
  const last = lastClean[kind];
  if (last !== undefined && last.text === text) return last.parsed;
  const parsed = cleanBodies[kind].get(text);
  if (parsed !== undefined) lastClean[kind] = { text, parsed };
  return parsed;
}

/** A JSON-RPC envelope where the params object belongs: `jsonrpc` with `method` or `params`, and no `message`. */
const isEnvelope = (v: unknown): boolean =>
  isObj(v) && own(v, 'jsonrpc') && (own(v, 'method') || own(v, 'params')) && !own(v, 'message');

/** The problems of a parsed body (`value`, parsed from `text`); a clean text's parse is kept in `cleanBodies`. */
function bodyProblems(kind: 'request' | 'result', parsed: ParseOutcome, value: unknown, text: string): BodyProblem[] {
  // one problem, not the members an envelope lacks (interaction-payloads.md: "not the JSON-RPC envelope")
  if (kind === 'request' && isEnvelope(value)) return [problem('', JSON_RPC_ENVELOPE)];
  const out = [...mcpProblems(kind, value), ...beyondDouble(value)];
  if (out.length === 0 && text.length <= CLEAN_TEXT_MAX && parsed.ok && parsed.bigIntegers.length === 0) {
    const clean = cleanBodies[kind];
    if (clean.size >= CLEAN_MEMO) clean.clear();
    clean.set(text, parsed);
    lastClean[kind] = { text, parsed };
  }
  return out;
}

/** Parse the MCP body of one `user.elicitation.request` / `.result` event, once. */
export function parseElicitationBody(
  event: Obj,
  eventPointer: string,
  check: boolean,
  maxDepth: number = DEFAULT_MAX_DEPTH,
): ElicitationBody | undefined {
  const kind =
    event.type === 'user.elicitation.request'
      ? 'request'
      : event.type === 'user.elicitation.result'
        ? 'result'
        : undefined;
  if (!kind) return undefined;
  const partPointer = `${eventPointer}/elicitation/${kind}`;
  const el = event.elicitation;
  const part = isObj(el) ? el[kind] : undefined;
  if (!isObj(part)) return { status: 'absent', partPointer };
  if (part.selection !== 'body' || 'gap' in part || typeof part.text !== 'string')
    return { status: 'view', partPointer };
  if (maxDepth !== cleanDepth) {
    cleanBodies.request.clear();
    cleanBodies.result.clear();
    lastClean.request = lastClean.result = undefined;
    cleanDepth = maxDepth;
  }
  const known = cleanParse(kind, part.text);
  const parsed = known ?? parseJsonText(part.text, maxDepth);
  const value = parsed.ok ? parsed.value : undefined;
  const differ =
    check && parsed.ok && parsed.duplicates.length > 0
      ? [
          ...differingCopies(
            part.text,
            parsed.duplicates.map((d) => d.pointer),
          ).keys(),
        ]
      : NO_POINTERS;
  const checks: ElicitationChecks | undefined = check
    ? {
        kind,
        envelope: el as Obj,
        textPointer: `${partPointer}/text`,
        parsed,
        differingCopies: differ,
        problems: known
          ? NO_PROBLEMS
          : parsed.ok && differ.length === 0
            ? bodyProblems(kind, parsed, value, part.text)
            : [],
      }
    : undefined;
  const ok = parsed.ok && parsed.duplicates.length === 0 && isObj(value) && !checks?.problems.length;
  const body: ElicitationBody = ok
    ? { status: 'parsed', value: value as Obj, partPointer }
    : { status: 'invalid', partPointer };
  if (checks) body.checks = checks;
  return body;
}
