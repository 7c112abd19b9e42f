/**
 * Issue 37 items 4c-4e and 5: what the outside SDKs and the protobuf JSON mapping write, read as they mean it; what no
 * bridge format holds, refused with a sentence instead of invented.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeCloudEvents, toCloudEvent } from '../../src/aep/bridges/cloudevents.ts';
import { toOtlp } from '../../src/aep/bridges/otlp.ts';
import { decodeOtlp } from '../../src/aep/bridges/otlp-decode.ts';
import { checkEvent, createSession, validate } from '../../src/index.ts';
import { runCli } from '../cli/helpers.ts';
import { bridgeEvent } from './helpers.ts';

type Obj = Record<string, unknown>;
const ev = bridgeEvent;
const nine = Array.from({ length: 9 }, (_, i) => ev(i));

test('4c: a CloudEvents batch or an OTLP request of 9 records is 9 events', async () => {
  const batch = JSON.stringify(nine.map(toCloudEvent)) + '\n';
  const ce = await validate('aep', { text: batch, source: 'b' }, { from: 'cloudevents' });
  assert.equal(ce.summary.events, 9);
  const req = JSON.stringify(toOtlp(nine).request) + '\n';
  const otlp = await validate('aep', { text: req, source: 'r' }, { from: 'otlp' });
  assert.equal(otlp.summary.events, 9);
  assert.deepEqual(otlp.findings, []);
});

test('4d: --from otlp on a .json file of JSON lines (the Collector file exporter) reads each line', async () => {
  const text = nine.map((e) => JSON.stringify(toOtlp([e]).request)).join('\n') + '\n';
  const r = await validate('aep', { text, source: 'filename.json' }, { from: 'otlp' });
  assert.deepEqual(r.findings, []);
  assert.equal(r.summary.events, 9);
});

test('4e: bridge output without --from, or pretty-printed on stdin, is one finding naming --from', async () => {
  const lines = nine.map((e) => JSON.stringify(toCloudEvent(e))).join('\n') + '\n';
  const plain = await validate('aep', { text: lines, source: 'x.jsonl' });
  assert.deepEqual(
    plain.findings.map((f) => f.ruleId),
    ['aep/bridge-input'],
  );
  assert.deepEqual([plain.findings[0]!.messageId, plain.findings[0]!.args?.from], ['lines', 'cloudevents']);
  const otlp = await validate('aep', { text: JSON.stringify(toOtlp(nine).request) + '\n', source: 'x.jsonl' });
  assert.deepEqual(
    otlp.findings.map((f) => [f.ruleId, f.args?.from]),
    [['aep/bridge-input', 'otlp']],
  );
  const pretty = JSON.stringify(nine.map(toCloudEvent), null, 2) + '\n';
  const r = await runCli('aep', ['validate', '--from', 'cloudevents', '-'], pretty);
  assert.equal((r.stdout.match(/ error /g) ?? []).length, 1, r.stdout);
  assert.match(r.stdout, /pretty-printed CloudEvents document/);
  // batch lines (JSON arrays) without --from: one not-object finding whose hint names --from
  const batches = [nine.slice(0, 4), nine.slice(4)].map((b) => JSON.stringify(b.map(toCloudEvent))).join('\n') + '\n';
  const b = await validate('aep', { text: batches, source: 'x.jsonl' });
  assert.deepEqual(
    b.findings.map((f) => f.ruleId),
    ['jsonl/not-object'],
  );
  assert.equal(b.findings[0]!.messageId, 'notObjectHint');
  assert.ok(String(b.findings[0]!.args?.hint).includes('--from cloudevents'), 'the hint names the flag');
});

test('4e: OCSF records without --from, and plain AEP with any --from, are one finding naming what to do', async () => {
  const { toOcsf } = await import('../../src/aep/bridges/ocsf.ts');
  const started = ev(0, { type: 'session.started' });
  const records = [started, ev(1, { type: 'session.ended', data: { reason: 'normal' } })].map(
    (e) => toOcsf(e, { maxCapture: 'metadata' }).record!,
  );
  assert.equal(records.length, 2);
  const lines = records.map((r) => JSON.stringify(r)).join('\n') + '\n';
  const plain = await validate('aep', { text: lines, source: 'x.jsonl' });
  assert.deepEqual(
    plain.findings.map((f) => f.ruleId),
    ['aep/bridge-input'],
  );
  assert.match(plain.findings[0]!.message, /--from ocsf/);
  // an OCSF batch line, or the batch pretty-printed on stdin: the hint names --from ocsf
  const batch = await validate('aep', { text: JSON.stringify(records) + '\n', source: 'x.jsonl' });
  assert.match(batch.findings.map((f) => f.message).join(), /--from ocsf/);
  const pretty = await runCli('aep', ['validate', '-'], JSON.stringify(records, null, 2) + '\n');
  assert.equal((pretty.stdout.match(/ error /g) ?? []).length, 1, pretty.stdout);
  assert.match(pretty.stdout, /pretty-printed OCSF document: read it with `--from ocsf`/);
  // and read with --from ocsf as a .json document, a batch of 2 is 2 events
  const doc = await validate(
    'aep',
    { text: JSON.stringify(records, null, 2) + '\n', source: 'x.json' },
    { from: 'ocsf' },
  );
  assert.deepEqual(doc.findings, []);
  assert.equal(doc.summary.events, 2);
  // plain AEP JSONL with --from: one finding saying it is AEP, for every bridge
  const aep = nine.map((e) => JSON.stringify(e)).join('\n') + '\n';
  for (const from of ['cloudevents', 'otlp', 'ocsf'] as const) {
    const r = await validate('aep', { text: aep, source: 'x.jsonl' }, { from });
    assert.deepEqual(
      r.findings.map((f) => `${f.ruleId}@${f.line}`),
      ['aep/bridge-input@1'],
      from,
    );
    assert.match(r.findings[0]!.message, new RegExp(`plain AEP event.*drop \`--from ${from}\``));
    // none of the 9 lines was checked: set aside, not counted as events
    assert.deepEqual([r.summary.events, r.summary.unchecked], [0, 9], from);
  }
  // one bridge's output given another's --from: one finding naming the right --from, for every wrong pair
  const bridgeLines: Record<'cloudevents' | 'otlp', string> = {
    cloudevents: nine.map((e) => JSON.stringify(toCloudEvent(e))).join('\n') + '\n',
    otlp: nine.map((e) => JSON.stringify(toOtlp([e]).request)).join('\n') + '\n',
  };
  for (const [format, text] of Object.entries(bridgeLines))
    for (const from of ['cloudevents', 'otlp', 'ocsf'] as const) {
      if (from === format) continue;
      const r = await validate('aep', { text, source: 'x.jsonl' }, { from });
      assert.deepEqual(
        r.findings.map((f) => `${f.ruleId}@${f.line}:${f.messageId}`),
        ['aep/bridge-input@1:other'],
        `${format} read --from ${from}`,
      );
      assert.equal(r.findings[0]!.args?.from, format);
    }
  // AHP messages read by aep: one finding naming `ahp validate`, not an error per member per line
  const ahpLines = Array.from({ length: 5 }, (_, i) =>
    JSON.stringify({ jsonrpc: '2.0', method: 'hooks/observe', params: { n: i } }),
  ).join('\n');
  const ahp = await validate('aep', { text: `${ahpLines}\n${JSON.stringify(nine[0])}\n`, source: 'x.jsonl' });
  assert.deepEqual(
    ahp.findings.map((f) => `${f.ruleId}@${f.line}:${f.messageId}`),
    ['aep/bridge-input@1:ahp'],
  );
  // one AEP event pretty-printed on stdin: one finding, with or without --from
  const prettyAep = JSON.stringify(nine[0], null, 2) + '\n';
  for (const args of [
    ['validate', '-'],
    ['validate', '--from', 'otlp', '-'],
  ]) {
    const r = await runCli('aep', args, prettyAep);
    assert.equal((r.stdout.match(/ error /g) ?? []).length, 1, r.stdout);
    assert.match(r.stdout, /lines are one pretty-printed AEP event/);
    if (args.includes('--from')) assert.match(r.stdout, /drop `--from otlp`/);
  }
  // a JSON array written one event per line (its last element parses): the array hint, as pretty-printed, by every route
  const three = nine.slice(0, 3).map((e) => JSON.stringify(e));
  const perLine = `[\n${three.join(',\n')}\n]\n`;
  const prettyArray = `${JSON.stringify(nine.slice(0, 3), null, 2)}\n`;
  for (const text of [perLine, prettyArray, perLine.replaceAll('\n', '\r\n')]) {
    const r = await validate('aep', { text, source: 'arr.jsonl' });
    const errors = r.findings.filter((f) => f.severity === 'error');
    assert.equal(errors.length, 1, JSON.stringify(errors.map((f) => f.message)));
    assert.match(errors[0]!.message, /JSON array of 3 AEP events: AEP JSONL holds one event per line/);
    const cli = await runCli('aep', ['validate', '-'], text);
    assert.match(cli.stdout, /JSON array of 3 AEP events/);
  }
  // several events pretty-printed one after another (`jq . log.jsonl`): one finding naming them, by every route; a
  // brace inside a string does not cut an event short
  const withBrace = { ...nine[1], xnote: 'a } and a " quote' };
  const prettyLog = `${[nine[0], withBrace, nine[2]].map((e) => JSON.stringify(e, null, 2)).join('\n')}\n`;
  const log = await validate('aep', { text: prettyLog, source: 'log.jsonl' });
  assert.deepEqual(
    log.findings.map((f) => `${f.ruleId}@${f.line}:${f.column}`),
    ['jsonl/invalid-json@1:2'],
  );
  assert.match(log.findings[0]!.message, /lines are 3 pretty-printed AEP events: AEP JSONL holds one event per line/);
  assert.deepEqual(
    checkEvent('aep', prettyLog).map((f) => f.message),
    log.findings.map((f) => f.message),
  );
  const s = createSession('aep');
  assert.deepEqual(
    [...s.check(prettyLog), ...s.end()].map((f) => f.message),
    log.findings.map((f) => f.message),
  );
  assert.match((await runCli('aep', ['validate', '-'], prettyLog)).stdout, /3 pretty-printed AEP events/);
  // the same events each on one line but one pretty-printed: that line parses nowhere, the others do; no fold
  const oneLine = `${JSON.stringify(nine[0])}\n${JSON.stringify(nine[1], null, 2)}\n`;
  const mixed = await validate('aep', { text: oneLine, source: 'm.jsonl' });
  assert.ok(mixed.findings.filter((f) => f.ruleId === 'jsonl/invalid-json').length > 1);
  // a stray `[` before JSONL events is not an array: each line is reported as it is
  const stray = await validate('aep', { text: `[\n${three.join('\n')}\n`, source: 's.jsonl' });
  assert.deepEqual(
    stray.findings.filter((f) => f.ruleId === 'jsonl/invalid-json').map((f) => f.line),
    [1],
  );
});

test('5: an empty AnyValue body is no body; a repeated kvlist key and an intValue beyond int64 are findings', () => {
  const rec = (r: Obj) => ({ resourceLogs: [{ scopeLogs: [{ logRecords: [r] }] }] });
  const base = (toOtlp([ev(1)]).request.resourceLogs as Obj[])[0]!;
  const r0 = ((base.scopeLogs as Obj[])[0]!.logRecords as Obj[])[0]!;
  assert.deepEqual(decodeOtlp(rec({ ...r0, body: {} })).issues, []);
  const kv = {
    values: [
      { key: 'k', value: { intValue: '1' } },
      { key: 'k', value: { intValue: '2' } },
    ],
  };
  const dup = decodeOtlp(rec({ ...r0, attributes: r0.attributes, body: { kvlistValue: kv } }), { maxCapture: 'full' });
  assert.ok(dup.issues.some((i) => i.messageId === 'kv-repeat'));
  const wide = { values: [{ key: 'n', value: { intValue: '9223372036854775808' } }] };
  assert.ok(
    decodeOtlp(rec({ ...r0, body: { kvlistValue: wide } }), { maxCapture: 'full' }).issues.some(
      (i) => i.messageId === 'int-range',
    ),
  );
});

test('5: convert writes seq exactly or refuses it; data numbers beyond a double are carried (CE) or refused (OTLP)', async () => {
  const big =
    '{"aep":"0.1","id":"b1","type":"progress.status","time":"2026-11-30T10:00:00Z","source":"aep://h/agent/a/session/s","agent":"a","session":"s","seq":9007199254740993}\n';
  const o = await runCli('aep', ['convert', '--to', 'otlp', '-'], big);
  assert.match(o.stdout, /"intValue":"9007199254740993"/);
  const c = await runCli('aep', ['convert', '--to', 'cloudevents', '-'], big);
  assert.equal(c.stdout, '');
  assert.match(
    c.stderr,
    /^<stdin>:1: not converted to cloudevents: seq is an integer outside the signed 32-bit range/m,
  );
  // a refusal is no finding: the closing line says which lines the conversion refused
  assert.match(c.stderr, /1 line not written \(1 refused by the conversion: see above\); 0 written/);
  const inf = `${JSON.stringify(ev(1, { type: 'tool.completed', capture: 'full' })).slice(0, -1)},"data":{"tool":{"name":"T","call_id":"c"},"status":"success","n":1e400}}\n`;
  const ce = await runCli('aep', ['convert', '--to', 'cloudevents', '-'], inf);
  assert.match(ce.stdout, /"n":1e400/);
  const ot = await runCli('aep', ['convert', '--to', 'otlp', '--max-capture', 'full', '-'], inf);
  assert.equal(ot.stdout, '');
  assert.match(ot.stderr, /not converted to otlp: \/data\/n is a number beyond the range of a double/);
});

test('5: a CloudEvents subject with a control character or a lone surrogate is rejected on read; datacontenttype is a media type', () => {
  const ce = toCloudEvent(ev(1, { data: {} }));
  for (const subject of ['a\u0007b', 'x\ud800'])
    assert.ok(
      decodeCloudEvents({ ...ce, subject }).issues.some((i) => i.messageId === 'string-chars'),
      subject,
    );
  const issues = (dct: unknown) => decodeCloudEvents({ ...ce, datacontenttype: dct }).issues;
  assert.deepEqual(
    issues('Application/JSON; charset=utf-8').map((i) => i.ruleId),
    ['aep/ce-datacontenttype'],
  );
  assert.deepEqual(
    issues('text/plain').map((i) => i.ruleId),
    ['aep/ce-data'],
  );
  assert.deepEqual(issues('application/json'), []);
});

test("5: an absent datacontenttype beside data is one warning naming B1's sentence (exit 0); present, or absent without data, none", async () => {
  const withData = toCloudEvent(ev(1, { data: { n: 1 } }));
  const { datacontenttype, ...bare } = withData;
  assert.equal(datacontenttype, 'application/json');
  const r = await runCli(
    'aep',
    ['validate', '--from', 'cloudevents', '--format', 'json', '-'],
    JSON.stringify(bare) + '\n',
  );
  assert.equal(r.code, 0, r.stderr);
  const found = (JSON.parse(r.stdout) as { findings: { ruleId: string; severity: string; message: string }[] })
    .findings;
  assert.deepEqual(
    found.map((f) => `${f.ruleId}:${f.severity}`),
    ['aep/ce-datacontenttype:warning'],
  );
  assert.match(
    found[0]!.message,
    /AEP-0005 §1 B1 has the bridge "set datacontenttype: "application\/json" when data is present"/,
  );
  assert.match(found[0]!.message, /reads an absent datacontenttype as application\/json \(§3\.1\.2\)/);
  assert.deepEqual(decodeCloudEvents(withData).issues, []);
  const noData = toCloudEvent(ev(2));
  assert.equal(noData.data, undefined);
  assert.deepEqual(decodeCloudEvents(noData).issues, []);
});

test('4e: the summary of lines set aside as another format counts them apart from the events checked', async () => {
  const ce = nine.map((e) => JSON.stringify(toCloudEvent(e))).join('\n') + '\n';
  const aep = nine.map((e) => JSON.stringify(e)).join('\n') + '\n';
  const plain = await validate('aep', { text: ce, source: 's.ce.jsonl' });
  assert.deepEqual([plain.summary.lines, plain.summary.events, plain.summary.unchecked], [9, 0, 9]);
  const r = await runCli('aep', ['validate', '-'], ce);
  assert.match(r.stdout, /✖ 0 events checked \(9 lines of another format not checked\), 1 error,/);
  // mixed: the AEP lines are checked events, the CloudEvents lines are not
  const mixed = await validate('aep', { text: aep + ce, source: 'm.jsonl' });
  assert.deepEqual([mixed.summary.events, mixed.summary.unchecked], [9, 9]);
  // read as it is: every line an event, nothing set aside
  const read = await validate('aep', { text: ce, source: 's.ce.jsonl' }, { from: 'cloudevents' });
  assert.deepEqual([read.summary.events, read.summary.unchecked], [9, undefined]);
});

test('4e: every rule selection keeps the one finding on lines of another format (a run that checked nothing fails)', async () => {
  const ce = nine.map((e) => JSON.stringify(toCloudEvent(e))).join('\n') + '\n';
  const rpc = '{"jsonrpc":"2.0","method":"hooks/observe","params":{}}\n';
  for (const text of [ce, rpc])
    for (const rules of [
      undefined,
      ['aep/seq-regression'],
      ['aep/bridge-input'],
      ['aep/time-format', 'aep/enum'],
    ] as const) {
      const r = await validate('aep', { text, source: 'x.jsonl' }, rules ? { rules } : {});
      assert.deepEqual(
        r.findings.map((f) => f.ruleId),
        ['aep/bridge-input'],
        `${JSON.stringify(rules)} ${text.slice(0, 20)}`,
      );
      assert.equal(r.summary.events, 0);
    }
  const cli = await runCli('aep', ['validate', '--rule', 'aep/seq-regression', '-'], rpc);
  assert.equal(cli.code, 1, cli.stdout);
});
