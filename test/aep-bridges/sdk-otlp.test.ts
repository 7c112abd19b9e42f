/**
 * The OTLP bridge against the OpenTelemetry JS SDK itself (@opentelemetry/sdk-logs and otlp-transformer 0.223.1, the
 * last line whose engines allow Node 20): log records built through the SDK's logger API with the §3.2 attributes and
 * serialised by its JsonLogsSerializer, or as binary protobuf by its ProtobufLogsSerializer, are read by `--from otlp`
 * as the same AEP events, and what toOtlp writes agrees with what the SDK writes for the same record.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { SeverityNumber } from '@opentelemetry/api-logs';
import { JsonLogsSerializer, ProtobufLogsSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  InMemoryLogRecordExporter,
  LoggerProvider,
  type ReadableLogRecord,
  SimpleLogRecordProcessor,
} from '@opentelemetry/sdk-logs';
import { nanosOf, OTLP_ATTRIBUTE_TABLE, OTLP_SEVERITY, toOtlp } from '../../src/aep/bridges/otlp.ts';
import { decodeOtlp } from '../../src/aep/bridges/otlp-decode.ts';
import { decodeOtlpProtobuf } from '../../src/aep/bridges/otlp-proto.ts';
import { bridgeRule } from '../../src/aep/bridges/rules.ts';
import type { BridgeIssue } from '../../src/aep/bridges/types.ts';
import type { AepSeverity } from '../../src/aep/bridges/types.ts';
import { parseJsonText } from '../../src/core/json.ts';
import { validate } from '../../src/index.ts';
import { runCli } from '../cli/helpers.ts';
import { events } from './helpers.ts';

type Obj = Record<string, unknown>;

const SESSION = new URL('../../examples/aep/session.jsonl', import.meta.url).pathname;
const errors = (issues: readonly BridgeIssue[]) =>
  issues.filter((i) => bridgeRule(i.ruleId).severity === 'error').map((i) => `${i.ruleId}:${i.messageId}`);

/** The SDK's finished records of `emit` run on a logger whose resource is `service.name: agent` (§3.2). */
function sdkRecords(agent: unknown, emit: (l: ReturnType<LoggerProvider['getLogger']>) => void): ReadableLogRecord[] {
  const exporter = new InMemoryLogRecordExporter();
  const provider = new LoggerProvider({
    resource: resourceFromAttributes(typeof agent === 'string' ? { 'service.name': agent } : {}),
    processors: [new SimpleLogRecordProcessor({ exporter })],
  });
  emit(provider.getLogger('aep'));
  return [...exporter.getFinishedLogRecords()];
}

const isPlain = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** One AEP event emitted through the SDK's logger API with the attributes of the §3.2 table (payload exported). */
function emitted(ev: Obj): ReadableLogRecord[] {
  const attributes: Obj = {};
  for (const [a, key] of Object.entries(OTLP_ATTRIBUTE_TABLE)) if (ev[a] !== undefined) attributes[key] = ev[a];
  const body: Obj = {};
  if (ev.data && typeof ev.data === 'object' && !Array.isArray(ev.data))
    for (const [k, v] of Object.entries(ev.data)) (k.startsWith('gen_ai.') ? attributes : body)[k] = v;
  // §3.2: an empty payload is an empty map body; at capture none no body leaves (§3.3)
  const emptyPayload = ev.capture !== 'none' && isPlain(ev.data) && Object.keys(ev.data).length === 0;
  const ns = typeof ev.time === 'string' ? nanosOf(ev.time) : undefined;
  const sev = OTLP_SEVERITY[ev.severity as AepSeverity];
  const tp =
    typeof ev.traceparent === 'string'
      ? /^[0-9a-f]{2}-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/.exec(ev.traceparent)
      : null;
  return sdkRecords(ev.agent, (l) =>
    l.emit({
      // HrTime: [seconds, nanoseconds], so every nanosecond of the AEP time reaches time_unix_nano
      ...(ns !== undefined ? { timestamp: [Number(ns / 1_000_000_000n), Number(ns % 1_000_000_000n)] } : {}),
      ...(sev ? { severityNumber: sev.number, severityText: sev.text } : {}),
      eventName: `dev.aep.${ev.type as string}`,
      attributes: attributes as never,
      ...(Object.keys(body).length || emptyPayload ? { body: body as never } : {}),
      ...(tp
        ? {
            context: trace.setSpanContext(ROOT_CONTEXT, {
              traceId: tp[1]!,
              spanId: tp[2]!,
              traceFlags: parseInt(tp[3]!, 16),
              isRemote: true,
            }),
          }
        : {}),
    }),
  );
}

/** The SDK's OTLP/JSON text, parsed as `--from otlp` parses it (integers beyond 2^53 exactly). */
function sdkJson(records: ReadableLogRecord[]): { text: string; value: unknown; big: ReturnType<typeof big> } {
  const text = new TextDecoder().decode(JsonLogsSerializer.serializeRequest(records));
  const p = parseJsonText(text);
  assert.ok(p.ok, text);
  return { text, value: p.value, big: big(p) };
}
const big = (p: ReturnType<typeof parseJsonText>) => (p.ok ? p.bigIntegers : []);

/** `v` with every `intValue` a decimal string, as OTLP/JSON encodes 64-bit integers. */
const int64AsStrings = (v: unknown): unknown =>
  Array.isArray(v)
    ? v.map(int64AsStrings)
    : v && typeof v === 'object'
      ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, k === 'intValue' ? String(x) : int64AsStrings(x)]))
      : v;

const recordOf = (req: unknown) => {
  const rl = (req as { resourceLogs: Obj[] }).resourceLogs[0]!;
  return { resource: rl.resource as Obj, record: ((rl.scopeLogs as Obj[])[0]!.logRecords as Obj[])[0]! };
};

/** Events toOtlp exports (a LogRecord each, payload included), with the SDK's records and export of each (built once). */
const exported = (() => {
  let memo:
    | Array<{ where: string; event: Obj; ours: Obj; records: ReadableLogRecord[]; sdk: ReturnType<typeof sdkJson> }>
    | undefined;
  return () =>
    (memo ??= events().flatMap(({ where, event }) => {
      const ours = toOtlp([event], { maxCapture: 'full' });
      if (typeof event.type !== 'string' || ours.refused.length) return [];
      const records = emitted(event);
      return [{ where, event, ours: ours.request, records, sdk: sdkJson(records) }];
    }));
})();

/** The SDK's binary protobuf request of `records` (ProtobufLogsSerializer: what its OTLP/HTTP exporter sends). */
const sdkProtobuf = (records: ReadableLogRecord[]) => Buffer.from(ProtobufLogsSerializer.serializeRequest(records)!);

test('records the SDK builds and serialises to OTLP/JSON are read by --from otlp as the events toOtlp gives', () => {
  let n = 0;
  for (const { where, ours, sdk } of exported()) {
    const got = decodeOtlp(sdk.value, { maxCapture: 'full', bigIntegers: sdk.big });
    const want = decodeOtlp(ours, { maxCapture: 'full' });
    assert.deepEqual(errors(got.issues), errors(want.issues), where);
    assert.deepEqual(
      got.events.map((d) => d.event),
      want.events.map((d) => d.event),
      where,
    );
    n++;
  }
  assert.ok(n > 500, `${n} records`);
});

test('records the SDK serialises to binary protobuf are read by --from otlp as the events of its OTLP/JSON', () => {
  let n = 0;
  for (const { where, records, sdk } of exported()) {
    const pb = decodeOtlpProtobuf(sdkProtobuf(records));
    assert.ok(pb.ok, where);
    const got = decodeOtlp(pb.request, { maxCapture: 'full' });
    const want = decodeOtlp(sdk.value, { maxCapture: 'full', bigIntegers: sdk.big });
    assert.deepEqual(
      got.issues.map((i) => `${i.ruleId}:${i.messageId}${i.pointer}`),
      want.issues.map((i) => `${i.ruleId}:${i.messageId}${i.pointer}`),
      where,
    );
    assert.deepEqual(
      got.events.map((d) => d.event),
      want.events.map((d) => d.event),
      where,
    );
    n++;
  }
  assert.ok(n > 500, `${n} records`);
});

test('toOtlp writes what the SDK writes for the same record: field names, hex ids, time_unix_nano, AnyValue kinds', () => {
  const sdkOnly = new Set<string>();
  let traced = 0;
  for (const { where, ours, sdk } of exported()) {
    const mine = recordOf(ours);
    const theirs = recordOf(sdk.value);
    // the SDK writes intValue as a JSON number; OTLP/JSON: 64-bit integers "are encoded as decimal strings, and either
    // numbers or strings are accepted when decoding", which toOtlp follows (sdk-forms.test.ts)
    const t = int64AsStrings(theirs.record) as Obj;
    for (const [k, v] of Object.entries(mine.record)) assert.deepEqual(t[k], v, `${where} ${k}`);
    for (const k of Object.keys(t)) if (!(k in mine.record)) sdkOnly.add(k);
    assert.deepEqual(theirs.resource.attributes, mine.resource.attributes, where);
    assert.equal(typeof theirs.record.timeUnixNano, 'string', where);
    if (mine.record.traceId !== undefined) traced++;
  }
  assert.ok(traced > 5, `${traced} records with trace context`);
  // what the SDK adds is what toOtlp leaves at its default: the observed time, a zero count, an empty body
  assert.deepEqual([...sdkOnly].sort(), ['body', 'droppedAttributesCount', 'observedTimeUnixNano']);
});

test('aep convert --from otlp of the SDK export of the example session is the session; validate finds no error', async () => {
  const session = readFileSync(SESSION, 'utf8')
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as Obj);
  const records = session.map((e) => emitted(e));
  const text = records.map((r) => sdkJson(r).text).join('\n') + '\n';
  const r = await runCli('aep', ['convert', '--from', 'otlp', '--max-capture', 'full', '-'], text);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(
    r.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Obj),
    session,
  );
  const v = await validate('aep', { text, source: 'sdk.jsonl' }, { from: 'otlp', maxCapture: 'full' });
  assert.deepEqual(
    v.findings.filter((f) => f.severity === 'error'),
    [],
  );
  // the same records as protobuf: one request per event in a Collector `format: proto` file on stdin (each message
  // after its 4-byte big-endian length), and all of them in one OTLP/HTTP request body
  const framed = Buffer.concat(
    records.map((rs) => {
      const pb = sdkProtobuf(rs);
      const prefix = Buffer.alloc(4);
      prefix.writeUInt32BE(pb.length);
      return Buffer.concat([prefix, pb]);
    }),
  );
  const p = await runCli('aep', ['convert', '--from', 'otlp', '--max-capture', 'full', '-'], framed);
  assert.equal(p.code, 0, p.stderr);
  assert.equal(p.stdout, r.stdout);
  const body = sdkProtobuf(records.flat());
  const b = await runCli('aep', ['convert', '--from', 'otlp', '--max-capture', 'full', '-'], body);
  assert.equal(b.code, 0, b.stderr);
  assert.equal(b.stdout, r.stdout);
  const vp = await validate('aep', { bytes: body, source: 'sdk.pb' }, { from: 'otlp', maxCapture: 'full' });
  assert.deepEqual(
    vp.findings.filter((f) => f.severity === 'error'),
    [],
  );
});

test('an integer at 2^53 the SDK writes as a JSON number is read exactly from the text', () => {
  const event = { ...exported()[0]!.event, seq: 2 ** 53 };
  const sdk = sdkJson(emitted(event));
  assert.match(sdk.text, /"intValue":9007199254740992\b/);
  const d = decodeOtlp(sdk.value, { maxCapture: 'full', bigIntegers: sdk.big });
  assert.deepEqual(errors(d.issues), []);
  assert.equal(d.events[0]!.event.seq, 2 ** 53);
});

test('records of the SDK beyond the mapping: a foreign log, a severity number alone, a string body, bytes, a protobuf body', async () => {
  const records = sdkRecords('a', (l) => {
    l.emit({ body: 'plain log line', severityNumber: SeverityNumber.INFO });
    l.emit({
      eventName: 'dev.aep.agent.heartbeat',
      timestamp: new Date('2026-11-30T10:00:00.123Z'),
      severityNumber: SeverityNumber.WARN2,
      attributes: {
        'aep.event_id': 'e1',
        'aep.source': 'aep://h/agent/a/session/s',
        'aep.agent_id': 'a',
        'gen_ai.usage.input_tokens': 12,
        'gen_ai.ratio': 0.5,
        'gen_ai.list': [1, 'a', null],
      },
    });
    l.emit({ eventName: 'dev.aep.agent.heartbeat', body: 'a string body', attributes: { 'aep.event_id': 'e2' } });
  });
  const sdk = sdkJson(records);
  const d = decodeOtlp(sdk.value, { maxCapture: 'full', bigIntegers: sdk.big });
  const at = (k: number) =>
    d.issues.filter((i) => i.pointer.startsWith(`/resourceLogs/0/scopeLogs/0/logRecords/${k}`)).map((i) => i.ruleId);
  assert.deepEqual(at(0), ['aep/otlp-foreign-record']);
  // a severity number between the §3.4 rows, with no text, is bucketed by the inverse (13-16 to warning)
  assert.deepEqual(at(1), []);
  assert.deepEqual(d.events[0]!.event, {
    aep: '0.1',
    id: 'e1',
    type: 'agent.heartbeat',
    time: '2026-11-30T10:00:00.123Z',
    source: 'aep://h/agent/a/session/s',
    agent: 'a',
    severity: 'warning',
    data: { 'gen_ai.usage.input_tokens': 12, 'gen_ai.ratio': 0.5, 'gen_ai.list': [1, 'a', null] },
  });
  assert.deepEqual(at(2), ['aep/otlp-shape']);
  // the SDK's binary protobuf encoding of the same records: the same findings at the same pointers
  const brief = (fs: readonly { ruleId: string; pointer?: string; messageId?: string }[]) =>
    fs.map((f) => `${f.ruleId}${f.pointer}:${f.messageId}`);
  const v = await validate('aep', { bytes: sdkProtobuf(records), source: 'logs.bin' }, { from: 'otlp' });
  const j = await validate('aep', { text: sdk.text, source: 'logs.json' }, { from: 'otlp' });
  assert.deepEqual(brief(v.findings), brief(j.findings));
  assert.ok(v.findings.some((f) => f.ruleId === 'aep/otlp-foreign-record'));
});
