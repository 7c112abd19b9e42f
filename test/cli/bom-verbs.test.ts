/**
 * The stream verbs read a byte order mark as `validate` does (RFC 8259 §8.1, README §Decisions on framing): the mark is
 * not part of the first line's JSON, so that event is matched, redacted, down-leveled and converted like the others;
 * the output starts with no mark; the `jsonl/bom` error is reported and fails the run, and the closing line says no
 * line was left out. Bytes after a whole gzip stream are the same kind of finding.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { runCli } from './helpers.ts';

const PLAIN = readFileSync('examples/aep/session.jsonl');
const BOM = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), PLAIN]);
const LINES = PLAIN.toString().split('\n').length - 1;
const FIRST_ID = (JSON.parse(PLAIN.toString().split('\n')[0]!) as { id: string }).id;

const VERBS: readonly (readonly string[])[] = [
  ['filter', '--where', '{}'],
  ['filter', '--where', JSON.stringify({ id: FIRST_ID })],
  ['redact'],
  ['downlevel', '--ceiling', 'metadata'],
  ['convert', '--to', 'cloudevents'],
  ['convert', '--to', 'otlp'],
];

test('a BOM at the start: every verb writes what it writes without it, no mark first, and reports jsonl/bom', async () => {
  for (const verb of VERBS) {
    const plain = await runCli('aep', [...verb, '-'], PLAIN);
    const bom = await runCli('aep', [...verb, '-'], BOM);
    const name = verb.join(' ');
    assert.equal(plain.code, 0, `${name}: ${plain.stderr}`);
    assert.ok(plain.stdout.length > 0, name);
    assert.equal(bom.stdout, plain.stdout, `${name}: the first event is handled like the others`);
    assert.notEqual(bom.stdout.charCodeAt(0), 0xfeff, name);
    // validate's decision: the mark is an error (README: "a BOM and blank lines are errors"), so the run fails
    assert.equal(bom.code, 1, `${name}: ${bom.stderr}`);
    assert.match(bom.stderr, /1:1 +error +jsonl\/bom /, name);
    assert.doesNotMatch(bom.stderr, /not written \(|could not be read as JSON objects/, name);
    assert.match(bom.stderr, /no line left out, \d+ written; the error findings above are about the input/, name);
  }
  const first = await runCli('aep', ['filter', '--where', JSON.stringify({ id: FIRST_ID }), '-'], BOM);
  assert.equal(first.stdout.split('\n').length - 1, 1);
});

test('a BOM at a later line (inputs concatenated) is skipped there too: its event is written', async () => {
  const twice = Buffer.concat([PLAIN, BOM]);
  const r = await runCli('aep', ['filter', '--where', '{}', '-'], twice);
  assert.equal(r.stdout, PLAIN.toString() + PLAIN.toString());
  assert.match(r.stderr, new RegExp(`${LINES + 1}:1 +error +jsonl/bom `));
  const red = await runCli('aep', ['redact', '-'], twice);
  assert.equal(red.stdout.split('\n').length - 1, 2 * LINES);
});

test('a gzip input with bytes after its last member: every line written, the finding reported', async () => {
  const tail = Buffer.concat([gzipSync(PLAIN), Buffer.from('garbage\n')]);
  for (const verb of [VERBS[0]!, VERBS[2]!]) {
    const plain = await runCli('aep', [...verb, '-'], PLAIN);
    const r = await runCli('aep', [...verb, '-'], tail);
    assert.equal(r.stdout, plain.stdout, verb.join(' '));
    assert.equal(r.code, 1);
    assert.match(r.stderr, /error +jsonl\/gzip-corrupt .*not gzip/);
    assert.match(r.stderr, /no line left out/);
  }
});
