/**
 * The CloudEvents bridge against the CloudEvents JS SDK itself (the `cloudevents` devDependency, pinned): our CE form
 * passes the SDK's own strict validation and survives its HTTP serialisers; what the SDK builds and serialises is read
 * by `--from cloudevents` as the SDK means it. Where the SDK rewrites a value (time, binary-mode strings) the test says
 * so; sdk-forms.test.ts holds the hand-written spellings of the same forms.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { isDeepStrictEqual } from 'node:util';
import { CloudEvent, HTTP, type CloudEventV1 } from 'cloudevents';
import { CE_ATTRIBUTE_TABLE, ceRefusal, decodeCloudEvents, toCloudEvent } from '../../src/aep/bridges/cloudevents.ts';
import { bridgeRule } from '../../src/aep/bridges/rules.ts';
import type { BridgeIssue } from '../../src/aep/bridges/types.ts';
import { runCli } from '../cli/helpers.ts';
import { hasShared, SHARED } from '../shared.ts';
import { CORPUS_DIR } from '../aep-schemas/helpers.ts';
import { checkBridgeText, events } from './helpers.ts';

type Obj = Record<string, unknown>;

const SESSION = new URL('../../examples/aep/session.jsonl', import.meta.url).pathname;
const fields = (ce: CloudEvent<unknown>) => ce as unknown as Obj;
const errors = (issues: readonly BridgeIssue[]) =>
  issues.filter((i) => bridgeRule(i.ruleId).severity === 'error').map((i) => `${i.ruleId}:${i.messageId}`);

/** The SDK's strict constructor: it runs its CloudEvents 1.0 JSON Schema and attribute-name checks, and throws. */
const sdkEvent = (o: Obj) => new CloudEvent(o as unknown as CloudEventV1<unknown>, true);

/** A header value as it crosses HTTP: node:http writes a non-string value as its string (`'' + value`). */
const wire = (headers: Obj) => Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, String(v)]));

/** The SDK's structured-mode JSON of a binary-mode message: headers (as strings) and body through HTTP.toEvent. */
function viaBinary(ce: CloudEvent<unknown>): Obj {
  const m = HTTP.binary(ce);
  return JSON.parse(JSON.stringify(HTTP.toEvent({ headers: wire(m.headers), body: m.body }))) as Obj;
}

/** The SDK writes `time` as `new Date(time).toISOString()` (milliseconds, UTC): the instant, not the spelling. */
const sdkTime = (t: unknown) => (typeof t === 'string' ? new Date(t).toISOString() : t);

/** Every event our CE form exists for, whose JSON text is at hand (a 1e400 read as Infinity is left out). */
function forms(): Array<{ where: string; event: Obj; form: Obj }> {
  return events()
    .filter(({ event }) => typeof event.type === 'string' && ceRefusal(event) === undefined)
    .filter(({ event }) => isDeepStrictEqual(JSON.parse(JSON.stringify(event)), event))
    .map(({ where, event }) => ({ where, event, form: toCloudEvent(event) }));
}

// RFC 3339 §5.6 allows second 60 (a leap second); the SDK's `new Date()` holds none, so it rejects or cannot
// serialise such a time. Our form is valid CloudEvents (cloudevents.json accepts it: sdk-forms.test.ts).
const LEAP = /T\d\d:\d\d:60/;

test('(a) every CE form we write passes the SDK strict validation, and its structured and binary modes round-trip it', () => {
  let n = 0;
  let leap = 0;
  for (const { where, event, form } of forms()) {
    if (typeof event.time === 'string' && LEAP.test(event.time)) {
      assert.throws(() => HTTP.structured(sdkEvent(form)), where);
      leap++;
      continue;
    }
    const ce = sdkEvent(form);
    // every attribute the SDK reads is the value we wrote
    for (const [k, v] of Object.entries(form)) assert.deepEqual(fields(ce)[k], v, `${where} ${k}`);
    const s = HTTP.structured(ce);
    assert.match(String(s.headers['content-type']), /^application\/cloudevents\+json/);
    const back = fields(HTTP.toEvent(s) as CloudEvent<unknown>);
    for (const [k, v] of Object.entries(form))
      assert.deepEqual(back[k], k === 'time' ? sdkTime(v) : v, `${where} ${k}`);
    // its structured JSON maps back to the event, the time as the SDK spells it
    const want = { ...event, ...(event.time !== undefined ? { time: sdkTime(event.time) } : {}) };
    const d = decodeCloudEvents(JSON.parse(s.body as string));
    assert.deepEqual(errors(d.issues), [], where);
    assert.deepEqual(d.events[0]!.event, want, where);
    // binary mode: the attributes ride as ce-* headers, each the canonical string of its value (CloudEvents 1.0 §3.1.1
    // Type System), the data as the body under Content-Type
    const b = viaBinary(ce);
    for (const [k, v] of Object.entries(form)) {
      if (k === 'data') assert.deepEqual(b.data, v, where);
      else assert.equal(b[k], k === 'time' ? sdkTime(v) : String(v), `${where} ${k}`);
    }
    n++;
  }
  assert.ok(n > 500, `${n} forms`);
  assert.ok(leap <= 2, `${leap} leap-second times`);
});

test('(a) aep convert --to cloudevents output: the SDK reads each line strictly, and as a batch (cloudevents-batch+json)', async () => {
  const inputs = [SESSION, ...(hasShared(SHARED.aepCorpus) ? [`${CORPUS_DIR}/golden/golden.jsonl`] : [])];
  for (const path of inputs) {
    const r = await runCli('aep', ['convert', '--to', 'cloudevents', path]);
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.trimEnd().split('\n');
    const want = readFileSync(path, 'utf8')
      .trimEnd()
      .split('\n')
      .map((l) => toCloudEvent(JSON.parse(l) as Obj));
    assert.equal(lines.length, want.length);
    for (const [i, l] of lines.entries()) {
      const ce = sdkEvent(JSON.parse(l) as Obj);
      for (const [k, v] of Object.entries(want[i]!)) assert.deepEqual(fields(ce)[k], v, `${path}:${i + 1} ${k}`);
    }
    const batch = HTTP.toEvent({
      headers: { 'content-type': 'application/cloudevents-batch+json' },
      body: `[${lines.join(',')}]`,
    }) as Array<CloudEvent<unknown>>;
    assert.deepEqual(
      batch.map((ce) => ce.id),
      want.map((f) => f.id),
    );
  }
});

/** The AEP events of the example session as the SDK builds them: no id, time or datacontenttype (SDK defaults). */
function sdkBuilt(): Array<{ event: Obj; ce: CloudEvent<unknown> }> {
  const extensions = {
    acmetenant: 'blue',
    acmecount: 5,
    acmeok: true,
    acmeurl: 'https://example.com/x?q=1',
    acmewhen: new Date('2026-11-30T10:00:00.123Z'),
  };
  // the SDK's ids replace ours, so a later event's cause or subject names the new id
  const ids = new Map<unknown, string>();
  return readFileSync(SESSION, 'utf8')
    .trimEnd()
    .split('\n')
    .map((l) => {
      const e = JSON.parse(l) as Obj;
      for (const k of ['cause', 'subject']) if (ids.has(e[k])) e[k] = ids.get(e[k]);
      const o: Obj = { type: `dev.aep.${e.type as string}`, source: e.source, ...extensions };
      if (e.subject !== undefined) o.subject = e.subject;
      for (const [a, c] of Object.entries(CE_ATTRIBUTE_TABLE)) if (e[a] !== undefined) o[c] = e[a];
      if (e.data !== undefined) o.data = e.data;
      const ce = sdkEvent(o);
      ids.set(e.id, ce.id);
      // the SDK's generated id and time are the event's
      const event: Obj = { ...e, id: ce.id, time: ce.time, ...extensions, acmewhen: '2026-11-30T10:00:00.123Z' };
      return { event, ce };
    });
}

test('(b) SDK-built events in structured mode, with its defaults and extensions of every CE type, map back to the same events', async () => {
  const built = sdkBuilt();
  assert.ok(built.every(({ ce }) => ce.datacontenttype === undefined && /^[0-9a-f-]{36}$/.test(ce.id)));
  const text = built.map(({ ce }) => HTTP.structured(ce).body as string).join('\n') + '\n';
  for (const [i, line] of text.trimEnd().split('\n').entries()) {
    const d = decodeCloudEvents(JSON.parse(line));
    assert.deepEqual(errors(d.issues), [], line);
    assert.deepEqual(d.events[0]!.event, built[i]!.event);
    // the SDK writes no datacontenttype; the JSON format reads its absence as application/json (§3.1.1), a warning
    for (const x of d.issues) assert.equal(`${x.ruleId}:${x.messageId}`, 'aep/ce-datacontenttype:absent');
  }
  const r = await runCli('aep', ['convert', '--from', 'cloudevents', '-'], text);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(
    r.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Obj),
    built.map((b) => b.event),
  );
  // a batch the SDK reads (HTTP.toEvent, batch mode) and writes back as a JSON array: the events in their order
  const batch = HTTP.toEvent({
    headers: { 'content-type': 'application/cloudevents-batch+json' },
    body: JSON.stringify(built.map((b) => b.ce)),
  }) as Array<CloudEvent<unknown>>;
  const d = decodeCloudEvents(JSON.parse(JSON.stringify(batch)));
  assert.deepEqual(
    d.events.map((x) => x.event),
    built.map((b) => b.event),
  );
});

test('(b) binary mode: the Integer attributes the SDK gives back as canonical strings are read as their Integers, with the finding', async () => {
  const built = sdkBuilt();
  for (const { event, ce } of built) {
    const b = viaBinary(ce);
    const ints = ['aepsequence', 'aepepoch'].filter((k) => b[k] !== undefined);
    assert.ok(ints.every((k) => typeof b[k] === 'string'));
    const d = decodeCloudEvents(b);
    // CloudEvents 1.0 §3.1.1 Type System: an implementation "MUST likewise be able to convert from and to the canonical
    // string-encoding to the corresponding data type"; AEP-0005 §1 B4 types aepsequence and aepepoch (seq, epoch) as
    // Integers, so their digits are read as those Integers. JSON format §3 writes an Integer as a JSON number ("the
    // member's type and value being mapped using the type system mapping"), so the spelling is reported at each
    assert.deepEqual(
      d.issues.filter((i) => bridgeRule(i.ruleId).severity === 'error').map((i) => `${i.messageId}${i.pointer}`),
      ints.map((k) => `int-string/${k}`),
    );
    // the other extensions' types are unknown to the bridge and to the SDK: they stay the strings the headers carried;
    // a Date extension the SDK writes to its header as Date#toString, not RFC 3339
    const want: Obj = { ...event, acmecount: '5', acmeok: 'true', acmewhen: String(fields(ce).acmewhen) };
    assert.deepEqual(d.events[0]!.event, want);
  }
  // through the whole run: the spelling at each attribute, and no AEP type error on the event it maps back to
  const fs = await checkBridgeText(JSON.stringify(viaBinary(built[1]!.ce)) + '\n', 'cloudevents');
  assert.deepEqual(
    fs.filter((f) => f.severity === 'error').map((f) => `${f.ruleId}${f.pointer}`),
    ['aep/ce-attribute-type/aepsequence', 'aep/ce-attribute-type/aepepoch'],
  );
});

test('(b) data_base64 the SDK writes for binary data: JSON bytes under application/json are the payload, others a finding', () => {
  const { event, ce } = sdkBuilt().find((b) => b.event.data !== undefined)!;
  const bytes = new TextEncoder().encode(JSON.stringify(event.data));
  const json = JSON.parse(ce.cloneWith({ data: bytes, datacontenttype: 'application/json' }).toString()) as Obj;
  assert.equal(json.data, undefined);
  assert.equal(typeof json.data_base64, 'string');
  const d = decodeCloudEvents(json);
  assert.deepEqual(d.issues, []);
  assert.deepEqual(d.events[0]!.event, event);
  for (const dct of [undefined, 'application/octet-stream']) {
    const o = JSON.parse(ce.cloneWith({ data: bytes, datacontenttype: dct }).toString()) as Obj;
    const r = decodeCloudEvents(o);
    assert.deepEqual(errors(r.issues), ['aep/ce-data:base64'], String(dct));
    assert.equal(r.issues.find((i) => i.ruleId === 'aep/ce-data')!.pointer, '/data_base64');
  }
});

test('(b) foreign and 0.3 CloudEvents the SDK builds get their documented findings in both modes, never a crash', async () => {
  const foreign = sdkEvent({
    type: 'com.example.order.created',
    source: '/orders',
    subject: 'o-1',
    acmecount: 5,
    acmeok: true,
    acmewhen: new Date('2026-11-30T10:00:00Z'),
    data: new Uint8Array([0, 1, 2, 255]),
  });
  const v03 = new CloudEvent({ specversion: '0.3', type: 'dev.aep.progress.status', source: '/s', data: { a: 1 } });
  const lines = [
    foreign.toString(),
    JSON.stringify(viaBinary(foreign)),
    v03.toString(),
    JSON.stringify(
      HTTP.toEvent({ headers: { 'content-type': 'application/cloudevents-batch+json' }, body: `[${foreign}]` }),
    ),
  ];
  const fs = await checkBridgeText(lines.join('\n') + '\n', 'cloudevents');
  const at = (line: number) => fs.filter((f) => f.line === line).map((f) => f.ruleId);
  assert.ok(at(1).includes('aep/ce-foreign-type'), JSON.stringify(fs));
  assert.ok(at(2).includes('aep/ce-foreign-type'));
  assert.ok(at(3).includes('aep/ce-specversion'));
  assert.ok(at(4).includes('aep/ce-foreign-type'));
  const r = await runCli('aep', ['validate', '--from', 'cloudevents', '-'], lines.join('\n') + '\n');
  assert.ok(r.code === 0 || r.code === 1, r.stderr);
  assert.doesNotMatch(r.stderr, /at .*\.(ts|js):\d+/);
});
