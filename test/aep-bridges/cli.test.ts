/**
 * `aep filter` and `aep convert` end to end (src/cli/aep-bridges.ts): the filter selects lines
 * byte for byte and refuses an invalid filter before any output; convert writes golden's CE,
 * OTLP and OCSF forms equal to the corpus pins, with counts on stderr.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { FILTERABLE_CORE, matches, parseFilter } from '../../src/aep/attr-match.ts';
import { otlpDataModel } from '../../src/fixture-runner/aep-bridges.ts';
import { CORPUS_DIR } from '../aep-schemas/helpers.ts';
import { runCli } from '../cli/helpers.ts';
import { extensionKeyNotes } from '../../src/cli/attr-filter.ts';
import { needShared, SHARED } from '../shared.ts';

type Obj = Record<string, unknown>;

test('aep filter: the matching lines, byte for byte, partial events included; no validation', async () => {
  const lines = [
    '{"type":"attention.requested",  "session":"s1", "severity":"notice"}',
    '{"type":"tool.completed","session":"s1"}',
    '{ "type" : "attention.timeout" , "extra" : [1, 2.50] }',
    '{"type":"attention"}',
  ];
  const r = await runCli('aep', ['filter', '--where', '{"type":["attention.*"]}', '-'], lines.join('\r\n') + '\n');
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, lines[0] + '\n' + lines[2] + '\n');
  const f = parseFilter({ severity: { gte: 'notice' } });
  const s = await runCli('aep', ['filter', '--where', '{"severity":{"gte":"notice"}}', '-'], lines.join('\n'));
  assert.equal(
    s.stdout,
    lines
      .filter((l) => matches(f, JSON.parse(l) as Obj))
      .map((l) => l + '\n')
      .join(''),
  );
});

test('aep filter: an invalid filter exits 2 with the reason and writes nothing', async () => {
  for (const where of ['{"seq":5}', '{"type":"*"}', '{"agent":[]}', 'not json', '[]']) {
    const r = await runCli('aep', ['filter', '--where', where, '-'], '{"type":"tool.completed"}\n');
    assert.equal(r.code, 2, where);
    assert.equal(r.stdout, '', where);
    assert.match(r.stderr, /invalid filter: .+fail closed/, where);
  }
});

test('aep filter: a severity or capture outside its closed set is a usage error naming the value, with the nearest', async () => {
  const cases: [string, RegExp][] = [
    ['{"severity":{"gte":"loud"}}', /the severity "gte" value "loud" is not one of debug, info, notice/],
    ['{"severity":{"lte":"notise"}}', /value "notise" is not one of .*\(did you mean "notice"\?\)/],
    ['{"severity":["loud"]}', /the severity value "loud" is not one of debug, info, notice, warning, error, critical/],
    ['{"severity":"warnin"}', /value "warnin" .*\(did you mean "warning"\?\)/],
    [
      '{"capture":["ful"]}',
      /the capture value "ful" is not one of none, metadata, redacted, full \(did you mean "full"\?\)/,
    ],
    ['{"capture":["full",3]}', /the capture value 3 is not one of/],
  ];
  for (const [where, said] of cases) {
    const r = await runCli('aep', ['filter', '--where', where, '-'], '{"type":"tool.completed","severity":"loud"}\n');
    assert.equal(r.code, 2, where);
    assert.equal(r.stdout, '', where);
    assert.match(r.stderr, said, where);
  }
  // the values of the closed sets still select
  const ok = await runCli(
    'aep',
    ['filter', '--where', '{"severity":["info","notice"],"capture":"metadata"}', '-'],
    '{"type":"a.b"}\n',
  );
  assert.equal(ok.code, 0, ok.stderr);
  assert.equal(ok.stdout, '{"type":"a.b"}\n');
  // the library's dialect takes the grammar's Scalar as §6.1 writes it (README §Subscription filters)
  assert.doesNotThrow(() => parseFilter({ severity: ['loud'] }));
});

test('aep filter: a line that is not a JSON object is reported, not matched (exit 1)', async () => {
  const r = await runCli('aep', ['filter', '--where', '{}', '-'], '{"type":"a.b"}\nnot json\n');
  assert.equal(r.code, 1);
  assert.equal(r.stdout, '{"type":"a.b"}\n');
  assert.match(r.stderr, /jsonl\/invalid-json/);
});

test('aep convert of golden equals the corpus pins (CloudEvents, OTLP, OCSF)', async (t) => {
  if (!needShared(t, SHARED.aepCorpus)) return;
  const golden = join(CORPUS_DIR, 'golden/golden.jsonl');
  const events = readFileSync(golden, 'utf8')
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as Obj);
  const jsonl = (s: string) =>
    s
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Obj);

  const ce = await runCli('aep', ['convert', '--to', 'cloudevents', golden]);
  assert.equal(ce.code, 0, ce.stderr);
  assert.deepEqual(jsonl(ce.stdout), jsonl(readFileSync(join(CORPUS_DIR, 'ce-roundtrip/ce-expected.jsonl'), 'utf8')));
  assert.match(ce.stderr, /64 events converted to cloudevents/);

  const otlp = await runCli('aep', ['convert', '--to', 'otlp', golden]);
  assert.equal(otlp.code, 0, otlp.stderr);
  const records = jsonl(otlp.stdout).map((req) => {
    const rl = (req.resourceLogs as Obj[])[0]!;
    return otlpDataModel(rl.resource as Obj, ((rl.scopeLogs as Obj[])[0]!.logRecords as Obj[])[0]!);
  });
  assert.equal(records.length, events.length);
  for (const [k, want] of Object.entries(
    JSON.parse(readFileSync(join(CORPUS_DIR, 'otlp/otlp-expected.json'), 'utf8')) as Obj,
  ))
    assert.deepEqual(records[Number(k)], want, `otlp ${k}`);
  assert.match(otlp.stderr, /payload withheld at max capture metadata/);

  const ocsf = await runCli('aep', ['convert', '--to', 'ocsf', golden]);
  assert.equal(ocsf.code, 0, ocsf.stderr);
  const byId = new Map(jsonl(ocsf.stdout).map((r) => [(r.metadata as Obj).uid, r]));
  const pins = JSON.parse(readFileSync(join(CORPUS_DIR, 'ocsf/ocsf-expected.json'), 'utf8')) as Obj;
  for (const [k, want] of Object.entries(pins)) assert.deepEqual(byId.get(events[Number(k)]!.id), want, `ocsf ${k}`);
  // the counts add up: every event read is a record written or an event without a class
  const m = /(\d+) valid events: (\d+) written as OCSF records, (\d+) not written \(no OCSF class/.exec(ocsf.stderr);
  assert.ok(m, ocsf.stderr);
  assert.equal(Number(m[1]), events.length);
  assert.equal(Number(m[2]), byId.size);
  assert.equal(Number(m[2]) + Number(m[3]), events.length);
});

test('aep convert --to cloudevents --max-capture down-levels as a hop; invalid lines are not converted', async () => {
  const ev =
    '{"aep":"0.1","id":"c1","type":"tool.completed","time":"2026-01-01T00:00:00Z","source":"aep://h/agent/a/session/s","agent":"a","session":"s","seq":0,"capture":"full","data":{"tool":{"name":"T","call_id":"c"},"status":"success"}}';
  const r = await runCli(
    'aep',
    ['convert', '--to', 'cloudevents', '--max-capture', 'none', '-'],
    ev + '\n{"aep":"0.1"}\n',
  );
  assert.equal(r.code, 1);
  const out = r.stdout
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as Obj);
  assert.equal(out.length, 1);
  assert.equal(out[0]!.aepcapture, 'none');
  assert.equal(out[0]!.data, undefined);
  assert.equal(out[0]!.datacontenttype, undefined);
  assert.match(r.stderr, /1 down-leveled to none/);
  // the count names the level written: a mechanical hop asked for `redacted` writes `metadata` (AEP-0001 §8.2(e))
  const red = await runCli('aep', ['convert', '--to', 'cloudevents', '--max-capture', 'redacted', '-'], `${ev}\n`);
  assert.equal(red.code, 0, red.stderr);
  assert.equal((JSON.parse(red.stdout) as Obj).aepcapture, 'metadata');
  assert.match(
    red.stderr,
    /; 1 down-leveled to metadata \(max capture redacted: a mechanical hop never writes redacted/,
  );
  assert.doesNotMatch(red.stderr, /down-leveled to redacted/);
  const none = await runCli('aep', ['convert', '--to', 'cloudevents', '--max-capture', 'full', '-'], `${ev}\n`);
  assert.match(none.stderr, /; 0 down-leveled \(max capture full\)\n$/);
});

test('aep convert --to cloudevents of golden is byte for byte ce-expected.jsonl (ASCII-only JSON, as the pins are written)', async (t) => {
  if (!needShared(t, SHARED.aepCorpus)) return;
  const r = await runCli('aep', ['convert', '--to', 'cloudevents', join(CORPUS_DIR, 'golden/golden.jsonl')]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, readFileSync(join(CORPUS_DIR, 'ce-roundtrip/ce-expected.jsonl'), 'utf8'));
  assert.match(r.stdout, /\\u[0-9a-f]{4}/, 'golden has non-ASCII text, escaped');
});

test('aep filter: a key one edit from a core attribute gets a note on stderr, still read as the extension it is', async () => {
  const notes = (where: string) => extensionKeyNotes(parseFilter(where));
  for (const core of FILTERABLE_CORE) {
    const typo = core.slice(0, -1);
    if (typo.length === 0 || FILTERABLE_CORE.includes(typo)) continue;
    assert.equal(notes(JSON.stringify({ [typo]: ['x'] })).length, 1, typo);
    assert.deepEqual(notes(JSON.stringify({ [core]: ['x'] })), [], core);
  }
  assert.deepEqual(notes('{"vendorxyz":["a"]}'), []);
  const r = await runCli(
    'aep',
    ['filter', '--where', '{"typ":["tool.completed"]}', '-'],
    '{"type":"tool.completed"}\n',
  );
  assert.equal(r.code, 0);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /note: "typ" is read as an extension attribute .*not the core attribute "type"/);
});
