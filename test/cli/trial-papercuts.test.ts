/**
 * A new user's trial from the README alone: a registration document read as a wire message on every route, `fixtures
 * -o` into the fixture tree, a file name that is not UTF-8, OTLP proto names once per request, the README's fixture case
 * names, one notation for invisible characters, `validate --help` and `pin -o`, and stream verbs' count lines.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { validate } from '../../src/index.ts';
import { fixtureSample, REPO, runCli } from './helpers.ts';
import { fileTempDir } from '../temp.ts';

const tmp = fileTempDir('trial-papercuts-');
const REG = readFileSync('conformance/ahp/pass/ahp.registration--doc.registration.json', 'utf8');
const ONE_LINE = `${JSON.stringify(JSON.parse(REG))}\n`;
const PRETTY = `${JSON.stringify(JSON.parse(REG), null, 2)}\n`;

test('a registration document read as a wire message names --binding registration on every route, and is no event', async () => {
  writeFileSync(join(tmp, 'hooks.json'), ONE_LINE);
  writeFileSync(join(tmp, 'pretty.json'), PRETTY);
  const routes: Array<[string, string[], string]> = [
    ['one-line .json file', [join(tmp, 'hooks.json')], ''],
    ['pretty .json file', [join(tmp, 'pretty.json')], ''],
    ['one line on stdin', ['-'], ONE_LINE],
    ['pretty on stdin', ['-'], PRETTY],
    ['two one-line documents on stdin', ['-'], ONE_LINE + ONE_LINE],
  ];
  for (const [route, args, stdin] of routes) {
    const r = await runCli('ahp', ['validate', ...args], stdin);
    assert.equal(r.code, 1, route);
    assert.match(r.stdout, /--binding registration/, `${route}: ${r.stdout}`);
    const errors = r.stdout.split('\n').filter((l) => /\serror\s/.test(l));
    assert.equal(errors.length, 1, `${route}: one finding, not one per line or per document:\n${r.stdout}`);
    assert.doesNotMatch(r.stdout, /✖ [1-9]\d* events?,/, `${route}: not counted as an event`);
  }
  // read as what it is, it passes, and every route calls it a registration document, never an event
  writeFileSync(join(tmp, 'hooks.registration.json'), PRETTY);
  const asDocument: Array<[string, string[], string]> = [
    ['--binding registration file', ['--binding', 'registration', join(tmp, 'hooks.json')], ''],
    ['--binding registration stdin', ['--binding', 'registration', '-'], PRETTY],
    ['*.registration.json name', [join(tmp, 'hooks.registration.json')], ''],
  ];
  for (const [route, args, stdin] of asDocument) {
    const r = await runCli('ahp', ['validate', ...args], stdin);
    assert.equal(r.code, 0, `${route}: ${r.stdout}`);
    assert.match(r.stdout, /✔ 1 registration document, 0 errors/, route);
    assert.doesNotMatch(
      r.stdout,
      /\d events?|known event types/,
      `${route}: no event counted:
${r.stdout}`,
    );
    const json = await runCli('ahp', ['validate', ...args, '-f', 'json'], stdin);
    const summary = JSON.parse(json.stdout).summary;
    assert.deepEqual([summary.events, summary.documents], [0, 1], route);
  }
  const lib = await validate('ahp', { text: PRETTY, source: 'hooks.json' }, { binding: 'registration' });
  assert.deepEqual([lib.summary.events, lib.summary.documents], [0, 1], 'the library');
  // with events beside it: both counted, each as what it is
  const mixed = await runCli('ahp', ['validate', join(tmp, 'hooks.registration.json'), 'examples/ahp/session.jsonl']);
  assert.match(mixed.stdout, /2 inputs: \d+ messages, 1 registration document, /, mixed.stdout);
});

test('fixtures -o: a new file inside the fixture tree (also through a link, also in a new folder) is refused, exit 2', async () => {
  const fx = fixtureSample('aep', 1);
  const link = join(tmp, 'fx-link');
  symlinkSync(fx, link);
  for (const out of [join(fx, 'pass', 'report.json'), join(link, 'report.txt'), join(fx, 'new', 'r.json')]) {
    const r = await runCli('aep', ['fixtures', fx, '-o', out]);
    assert.equal(r.code, 2, r.stderr);
    assert.match(
      r.stderr,
      /is inside the fixture directory .*: the next run would read the report as one of its files/,
    );
    assert.equal(existsSync(out), false, out);
  }
  const outside = join(tmp, 'fx-report.json');
  const ok = await runCli('aep', ['fixtures', fx, '-q', '-o', outside]);
  assert.equal(ok.code, 0, ok.stderr);
  assert.ok(existsSync(outside));
});

test('a missing name holding U+FFFD says it may not be UTF-8 and to pipe the file, not only "no such file"', async () => {
  const dir = join(tmp, 'names');
  mkdirSync(dir);
  const raw = Buffer.concat([Buffer.from(`${dir}/bad`), Buffer.from([0xff]), Buffer.from('name.jsonl')]);
  writeFileSync(raw, readFileSync('conformance/aep/pass/aep.ack-cause.jsonl'));
  // what Node makes of such an argv entry
  const r = await runCli('aep', ['validate', raw.toString('utf8')]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /cannot read .*bad\uFFFDname\.jsonl: .*may not be valid UTF-8.*standard input/);
  const plain = await runCli('aep', ['validate', join(dir, 'absent.jsonl')]);
  assert.match(plain.stderr, /no such file or directory\n$/);
});

/** An OTLP/JSON request of the passing case, its records' `timeUnixNano` written under the proto name. */
function protoNamed(): string[] {
  return readFileSync('conformance/aep/pass/aep.otlp-shape.otlp.jsonl', 'utf8')
    .trim()
    .split('\n')
    .map((l) => l.replaceAll('"timeUnixNano"', '"time_unix_nano"'));
}

test('OTLP: an original proto name is reported once per name and request, on every route (README §OpenTelemetry)', async () => {
  const lines = protoNamed();
  assert.ok(lines.length >= 3);
  const count = (s: string) => s.split('\n').filter((l) => /aep\/otlp-shape .*"time_unix_nano"/.test(l)).length;
  const file = join(tmp, 'proto.jsonl');
  writeFileSync(file, `${lines.join('\n')}\n`);
  // each line is a request, refused or written on its own, so each is told
  const many = await runCli('aep', ['validate', '--from', 'otlp', file]);
  assert.equal(count(many.stdout), lines.length, many.stdout);
  const piped = await runCli('aep', ['validate', '--from', 'otlp', '-'], `${lines.join('\n')}\n`);
  assert.equal(count(piped.stdout), lines.length, piped.stdout);
  // one request holding two records that use it, pretty-printed in a .json file
  const req = JSON.parse(lines[0]!);
  req.resourceLogs[0].scopeLogs[0].logRecords.push(...JSON.parse(lines[1]!).resourceLogs[0].scopeLogs[0].logRecords);
  writeFileSync(join(tmp, 'two.json'), JSON.stringify(req, null, 2));
  const two = await runCli('aep', ['validate', '--from', 'otlp', join(tmp, 'two.json')]);
  assert.equal(count(two.stdout), 1, two.stdout);
  const both = await runCli('aep', ['validate', '--from', 'otlp', file, join(tmp, 'two.json')]);
  assert.equal(count(both.stdout), lines.length + 1, both.stdout);
  const readme = readFileSync('README.md', 'utf8');
  assert.match(readme, /reported as errors, once per name and request/);
});

test('README: ahp fixtures names its cases from the folder as given, the manifest path after it', async () => {
  const draft = join(tmp, 'corpus', 'fixtures', 'draft');
  const message = '{"jsonrpc":"2.0","method":"notifications/initialized"}\n';
  mkdirSync(join(draft, 'stdio'), { recursive: true });
  writeFileSync(join(draft, 'stdio', 'one.jsonl'), message);
  const one = {
    id: 'one',
    path: 'fixtures/draft/stdio/one.jsonl',
    binding: 'stdio-jsonl',
    schema: 'schema/draft/intercept-request.schema.json',
    expectedValid: false,
    sha256: createHash('sha256').update(message).digest('hex'),
  };
  writeFileSync(join(draft, 'manifest.json'), JSON.stringify({ cases: [one] }));
  const given = relative(REPO, draft);
  assert.match(given, /^\.\.\//, 'a folder above the working directory, as the README example');
  const r = await runCli('ahp', ['fixtures', '-f', 'json', given]);
  assert.equal(JSON.parse(r.stdout).cases[0].file, `${given}/stdio/one.jsonl`);
  assert.match(
    readFileSync('README.md', 'utf8'),
    /`ahp fixtures\s+\.\.\/shared\/corpus\/ahp\/fixtures\/draft` names its cases `\.\.\/shared\/corpus\/ahp\/fixtures\/draft\/stdio\/\.\.\.`/,
  );
});

test('a quoted value writes invisible and control characters as U+XXXX, never as a JSON escape', async () => {
  const line = `${JSON.stringify({ aep: '0.1', id: 'e1', type: 'session.started\u200b\u001b[31m\nx' })}\n`;
  const r = await runCli('aep', ['validate', '-'], line);
  assert.match(r.stdout, /"session\.startedU\+200BU\+001B\[31mU\+000Ax"/);
  assert.doesNotMatch(r.stdout, /\\u001b|\\n/i);
  const json = await runCli('aep', ['validate', '-f', 'json', '-'], line);
  for (const f of JSON.parse(json.stdout).findings as { message: string }[])
    assert.doesNotMatch(f.message, /\\u00|[\u001b\u200b\n]/, f.message);
});

test('validate --help says what each bin reads; pin verify and refresh take -o, refused inside the pin folder', async () => {
  const ahp = await runCli('ahp', ['validate', '--help']);
  assert.match(ahp.stdout, /HTTP message bodies/);
  assert.match(ahp.stdout, /registration\s+documents/);
  assert.doesNotMatch(ahp.stdout, /check JSONL streams/);
  const aep = await runCli('aep', ['validate', '--help']);
  assert.match(aep.stdout, /a \.json file is one\s+document/);
  for (const verb of ['verify', 'refresh']) {
    const help = await runCli('ahp', ['pin', verb, '--help']);
    assert.match(help.stdout, /-o, --output <file>/, verb);
  }
  const page = join(tmp, 'pin.html');
  const v = await runCli('ahp', ['pin', 'verify', '--allow-missing', '-o', page]);
  assert.ok([0, 1].includes(v.code), v.stderr);
  assert.match(readFileSync(page, 'utf8'), /^<!DOCTYPE html>/);
  assert.equal(v.stdout, '', 'the list goes to stderr beside a report file');
  for (const out of ['upstream/mcp/2025-11-25/report.html', 'schemas/mcp/mcp-elicitation.schema.json']) {
    const r = await runCli('ahp', ['pin', 'verify', '-o', out]);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /would change what the pin verifies/);
  }
  assert.equal(existsSync('upstream/mcp/2025-11-25/report.html'), false);
  assert.match(
    readFileSync('README.md', 'utf8'),
    /\| `html` \| \(`validate`, `fixtures`, `aep live`, `ahp pin verify`/,
  );
});

test('stream verbs: no count line after a failed -o write, nor when the input held no AEP event', async () => {
  const log = 'examples/aep/session.jsonl';
  for (const args of [
    ['redact', log],
    ['downlevel', '--ceiling', 'none', log],
    ['convert', '--to', 'otlp', log],
  ]) {
    const r = await runCli('aep', [...args, '-o', '/dev/full']);
    assert.equal(r.code, 2, r.stderr);
    const last = r.stderr.trimEnd().split('\n').at(-1)!;
    assert.match(last, /cannot write \/dev\/full/, `${args[0]}: the write error is the last line:\n${r.stderr}`);
  }
  for (const args of [['redact'], ['downlevel', '--ceiling', 'none'], ['convert', '--to', 'otlp']]) {
    const r = await runCli('aep', [...args, 'examples/ahp/session.jsonl']);
    assert.equal(r.code, 1);
    assert.doesNotMatch(r.stderr, /of 0 events|0 events converted/, `${args[0]}:\n${r.stderr}`);
    assert.match(r.stderr, /aep\/bridge-input/);
  }
  // with events, the count line stays
  const ok = await runCli('aep', ['redact', log]);
  assert.match(ok.stderr, /aep redact: 0 of 9 events redacted/);
});
