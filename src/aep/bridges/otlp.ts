/**
 * The OTLP bridge (AEP-0005 §3): AEP events -> one OTLP/JSON `ExportLogsServiceRequest`
 * (the protobuf JSON encoding an OpenTelemetry collector's file exporter writes), its inverse,
 * and the checks of `aep validate --from otlp` on one request.
 *
 * Capture (§3.3, §4.3, §4.6): a record at `capture: none`, or above `maxCapture` (default
 * `metadata`), carries the envelope-derived attributes only; its declared `aep.capture` is
 * exported as it is (the envelope is never rewritten), and what was withheld is counted.
 */
import type { BigIntegerLiteral } from '../../core/json.ts';
import { childPointer, escapeToken } from '../../core/pointer.ts';
import { CAPTURE_RANK } from '../event.ts';
import type { AepCaptureLevel } from '../schema/registry.ts';
import { OTLP_RULES as R } from './rules.ts';
import {
  AEP_TYPE_ROOT,
  isAepCoreAttribute,
  isObj,
  kindOf,
  type AepSeverity,
  type BridgeIssue,
  type DecodedEvent,
  type DecodeResult,
} from './types.ts';

type Obj = Record<string, unknown>;

/** AEP attribute -> OTLP attribute key (AEP-0005 §3.2), in the exporter's order. */
export const OTLP_ATTRIBUTE_TABLE: Readonly<Record<string, string>> = {
  agent: 'aep.agent_id',
  id: 'aep.event_id',
  capture: 'aep.capture',
  source: 'aep.source',
  session: 'aep.session_id',
  run: 'aep.run_id',
  step: 'aep.step',
  seq: 'aep.sequence',
  epoch: 'aep.epoch',
  cause: 'aep.causation_id',
  subject: 'aep.subject',
};

const AEP_OF_KEY: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(OTLP_ATTRIBUTE_TABLE).map(([a, k]) => [k, a]),
);
const INT_ATTRIBUTES = new Set(['aep.sequence', 'aep.epoch']);

/** AEP severity -> the §3.4 pair. */
export const OTLP_SEVERITY: Readonly<Record<AepSeverity, { text: string; number: number }>> = {
  debug: { text: 'DEBUG', number: 5 },
  info: { text: 'INFO', number: 9 },
  notice: { text: 'INFO2', number: 10 },
  warning: { text: 'WARN', number: 13 },
  error: { text: 'ERROR', number: 17 },
  critical: { text: 'FATAL', number: 21 },
};

/** The §3.4 inverse: an OTLP severity number (1-24) bucketed to an AEP level. */
export function severityOfNumber(n: number): AepSeverity | undefined {
  if (!Number.isInteger(n) || n < 1 || n > 24) return undefined;
  return n <= 8
    ? 'debug'
    : n === 9
      ? 'info'
      : n <= 12
        ? 'notice'
        : n <= 16
          ? 'warning'
          : n <= 20
            ? 'error'
            : 'critical';
}

// protobuf JSON mapping: an enum may be written by name (SeverityNumber of logs/v1)
const SEVERITY_NAMES: Readonly<Record<string, number>> = (() => {
  const o: Record<string, number> = { SEVERITY_NUMBER_UNSPECIFIED: 0 };
  ['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR', 'FATAL'].forEach((b, i) => {
    for (let j = 0; j < 4; j++) o[`SEVERITY_NUMBER_${b}${j ? j + 1 : ''}`] = i * 4 + j + 1;
  });
  return o;
})();

/** Options of {@link toOtlp} and {@link decodeOtlp}. */
export interface OtlpOptions {
  /** The exporter's capture ceiling (AEP-0005 §3.3); default `metadata`. */
  maxCapture?: AepCaptureLevel;
}

/** What {@link toOtlp} left out, counted. */
export interface OtlpCounts {
  /** Records exported. */
  records: number;
  /** Records whose payload (body and gen_ai.* attributes) was withheld at the capture ceiling. */
  withheld: number;
  /** AEP extension attributes not exported (the §3.2 table has no place for them). */
  extensions: number;
  /** `aep` version attributes not exported (the §3.2 table has no place for them). */
  versions: number;
}

/** The result of {@link toOtlp}. */
export interface OtlpExport {
  request: Obj;
  counts: OtlpCounts;
}

/** An AnyValue (OTLP common/v1) for a JSON value. */
export function anyValueOf(v: unknown): Obj {
  if (typeof v === 'string') return { stringValue: v };
  if (typeof v === 'boolean') return { boolValue: v };
  if (typeof v === 'number') return Number.isSafeInteger(v) ? { intValue: String(v) } : { doubleValue: v };
  if (Array.isArray(v)) return { arrayValue: { values: v.map(anyValueOf) } };
  if (isObj(v))
    return { kvlistValue: { values: Object.entries(v).map(([key, x]) => ({ key, value: anyValueOf(x) })) } };
  return {};
}

/** RFC 3339 -> nanoseconds since the epoch; `undefined` when `s` is not a timestamp. */
export function nanosOf(s: string): bigint | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?([Zz]|([+-])(\d{2}):(\d{2}))$/.exec(s);
  if (!m) return undefined;
  const ms = Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!);
  if (!Number.isFinite(ms)) return undefined;
  const frac = BigInt(((m[7] ?? '') + '000000000').slice(0, 9));
  const offset = m[9] ? BigInt((m[9] === '-' ? -1 : 1) * (+m[10]! * 60 + +m[11]!)) * 60_000_000_000n : 0n;
  return BigInt(ms) * 1_000_000n + frac - offset;
}

/** Nanoseconds since the epoch -> RFC 3339 in UTC, with 3, 6 or 9 fractional digits. */
export function timeOfNanos(n: bigint): string {
  const ms = n / 1_000_000n;
  const sub = n % 1_000_000n;
  const iso = new Date(Number(ms)).toISOString();
  if (sub === 0n) return iso;
  const digits = sub.toString().padStart(6, '0');
  return iso.slice(0, -1) + (digits.endsWith('000') ? digits.slice(0, 3) : digits) + 'Z';
}

/**
 * AEP-0005 §3: one `ExportLogsServiceRequest` holding a LogRecord per event, one resource
 * per agent (`service.name`). Events above `maxCapture` (and at `capture: none`) export
 * without body and gen_ai.* attributes. Pure.
 */
export function toOtlp(events: ReadonlyArray<Readonly<Obj>>, opts: OtlpOptions = {}): OtlpExport {
  const max = opts.maxCapture ?? 'metadata';
  const counts: OtlpCounts = { records: 0, withheld: 0, extensions: 0, versions: 0 };
  const byAgent = new Map<string, Obj[]>();
  for (const ev of events) {
    const rec = logRecordOf(ev, max, counts);
    const agent = typeof ev.agent === 'string' ? ev.agent : '';
    let list = byAgent.get(agent);
    if (!list) byAgent.set(agent, (list = []));
    list.push(rec);
    counts.records++;
  }
  const resourceLogs = [...byAgent].map(([agent, logRecords]) => ({
    resource: { attributes: agent ? [{ key: 'service.name', value: { stringValue: agent } }] : [] },
    scopeLogs: [{ logRecords }],
  }));
  return { request: { resourceLogs }, counts };
}

function logRecordOf(ev: Readonly<Obj>, max: AepCaptureLevel, counts: OtlpCounts): Obj {
  const rec: Obj = {};
  const nanos = typeof ev.time === 'string' ? nanosOf(ev.time) : undefined;
  if (nanos !== undefined) rec.timeUnixNano = nanos.toString();
  const sev = OTLP_SEVERITY[ev.severity as AepSeverity];
  if (sev) {
    rec.severityNumber = sev.number;
    rec.severityText = sev.text;
  }
  if (typeof ev.type === 'string') rec.eventName = AEP_TYPE_ROOT + ev.type;
  const capture =
    typeof ev.capture === 'string' && ev.capture in CAPTURE_RANK ? (ev.capture as AepCaptureLevel) : 'metadata';
  const payload = capture !== 'none' && CAPTURE_RANK[capture] <= CAPTURE_RANK[max];
  const attributes: Obj[] = [];
  for (const [a, key] of Object.entries(OTLP_ATTRIBUTE_TABLE)) {
    const v = ev[a];
    if (v !== undefined) attributes.push({ key, value: anyValueOf(v) });
  }
  const data = isObj(ev.data) ? ev.data : undefined;
  const body: Obj = {};
  if (data && payload) {
    for (const [k, v] of Object.entries(data)) {
      if (k.startsWith('gen_ai.')) attributes.push({ key: k, value: anyValueOf(v) });
      else body[k] = v;
    }
  } else if (data) counts.withheld++;
  rec.attributes = attributes;
  if (data && payload && Object.keys(body).length > 0) rec.body = anyValueOf(body);
  const tp =
    typeof ev.traceparent === 'string'
      ? /^[0-9a-f]{2}-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/.exec(ev.traceparent)
      : null;
  if (tp) {
    rec.traceId = tp[1];
    rec.spanId = tp[2];
    rec.flags = parseInt(tp[3]!, 16);
  }
  for (const k of Object.keys(ev)) {
    if (!isAepCoreAttribute(k)) counts.extensions++;
    else if (k === 'aep') counts.versions++;
  }
  return rec;
}

/**
 * AEP-0005 §3 inverse: the AEP events of an OTLP/JSON request (foreign records left out);
 * see {@link decodeOtlp} for the checks made on the way.
 */
export function fromOtlp(request: unknown, opts: OtlpOptions = {}): Obj[] {
  return decodeOtlp(request, opts).events.map((d) => d.event);
}

/** Options of {@link decodeOtlp}. */
export interface DecodeOtlpOptions extends OtlpOptions {
  /** Integers beyond 2^53 in the input, with their exact text (pointers into the input value). */
  bigIntegers?: readonly BigIntegerLiteral[];
}

/** One AnyValue read back as JSON, with the input pointer of every member under it. */
interface ReadValue {
  value: unknown;
  ok: boolean;
}

const ANY_KEYS = ['stringValue', 'boolValue', 'intValue', 'doubleValue', 'arrayValue', 'kvlistValue', 'bytesValue'];

/**
 * Check one `--from otlp` input value (an `ExportLogsServiceRequest`) against AEP-0005 §3 and
 * map every AEP LogRecord back to its AEP event. The inverse supplies `aep: "0.1"` (the
 * version the bridge is released with, AEP-0005 §5 item 4): the §3.2 table carries no version.
 */
export function decodeOtlp(value: unknown, opts: DecodeOtlpOptions = {}): DecodeResult {
  const max = opts.maxCapture ?? 'metadata';
  const issues: BridgeIssue[] = [];
  const events: DecodedEvent[] = [];
  const big = new Map((opts.bigIntegers ?? []).map((b) => [b.pointer, b.text]));
  const shape = (pointer: string, message: string) => issues.push({ ruleId: R.shape.id, pointer, message });
  if (!isObj(value)) {
    shape('', `The input is ${kindOf(value)}, not an ExportLogsServiceRequest object.`);
    return { events, issues };
  }
  // the protobuf JSON mapping rejects unknown fields by default: a value with other members is
  // not an ExportLogsServiceRequest (plain AEP or a CloudEvent fed to --from otlp, for instance)
  const known = (o: Record<string, unknown>, p: string, what: string, names: readonly string[]) => {
    for (const k of Object.keys(o))
      if (!names.includes(k))
        shape(
          `${p}/${escapeToken(k)}`,
          `Member "${k.slice(0, 60)}" is not a field of ${what} (OTLP/JSON: ${names.join(', ')}).`,
        );
  };
  if (value.resourceLogs === undefined) {
    const ks = Object.keys(value);
    shape(
      '',
      `The value has no resourceLogs, so it is not an ExportLogsServiceRequest and holds no LogRecord to check${
        ks.length
          ? ` (its members: ${ks
              .slice(0, 6)
              .map((k) => k.slice(0, 30))
              .join(', ')}${ks.length > 6 ? ', ...' : ''})`
          : ''
      }.`,
    );
    return { events, issues };
  }
  known(value, '', 'an ExportLogsServiceRequest', ['resourceLogs']);
  const list = (v: unknown, p: string, what: string): unknown[] => {
    if (v === undefined) return [];
    if (!Array.isArray(v)) {
      shape(p, `${what} is ${kindOf(v)}, not an array.`);
      return [];
    }
    return v;
  };
  list(value.resourceLogs, '/resourceLogs', 'resourceLogs').forEach((rl, i) => {
    const rp = `/resourceLogs/${i}`;
    if (!isObj(rl)) return shape(rp, `A ResourceLogs is ${kindOf(rl)}, not an object.`);
    known(rl, rp, 'ResourceLogs', ['resource', 'scopeLogs', 'schemaUrl']);
    list(rl.scopeLogs, rp + '/scopeLogs', 'scopeLogs').forEach((sl, j) => {
      const sp = `${rp}/scopeLogs/${j}`;
      if (!isObj(sl)) return shape(sp, `A ScopeLogs is ${kindOf(sl)}, not an object.`);
      known(sl, sp, 'ScopeLogs', ['scope', 'logRecords', 'schemaUrl']);
      list(sl.logRecords, sp + '/logRecords', 'logRecords').forEach((rec, k) => {
        const p = `${sp}/logRecords/${k}`;
        if (!isObj(rec)) return shape(p, `A LogRecord is ${kindOf(rec)}, not an object.`);
        const d = decodeRecord(rec, p, max, issues, big);
        if (d) events.push(d);
      });
    });
  });
  return { events, issues };
}

/** An integer of the protobuf JSON mapping (a number, or a decimal string), exact. */
function int64Of(v: unknown, p: string, big: ReadonlyMap<string, string>): bigint | undefined {
  if (typeof v === 'number') {
    const lit = big.get(p);
    if (lit !== undefined) return BigInt(lit);
    return Number.isSafeInteger(v) ? BigInt(v) : undefined;
  }
  if (typeof v === 'string' && /^-?\d+$/.test(v)) return BigInt(v);
  return undefined;
}

/** The JSON value of an AnyValue at `p` (reports shape issues); integers beyond 2^53 go to `bigs`. */
function readAny(
  v: unknown,
  p: string,
  issues: BridgeIssue[],
  big: ReadonlyMap<string, string>,
  aepPointer: string,
  bigs: BigIntegerLiteral[],
): ReadValue {
  const bad = (message: string): ReadValue => (
    issues.push({ ruleId: R.shape.id, pointer: p, message }), { value: undefined, ok: false }
  );
  if (!isObj(v)) return bad(`An AnyValue is ${kindOf(v)}, not an object.`);
  const keys = Object.keys(v).filter((k) => ANY_KEYS.includes(k) && v[k] !== undefined && v[k] !== null);
  if (keys.length === 0) return { value: null, ok: true };
  if (keys.length > 1) return bad(`An AnyValue sets ${keys.length} members (${keys.join(', ')}); it holds one.`);
  const k = keys[0]!;
  const x = v[k];
  const at = childPointer(p, k);
  switch (k) {
    case 'stringValue':
      return typeof x === 'string' ? { value: x, ok: true } : bad(`stringValue is ${kindOf(x)}, not a string.`);
    case 'bytesValue':
      return typeof x === 'string' ? { value: x, ok: true } : bad(`bytesValue is ${kindOf(x)}, not a base64 string.`);
    case 'boolValue':
      return typeof x === 'boolean' ? { value: x, ok: true } : bad(`boolValue is ${kindOf(x)}, not a boolean.`);
    case 'doubleValue':
      return typeof x === 'number'
        ? { value: x, ok: true }
        : typeof x === 'string' && /^(NaN|-?Infinity)$/.test(x)
          ? bad('doubleValue is not a finite number; JSON cannot carry it as an AEP value.')
          : typeof x === 'string' && x.trim() !== '' && Number.isFinite(Number(x))
            ? { value: Number(x), ok: true }
            : bad(`doubleValue is ${kindOf(x)}, not a number.`);
    case 'intValue': {
      const n = int64Of(x, at, big);
      if (n === undefined)
        return bad(`intValue is ${typeof x === 'string' ? 'a string that is not a decimal integer' : kindOf(x)}.`);
      if (n > BigInt(Number.MAX_SAFE_INTEGER) || n < BigInt(Number.MIN_SAFE_INTEGER))
        bigs.push({ pointer: aepPointer, text: n.toString(), index: 0 });
      return { value: Number(n), ok: true };
    }
    case 'arrayValue': {
      if (!isObj(x)) return bad(`arrayValue is ${kindOf(x)}, not an object.`);
      const vals = x.values === undefined ? [] : x.values;
      if (!Array.isArray(vals)) return bad('arrayValue.values is not an array.');
      const out: unknown[] = [];
      let ok = true;
      vals.forEach((y, i) => {
        const r = readAny(y, `${at}/values/${i}`, issues, big, `${aepPointer}/${i}`, bigs);
        ok &&= r.ok;
        out.push(r.value);
      });
      return { value: out, ok };
    }
    default: {
      const r = readKvList(x, at, issues, big, aepPointer, bigs);
      return r ? { value: r, ok: true } : { value: undefined, ok: false };
    }
  }
}

/** A KeyValueList (`{values: [{key, value}]}`) at `p` as a JSON object, or `undefined` when malformed. */
function readKvList(
  x: unknown,
  p: string,
  issues: BridgeIssue[],
  big: ReadonlyMap<string, string>,
  aepPointer: string,
  bigs: BigIntegerLiteral[],
): Obj | undefined {
  if (!isObj(x))
    return (
      issues.push({ ruleId: R.shape.id, pointer: p, message: `kvlistValue is ${kindOf(x)}, not an object.` }), undefined
    );
  const vals = x.values === undefined ? [] : x.values;
  if (!Array.isArray(vals))
    return (
      issues.push({ ruleId: R.shape.id, pointer: p + '/values', message: 'kvlistValue.values is not an array.' }),
      undefined
    );
  const o: Obj = {};
  let ok = true;
  vals.forEach((kv, i) => {
    const q = `${p}/values/${i}`;
    if (!isObj(kv) || typeof kv.key !== 'string') {
      ok = false;
      issues.push({ ruleId: R.shape.id, pointer: q, message: 'A KeyValue is not an object with a string key.' });
      return;
    }
    const r = readAny(kv.value ?? {}, q + '/value', issues, big, `${aepPointer}/${escapeToken(kv.key)}`, bigs);
    ok &&= r.ok;
    Object.defineProperty(o, kv.key, { value: r.value, enumerable: true, writable: true, configurable: true });
  });
  return ok ? o : undefined;
}

/** The input pointer under an AnyValue at `p` for the AEP tokens `toks` (best effort). */
function anyPointer(v: unknown, p: string, toks: string[]): string {
  let cur = v;
  let at = p;
  for (const t of toks) {
    if (!isObj(cur)) break;
    if (isObj(cur.kvlistValue) && Array.isArray(cur.kvlistValue.values)) {
      const i = cur.kvlistValue.values.findIndex((kv) => isObj(kv) && kv.key === t);
      if (i === -1) break;
      at = `${at}/kvlistValue/values/${i}/value`;
      cur = (cur.kvlistValue.values[i] as Obj).value;
    } else if (
      isObj(cur.arrayValue) &&
      Array.isArray(cur.arrayValue.values) &&
      /^\d+$/.test(t) &&
      +t < cur.arrayValue.values.length
    ) {
      at = `${at}/arrayValue/values/${t}`;
      cur = cur.arrayValue.values[+t];
    } else break;
  }
  return at;
}

const unescape = (t: string) => t.replace(/~1/g, '/').replace(/~0/g, '~');

function decodeRecord(
  rec: Obj,
  p: string,
  max: AepCaptureLevel,
  issues: BridgeIssue[],
  big: ReadonlyMap<string, string>,
): DecodedEvent | undefined {
  const issue = (rule: { id: string }, pointer: string, message: string) =>
    issues.push({ ruleId: rule.id, pointer, message });
  // attributes: a {key, value} list; the index of every key for the pointers
  const attrs = new Map<string, { value: unknown; index: number }>();
  let shapeOk = true;
  if (rec.attributes !== undefined && !Array.isArray(rec.attributes)) {
    issue(R.shape, p + '/attributes', `attributes is ${kindOf(rec.attributes)}, not an array.`);
    shapeOk = false;
  }
  const list = Array.isArray(rec.attributes) ? rec.attributes : [];
  list.forEach((kv, i) => {
    if (!isObj(kv) || typeof kv.key !== 'string') {
      shapeOk = false;
      return issue(R.shape, `${p}/attributes/${i}`, 'An attribute is not an object with a string key.');
    }
    if (attrs.has(kv.key))
      return issue(
        R.attribute,
        `${p}/attributes/${i}/key`,
        `Attribute key "${kv.key.slice(0, 60)}" repeats; which value counts is undefined.`,
      );
    attrs.set(kv.key, { value: kv.value, index: i });
  });
  const hasAep = [...attrs.keys()].some((k) => k.startsWith('aep.'));
  const name = rec.eventName;
  if (typeof name !== 'string' || !name.startsWith(AEP_TYPE_ROOT)) {
    if (hasAep)
      issue(
        R.eventName,
        typeof name === 'string' ? p + '/eventName' : p,
        typeof name === 'string'
          ? `eventName does not begin with "${AEP_TYPE_ROOT}", though the record carries aep.* attributes.`
          : 'The record carries aep.* attributes but no eventName ("dev.aep." + type).',
      );
    else
      issue(
        R.foreign,
        p,
        'The LogRecord has no dev.aep. event name and no aep.* attribute: not an AEP export; it is not checked as AEP.',
      );
    return undefined;
  }
  const event: Obj = { aep: '0.1' };
  const ptr: Record<string, string> = { aep: p };
  const bigs: BigIntegerLiteral[] = [];
  // id and type first: the envelope order of the exporter's input
  event.type = name.slice(AEP_TYPE_ROOT.length);
  ptr.type = p + '/eventName';
  for (const [key, { value: v, index }] of attrs) {
    const ap = `${p}/attributes/${index}/value`;
    if (key.startsWith('aep.')) {
      const a = AEP_OF_KEY[key];
      if (a === undefined) {
        issue(
          R.attribute,
          `${p}/attributes/${index}/key`,
          `Attribute "${key.slice(0, 40)}" is not an aep.* attribute of the §3.2 table; it is not mapped.`,
        );
        continue;
      }
      const want = INT_ATTRIBUTES.has(key) ? 'intValue' : 'stringValue';
      if (!isObj(v) || v[want] === undefined || Object.keys(v).some((k) => k !== want && ANY_KEYS.includes(k))) {
        issue(R.attribute, ap, `Attribute ${key} is not a ${want}.`);
        continue;
      }
      const r = readAny(v, ap, issues, big, '/' + a, bigs);
      if (!r.ok) continue;
      event[a] = r.value;
      ptr[a] = ap;
    }
  }
  // time (§3.2: RFC 3339 <- epoch nanos)
  const t = rec.timeUnixNano;
  const tn = t === undefined ? undefined : int64Of(t, p + '/timeUnixNano', big);
  if (tn === undefined || tn <= 0n)
    issue(
      R.time,
      t === undefined ? p : p + '/timeUnixNano',
      t === undefined
        ? 'timeUnixNano is absent; AEP time comes from it.'
        : tn === undefined
          ? `timeUnixNano is ${typeof t === 'string' ? 'a string that is not a decimal integer' : kindOf(t)}.`
          : 'timeUnixNano is zero or negative (unknown time); AEP time comes from it.',
    );
  else if (tn > 253402300799999999999n)
    issue(R.time, p + '/timeUnixNano', 'timeUnixNano is past the year 9999; no RFC 3339 time holds it.');
  else {
    event.time = timeOfNanos(tn);
    ptr.time = p + '/timeUnixNano';
  }
  // severity (§3.4)
  const sn = rec.severityNumber;
  const st = rec.severityText;
  const num =
    typeof sn === 'string'
      ? (SEVERITY_NAMES[sn] ?? (/^\d+$/.test(sn) ? +sn : NaN))
      : typeof sn === 'number'
        ? sn
        : sn === undefined
          ? 0
          : NaN;
  const level = severityOfNumber(num);
  const row = level ? OTLP_SEVERITY[level] : undefined;
  if (Number.isNaN(num) || (num !== 0 && !level))
    issue(
      R.severity,
      p + '/severityNumber',
      `severityNumber is ${typeof sn === 'string' ? 'a string that names no SeverityNumber' : Number.isInteger(num) ? 'outside 1-24' : kindOf(sn)}.`,
    );
  else if (num === 0 && st !== undefined && st !== '')
    issue(R.severity, p + '/severityText', 'severityText is present without a severityNumber.');
  else if (level && (row!.number !== num || st !== row!.text))
    issue(
      R.severity,
      st !== undefined && row!.number === num ? p + '/severityText' : p + '/severityNumber',
      `severityNumber ${num} with ${st === undefined ? 'no severityText' : typeof st === 'string' ? `severityText "${st.slice(0, 12)}"` : `a severityText that is ${kindOf(st)}`} is not a row of the §3.4 table (${row!.text} ${row!.number} for ${level}).`,
    );
  if (level) {
    event.severity = level;
    ptr.severity = p + '/severityNumber';
  }
  // trace context (§3.2: trace_id, span_id, flags)
  const tid = rec.traceId;
  const sid = rec.spanId;
  const present = (x: unknown) => x !== undefined && x !== '';
  if (present(tid) || present(sid)) {
    const okT = typeof tid === 'string' && /^[0-9a-fA-F]{32}$/.test(tid) && !/^0+$/.test(tid);
    const okS = typeof sid === 'string' && /^[0-9a-fA-F]{16}$/.test(sid) && !/^0+$/.test(sid);
    const flags =
      rec.flags === undefined
        ? 0
        : typeof rec.flags === 'number' && Number.isInteger(rec.flags) && rec.flags >= 0
          ? rec.flags
          : NaN;
    if (!okT)
      issue(
        R.trace,
        present(tid) ? p + '/traceId' : p,
        present(tid) ? 'traceId is not 32 hex digits (not all zero).' : 'spanId is present without a traceId.',
      );
    else if (!okS)
      issue(
        R.trace,
        present(sid) ? p + '/spanId' : p,
        present(sid) ? 'spanId is not 16 hex digits (not all zero).' : 'traceId is present without a spanId.',
      );
    else if (Number.isNaN(flags)) issue(R.trace, p + '/flags', 'flags is not a non-negative integer.');
    else {
      event.traceparent = `00-${tid.toLowerCase()}-${sid.toLowerCase()}-${(flags & 0xff).toString(16).padStart(2, '0')}`;
      ptr.traceparent = p + '/traceId';
    }
  } else if (rec.flags !== undefined && rec.flags !== 0)
    issue(R.trace, p + '/flags', 'flags is present without traceId and spanId.');
  // payload: body (an AnyValue map) and the hoisted gen_ai.* attributes
  const capture =
    typeof event.capture === 'string' && event.capture in CAPTURE_RANK
      ? (event.capture as AepCaptureLevel)
      : 'metadata';
  const allowed = capture !== 'none' && CAPTURE_RANK[capture] <= CAPTURE_RANK[max];
  const why =
    capture === 'none'
      ? 'the record is at capture none'
      : `the record's capture ${capture} is above the max capture ${max}`;
  const data: Obj = {};
  const dataPtr: Record<string, string> = {};
  let hasData = false;
  const body = rec.body;
  if (body !== undefined && body !== null) {
    if (!allowed)
      issue(
        R.capture,
        p + '/body',
        `The record carries a body although ${why} (§3.3: envelope-derived attributes only).`,
      );
    // a body that cannot be read leaves the payload unknown: the record is not checked as AEP
    if (!isObj(body) || !isObj(body.kvlistValue)) {
      issue(R.shape, p + '/body', 'body is not an AnyValue map (kvlistValue); an AEP payload is a JSON object.');
      shapeOk = false;
    } else {
      const o = readKvList(body.kvlistValue, p + '/body/kvlistValue', issues, big, '/data', bigs);
      if (!o) shapeOk = false;
      else {
        hasData = true;
        ((body.kvlistValue.values as Obj[] | undefined) ?? []).forEach((kv, i) => {
          dataPtr[kv.key as string] = `${p}/body/kvlistValue/values/${i}/value`;
          if ((kv.key as string).startsWith('gen_ai.'))
            issue(
              R.genAi,
              `${p}/body/kvlistValue/values/${i}/key`,
              `Payload member "${(kv.key as string).slice(0, 60)}" is in the body; gen_ai.* members are top-level LogRecord attributes.`,
            );
        });
        for (const [k, v] of Object.entries(o))
          Object.defineProperty(data, k, { value: v, enumerable: true, writable: true, configurable: true });
      }
    }
  }
  for (const [key, { value: v, index }] of attrs) {
    if (!key.startsWith('gen_ai.')) continue;
    const ap = `${p}/attributes/${index}/value`;
    if (!allowed)
      issue(
        R.capture,
        `${p}/attributes/${index}`,
        `The record carries the payload attribute ${key.slice(0, 60)} although ${why} (§3.3).`,
      );
    if (Object.hasOwn(data, key)) continue;
    const r = readAny(v, ap, issues, big, '/data/' + escapeToken(key), bigs);
    if (!r.ok) continue;
    hasData = true;
    Object.defineProperty(data, key, { value: r.value, enumerable: true, writable: true, configurable: true });
    dataPtr[key] = ap;
  }
  if (!shapeOk) return undefined;
  // the envelope order of AEP-0001 §5.1
  const out: Obj = {};
  for (const k of [
    'aep',
    'id',
    'type',
    'subject',
    'time',
    'source',
    'agent',
    'session',
    'run',
    'step',
    'seq',
    'epoch',
    'cause',
    'severity',
    'capture',
    'traceparent',
  ])
    if (k in event) out[k] = event[k];
  if (hasData) out.data = data;
  // a payload withheld at the ceiling (§3.3) maps back as an event that carries none, as one at
  // capture none does: its absence is the bridge's, not a missing REQUIRED member of the emitter
  else if (!allowed && capture !== 'none') out.capture = 'none';
  const anyOf = (k: string): unknown => {
    const at = dataPtr[k];
    if (!at) return undefined;
    if (at.includes('/body/'))
      return (((body as Obj).kvlistValue as { values?: Obj[] }).values ?? []).find((kv) => kv.key === k)?.value;
    return attrs.get(k)?.value;
  };
  return {
    event: out,
    base: p,
    ...(bigs.length ? { bigIntegers: bigs } : {}),
    pointerOf(aepPointer: string): string {
      if (aepPointer === '') return p;
      const toks = aepPointer.slice(1).split('/').map(unescape);
      const head = toks[0]!;
      if (head === 'data') {
        if (toks.length === 1) return body !== undefined ? p + '/body' : p;
        const at = dataPtr[toks[1]!];
        return at ? anyPointer(anyOf(toks[1]!), at, toks.slice(2)) : body !== undefined ? p + '/body' : p;
      }
      if (ptr[head])
        return toks.length > 1 && ptr[head] !== p
          ? anyPointer(attrs.get(OTLP_ATTRIBUTE_TABLE[head] ?? '')?.value, ptr[head]!, toks.slice(1))
          : ptr[head]!;
      const key = OTLP_ATTRIBUTE_TABLE[head];
      if (key && attrs.has(key)) return `${p}/attributes/${attrs.get(key)!.index}`;
      if (head === 'time') return p + '/timeUnixNano';
      return p;
    },
  };
}
