/**
 * The AEP-0005 bridges as relations: round trip over every event we have, the `--from`
 * decorator against a direct AEP check of the same events, one-defect variants of golden's CE
 * and OTLP forms (each caught by its rule, located in the input), and the protobuf JSON
 * variants the OTLP reader accepts.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { isDeepStrictEqual } from 'node:util';
import { decodeCloudEvents, fromCloudEvent, toCloudEvent } from '../../src/aep/bridges/cloudevents.ts';
import { nanosOf, OTLP_SEVERITY, severityOfNumber, timeOfNanos, toOtlp } from '../../src/aep/bridges/otlp.ts';
import { decodeOtlp, fromOtlp } from '../../src/aep/bridges/otlp-decode.ts';
import { toOcsf } from '../../src/aep/bridges/ocsf.ts';
import { AEP_SEVERITIES, isAepCoreAttribute } from '../../src/aep/bridges/types.ts';
import type { Finding } from '../../src/core/finding.ts';
import { newStats, parseLine } from '../../src/core/pipeline.ts';
import { createAepChecker } from '../../src/aep/protocol.ts';
import { validate } from '../../src/index.ts';
import { bridgeChecker } from '../../src/aep/bridges/checker.ts';
import { CORPUS_DIR } from '../aep-schemas/helpers.ts';
import { briefFindings, bridgeEvent, checkBridgeText, events } from './helpers.ts';
import { needShared, SHARED } from '../shared.ts';

type Obj = Record<string, unknown>;

const goldenLines = () => readFileSync(join(CORPUS_DIR, 'golden/golden.jsonl'), 'utf8').trimEnd().split('\n');

async function direct(text: string): Promise<Finding[]> {
  const fs: Finding[] = [];
  fs.push(...(await validate('aep', { text, source: 'input' })).findings);
  return fs;
}

const rules = (fs: readonly Finding[]) => fs.map((f) => `${f.ruleId}@${f.line}`).sort();

test('CE round trip: fromCloudEvent(toCloudEvent(e)) is e for every event of our pass cases and golden (AEP-0005 §5 item 1)', () => {
  const all = events();
  assert.ok(all.length > 60);
  const bad = all
    .filter(({ event }) => !isDeepStrictEqual(fromCloudEvent(toCloudEvent(event)).event, event))
    .map((x) => x.where);
  assert.deepEqual(bad, []);
  // and the CE form keeps to CloudEvents 1.0 and the bridge rules (§5 item 2), except what the event itself carries out of CE's range
  const invalid = all.filter(
    ({ event }) =>
      decodeCloudEvents(toCloudEvent(event)).issues.length > 0 &&
      !Object.values(event).some((v) => typeof v === 'number' && Math.abs(v) > 2147483647),
  );
  assert.deepEqual(
    invalid.map(
      (x) =>
        `${x.where}: ${decodeCloudEvents(toCloudEvent(x.event))
          .issues.map((i) => i.ruleId)
          .join(',')}`,
    ),
    [],
  );
});

test('OTLP round trip at max capture full: the event, but for what §3.2 and §3.3 have no place for', () => {
  let n = 0;
  for (const { where, event } of events()) {
    const ex = toOtlp([event], { maxCapture: 'full' });
    // a number or string no OTLP value holds is refused, not written (README §Bridges)
    if (ex.refused.length) continue;
    n++;
    const want: Obj = {};
    // no §3.2 row: extension attributes; §3.3: a `capture: none` record has no body; the version is supplied
    for (const [k, v] of Object.entries(event))
      if (isAepCoreAttribute(k) && !(k === 'data' && event.capture === 'none')) want[k] = v;
    want.aep = '0.1';
    // trace_id, span_id and flags are mapped; the traceparent version is not (the inverse writes 00)
    if (typeof want.traceparent === 'string') want.traceparent = `00${want.traceparent.slice(2)}`;
    const got = { ...fromOtlp(ex.request, { maxCapture: 'full' })[0] };
    // time_unix_nano holds the instant, not its spelling: `Z` and `.000Z` are one count
    if (typeof want.time === 'string' && nanosOf(want.time) === nanosOf(String(got.time))) got.time = want.time;
    assert.deepEqual(got, want, where);
  }
  assert.ok(n > 300, `${n} events`);
  // an empty payload is an empty map body (§3.2 "preserved wholesale"), not no body
  const empty = { ...JSON.parse(goldenLines()[0]!), data: {} } as Obj;
  assert.deepEqual(fromOtlp(toOtlp([empty], { maxCapture: 'full' }).request, { maxCapture: 'full' })[0]!.data, {});
});

test('--from cloudevents and --from otlp (max capture full) find what a direct check of the same events finds, at the same lines', async (t) => {
  if (!needShared(t, SHARED.aepCorpus)) return;
  const lines = goldenLines();
  const want = rules(await direct(lines.join('\n') + '\n'));
  const ce = lines.map((l) => JSON.stringify(toCloudEvent(JSON.parse(l) as Obj))).join('\n') + '\n';
  assert.deepEqual(rules(await checkBridgeText(ce, 'cloudevents')), want);
  const otlp =
    lines.map((l) => JSON.stringify(toOtlp([JSON.parse(l) as Obj], { maxCapture: 'full' }).request)).join('\n') + '\n';
  assert.deepEqual(rules(await checkBridgeText(otlp, 'otlp', { maxCapture: 'full' })), want);
  // a batch line: every finding lands on line 1, pointing into its item
  const batch = '[' + ce.trimEnd().split('\n').join(',') + ']\n';
  const fs = await checkBridgeText(batch, 'cloudevents');
  assert.equal(fs.length, want.length);
  for (const f of fs.filter((x) => x.pointer)) assert.match(f.pointer!, /^\/\d+\//);
});

/** Golden's CE form with one defect on `line` (1-based); the rule that must catch it and where. */
interface Defect {
  name: string;
  line: number;
  mutate(ce: Obj): Obj | unknown;
  rule: string;
  pointer: string;
}

const CE_DEFECTS: Defect[] = [
  {
    name: 'required attribute missing',
    line: 3,
    mutate: (c) => {
      delete c.id;
      return c;
    },
    rule: 'aep/ce-required',
    pointer: '',
  },
  {
    name: 'specversion other than 1.0',
    line: 2,
    mutate: (c) => ({ ...c, specversion: '1.1' }),
    rule: 'aep/ce-specversion',
    pointer: '/specversion',
  },
  {
    name: 'attribute of the wrong CE type',
    line: 4,
    mutate: (c) => ({ ...c, subject: 7 }),
    rule: 'aep/ce-attribute-type',
    pointer: '/subject',
  },
  {
    name: 'extension integer beyond the CE Integer range',
    line: 1,
    mutate: (c) => ({ ...c, acmecount: 2 ** 40 }),
    rule: 'aep/ce-attribute-type',
    pointer: '/acmecount',
  },
  {
    name: 'datacontenttype missing with data',
    line: 1,
    mutate: (c) => {
      delete c.datacontenttype;
      return c;
    },
    rule: 'aep/ce-datacontenttype',
    pointer: '',
  },
  {
    name: 'datacontenttype materialised without data',
    line: 0,
    mutate: (c) => ({ ...c, datacontenttype: 'application/json' }),
    rule: 'aep/ce-datacontenttype',
    pointer: '/datacontenttype',
  },
  {
    name: 'type outside the dev.aep. root',
    line: 2,
    mutate: (c) => ({ ...c, type: 'com.example.run.started' }),
    rule: 'aep/ce-foreign-type',
    pointer: '/type',
  },
  {
    name: 'traceparent under the aep prefix',
    line: 4,
    mutate: (c) => ({ ...c, aeptraceparent: c.traceparent }),
    rule: 'aep/ce-prefixed-attribute',
    pointer: '/aeptraceparent',
  },
  {
    name: 'AEP name instead of the table attribute',
    line: 2,
    mutate: (c) => ({ ...c, agent: c.aepagentid }),
    rule: 'aep/ce-extension-dropped',
    pointer: '/agent',
  },
  {
    name: 'extension name over 20 characters',
    line: 1,
    mutate: (c) => ({ ...c, acmeregionnameisverylong: 'eu' }),
    rule: 'aep/ce-extension-dropped',
    pointer: '/acmeregionnameisverylong',
  },
  {
    name: 'extension name with an underscore',
    line: 1,
    mutate: (c) => ({ ...c, acme_region: 'eu' }),
    rule: 'aep/ce-attribute-name',
    pointer: '/acme_region',
  },
  {
    name: 'data_base64 instead of data',
    line: 2,
    mutate: (c) => ({ ...c, data_base64: 'e30=' }),
    rule: 'aep/ce-data',
    pointer: '/data_base64',
  },
  {
    name: 'dataschema',
    line: 2,
    mutate: (c) => ({ ...c, dataschema: 'https://example.com/s' }),
    rule: 'aep/ce-unmapped-attribute',
    pointer: '/dataschema',
  },
  {
    name: 'batch item that is not an object',
    line: 1,
    mutate: (c) => [c, 'x'],
    rule: 'aep/ce-not-object',
    pointer: '/1',
  },
  // mapped back and checked as AEP: the finding points at the CE attribute
  {
    name: 'aepsequence of the wrong AEP type',
    line: 3,
    mutate: (c) => ({ ...c, aepsequence: 'two' }),
    rule: 'aep/seq-epoch',
    pointer: '/aepsequence',
  },
  // a string of digits with a leading zero is no canonical Integer string (CloudEvents 1.0 §3.1.1): a string, as above
  {
    name: 'aepsequence as a non-canonical string of digits',
    line: 3,
    mutate: (c) => ({ ...c, aepsequence: '02' }),
    rule: 'aep/seq-epoch',
    pointer: '/aepsequence',
  },
  // the canonical string of the Integer (what binary-mode headers carry) is read as it, and its spelling reported
  {
    name: 'aepsequence as the canonical string of its Integer',
    line: 3,
    mutate: (c) => ({ ...c, aepsequence: String(c.aepsequence) }),
    rule: 'aep/ce-attribute-type',
    pointer: '/aepsequence',
  },
  {
    name: 'aepsequence going backwards',
    line: 4,
    mutate: (c) => ({ ...c, aepsequence: 0 }),
    rule: 'aep/seq-regression',
    pointer: '/aepsequence',
  },
  {
    name: 'traceparent not W3C',
    line: 4,
    mutate: (c) => ({ ...c, traceparent: '00-zz-01' }),
    rule: 'aep/traceparent',
    pointer: '/traceparent',
  },
];

test("one-defect variants of golden's CE form: each is caught by its rule, at its line and pointer, with the column of that member", async (t) => {
  if (!needShared(t, SHARED.aepCorpus)) return;
  const lines = goldenLines().map((l) => toCloudEvent(JSON.parse(l) as Obj));
  for (const d of CE_DEFECTS) {
    // line 0: the first event without data
    const at = d.line || lines.findIndex((c) => c.data === undefined) + 1;
    const text = lines.map((c, i) => JSON.stringify(i === at - 1 ? d.mutate(structuredClone(c)) : c)).join('\n') + '\n';
    const fs = await checkBridgeText(text, 'cloudevents');
    const hit = fs.find((f) => f.ruleId === d.rule && f.line === at && f.pointer === d.pointer);
    assert.ok(hit, `${d.name}: no ${d.rule}@${at}${d.pointer} in ${briefFindings(fs)}`);
    const lineText = text.split('\n')[at - 1]!;
    if (d.pointer !== '') {
      const key = d.pointer.split('/').pop()!;
      const idx = /^\d+$/.test(key) ? lineText.lastIndexOf(',"x"') + 1 : lineText.indexOf(`"${key}"`);
      assert.equal(hit.column, idx + 1, `${d.name}: column`);
    }
    assert.ok(
      !fs.some((f) => f.severity === 'error' && f.line !== at),
      `${d.name}: an error on another line: ${briefFindings(fs)}`,
    );
  }
});

const recOf = (req: Obj) => ((req.resourceLogs as Obj[])[0]!.scopeLogs as Obj[])[0]!.logRecords as Obj[];
const attr = (r: Obj, key: string) => (r.attributes as Obj[]).find((a) => a.key === key) as Obj;

const OTLP_DEFECTS: Array<{ name: string; golden: number; mutate(r: Obj): void; rule: string; pointer: string }> = [
  {
    name: 'event name outside the root',
    golden: 3,
    mutate: (r) => void (r.eventName = 'tool.completed'),
    rule: 'aep/otlp-event-name',
    pointer: '/eventName',
  },
  {
    name: 'severity pair not a §3.4 row',
    golden: 3,
    mutate: (r) => void (r.severityText = 'WARN'),
    rule: 'aep/otlp-severity',
    pointer: '/severityText',
  },
  {
    name: 'severity number out of range',
    golden: 13,
    mutate: (r) => void (r.severityNumber = 30),
    rule: 'aep/otlp-severity',
    pointer: '/severityNumber',
  },
  { name: 'time absent', golden: 13, mutate: (r) => void delete r.timeUnixNano, rule: 'aep/otlp-time', pointer: '' },
  {
    name: 'time not whole nanoseconds (a quoted exponent form is read, a fraction is not)',
    golden: 13,
    mutate: (r) => void (r.timeUnixNano = '1.5e-3'),
    rule: 'aep/otlp-time',
    pointer: '/timeUnixNano',
  },
  {
    name: 'aep.* attribute of the wrong kind',
    golden: 3,
    mutate: (r) => void ((attr(r, 'aep.epoch').value as Obj) = { stringValue: '0' }),
    rule: 'aep/otlp-attribute',
    pointer: '/attributes/8/value',
  },
  {
    name: 'unknown aep.* attribute',
    golden: 24,
    mutate: (r) => void (r.attributes as Obj[]).push({ key: 'aep.version', value: { stringValue: '0.1' } }),
    rule: 'aep/otlp-attribute',
    pointer: '/attributes/4/key',
  },
  {
    name: 'gen_ai.* member left in the body',
    golden: 3,
    mutate: (r) =>
      void (((r.body as Obj).kvlistValue as Obj).values as Obj[]).push({
        key: 'gen_ai.request.model',
        value: { stringValue: 'm' },
      }),
    rule: 'aep/otlp-gen-ai',
    pointer: '/body/kvlistValue/values/3/key',
  },
  {
    name: 'body above the max capture',
    golden: 15,
    mutate: (r) => void (r.body = { kvlistValue: { values: [{ key: 'duration_ms', value: { intValue: '310' } }] } }),
    rule: 'aep/otlp-capture',
    pointer: '/body',
  },
  {
    name: 'body at capture none',
    golden: 24,
    mutate: (r) => void ((attr(r, 'aep.capture').value as Obj).stringValue = 'none'),
    rule: 'aep/otlp-capture',
    pointer: '/body',
  },
  {
    name: 'trace id not hex',
    golden: 3,
    mutate: (r) => void (r.traceId = 'not-a-trace-id'),
    rule: 'aep/otlp-trace',
    pointer: '/traceId',
  },
  {
    name: 'span id without trace id',
    golden: 3,
    mutate: (r) => void delete r.traceId,
    rule: 'aep/otlp-trace',
    pointer: '',
  },
  {
    name: 'body not a map',
    golden: 24,
    mutate: (r) => void (r.body = { stringValue: 'online' }),
    rule: 'aep/otlp-shape',
    pointer: '/body',
  },
  // mapped back and checked as AEP: the finding points at the attribute's value
  {
    name: 'aep.source not a URI',
    golden: 13,
    mutate: (r) => void ((attr(r, 'aep.source').value as Obj).stringValue = 'not a uri'),
    rule: 'aep/source-uri',
    pointer: '/attributes/3/value',
  },
];

test('a faulty CE time, id, source or subject (B2, copied verbatim) is one finding at its member, with the reason a direct AEP check gives', async () => {
  const base = (i: number, over: Obj = {}): Obj => ({ ...toCloudEvent(bridgeEvent(i)), ...over });
  const times = [
    '2026-01-01T24:00:00Z',
    '2026-13-01T10:00:00Z',
    '2026-01-01T10:00:61Z',
    '2026-01-01T10:60:00Z',
    '2026-01-01T10:00:00',
    '2026-02-30T10:00:00Z',
    '2026-06-30T12:00:60Z',
    '2026-01-01T10:00:00+25:00',
    '2026-01-01 10:00:00Z',
    '2026-01-01T10:00:00.Z',
    '',
  ];
  for (const time of times) {
    // a batch, the faulty CE second: one finding, at /1/time
    const fs = await checkBridgeText(JSON.stringify([base(0), base(1, { time })]) + '\n', 'cloudevents');
    assert.equal(briefFindings(fs), 'aep/ce-attribute-type@1/1/time', time);
    // the relation: the same clause as aep/time-format on the AEP event itself
    const direct = (await validate('aep', { text: JSON.stringify(bridgeEvent(1, { time })) + '\n', source: 'd' }))
      .findings;
    assert.equal(direct.length, 1, time);
    const why = direct[0]!.message.replace(/^.*?: /, '');
    assert.equal(fs[0]!.message, `time is not an RFC 3339 timestamp (the CloudEvents Timestamp type): ${why}`, time);
  }
  for (const over of [
    { time: 5 },
    { time: '2026-01-01T10:00:00\u0007Z' },
    { id: '' },
    { source: 5 },
    { subject: '' },
    { source: '' },
    { source: 'urn:x:a\u0007' },
    { id: 'a\u0007' },
  ]) {
    const fs = await checkBridgeText(JSON.stringify(base(1, over)) + '\n', 'cloudevents');
    assert.equal(briefFindings(fs), `aep/ce-attribute-type@1/${Object.keys(over)[0]}`, JSON.stringify(over));
  }
  // a CE finding on another fault of the member (a control character) leaves the AEP one on its own fault: a
  // relative source is no URI without the character too (AEP-0001 §5.1 #6), month 13 no date-time
  for (const [over, aep] of [
    [{ source: 'relative source\u0007' }, 'aep/source-uri@1/source'],
    [{ time: '2026-13-01T10:00:00Z\u0007' }, 'aep/time-format@1/time'],
  ] as const) {
    const fs = await checkBridgeText(JSON.stringify(base(1, over)) + '\n', 'cloudevents');
    const name = Object.keys(over)[0];
    assert.equal(briefFindings(fs), `aep/ce-attribute-type@1/${name}, ${aep}`, JSON.stringify(over));
  }
  // RFC 3339 allows lower-case t and z, and a leap second at 23:59:60 UTC on a month's last day
  for (const time of ['2026-01-01t10:00:00z', '2026-12-31T23:59:60Z', '2027-01-01T05:29:60+05:30'])
    assert.equal(
      briefFindings(await checkBridgeText(JSON.stringify(base(1, { time })) + '\n', 'cloudevents')),
      '',
      time,
    );
});

test("one-defect variants of golden's OTLP form: each is caught by its rule at its pointer into the request", async (t) => {
  if (!needShared(t, SHARED.aepCorpus)) return;
  const lines = goldenLines();
  const base = '/resourceLogs/0/scopeLogs/0/logRecords/0';
  for (const d of OTLP_DEFECTS) {
    const reqs = lines.map((l) => toOtlp([JSON.parse(l) as Obj]).request);
    d.mutate(recOf(reqs[d.golden]!)[0]!);
    const text = reqs.map((r) => JSON.stringify(r)).join('\n') + '\n';
    const fs = await checkBridgeText(text, 'otlp');
    const hit = fs.find((f) => f.ruleId === d.rule && f.line === d.golden + 1 && f.pointer === base + d.pointer);
    assert.ok(hit, `${d.name}: no ${d.rule}@${d.golden + 1}${base}${d.pointer} in ${briefFindings(fs)}`);
    assert.ok(
      !fs.some((f) => f.severity !== 'info' && f.line !== d.golden + 1),
      `${d.name}: a finding on another line: ${briefFindings(fs)}`,
    );
  }
});

test('OTLP reader: what the protobuf JSON mapping allows (64-bit integers as numbers, upper-case hex ids), an enum name reported', async (t) => {
  if (!needShared(t, SHARED.aepCorpus)) return;
  const e = JSON.parse(goldenLines()[3]!) as Obj;
  const req = toOtlp([e], { maxCapture: 'full' }).request;
  const r = recOf(req)[0]!;
  // OTLP/JSON: enum fields are integers; the name is read as its number, with a finding
  r.severityNumber = 'SEVERITY_NUMBER_INFO';
  assert.deepEqual(
    (await checkBridgeText(JSON.stringify(req) + '\n', 'otlp', { maxCapture: 'full' })).map((f) => f.ruleId),
    ['aep/otlp-severity'],
  );
  r.severityNumber = 9;
  r.traceId = (r.traceId as string).toUpperCase();
  ((attr(r, 'aep.sequence').value as Obj).intValue as unknown) = 3;
  // a JSON number beyond 2^53: the decorator reads its exact literal
  const text = JSON.stringify(req).replace(/"timeUnixNano":"(\d+)"/, '"timeUnixNano":$1') + '\n';
  assert.deepEqual(await checkBridgeText(text, 'otlp', { maxCapture: 'full' }), []);
  const back = fromOtlp(req, { maxCapture: 'full' })[0]!;
  const { aep: _v, ...rest } = back;
  const { aep: _w, ...want } = e;
  assert.deepEqual(rest, want);
});

test('OTLP severity: §3.4 both ways, the inverse buckets every number 1-24 monotonically', () => {
  for (const s of AEP_SEVERITIES) assert.equal(severityOfNumber(OTLP_SEVERITY[s].number), s);
  let last = -1;
  for (let n = 1; n <= 24; n++) {
    const i = AEP_SEVERITIES.indexOf(severityOfNumber(n)!);
    assert.ok(i >= last, `bucket of ${n}`);
    last = i;
  }
  for (const n of [0, 25, 1.5, -1]) assert.equal(severityOfNumber(n), undefined);
});

test('OTLP time: RFC 3339 <-> nanoseconds keeps the instant (offsets, fractions of 1 to 9 digits)', () => {
  for (const s of [
    '2026-07-03T10:14:00Z',
    '2026-07-03T10:14:00.5Z',
    '2026-07-03T12:14:00.123456+02:00',
    '1999-12-31T23:59:59.999999999Z',
    '2026-07-03T10:14:00.000Z',
  ]) {
    const n = nanosOf(s)!;
    assert.equal(nanosOf(timeOfNanos(n)), n, s);
    assert.equal(Date.parse(timeOfNanos(n)), Date.parse(s), s);
  }
  assert.equal(nanosOf('yesterday'), undefined);
});

test('conversions never invent content: the OTLP and OCSF forms carry only values of the event', () => {
  // in OTLP, attribute and member names (`key`) are the table's or the event's names, not values
  const values = (v: unknown, out = new Set<string>(), skipKey = false): Set<string> => {
    if (v !== null && typeof v === 'object')
      for (const [k, x] of Object.entries(v))
        if (!(skipKey && k === 'key')) values(x, out, skipKey);
        else if (typeof v === 'string') out.add(v);
    return out;
  };
  for (const { where, event } of events()) {
    if (typeof event.type !== 'string' || typeof event.time !== 'string') continue;
    const own = values(event);
    const exported = toOtlp([event], { maxCapture: 'full' });
    // a number no OTLP value holds as written (1e400) refuses the record rather than inventing a value
    if (exported.refused.length) continue;
    const req = exported.request;
    const strings = [
      ...values(recOf(req)[0]!.attributes, undefined, true),
      ...values(recOf(req)[0]!.body, undefined, true),
    ];
    for (const s of strings) assert.ok(own.has(s) || /^-?\d+$/.test(s), `${where}: OTLP string not from the event`);
    const rec = toOcsf(event, { maxCapture: 'full' }).record;
    // the pinned version and profile are the only constants; a hostname is the source's authority
    if (rec)
      for (const s of values(rec))
        assert.ok(
          own.has(s) || s === '1.8.0' || s === 'security_control' || [...own].some((o) => o.includes(`://${s}`)),
          `${where}: OCSF string not from the event`,
        );
  }
});

test('capture at the OTLP exporter: nothing above max capture leaves, what is withheld is counted', () => {
  const ev = {
    aep: '0.1',
    id: 'x',
    type: 'tool.completed',
    time: '2026-01-01T00:00:00Z',
    source: 'aep://h/a',
    agent: 'a',
    capture: 'redacted',
    data: { tool: { name: 'T' }, 'gen_ai.usage.input_tokens': 1 },
  };
  for (const [max, kept] of [
    ['none', false],
    ['metadata', false],
    ['redacted', true],
    ['full', true],
  ] as const) {
    const r = toOtlp([ev], { maxCapture: max });
    const rec = recOf(r.request)[0]!;
    assert.equal(rec.body !== undefined, kept, max);
    assert.equal(
      (rec.attributes as Obj[]).some((a) => (a.key as string).startsWith('gen_ai.')),
      kept,
      max,
    );
    assert.equal(r.counts.withheld, kept ? 0 : 1, max);
    assert.equal(decodeOtlp(r.request, { maxCapture: max }).issues.length, 0, max);
  }
});

test('bridgeChecker fed parsed lines: bridge issues and AEP findings located in the original text; a repeated member stops its record only', () => {
  const findings: Finding[] = [];
  const sink = (f: Finding) => findings.push(f);
  const checker = bridgeChecker(
    'otlp',
    'metadata',
    (s) =>
      createAepChecker(
        {},
        {
          sink: s,
          stats: newStats(),
          crash: (e) => {
            throw e;
          },
        },
      ),
    sink,
  );
  const ev = (n: number, _seq: number, extra = '') =>
    `{"timeUnixNano":"${1767225600000000000 + n * 1e9}","eventName":"dev.aep.agent.heartbeat","attributes":[{"key":"aep.agent_id","value":{"stringValue":"a"}},{"key":"aep.event_id","value":{"stringValue":"h${n}"}},{"key":"aep.source","value":{"stringValue":"aep://h/agent/a"}}${extra}]}`;
  // two records in one request; the second repeats a member; a foreign record between them
  const text = `{"resourceLogs":[{"scopeLogs":[{"logRecords":[${ev(1, 0, ',{"key":"aep.sequence","value":{"intValue":"x"}}')},{"body":{"stringValue":"plain log"}},${ev(2, 1).replace('"eventName"', '"eventName":"dev.aep.agent.heartbeat","eventName"')}]}]}]}`;
  let off = 0;
  for (const [i, line] of [text].entries()) {
    const pe = parseLine(
      {
        source: 'in',
        line: i + 1,
        byteOffset: off,
        text: line,
        byteLength: Buffer.byteLength(line),
        unterminated: false,
      },
      sink,
      64,
      true,
    )!;
    off += Buffer.byteLength(line) + 1;
    checker.onEvent(pe);
  }
  checker.end();
  const recs = '/resourceLogs/0/scopeLogs/0/logRecords';
  assert.deepEqual(
    findings.map((f) => `${f.ruleId} ${f.pointer}`).sort(),
    [
      `aep/otlp-foreign-record ${recs}/1`,
      `aep/otlp-shape ${recs}/0/attributes/3/value`,
      `json/duplicate-key ${recs}/2/eventName`,
    ].sort(),
  );
  for (const f of findings) {
    const key = f.pointer!.split('/').pop()!;
    if (!/^\d+$/.test(key)) assert.equal(text.slice(f.column! - 1, f.column! + key.length + 1), `"${key}"`, f.ruleId);
    assert.equal(f.byteOffset, f.column! - 1);
  }
});
