/**
 * Trial 18: inputs of public bug reports against OTLP/JSON receivers and CloudEvents SDKs. A 64-bit OTLP field
 * written as a JSON number is read from its digits (the OTLP spec accepts numbers and strings when decoding), so a
 * number JSON.parse rounds is neither refused when it is an integer nor accepted when its literal has a fraction.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeCloudEvents } from '../../src/aep/bridges/cloudevents.ts';
import { toOtlp } from '../../src/aep/bridges/otlp.ts';
import { decodeOtlp } from '../../src/aep/bridges/otlp-decode.ts';
import { briefFindings, checkBridgeText } from './helpers.ts';

type Obj = Record<string, unknown>;
const started: Obj = {
  aep: '0.1',
  id: 'e0',
  type: 'session.started',
  time: '2026-11-30T09:00:00Z',
  source: 'aep://h/agent/a/session/s',
  agent: 'a',
  session: 's',
  seq: 0,
  data: { client: { name: 'a', version: '1.0.0' } },
};
/** The one-record request of `started`, as text, with `edit` applied to the text. */
const requestText = (edit: (t: string) => string): string =>
  edit(JSON.stringify(toOtlp([started], { maxCapture: 'full' }).request)) + '\n';
const NANOS = '"timeUnixNano":"1796029200000000000"';

test('OTLP: an integer-valued JSON number in exponent form is a fixed64 time and an int64 seq, exact', async () => {
  const text = requestText((t) =>
    t.replace(NANOS, '"timeUnixNano":1.7960292e18').replace('{"intValue":"0"}', '{"intValue":0e5}'),
  );
  assert.ok(text.includes('1.7960292e18') && text.includes('0e5'), text);
  assert.equal(briefFindings(await checkBridgeText(text, 'otlp')), '');
  // beyond 2^53: the digits of the literal, not its double
  const big = requestText((t) => t.replace(NANOS, '"timeUnixNano":1796029200000000001'));
  assert.equal(briefFindings(await checkBridgeText(big, 'otlp')), '');
});

test('OTLP: a 64-bit integer quoted in exponent or zero-fraction form is that integer (protobuf JSON mapping), exact', async () => {
  for (const [time, seq] of [
    ['"1.7960292e18"', '"0e5"'],
    ['"17960292E11"', '"0.0"'],
    ['"1796029200000000001.000"', '"-0"'],
  ]) {
    const text = requestText((t) =>
      t.replace(NANOS, `"timeUnixNano":${time}`).replace('{"intValue":"0"}', `{"intValue":${seq}}`),
    );
    assert.equal(briefFindings(await checkBridgeText(text, 'otlp')), '', text);
  }
  const r = decodeOtlp(JSON.parse(requestText((t) => t.replace(NANOS, '"timeUnixNano":"1796029200000000001e0"'))));
  assert.equal(r.events[0]?.event.time, '2026-11-30T09:00:00.000000001Z');
  // flags, a fixed32: the same reading of a quoted number
  const req = JSON.parse(requestText((t) => t)) as Obj;
  const rec = (((req.resourceLogs as Obj[])[0]!.scopeLogs as Obj[])[0]!.logRecords as Obj[])[0]!;
  Object.assign(rec, { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', flags: '1e0' });
  const withFlags = decodeOtlp(req);
  assert.deepEqual(withFlags.issues, []);
  assert.match(String(withFlags.events[0]?.event.traceparent), /-01$/);
  rec.flags = '0.5';
  assert.deepEqual(
    decodeOtlp(req).issues.map((i) => i.pointer),
    ['/resourceLogs/0/scopeLogs/0/logRecords/0/flags'],
  );
});

test('OTLP: a quoted 64-bit integer with a fraction, a plus sign, a space or no digits is refused, saying what is accepted', async () => {
  const cases: [string, RegExp][] = [
    ['"1796029200000000000.5"', /a string holding a number with a fraction/],
    ['"1.7960292e-18"', /a string holding a number with a fraction/],
    ['"+1796029200000000000"', /a string that is no number literal/],
    ['" 1796029200000000000"', /a string that is no number literal/],
    ['""', /an empty string/],
  ];
  for (const [time, kind] of cases) {
    const fs = await checkBridgeText(
      requestText((t) => t.replace(NANOS, `"timeUnixNano":${time}`)),
      'otlp',
    );
    const f = fs.find((x) => x.ruleId === 'aep/otlp-time');
    assert.match(f?.message ?? '', kind, `${time}: ${briefFindings(fs)}`);
    assert.match(f?.message ?? '', /JSON number literal denoting an integer \("1\.7960292e18"/);
    assert.match(f?.pointer ?? '', /\/timeUnixNano$/);
  }
  const seq = await checkBridgeText(
    requestText((t) => t.replace('{"intValue":"0"}', '{"intValue":"0.5"}')),
    'otlp',
  );
  assert.match(
    seq.find((f) => f.ruleId === 'aep/otlp-shape')?.message ?? '',
    /intValue is a string holding a number with a fraction: .*"7e0"/,
    briefFindings(seq),
  );
});

test('OTLP: an integer literal far out of range is told as a range fault, not a form one', async () => {
  const timeOf = async (time: string) => {
    const fs = await checkBridgeText(
      requestText((t) => t.replace(NANOS, `"timeUnixNano":${time}`)),
      'otlp',
    );
    return fs.filter((f) => f.ruleId === 'aep/otlp-time');
  };
  for (const time of ['"1e5000"', '"1e4096"', '1e5000', '"18446744073709551616"']) {
    const fs = await timeOf(time);
    assert.equal(fs.length, 1, time);
    assert.match(fs[0]!.message, /^timeUnixNano is beyond the fixed64 range/, time);
  }
  // logs.proto: only 0 is unknown time; a negative count is no fixed64
  for (const time of ['"-1e5000"', '"-5"', '-5']) {
    const fs = await timeOf(time);
    assert.match(fs[0]?.message ?? '', /^timeUnixNano is negative: logs\.proto types it fixed64/, time);
    assert.doesNotMatch(fs[0]!.message, /unknown/, time);
  }
  assert.match((await timeOf('0'))[0]?.message ?? '', /^timeUnixNano is 0, an unknown or missing timestamp/);
  for (const intValue of ['"1e5000"', '"-1e5000"', '"9223372036854775808"']) {
    const seq = await checkBridgeText(
      requestText((t) => t.replace('{"intValue":"0"}', `{"intValue":${intValue}}`)),
      'otlp',
    );
    assert.equal(briefFindings(seq), 'aep/otlp-shape@1/resourceLogs/0/scopeLogs/0/logRecords/0/attributes/4/value');
    assert.match(seq[0]!.message, /^intValue is an integer beyond int64/, intValue);
  }
});

test('OTLP: a faulty observedTimeUnixNano with no timeUnixNano is one finding at it, saying what is wrong', async () => {
  const cases: [string, RegExp][] = [
    ['"-5"', /^observedTimeUnixNano is negative/],
    ['"1.5"', /^observedTimeUnixNano is a string holding a number with a fraction/],
    ['true', /^observedTimeUnixNano is a boolean/],
    ['"0"', /^observedTimeUnixNano is 0, .* and timeUnixNano is absent/],
  ];
  for (const [obs, message] of cases) {
    const text = requestText((t) => t.replace(NANOS, `"observedTimeUnixNano":${obs}`));
    const fs = await checkBridgeText(text, 'otlp');
    assert.equal(
      briefFindings(fs),
      'aep/otlp-time@1/resourceLogs/0/scopeLogs/0/logRecords/0/observedTimeUnixNano',
      obs,
    );
    assert.match(fs[0]!.message, message, obs);
  }
  // timeUnixNano 0 is unknown: the observed time is read, and told when faulty
  const both = requestText((t) => t.replace(NANOS, '"timeUnixNano":"0","observedTimeUnixNano":"-5"'));
  const fs = await checkBridgeText(both, 'otlp');
  assert.equal(briefFindings(fs), 'aep/otlp-time@1/resourceLogs/0/scopeLogs/0/logRecords/0/observedTimeUnixNano');
  // a timeUnixNano present and not 0 is the one judged, however the observed time reads
  const bad = requestText((t) => t.replace(NANOS, '"timeUnixNano":"-5","observedTimeUnixNano":"1796029200000000000"'));
  assert.equal(
    briefFindings(await checkBridgeText(bad, 'otlp')),
    'aep/otlp-time@1/resourceLogs/0/scopeLogs/0/logRecords/0/timeUnixNano',
  );
});

test('OTLP: a flags value that is no fixed32 is told with what was found', async () => {
  const req = JSON.parse(requestText((t) => t)) as Obj;
  const rec = (((req.resourceLogs as Obj[])[0]!.scopeLogs as Obj[])[0]!.logRecords as Obj[])[0]!;
  Object.assign(rec, { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331' });
  for (const [flags, found] of [
    ['4.294967296e9', 'the string "4.294967296e9"'],
    ['-1', 'the string "-1"'],
    [4294967296, '4294967296'],
    [true, 'a boolean'],
  ] as const) {
    rec.flags = flags;
    const fs = await checkBridgeText(JSON.stringify(req) + '\n', 'otlp');
    assert.equal(fs.length, 1, String(flags));
    assert.equal(fs[0]!.message, `flags is ${found}, not a fixed32 (an integer from 0 to 4294967295, logs.proto).`);
  }
  rec.flags = '4.294967295e9';
  assert.equal(briefFindings(await checkBridgeText(JSON.stringify(req) + '\n', 'otlp')), '');
});

test('OTLP: a number whose literal has a fraction is no 64-bit integer, and the message says so', async () => {
  // 1796029200000000000.5 and 9007199254740993.5 parse to integral doubles; their literals are not integers
  const text = requestText((t) =>
    t
      .replace(NANOS, '"timeUnixNano":1796029200000000000.5')
      .replace(
        '{"key":"aep.sequence","value":{"intValue":"0"}}',
        '{"key":"aep.sequence","value":{"intValue":9007199254740993.5}}',
      ),
  );
  const fs = await checkBridgeText(text, 'otlp');
  const time = fs.find((f) => f.ruleId === 'aep/otlp-time');
  assert.match(time?.message ?? '', /timeUnixNano is a number with a fraction/, briefFindings(fs));
  const seq = fs.find((f) => f.ruleId === 'aep/otlp-shape' && f.pointer?.endsWith('/value'));
  assert.match(seq?.message ?? '', /intValue is a number with a fraction/, briefFindings(fs));
});

test('OTLP library: an integer beyond 2^53 given as a JavaScript number is named as inexact, not "an integer"', () => {
  const req = JSON.parse(requestText((t) => t)) as Obj;
  const rec = (((req.resourceLogs as Obj[])[0]!.scopeLogs as Obj[])[0]!.logRecords as Obj[])[0]!;
  rec.timeUnixNano = 1796029200000000000;
  const r = decodeOtlp(req);
  assert.match(r.issues.map((i) => String(i.args?.kind)).join(' '), /beyond 2\^53/);
  rec.timeUnixNano = '1796029200000000000';
  assert.deepEqual(decodeOtlp(req).issues, []);
});

test('CloudEvents data_base64: the finding names which RFC 4648 rule or which decoding step failed', async () => {
  const json = Buffer.from(JSON.stringify({ client: { name: 'a12', version: '1.0.0' } })).toString('base64');
  assert.ok(json.endsWith('='), json);
  const ce = (b64: unknown): Obj => ({
    specversion: '1.0',
    id: 'e0',
    source: 'aep://h/agent/a/session/s',
    type: 'dev.aep.session.started',
    time: '2026-11-30T09:00:00Z',
    datacontenttype: 'application/json',
    aepversion: '0.1',
    aepagentid: 'a',
    aepsessionid: 's',
    aepsequence: 0,
    data_base64: b64,
  });
  const reason = (b64: unknown): string => {
    const i = decodeCloudEvents(ce(b64)).issues.find((x) => x.messageId === 'base64-not-json');
    return String(i?.args?.reason);
  };
  // the report classes: URL-safe alphabet, line breaks, missing or misplaced padding, then what the bytes are
  assert.match(reason(json.replace(/\+|\//g, '-').replace(/^./, '_')), /URL-safe alphabet .* at character 1,/);
  assert.match(reason(`${json.slice(0, 8)}\n${json.slice(8)}`), /white space at character 9/);
  assert.match(reason(json.replace(/=+$/, '')), /not a multiple of 4: the padding is missing/);
  assert.match(reason(`${json.slice(0, 4)}=${json.slice(5)}`), /"=" at character 5 is not final padding/);
  assert.match(reason(`${json.slice(0, 4)}!${json.slice(5)}`), /character 5 is outside the alphabet/);
  assert.match(reason(''), /empty/);
  assert.match(reason(Buffer.from([0x7b, 0xff, 0x7d]).toString('base64')), /not UTF-8/);
  assert.match(reason(Buffer.from('{"a":').toString('base64')), /text that is not JSON/);
  assert.match(reason(Buffer.from('{"a":1,"a":1}').toString('base64')), /repeated member name/);
  assert.match(reason(7), /it is an integer/);
  // padded base64 of JSON text is the payload, however the JSON text escapes its characters (sdk-csharp#320)
  const escaped = json.replace(/A/g, '\\u0041').replace(/a/g, '\\u0061');
  const text = JSON.stringify(ce(json)).replace(json, escaped);
  assert.ok(text.includes('\\u0041'), text);
  assert.equal(briefFindings(await checkBridgeText(`${text}\n`, 'cloudevents')), '');
  assert.deepEqual(decodeCloudEvents(JSON.parse(text)).events[0]?.event.data, {
    client: { name: 'a12', version: '1.0.0' },
  });
});

test('OTLP: a member the bridge refused is one finding, not also "missing"; an absent one is still missing', async () => {
  const seqAttr = '{"key":"aep.sequence","value":{"intValue":"0"}}';
  const one = async (edit: (t: string) => string) => briefFindings(await checkBridgeText(requestText(edit), 'otlp'));
  const R = '/resourceLogs/0/scopeLogs/0/logRecords/0';
  // refused: a seq that is no int64, a time that is no fixed64
  assert.equal(
    await one((t) => t.replace(seqAttr, seqAttr.replace('"0"', '"1.5"'))),
    `aep/otlp-shape@1${R}/attributes/4/value`,
  );
  assert.equal(
    await one((t) => t.replace(NANOS, '"timeUnixNano":{"low":1,"high":2}')),
    `aep/otlp-time@1${R}/timeUnixNano`,
  );
  // absent: the AEP rule still says what is missing
  assert.match(await one((t) => t.replace(`,${seqAttr}`, '')), /aep\/scope-session/);
});
