/**
 * Trial 15: bridge input as the neighbouring ecosystems write it. OTLP/JSON `null` fields (the proto3 JSON mapping's
 * default), message fields of the wrong JSON type, another signal's request; CloudEvents `dataschema` (type URI) and
 * an attribute named "". Each class has a failing and a passing case.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fromCloudEvent, toCloudEvent } from '../../src/aep/bridges/cloudevents.ts';
import { toOcsf } from '../../src/aep/bridges/ocsf.ts';
import { toOtlp } from '../../src/aep/bridges/otlp.ts';
import { decodeOtlp } from '../../src/aep/bridges/otlp-decode.ts';
import { validate } from '../../src/index.ts';
import { bridgeEvent, briefFindings, checkBridgeText } from './helpers.ts';

type Obj = Record<string, unknown>;
const ev = (i: number, extra: Obj = {}): Obj =>
  bridgeEvent(i, { capture: 'full', data: { message: 'working' }, ...extra });
const three = [ev(0), ev(1), ev(2)];
const request = (): Obj => toOtlp(three, { maxCapture: 'full' }).request as Obj;
const records = (r: Obj): Obj[] => ((r.resourceLogs as Obj[])[0]!.scopeLogs as Obj[])[0]!.logRecords as Obj[];
const otlp = (r: unknown) => checkBridgeText(JSON.stringify(r) + '\n', 'otlp', { maxCapture: 'full' });
const ce = (events: Obj[]) => checkBridgeText(events.map((e) => JSON.stringify(e)).join('\n') + '\n', 'cloudevents');

test('OTLP/JSON: a null field is its default (proto3 JSON mapping), at every depth', async () => {
  const r = request();
  for (const rec of records(r)) {
    Object.assign(rec, { traceId: null, spanId: null, flags: null, severityNumber: null, severityText: null });
    Object.assign(rec, { observedTimeUnixNano: null, droppedAttributesCount: null });
    (rec.attributes as Obj[]).push({ key: 'x.other', value: null }, { key: 'x.kv', value: { kvlistValue: null } });
  }
  const rl = (r.resourceLogs as Obj[])[0]!;
  (rl.scopeLogs as Obj[]).push({ scope: null, logRecords: null, schemaUrl: null });
  (r.resourceLogs as Obj[]).push({ resource: null, scopeLogs: null });
  assert.equal(briefFindings(await otlp(r)), '');
  // a null item of a repeated field is no message: still an error
  (r.resourceLogs as Obj[]).push(null as unknown as Obj);
  assert.equal(briefFindings(await otlp(r)), 'aep/otlp-shape@1/resourceLogs/2');
});

test('OTLP/JSON: resource and scope are messages (objects), their attributes KeyValue lists', async () => {
  const ok = request();
  const rl = (ok.resourceLogs as Obj[])[0]!;
  (rl.scopeLogs as Obj[])[0]!.scope = { name: '', attributes: [{ key: 'k', value: { stringValue: 'v' } }] };
  assert.equal(briefFindings(await otlp(ok)), '');
  const bad = request();
  const brl = (bad.resourceLogs as Obj[])[0]!;
  brl.resource = 'codex';
  (brl.scopeLogs as Obj[])[0]!.scope = { attributes: [{ value: {} }] };
  const fs = await otlp(bad);
  assert.equal(
    briefFindings(fs),
    'aep/otlp-shape@1/resourceLogs/0/resource, aep/otlp-shape@1/resourceLogs/0/scopeLogs/0/scope/attributes/0',
  );
  assert.match(fs[0]!.message, /A Resource is a string, not an object/);
});

test('OTLP/JSON: a trace or metrics request is named as the wrong signal, with what AEP exports', async () => {
  const spans = { resourceSpans: [{ resource: {}, scopeSpans: [] }] };
  const fs = await otlp(spans);
  assert.equal(briefFindings(fs), 'aep/otlp-shape@1');
  assert.match(fs[0]!.message, /ExportTraceServiceRequest \(traces\).*LogRecords \(AEP-0005 §3\.1\)/);
  const metrics = await otlp({ resourceMetrics: [] });
  assert.match(metrics[0]!.message, /ExportMetricsServiceRequest/);
  // an unknown member beside resourceLogs is ignored ("MUST ignore message fields with unknown names")
  assert.equal(briefFindings(await otlp({ ...request(), resourceSpans: [] })), '');
});

test('OTLP/JSON: what a wrongly typed number or event name is, said at its member', async () => {
  const r = request();
  records(r)[0]!.eventName = 5;
  records(r)[1]!.severityNumber = 9.5;
  const fs = await otlp(r);
  assert.equal(
    briefFindings(fs),
    'aep/otlp-event-name@1/resourceLogs/0/scopeLogs/0/logRecords/0/eventName, aep/otlp-severity@1/resourceLogs/0/scopeLogs/0/logRecords/1/severityNumber',
  );
  assert.match(fs.find((f) => f.ruleId === 'aep/otlp-event-name')!.message, /eventName is an integer, not a string/);
  assert.match(fs.find((f) => f.ruleId === 'aep/otlp-severity')!.message, /a number with a fraction/);
  // an aep.* attribute of another AnyValue kind says what it holds (a collector transform writing the digits)
  const seq = request();
  const attr = (records(seq)[2]!.attributes as Obj[]).find((a) => a.key === 'aep.sequence')!;
  attr.value = { stringValue: '2' };
  const sf = (await otlp(seq)).find((f) => f.ruleId === 'aep/otlp-attribute');
  assert.equal(sf?.message, 'Attribute aep.sequence holds stringValue, not an intValue (its §3.2 type).');
  const ok = request();
  records(ok)[1]!.severityNumber = 9;
  assert.equal(briefFindings(await otlp(ok)), '');
});

test('CloudEvents dataschema is of type URI: an absolute URI (CloudEvents 1.0 §3.1.1, RFC 3986 §4.3)', async () => {
  const with_ = (v: unknown) => three.map((e, i) => ({ ...toCloudEvent(e), ...(i === 1 ? { dataschema: v } : {}) }));
  const rules = async (v: unknown) => (await ce(with_(v))).map((f) => `${f.ruleId}${f.pointer}`).sort();
  assert.deepEqual(await rules('https://example.com/schemas/progress.status.json'), [
    'aep/ce-unmapped-attribute/dataschema',
  ]);
  assert.deepEqual(await rules('urn:aep:schema:progress.status'), ['aep/ce-unmapped-attribute/dataschema']);
  for (const bad of ['not a uri', '/schemas/status.json', 'https://example.com/s.json#/defs/a'])
    assert.deepEqual(
      await rules(bad),
      ['aep/ce-attribute-type/dataschema', 'aep/ce-unmapped-attribute/dataschema'],
      bad,
    );
  // null is unset (JSON format §2.2)
  assert.deepEqual(await rules(null), []);
});

test('CloudEvents: a member named "" is pointed at ("/"), not at the event', async () => {
  const fs = await ce(three.map((e, i) => ({ ...toCloudEvent(e), ...(i === 1 ? { '': 'x' } : {}) })));
  assert.equal(briefFindings(fs), 'aep/ce-attribute-name@2/');
  assert.ok(fs[0]!.column! > 1);
});

test('an empty CloudEvents batch ([], JSON format §4.3) is valid and holds no event, as an empty OTLP request', async () => {
  const lines = ['[]', ...three.map((e) => JSON.stringify(toCloudEvent(e)))].join('\n') + '\n';
  const r = await validate('aep', { text: lines, source: 'b.jsonl' }, { from: 'cloudevents' });
  assert.deepEqual(r.findings, []);
  assert.equal(r.summary.events, 3);
  const empty = await validate('aep', { text: '{"resourceLogs":[]}\n[]\n', source: 'e.jsonl' }, { from: 'otlp' });
  assert.equal(empty.summary.events, 0);
});

test('library bridges given no object: a sentence (TypeError or refusal), never a property read of null', () => {
  assert.throws(() => toCloudEvent(null as never), {
    name: 'TypeError',
    message: 'the event must be an object, not null',
  });
  assert.throws(() => toOcsf([] as never), { name: 'TypeError', message: 'the event must be an object, not an array' });
  assert.throws(() => toOtlp(null as never), { name: 'TypeError', message: 'the events must be an array, not null' });
  const r = toOtlp([null as never, ev(1)]);
  assert.deepEqual(r.refused, [{ index: 0, pointer: '', reason: 'null, not a JSON object' }]);
  assert.equal(r.counts.records, 1);
  assert.deepEqual(fromCloudEvent(null as never), { event: undefined, dropped: [] });
  assert.equal(toCloudEvent(ev(1)).type, 'dev.aep.progress.status');
});

test('OTLP: an event named in an event.name attribute (older OTel convention) is told where §3.2 wants it', async () => {
  const r = request();
  const rec = records(r)[1]!;
  (rec.attributes as Obj[]).push({ key: 'event.name', value: { stringValue: rec.eventName } });
  delete rec.eventName;
  const fs = await otlp(r);
  assert.equal(briefFindings(fs), 'aep/otlp-event-name@1/resourceLogs/0/scopeLogs/0/logRecords/1/attributes/6');
  assert.match(fs[0]!.message, /event\.name attribute .* not in the LogRecord field eventName/);
  // beside eventName, an event.name attribute is an ordinary attribute
  const ok = request();
  const okRec = records(ok)[1]!;
  (okRec.attributes as Obj[]).push({ key: 'event.name', value: { stringValue: okRec.eventName } });
  assert.equal(briefFindings(await otlp(ok)), '');
});

test('OTLP: all-zero trace and span ids are no trace context (logs.proto), one zero id beside a real one is an error', async () => {
  const r = request();
  for (const rec of records(r)) Object.assign(rec, { traceId: '0'.repeat(32), spanId: '0'.repeat(16), flags: 0 });
  assert.equal(briefFindings(await otlp(r)), '');
  assert.ok(decodeOtlp(r, { maxCapture: 'full' }).events.every((d) => d.event.traceparent === undefined));
  const bad = request();
  Object.assign(records(bad)[0]!, { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: '0'.repeat(16) });
  const fs = await otlp(bad);
  assert.equal(briefFindings(fs), 'aep/otlp-trace@1/resourceLogs/0/scopeLogs/0/logRecords/0/spanId');
  assert.match(fs[0]!.message, /without a spanId \(an empty or all-zero spanId is none/);
});
