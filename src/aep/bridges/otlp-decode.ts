import type { BigIntegerLiteral } from '../../core/json.ts';
import type { MessageArgs } from '../../core/message.ts';
import { escapeToken } from '../../core/pointer.ts';
import { isObj, type Obj } from '../../core/value.ts';
import { CAPTURE_RANK } from '../event.ts';
import type { AepCaptureLevel } from '../schema/registry.ts';
import { OTLP_ATTRIBUTE_TABLE, OTLP_SEVERITY, severityOfNumber, timeOfNanos, type OtlpOptions } from './otlp.ts';
import { camelFields, OTHER_SIGNALS, withoutNullFields } from './otlp-names.ts';
import { ANY_KEYS, anyPointer, hugeIntegerSign, int64KindOf, int64Of, readAny } from './otlp-values.ts';
import { fixed32OfString, foundOf, readKvList, timeFault, unescapeToken } from './otlp-values.ts';
import { OTLP_RULES as R } from './rules.ts';
import {
  AEP_ENVELOPE_ORDER,
  AEP_TYPE_ROOT,
  kindOf,
  type BridgeIssue,
  type DecodedEvent,
  type DecodeResult,
} from './types.ts';

const AEP_OF_KEY: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(OTLP_ATTRIBUTE_TABLE).map(([a, k]) => [k, a]),
);
const INT_ATTRIBUTES = new Set(['aep.sequence', 'aep.epoch']);

const SEVERITY_NAMES: Readonly<Record<string, number>> = (() => {
  const o: Record<string, number> = { SEVERITY_NUMBER_UNSPECIFIED: 0 };
  ['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR', 'FATAL'].forEach((b, i) => {
    for (let j = 0; j < 4; j++) o[`SEVERITY_NUMBER_${b}${j ? j + 1 : ''}`] = i * 4 + j + 1;
  });
  return o;
})();

/** AEP-0005 §3 inverse: the AEP events of an OTLP/JSON request (foreign records left out). */
export function fromOtlp(request: unknown, opts: OtlpOptions = {}): Obj[] {
  return decodeOtlp(request, opts).events.map((d) => d.event);
}

/** Options of {@link decodeOtlp}. */
export interface DecodeOtlpOptions extends OtlpOptions {
  /** Integers beyond 2^53 in the input, with their exact text (pointers into the input value). */
  bigIntegers?: readonly BigIntegerLiteral[];
}

/**
 * Check one `--from otlp` request (AEP-0005 §3) and map each AEP LogRecord back; `aep: "0.1"` is supplied (§5 item 4).
 */
export function decodeOtlp(input: unknown, opts: DecodeOtlpOptions = {}): DecodeResult {
  const c = camelFields(withoutNullFields(input));
  const bigIntegers = (opts.bigIntegers ?? []).map((b) => ({ ...b, pointer: c.fromInput(b.pointer) }));
  const r = decodeRequest(c.value, { ...opts, bigIntegers });
  if (c.names.length === 0) return r;
  // one finding per original name, at its first member
  const first = c.names.filter((n, i) => c.names.findIndex((m) => m.member === n.member) === i);
  const issues: BridgeIssue[] = first.map(({ pointer, member, field }) => ({
    ruleId: R.shape.id,
    pointer,
    messageId: 'proto-name',
    args: { member: member.slice(0, 40), field },
  }));
  for (const i of r.issues) issues.push({ ...i, pointer: c.toInput(i.pointer) });
  const events = r.events.map((d) => ({
    ...d,
    base: c.toInput(d.base),
    pointerOf: (p: string) => c.toInput(d.pointerOf(p)),
  }));
  return { events, issues };
}

function decodeRequest(value: unknown, opts: DecodeOtlpOptions): DecodeResult {
  const max = opts.maxCapture ?? 'metadata';
  const issues: BridgeIssue[] = [];
  const events: DecodedEvent[] = [];
  const big = new Map((opts.bigIntegers ?? []).map((b) => [b.pointer, b.text]));
  const shape = (pointer: string, messageId: string, args: MessageArgs = {}) =>
    issues.push({ ruleId: R.shape.id, pointer, messageId, args });
  if (!isObj(value)) {
    shape('', 'input', { kind: kindOf(value) });
    return { events, issues };
  }
  // "OTLP/JSON receivers MUST ignore message fields with unknown names" (JSON Protobuf Encoding): only a value without
  // resourceLogs is no request to check
  if (value.resourceLogs === undefined) {
    const ks = Object.keys(value);
    // `{}` is the empty request in the proto3 JSON mapping (every field at its default), as `{"resourceLogs":[]}`
    if (ks.length === 0) return { events, issues };
    const members = ks.slice(0, 6).map((k) => k.slice(0, 30));
    if (ks.length > 6) members.push('...');
    const signal = ks.map((k) => OTHER_SIGNALS[k]).find((x) => x !== undefined);
    if (signal) shape('', 'other-signal', { members: members.join(', '), signal });
    else shape('', ks.length ? 'no-resource-logs-members' : 'no-resource-logs', { members: members.join(', ') });
    return { events, issues };
  }
  const list = (v: unknown, p: string, member: string): unknown[] => {
    if (v === undefined) return [];
    if (!Array.isArray(v)) {
      shape(p, 'not-array', { member, kind: kindOf(v) });
      return [];
    }
    return v;
  };
  const message = (v: unknown, p: string, container: string) => {
    if (v === undefined) return;
    if (!isObj(v)) shape(p, 'not-object', { container, kind: kindOf(v) });
    else
      list(v.attributes, p + '/attributes', 'attributes').forEach((kv, i) => {
        if (!isObj(kv) || typeof kv.key !== 'string') shape(`${p}/attributes/${i}`, 'key-value');
      });
  };
  list(value.resourceLogs, '/resourceLogs', 'resourceLogs').forEach((rl, i) => {
    const rp = `/resourceLogs/${i}`;
    if (!isObj(rl)) {
      shape(rp, 'not-object', { container: 'ResourceLogs', kind: kindOf(rl) });
      return;
    }
    // a message field holds an object (proto3 JSON); resource and scope map to nothing, but a request that is not
    // one is not read as one
    message(rl.resource, rp + '/resource', 'Resource');
    list(rl.scopeLogs, rp + '/scopeLogs', 'scopeLogs').forEach((sl, j) => {
      const sp = `${rp}/scopeLogs/${j}`;
      if (!isObj(sl)) {
        shape(sp, 'not-object', { container: 'ScopeLogs', kind: kindOf(sl) });
        return;
      }
      message(sl.scope, sp + '/scope', 'InstrumentationScope');
      list(sl.logRecords, sp + '/logRecords', 'logRecords').forEach((rec, k) => {
        const p = `${sp}/logRecords/${k}`;
        if (!isObj(rec)) {
          shape(p, 'not-object', { container: 'LogRecord', kind: kindOf(rec) });
          return;
        }
        const d = decodeRecord(rec, p, max, issues, big);
        if (d) events.push(d);
      });
    });
  });
  return { events, issues };
}

function decodeRecord(
  rec: Obj,
  p: string,
  max: AepCaptureLevel,
  issues: BridgeIssue[],
  big: ReadonlyMap<string, string>,
): DecodedEvent | undefined {
  const issue = (rule: { id: string }, pointer: string, messageId: string, args: MessageArgs = {}) =>
    issues.push({ ruleId: rule.id, pointer, messageId, args });
  // attributes: a {key, value} list; the index of every key for the pointers
  const attrs = new Map<string, { value: unknown; index: number }>();
  let shapeOk = true;
  if (rec.attributes !== undefined && !Array.isArray(rec.attributes)) {
    issue(R.shape, p + '/attributes', 'not-array', { member: 'attributes', kind: kindOf(rec.attributes) });
    shapeOk = false;
  }
  const list = Array.isArray(rec.attributes) ? rec.attributes : [];
  for (const [i, kv] of list.entries()) {
    if (!isObj(kv) || typeof kv.key !== 'string') {
      shapeOk = false;
      issue(R.shape, `${p}/attributes/${i}`, 'attribute-entry');
    } else if (attrs.has(kv.key))
      issue(R.attribute, `${p}/attributes/${i}/key`, 'repeat', { key: kv.key.slice(0, 60) });
    else attrs.set(kv.key, { value: kv.value, index: i });
  }
  const hasAep = [...attrs.keys()].some((k) => k.startsWith('aep.'));
  const name = rec.eventName;
  if (typeof name !== 'string' || !name.startsWith(AEP_TYPE_ROOT)) {
    // the older OTel event convention names the event in an `event.name` attribute, not the LogRecord field
    const old = attrs.get('event.name');
    const inAttr = name === undefined && old !== undefined && isObj(old.value) && old.value.stringValue !== undefined;
    if (hasAep)
      issue(
        R.eventName,
        name !== undefined ? p + '/eventName' : inAttr ? `${p}/attributes/${old!.index}` : p,
        typeof name === 'string' ? 'prefix' : name !== undefined ? 'kind' : inAttr ? 'attribute' : 'missing',
        { kind: kindOf(name) },
      );
    else issue(R.foreign, p, 'foreign');
    return undefined;
  }
  const event: Obj = { aep: '0.1' };
  const ptr: Record<string, string> = { aep: p };
  const bigs: BigIntegerLiteral[] = [];
  // envelope members present in the record but refused (their bridge finding made): no second "missing" finding
  const refused = new Set<string>();
  // id and type first: the envelope order of the exporter's input
  event.type = name.slice(AEP_TYPE_ROOT.length);
  ptr.type = p + '/eventName';
  for (const [key, { value: v, index }] of attrs) {
    const ap = `${p}/attributes/${index}/value`;
    if (key.startsWith('aep.')) {
      const a = AEP_OF_KEY[key];
      if (a === undefined) {
        issue(R.attribute, `${p}/attributes/${index}/key`, 'unknown', { key: key.slice(0, 40) });
        continue;
      }
      const want = INT_ATTRIBUTES.has(key) ? 'intValue' : 'stringValue';
      if (!isObj(v) || v[want] === undefined || Object.keys(v).some((k) => k !== want && ANY_KEYS.includes(k))) {
        const held = isObj(v) ? ANY_KEYS.filter((k) => v[k] !== undefined) : [];
        issue(R.attribute, ap, 'value-type', {
          key,
          want: want === 'intValue' ? 'an intValue' : 'a stringValue',
          held: !isObj(v) ? kindOf(v) : held.length ? held.join(' and ') : 'an empty AnyValue',
        });
        refused.add('/' + a);
        continue;
      }
      const r = readAny(v, ap, issues, big, '/' + a, bigs);
      if (!r.ok) {
        refused.add('/' + a);
        continue;
      }
      event[a] = r.value;
      ptr[a] = ap;
    }
  }
  // time (§3.2: RFC 3339 <- epoch nanos); logs.proto: "Use time_unix_nano if it is present, otherwise use
  // observed_time_unix_nano", where 0 is "unknown or missing": a timeUnixNano present and not 0 is the one judged,
  // readable or not, else a present observedTimeUnixNano (a faulty one is told at its member, not called absent)
  const at = (f: string) => (rec[f] === undefined ? undefined : int64Of(rec[f], `${p}/${f}`, big));
  const tf =
    (rec.timeUnixNano === undefined || at('timeUnixNano') === 0n) && rec.observedTimeUnixNano !== undefined
      ? 'observedTimeUnixNano'
      : 'timeUnixNano';
  const t = rec[tf];
  const tn = at(tf);
  const tp = `${p}/${tf}`;
  const fault = timeFault(t, tn, hugeIntegerSign(t, tp, big));
  if (fault === undefined) {
    event.time = timeOfNanos(tn!);
    ptr.time = tp;
  } else {
    if (t !== undefined) refused.add('/time');
    const other = tf === 'timeUnixNano' ? 'observedTimeUnixNano' : 'timeUnixNano';
    const otherState = rec[other] === undefined ? 'absent' : '0 too';
    issue(R.time, t === undefined ? p : tp, fault, { field: tf, kind: int64KindOf(t, tp, big), other, otherState });
  }
  // severity (§3.4)
  const sn = rec.severityNumber;
  const st = rec.severityText;
  const named = typeof sn === 'string' ? SEVERITY_NAMES[sn] : undefined;
  const num =
    typeof sn === 'string'
      ? (named ?? (/^\d+$/.test(sn) ? +sn : NaN))
      : typeof sn === 'number'
        ? sn
        : sn === undefined
          ? 0
          : NaN;
  const level = severityOfNumber(num);
  const row = level ? OTLP_SEVERITY[level] : undefined;
  // OTLP/JSON: "enum fields MUST be encoded as integer values"; the name is still read as its number
  if (named !== undefined)
    issue(R.severity, p + '/severityNumber', 'number-enum-name', { name: sn as string, number: named });
  if (Number.isNaN(num) || (num !== 0 && !level))
    issue(
      R.severity,
      p + '/severityNumber',
      typeof sn === 'string' ? 'number-name' : Number.isInteger(num) ? 'number-range' : 'number',
      { kind: kindOf(sn) },
    );
  else if (num === 0 && st !== undefined && st !== '') issue(R.severity, p + '/severityText', 'text-alone');
  // a number between the rows is bucketed by the §3.4 inverse (10-12 to notice), whatever its text; a row's own number
  // comes with the row's text
  else if (level && row!.number === num && st !== undefined && st !== row!.text)
    issue(R.severity, p + '/severityText', typeof st === 'string' ? 'row-text' : 'row-text-kind', {
      number: num,
      text: typeof st === 'string' ? st.slice(0, 12) : '',
      kind: kindOf(st),
      rowText: row!.text,
      rowNumber: row!.number,
      level,
    });
  if (level) {
    event.severity = level;
    ptr.severity = p + '/severityNumber';
  }
  // trace context (§3.2: trace_id, span_id, flags)
  const tid = rec.traceId;
  const sid = rec.spanId;
  // logs.proto: an id of all zeroes is invalid and the record "not associated with a trace" (receivers SHOULD assume
  // so), as an absent or empty one: what an SDK writes outside any span is no trace context, not a broken one
  const present = (x: unknown) => x !== undefined && x !== '' && !(typeof x === 'string' && /^0+$/.test(x));
  if (present(tid) || present(sid)) {
    const okT = typeof tid === 'string' && /^[0-9a-fA-F]{32}$/.test(tid) && !/^0+$/.test(tid);
    const okS = typeof sid === 'string' && /^[0-9a-fA-F]{16}$/.test(sid) && !/^0+$/.test(sid);
    const fl = typeof rec.flags === 'string' ? fixed32OfString(rec.flags) : rec.flags;
    const flags =
      fl === undefined ? 0 : typeof fl === 'number' && Number.isInteger(fl) && fl >= 0 && fl <= 0xffffffff ? fl : NaN;
    // an empty or all-zero id is pointed at: it is the member that is missing its value
    if (!okT) issue(R.trace, tid !== undefined ? p + '/traceId' : p, present(tid) ? 'trace-id' : 'span-alone');
    else if (!okS) issue(R.trace, sid !== undefined ? p + '/spanId' : p, present(sid) ? 'span-id' : 'trace-alone');
    else if (Number.isNaN(flags))
      issue(R.trace, p + '/flags', 'flags', { found: foundOf(rec.flags, `${p}/flags`, big) });
    else {
      event.traceparent = `00-${tid.toLowerCase()}-${sid.toLowerCase()}-${(flags & 0xff).toString(16).padStart(2, '0')}`;
      ptr.traceparent = p + '/traceId';
    }
  } else if (rec.flags !== undefined && rec.flags !== 0) issue(R.trace, p + '/flags', 'flags-alone');
  // payload: body (an AnyValue map) and the hoisted gen_ai.* attributes
  const capture =
    typeof event.capture === 'string' && event.capture in CAPTURE_RANK
      ? (event.capture as AepCaptureLevel)
      : 'metadata';
  const allowed = capture !== 'none' && CAPTURE_RANK[capture] <= CAPTURE_RANK[max];
  const why = capture === 'none' ? 'none' : 'above';
  const data: Obj = {};
  const dataPtr: Record<string, string> = {};
  let hasData = false;
  // common.proto: an AnyValue with no value set is "empty"; the OpenTelemetry JS SDK writes `"body":{}` for a record
  // without a body, so an empty AnyValue is no body
  const emptyBody =
    isObj(rec.body) && !ANY_KEYS.some((k) => (rec.body as Obj)[k] !== undefined && (rec.body as Obj)[k] !== null);
  const body = emptyBody ? undefined : rec.body;
  if (body !== undefined && body !== null) {
    if (!allowed) issue(R.capture, p + '/body', `body-${why}`, { capture, max });
    // a body that cannot be read leaves the payload unknown: the record is not checked as AEP
    if (!isObj(body) || !isObj(body.kvlistValue)) {
      issue(R.shape, p + '/body', 'body');
      shapeOk = false;
    } else {
      const o = readKvList(body.kvlistValue, p + '/body/kvlistValue', issues, big, '/data', bigs);
      if (!o) shapeOk = false;
      else {
        hasData = true;
        ((body.kvlistValue.values as Obj[] | undefined) ?? []).forEach((kv, i) => {
          dataPtr[kv.key as string] = `${p}/body/kvlistValue/values/${i}/value`;
          if ((kv.key as string).startsWith('gen_ai.'))
            issue(R.genAi, `${p}/body/kvlistValue/values/${i}/key`, 'body', {
              member: (kv.key as string).slice(0, 60),
            });
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
      issue(R.capture, `${p}/attributes/${index}`, `attribute-${why}`, { key: key.slice(0, 60), capture, max });
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
  for (const k of AEP_ENVELOPE_ORDER) if (k in event) out[k] = event[k];
  if (hasData) out.data = data;
  // a payload withheld at the ceiling (§3.3) maps back as an event that carries none, as one at
  // capture none does: its absence is the bridge's, not a missing REQUIRED member of the emitter
  else if (!allowed && capture !== 'none') out.capture = 'none';
  const withheld = !hasData && !allowed && capture !== 'none' ? capture : undefined;
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
    ...(refused.size ? { refused } : {}),
    ...(withheld ? { withheld } : {}),
    ...(bigs.length ? { bigIntegers: bigs } : {}),
    pointerOf(aepPointer: string): string {
      if (aepPointer === '') return p;
      const toks = aepPointer.slice(1).split('/').map(unescapeToken);
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
