/**
 * OTLP/JSON members read as the proto3 JSON mapping means them: original proto field names (read, and reported: "not
 * valid to use as keys", JSON Protobuf Encoding) and null fields (their defaults).
 */
import { childPointer, escapeToken } from '../../core/pointer.ts';
import { isObj, type Obj } from '../../core/value.ts';
import { ANY_KEYS, unescapeToken } from './otlp-values.ts';

const FIELDS = new Set([
  'resourceLogs',
  'scopeLogs',
  'logRecords',
  'schemaUrl',
  'droppedAttributesCount',
  'entityRefs',
  'timeUnixNano',
  'observedTimeUnixNano',
  'severityNumber',
  'severityText',
  'traceId',
  'spanId',
  'eventName',
  ...ANY_KEYS,
]);

const camel = (k: string): string => k.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** The lowerCamelCase field whose original name `k` is, or `undefined`. */
function fieldOf(k: string): string | undefined {
  if (!k.includes('_')) return undefined;
  const c = camel(k);
  return FIELDS.has(c) ? c : undefined;
}

/** Whether any member of `v` is an original field name (most requests have none: no copy is made for them). */
function anyProtoName(v: unknown): boolean {
  if (Array.isArray(v)) return v.some(anyProtoName);
  if (!isObj(v)) return false;
  for (const [k, x] of Object.entries(v)) if (fieldOf(k) !== undefined || anyProtoName(x)) return true;
  return false;
}

/** A request with its original field names read as their lowerCamelCase fields, and the pointers between the two. */
export interface CamelFields {
  value: unknown;
  /** Input pointers of the members written under an original field name. */
  names: Array<{ pointer: string; member: string; field: string }>;
  /** The input pointer of a pointer into {@link value}. */
  toInput(pointer: string): string;
  /** The pointer into {@link value} of an input pointer. */
  fromInput(pointer: string): string;
}

/** `input` with every original field name read as its field (beside its lowerCamelCase name, that one counts). */
export function camelFields(input: unknown): CamelFields {
  const names: CamelFields['names'] = [];
  if (!anyProtoName(input)) return { value: input, names, toInput: (p) => p, fromInput: (p) => p };
  const walk = (v: unknown, p: string): unknown => {
    if (Array.isArray(v)) return v.map((x, i) => walk(x, `${p}/${i}`));
    if (!isObj(v)) return v;
    const out: Obj = {};
    for (const [k, x] of Object.entries(v)) {
      const f = fieldOf(k);
      if (f !== undefined) names.push({ pointer: childPointer(p, k), member: k, field: f });
      if (f !== undefined && Object.hasOwn(v, f)) continue;
      Object.defineProperty(out, f ?? k, {
        value: walk(x, childPointer(p, k)),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  };
  const value = walk(input, '');
  if (names.length === 0) return { value: input, names, toInput: (p) => p, fromInput: (p) => p };
  const map = (pointer: string, into: boolean): string => {
    if (pointer === '') return pointer;
    let cur: unknown = input;
    let out = '';
    for (const t of pointer.slice(1).split('/').map(unescapeToken)) {
      let k = t;
      if (isObj(cur) && !Object.hasOwn(cur, t)) {
        if (into) k = Object.keys(cur).find((x) => fieldOf(x) === t) ?? t;
      } else if (!into && isObj(cur) && fieldOf(t) !== undefined && !Object.hasOwn(cur, fieldOf(t)!)) k = fieldOf(t)!;
      out += '/' + escapeToken(k);
      cur = isObj(cur) ? cur[into ? k : t] : Array.isArray(cur) ? cur[+t] : undefined;
    }
    return out;
  };
  return { value, names, toInput: (p) => map(p, true), fromInput: (p) => map(p, false) };
}

/**
 * `v` without its members whose value is `null`, at every depth: every OTLP/JSON object is a message, and the proto3
 * JSON mapping OTLP/JSON uses ("JSON Protobuf Encoding") accepts `null` for any field as its default value. An array
 * item stays (null is no message). No copy when there is no such member; indexes, so pointers, do not move.
 */
export function withoutNullFields(v: unknown): unknown {
  if (Array.isArray(v)) {
    const items = v.map(withoutNullFields);
    return items.some((x, i) => x !== v[i]) ? items : v;
  }
  if (!isObj(v)) return v;
  let out: Obj | undefined;
  for (const [k, x] of Object.entries(v)) {
    const y = x === null ? undefined : withoutNullFields(x);
    if (y === x) continue;
    out ??= Object.defineProperties({}, Object.getOwnPropertyDescriptors(v)) as Obj;
    if (y === undefined) delete out[k];
    else Object.defineProperty(out, k, { value: y, enumerable: true, writable: true, configurable: true });
  }
  return out ?? v;
}

/** The message names of OTLP's other signals' export requests, by their first member (a file of the wrong signal). */
export const OTHER_SIGNALS: Readonly<Record<string, string>> = {
  resourceSpans: 'ExportTraceServiceRequest (traces)',
  resourceMetrics: 'ExportMetricsServiceRequest (metrics)',
  resourceProfiles: 'ExportProfilesServiceRequest (profiles)',
  resource_spans: 'ExportTraceServiceRequest (traces)',
  resource_metrics: 'ExportMetricsServiceRequest (metrics)',
};
