/**
 * Trial 18: inputs of public bug reports against OTLP/JSON receivers and CloudEvents SDKs. A 64-bit OTLP field
 * written as a JSON number is read from its digits (the OTLP spec accepts numbers and strings when decoding), so a
 * number JSON.parse rounds is neither refused when it is an integer nor accepted when its literal has a fraction.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
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
