/**
 * What a first-time user's trial of both bins met: rules of other verbs in `explain` / `rules` / `validate --rule`,
 * the format an `-o` name implies, empty input and typed input on the stream verbs, `--no-color` everywhere, RFC
 * citations, a URL without its scheme, a missing pin folder, a misspelt rule id in a sidecar.
 */
import assert from 'node:assert/strict';
import { linkSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { LIVE_RULES } from '../../src/live/rules.ts';
import { PIN_RULES } from '../../src/pin/rules.ts';
import { fixtureSample, runCli } from './helpers.ts';
import { fileTempDir } from '../temp.ts';

const PASS = 'conformance/aep/pass/aep.ack-cause.jsonl';
const tmp = fileTempDir('papercuts-');

test('explain knows every pin/* rule (ahp) and every live rule (aep); rules --verb lists exactly them', async () => {
  for (const [bin, verb, rules] of [
    ['ahp', 'pin', PIN_RULES],
    ['aep', 'live', LIVE_RULES],
  ] as const) {
    const listed = await runCli(bin, ['rules', '--verb', verb, '--format', 'json']);
    assert.equal(listed.code, 0, listed.stderr);
    const ids = (JSON.parse(listed.stdout) as { id: string }[]).map((r) => r.id);
    assert.deepEqual(
      ids,
      rules.map((r) => r.id),
    );
    for (const r of rules) {
      const e = await runCli(bin, ['explain', r.id]);
      assert.equal(e.code, 0, `${bin} explain ${r.id}: ${e.stderr}`);
      assert.ok(e.stdout.startsWith(`${r.id} (${r.severity})`), e.stdout);
      assert.match(e.stdout, /Cases:/);
    }
  }
  const near = await runCli('ahp', ['explain', 'pin/missing-sourc']);
  assert.equal(near.code, 2);
  assert.match(near.stderr, /did you mean pin\/missing-source\?/);
});

test('validate --rule with a rule of another verb names that verb; an unknown id is still unknown', async () => {
  const live = await runCli('aep', ['validate', '--rule', LIVE_RULES[0]!.id, PASS]);
  assert.equal(live.code, 2);
  assert.match(live.stderr, /is a rule of `aep live URL`/);
  assert.doesNotMatch(live.stderr, /unknown rule/);
  const pin = await runCli('ahp', ['validate', '--rule', 'pin/missing-source', '-']);
  assert.equal(pin.code, 2);
  assert.match(pin.stderr, /is a rule of `ahp pin verify`/);
  const bogus = await runCli('aep', ['validate', '--rule', 'aep/bogus-rule-id', PASS]);
  assert.equal(bogus.code, 2);
  assert.match(bogus.stderr, /unknown rule "aep\/bogus-rule-id"/);
  for (const r of [live, pin, bogus]) assert.equal(r.stderr.split('\n').filter(Boolean).length, 1);
});

test('-o NAME without --format writes the format its extension names; an explicit --format wins', async () => {
  const head: Record<string, RegExp> = {
    'r.html': /^<!DOCTYPE html>/,
    'r.sarif': /"\$schema": "https:\/\/docs\.oasis-open\.org\/sarif/,
    'r.json': /^\{/,
    'r.xml': /^<\?xml/,
    'r.ndjson': /^\{"ruleId"|^\{"kind":"summary"/,
    'r.txt': /✔|events/,
  };
  for (const [name, re] of Object.entries(head)) {
    const out = join(tmp, name);
    const r = await runCli('aep', ['validate', PASS, '-o', out]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(readFileSync(out, 'utf8'), re, name);
  }
  const out = join(tmp, 'explicit.html');
  assert.equal((await runCli('aep', ['validate', PASS, '-o', out, '--format', 'text'])).code, 0);
  assert.doesNotMatch(readFileSync(out, 'utf8'), /<!DOCTYPE/);
  const fx = join(tmp, 'fixtures.xml');
  const f = await runCli('ahp', ['fixtures', fixtureSample('ahp'), '-q', '-o', fx]);
  assert.equal(f.code, 0, f.stderr);
  assert.match(readFileSync(fx, 'utf8'), /^<\?xml/);
  assert.doesNotMatch(f.stderr, /note:/);
  // a name whose format the verb does not write (fixtures has no ndjson): the default, and a note saying so
  const nd = join(tmp, 'fixtures.ndjson');
  const n = await runCli('ahp', ['fixtures', fixtureSample('ahp'), '-q', '-o', nd]);
  assert.equal(n.code, 0, n.stderr);
  assert.match(
    n.stderr,
    /^ahp fixtures: note: .*fixtures\.ndjson names ndjson, a format this verb does not write: it is written as text \(--format: text, json, /m,
  );
  assert.doesNotMatch(readFileSync(nd, 'utf8'), /^\{/);
  assert.match(
    (await runCli('aep', ['validate', '--help'])).stdout,
    /\.html,\s+\.sarif,\s+\.json,\s+\.ndjson or\s+\.jsonl\s+\(ndjson\) or\s+\.xml/,
  );
});

test('the stream verbs on empty input: the empty-input finding, one closing line, exit 1 as validate', async () => {
  const validate = await runCli('aep', ['validate']);
  assert.equal(validate.code, 1);
  for (const args of [
    ['redact'],
    ['downlevel', '--ceiling', 'none'],
    ['convert', '--to', 'cloudevents'],
    ['convert', '--to', 'otlp'],
    ['convert', '--to', 'ocsf'],
    ['filter', '--where', '{}'],
  ])
    for (const stdin of ['', '\n\n', '\n']) {
      const what = `${args.join(' ')} < ${JSON.stringify(stdin)}`;
      const r = await runCli('aep', args, stdin);
      assert.equal(r.code, validate.code, what);
      assert.equal(r.stdout, '');
      assert.match(r.stderr, /jsonl\/empty-input/);
      // after the summary, one closing line and nothing else (no count of what was not converted or written)
      const closing = r.stderr.split('\n').filter((l) => l.startsWith('aep'));
      assert.deepEqual(
        closing,
        [`aep ${args[0]}: the input holds no event (jsonl/empty-input above), so nothing was written`],
        what,
      );
    }
  // an input with an event is counted as before
  const one = await runCli('aep', ['convert', '--to', 'cloudevents', PASS]);
  assert.match(one.stderr, /aep convert: \d+ events? converted to cloudevents/);
});

test('the stream verbs say they read a terminal, as validate does, and only on a terminal', async () => {
  const line = readFileSync(PASS, 'utf8');
  for (const args of [
    ['validate'],
    ['redact'],
    ['downlevel', '--ceiling', 'full'],
    ['convert', '--to', 'cloudevents'],
    ['filter', '--where', '{}'],
  ]) {
    const tty = await runCli('aep', args, line, { stdinIsTTY: true });
    assert.match(tty.stderr, /reading standard input \(end it with Ctrl-D/, args.join(' '));
    const piped = await runCli('aep', args, line);
    assert.doesNotMatch(piped.stderr, /reading standard input/, args.join(' '));
  }
});

test('every verb of both bins accepts --no-color', async () => {
  const verbs: Record<'aep' | 'ahp', string[][]> = {
    aep: [
      ['validate'],
      ['fixtures'],
      ['rules'],
      ['explain'],
      ['redact'],
      ['downlevel'],
      ['filter'],
      ['convert'],
      ['live'],
    ],
    ahp: [['validate'], ['fixtures'], ['rules'], ['explain'], ['pin', 'verify'], ['pin', 'refresh']],
  };
  for (const [bin, list] of Object.entries(verbs) as ['aep' | 'ahp', string[][]][])
    for (const v of list) assert.match((await runCli(bin, [...v, '--help'])).stdout, /--no-color/, `${bin} ${v}`);
  const runs: ['aep' | 'ahp', string[]][] = [
    ['aep', ['rules', '--no-color']],
    ['ahp', ['rules', '--no-color']],
    ['aep', ['explain', '--no-color', 'aep/time-format']],
    ['aep', ['redact', '--no-color', PASS]],
    ['aep', ['downlevel', '--no-color', '--ceiling', 'full', PASS]],
    ['aep', ['filter', '--no-color', '--where', '{}', PASS]],
    ['aep', ['convert', '--no-color', '--to', 'cloudevents', PASS]],
  ];
  for (const [bin, args] of runs) {
    const r = await runCli(bin, args);
    assert.equal(r.code, 0, `${bin} ${args.join(' ')}: ${r.stderr}`);
    assert.doesNotMatch(r.stdout + r.stderr, /\x1b\[/);
  }
});

test('RFC requirement rows read as the RFC is cited ("RFC 8259 §8.1 #2"), in explain and the matrix', async () => {
  const e = await runCli('aep', ['explain', 'jsonl/bom']);
  assert.match(e.stdout, /RFC 8259 §8\.1 #\d/);
  const generated = readFileSync('src/generated/requirements.json', 'utf8');
  const docs = readFileSync('docs/requirements.md', 'utf8');
  for (const text of [e.stdout, generated, docs, readFileSync('RULES.md', 'utf8')])
    assert.doesNotMatch(text, /RFC §|§\d{4} \d/);
  assert.match(generated, /"RFC 8259 §8\.1 #2"/);
});

test('aep live with a URL without its scheme suggests the http: one, in one line', async () => {
  for (const [url, suggested] of [
    ['localhost:8080', 'http://localhost:8080'],
    ['127.0.0.1:9/aep', 'http://127.0.0.1:9/aep'],
  ]) {
    const r = await runCli('aep', ['live', url]);
    assert.equal(r.code, 2);
    assert.equal(r.stderr, `aep live: ${url} is not an http: or https: URL; did you mean ${suggested}?\n`);
  }
  const ftp = await runCli('aep', ['live', 'ftp://example.invalid/']);
  assert.equal(ftp.code, 2);
  assert.doesNotMatch(ftp.stderr, /did you mean/);
});

test('ahp pin verify / refresh with a --dir that is missing or no directory: one line, exit 2', async () => {
  const file = join(tmp, 'not-a-dir');
  writeFileSync(file, 'x');
  for (const verb of ['verify', 'refresh'])
    for (const [dir, why] of [
      [join(tmp, 'nonexist'), /does not exist/],
      [file, /is not a directory/],
    ] as const) {
      const r = await runCli('ahp', ['pin', verb, '--dir', dir]);
      assert.equal(r.code, 2, r.stderr);
      assert.equal(r.stdout, '');
      assert.equal(r.stderr.split('\n').filter(Boolean).length, 1, r.stderr);
      assert.match(r.stderr, why);
    }
});

test('fixtures: a sidecar expecting an unknown rule id is a harness error naming it and the nearest id', async () => {
  for (const bin of ['aep', 'ahp'] as const) {
    const dir = join(tmp, `fx-${bin}`);
    mkdirSync(join(dir, 'fail'), { recursive: true });
    mkdirSync(join(dir, 'pass'), { recursive: true });
    writeFileSync(join(dir, 'fail', 'a.jsonl'), '{}\n');
    writeFileSync(join(dir, 'fail', 'a.expected.json'), `{"findings":[{"ruleId":"${bin}/nonexistent"}]}`);
    writeFileSync(join(dir, 'fail', 'b.jsonl'), 'not json\n');
    writeFileSync(join(dir, 'fail', 'b.expected.json'), '{"findings":[{"ruleId":"jsonl/invalid-jsn"}]}');
    const r = await runCli(bin, ['fixtures', dir]);
    assert.equal(r.code, 2, r.stdout);
    assert.match(r.stdout, new RegExp(`unknown rule "${bin}/nonexistent"`));
    assert.match(r.stdout, /unknown rule "jsonl\/invalid-jsn", nearest known id jsonl\/invalid-json/);
    assert.doesNotMatch(r.stdout, /missing /);
  }
});

test('fixtures: a sidecar option that is misspelt or of the wrong type is a harness error, never ignored', async () => {
  for (const bin of ['aep', 'ahp'] as const) {
    const dir = join(tmp, `fx-opt-${bin}`);
    mkdirSync(join(dir, 'fail'), { recursive: true });
    mkdirSync(join(dir, 'pass'), { recursive: true });
    const sidecar = (options: string) => `{"findings":[{"ruleId":"jsonl/invalid-json"}],"options":${options}}`;
    for (const [name, options] of [
      ['a', '{"maxLineByte":200}'],
      ['b', '{"maxLineBytes":"200"}'],
      ['c', '{"maxStateMb":1}'],
    ] as const) {
      writeFileSync(join(dir, 'fail', `${name}.jsonl`), 'not json\n');
      writeFileSync(join(dir, 'fail', `${name}.expected.json`), sidecar(options));
    }
    const r = await runCli(bin, ['fixtures', dir]);
    assert.equal(r.code, 2, r.stdout);
    assert.match(r.stdout, /\/options\/maxLineByte: unknown option; did you mean maxLineBytes\?/);
    assert.match(r.stdout, /\/options\/maxLineBytes: must be a number/);
    // a known option of the right type is taken: that case is a pass
    assert.doesNotMatch(r.stdout, /\/options\/maxStateMb/);
  }
});

test('the same file named twice (again, by another spelling, through a link) is one input read once, with a note', async () => {
  const alone = await runCli('aep', ['validate', PASS]);
  const events = /(\d+) events?/.exec(alone.stdout)![1];
  const link = join(tmp, 'linked.jsonl');
  linkSync(PASS, link);
  for (const again of [PASS, `./${PASS}`, link]) {
    const r = await runCli('aep', ['validate', PASS, again]);
    assert.equal(r.code, 0, again);
    assert.equal(r.stdout, alone.stdout, again);
    assert.match(r.stdout, new RegExp(`✔ ${events} events?,`));
    const note = r.stderr.split('\n').filter((l) => l.includes('read once'));
    assert.equal(note.length, 1, r.stderr);
    assert.match(note[0]!, again === PASS ? /is named more than once/ : /is the same file as/);
  }
  // a copy is another file: two inputs, the second of redeliveries
  const copy = join(tmp, 'copy.jsonl');
  writeFileSync(copy, readFileSync(PASS));
  const two = await runCli('aep', ['validate', PASS, copy]);
  assert.match(two.stdout, /2 inputs: /);
  assert.match(two.stdout, /aep\/redelivery/);
  assert.doesNotMatch(two.stderr, /read once/);
  // the stream verbs read it once too: no line written twice
  const redact = await runCli('aep', ['redact', PASS, PASS]);
  assert.equal(redact.stdout, readFileSync(PASS, 'utf8'));
  // and ahp
  const body = 'conformance/ahp/pass/ahp.content-selection--doc.registration.json';
  const ahp = await runCli('ahp', ['validate', body, body]);
  assert.equal(ahp.stdout, (await runCli('ahp', ['validate', body])).stdout);
  assert.match(ahp.stderr, /^ahp: note: .* is named more than once; it is read once, at its first place$/m);
});

test('aep downlevel, redact and convert --profile aep-0007: stream events kept by their §4 annotations; without it, as unannotated types', async () => {
  const at = (seq: number, type: string, extra: string) =>
    `{"aep":"0.1","id":"e${seq}","type":"${type}","time":"2026-11-30T10:00:0${seq}Z","source":"aep://h/agent/a/session/s","agent":"a","session":"s","seq":${seq},"subject":"m1"${extra}}`;
  const input = `${[
    at(0, 'stream.started', ',"data":{"kind":"output"}'),
    at(1, 'stream.delta', ',"severity":"debug","capture":"redacted","data":{"text":"cat /home/me/x","chars":14}'),
    at(2, 'stream.finished', ',"data":{"reason":"completed","chars":14}'),
  ].join('\n')}\n`;
  // AEP-0007 §6 item 3: a down-leveling hop drops `text` per the annotations and keeps the structure (`chars`)
  const lowered = await runCli('aep', ['downlevel', '--ceiling', 'metadata', '--profile', 'aep-0007', '-'], input);
  assert.equal(lowered.code, 0, lowered.stderr);
  const delta = JSON.parse(lowered.stdout.trim().split('\n')[1]!);
  assert.deepEqual([delta.capture, delta.data], ['metadata', { chars: 14 }]);
  const redacted = await runCli('aep', ['redact', '--home', '/home/me', '--profile', 'aep-0007', '-'], input);
  assert.equal(redacted.code, 0, redacted.stderr);
  assert.match(redacted.stdout, /"text":"cat ~\/x","chars":14/);
  // aep convert takes the profile too: the redacted stream's events are CloudEvents like any other
  const ce = await runCli('aep', ['convert', '--to', 'cloudevents', '--profile', 'aep-0007', '-'], redacted.stdout);
  assert.equal(ce.code, 0, ce.stderr);
  assert.match(ce.stdout, /"type":"dev\.aep\.stream\.delta"/);
  // without the profile the stream types are not AEP 0.1 types, a finding each: convert refuses the lines; the capture
  // verbs write them as any type without annotations (AEP-0001 §8.2(a): `data` dropped whole when the level is lowered)
  const refused = await runCli('aep', ['convert', '--to', 'cloudevents', '-'], input);
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /3 lines not written/);
  const plain = await runCli('aep', ['downlevel', '--ceiling', 'metadata', '-'], input);
  assert.equal(plain.code, 1);
  assert.match(plain.stderr, /3 lines with error findings written/);
  assert.deepEqual(
    plain.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).data),
    [{ kind: 'output' }, undefined, { reason: 'completed', chars: 14 }],
  );
  const red = await runCli('aep', ['redact', '--home', '/home/me', '-'], input);
  assert.equal(red.code, 1);
  assert.match(red.stdout, /"text":"cat ~\/x","chars":14/);
});

test('convert --from otlp of an export made above the default max capture says how to give the exporter its own', async () => {
  const S = 'examples/aep/session.jsonl';
  const full = (await runCli('aep', ['convert', '--to', 'otlp', '--max-capture', 'full', S])).stdout;
  const bare = await runCli('aep', ['convert', '--from', 'otlp', '-'], full);
  assert.equal(bare.code, 1);
  assert.match(
    bare.stderr,
    /aep\/otlp-capture .*give the exporter's own max capture with `--max-capture`, library: `maxCapture`/,
  );
  const told = await runCli('aep', ['convert', '--from', 'otlp', '--max-capture', 'full', '-'], full);
  assert.equal(told.code, 0, told.stderr);
  const ids = (t: string) =>
    t
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => (JSON.parse(l) as { id: string }).id);
  assert.deepEqual(ids(told.stdout), ids(readFileSync(S, 'utf8')));
});
