/**
 * The OTLP bridge (AEP-0005 §3): events -> one OTLP/JSON `ExportLogsServiceRequest` as a collector's file exporter
 * writes it; above `maxCapture` or at `none` the envelope only, `aep.capture` as declared (§3.3).
 */
import { childPointer, escapeToken } from '../../core/pointer.ts';
import { isObj, type Obj } from '../../core/value.ts';
import { CAPTURE_RANK } from '../event.ts';
import { defaultRedactor, screenMetadataLevel } from '../redact.ts';
import type { AepCaptureLevel } from '../schema/registry.ts';
import { hasLoneSurrogate, otlpNumberOf } from './numbers.ts';
import { AEP_TYPE_ROOT, isAepCoreAttribute, kindOf, type AepSeverity } from './types.ts';
import { notAnAepEvent } from './hint.ts';

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

/** Options of {@link toOtlp} and of the decoder (otlp-decode.ts). */
export interface OtlpOptions {
  /** The exporter's capture ceiling (AEP-0005 §3.3); default `metadata`. */
  maxCapture?: AepCaptureLevel;
  /** Per event, the number literals JSON.parse may have changed, by pointer (numbers.ts `numberLiterals`). */
  literals?: ReadonlyArray<ReadonlyMap<string, string> | undefined>;
}

/** An event {@link toOtlp} did not export: a value OTLP has no exact form for. */
export interface OtlpRefusal {
  index: number;
  /** Pointer in the event of the value. */
  pointer: string;
  /** One sentence: what the value is and why no OTLP value holds it. */
  reason: string;
}

/** What {@link toOtlp} left out, counted. */
export interface OtlpCounts {
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
  /** Events not exported (no record): a number no OTLP value type holds as written, a string that is not Unicode. */
  refused: OtlpRefusal[];
}

/** Why a value cannot be written as an AnyValue: thrown inside {@link anyValueOf}, caught per record. */
class Unwritable extends Error {
  constructor(
    readonly pointer: string,
    readonly reason: string,
  ) {
    super(reason);
  }
}

const NUMBER_REFUSAL = {
  'non-finite': 'a number beyond the range of a double (OTLP doubleValue)',
  'beyond-int64': 'an integer beyond int64 (OTLP intValue) that a double would round',
  underflow: 'a non-zero number a double holds only as 0',
} as const;

/**
 * An AnyValue (OTLP common/v1) for a JSON value at `p` in its event; `literals` gives numbers as written (by pointer).
 * @throws Unwritable for a number no OTLP value type holds as written, or a string with an unpaired surrogate.
 */
export function anyValueOf(v: unknown, p = '', literals?: ReadonlyMap<string, string>): Obj {
  if (typeof v === 'string') {
    if (hasLoneSurrogate(v))
      throw new Unwritable(
        p,
        'a string with an unpaired surrogate, which an OTLP/JSON string (valid Unicode) cannot hold',
      );
    return { stringValue: v };
  }
  if (typeof v === 'boolean') return { boolValue: v };
  if (typeof v === 'number') {
    const n = otlpNumberOf(v, literals?.get(p));
    if ('refused' in n) throw new Unwritable(p, NUMBER_REFUSAL[n.refused]);
    return n;
  }
  if (Array.isArray(v)) return { arrayValue: { values: v.map((x, i) => anyValueOf(x, childPointer(p, i), literals)) } };
  if (isObj(v))
    return {
      kvlistValue: {
        values: Object.entries(v).map(([key, x]) => {
          if (hasLoneSurrogate(key))
            throw new Unwritable(
              p,
              'a member name with an unpaired surrogate, which OTLP/JSON (valid Unicode) cannot hold',
            );
          return { key, value: anyValueOf(x, childPointer(p, key), literals) };
        }),
      },
    };
  return {};
}

/** The largest fixed64 (logs.proto `time_unix_nano`, `observed_time_unix_nano`). */
export const MAX_FIXED64 = 18446744073709551615n;

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

/** AEP-0005 §3: one request, a LogRecord per event, a resource per agent (`service.name`). Pure. */
export function toOtlp(events: ReadonlyArray<Readonly<Obj>>, opts: OtlpOptions = {}): OtlpExport {
  const max = opts.maxCapture ?? 'metadata';
  const counts: OtlpCounts = { records: 0, withheld: 0, extensions: 0, versions: 0 };
  const refused: OtlpRefusal[] = [];
  const byAgent = new Map<string, Obj[]>();
  if (!Array.isArray(events)) throw new TypeError(`the events must be an array, not ${kindOf(events)}`);
  for (const [index, ev] of events.entries()) {
    // bridge output or an AHP message is no AEP event to export: refused, as `aep convert` refuses the line
    const not = isObj(ev) ? notAnAepEvent(ev) : `${kindOf(ev)}, not a JSON object`;
    if (not !== undefined) {
      refused.push({ index, pointer: '', reason: not });
      continue;
    }
    const one: OtlpCounts = { records: 0, withheld: 0, extensions: 0, versions: 0 };
    let rec: Obj;
    try {
      rec = logRecordOf(ev, max, one, opts.literals?.[index]);
    } catch (e) {
      if (!(e instanceof Unwritable)) throw e;
      refused.push({ index, pointer: e.pointer, reason: e.reason });
      continue;
    }
    for (const k of ['withheld', 'extensions', 'versions'] as const) counts[k] += one[k];
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
  return { request: { resourceLogs }, counts, refused };
}

function logRecordOf(
  ev: Readonly<Obj>,
  max: AepCaptureLevel,
  counts: OtlpCounts,
  literals: ReadonlyMap<string, string> | undefined,
): Obj {
  const rec: Obj = {};
  const nanos = typeof ev.time === 'string' ? nanosOf(ev.time) : undefined;
  // time_unix_nano is a fixed64 and 0 is "unknown or missing" (logs.proto): a time at or before the epoch, or past
  // 2^64 - 1 ns, has no LogRecord time (an exporter that wraps or negates it writes another instant)
  if (nanos !== undefined && (nanos <= 0n || nanos > MAX_FIXED64))
    throw new Unwritable(
      '/time',
      nanos <= 0n
        ? 'a time at or before 1970-01-01T00:00:00Z, which time_unix_nano (a fixed64, 0 meaning unknown) cannot hold'
        : 'a time past 2554-07-21T23:34:33.709551615Z, beyond the fixed64 range of time_unix_nano',
    );
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
  // a withheld record is the envelope alone (§3.3), screened as a down-leveled copy's (AEP-0003 §9 item 2)
  const env = payload ? ev : screenMetadataLevel(ev, undefined, defaultRedactor());
  const attributes: Obj[] = [];
  for (const [a, key] of Object.entries(OTLP_ATTRIBUTE_TABLE)) {
    const v = env[a];
    if (v !== undefined) attributes.push({ key, value: anyValueOf(v, '/' + a, literals) });
  }
  const data = isObj(ev.data) ? ev.data : undefined;
  const body: Obj = {};
  if (data && payload) {
    for (const [k, v] of Object.entries(data)) {
      if (k.startsWith('gen_ai.'))
        attributes.push({ key: k, value: anyValueOf(v, '/data/' + escapeToken(k), literals) });
      else body[k] = v;
    }
  } else if (data) counts.withheld++;
  rec.attributes = attributes;
  // §3.2 "remaining data → body, preserved wholesale": an empty `data` is an empty map, not no body (its inverse
  // then has a `data`); a payload of gen_ai.* members alone comes back from the attributes
  if (data && payload && (Object.keys(body).length > 0 || Object.keys(data).length === 0))
    rec.body = anyValueOf(body, '/data', literals);
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
