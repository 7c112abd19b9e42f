/**
 * The closing lines of the stream verbs (README §Share a log safely, §CloudEvents): each starts with its verb, says what
 * happened in that verb's terms (no "conversion" where none ran), and `convert --from` counts the lines that are not its
 * input format as what they are, not as foreign records.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { runCli } from './helpers.ts';

const PASS = 'examples/aep/session.jsonl';
const BROKEN = 'examples/aep/session-broken.jsonl';
const LEAK = 'conformance/aep/fail/aep.redaction-leak.jsonl';

/** The stderr lines a verb writes of its own (not findings, the summary or its `by rule` lines). */
const ownLines = (stderr: string): string[] => stderr.split('\n').filter((l) => /^aep[ :]/.test(l));

test('every closing line of a stream verb starts with `aep VERB:`, for clean, broken, refused and empty inputs', async () => {
  const runs: Array<[string, string[], string]> = [];
  for (const input of [PASS, BROKEN, LEAK]) {
    runs.push(['redact', ['redact', input], '']);
    runs.push(['downlevel', ['downlevel', '--ceiling', 'redacted', input], '']);
    runs.push(['downlevel', ['downlevel', '--ceiling', 'metadata', input], '']);
    runs.push(['convert', ['convert', '--to', 'cloudevents', input], '']);
    runs.push(['convert', ['convert', '--from', 'cloudevents', input], '']);
    runs.push(['filter', ['filter', '--where', '{"type":["run.*"]}', input], '']);
  }
  for (const verb of ['redact', 'filter'])
    runs.push([verb, verb === 'filter' ? ['filter', '--where', '{}'] : [verb], '\n']);
  let seen = 0;
  for (const [verb, args, stdin] of runs) {
    const r = await runCli('aep', args, stdin);
    for (const line of ownLines(r.stderr)) {
      seen++;
      assert.ok(line.startsWith(`aep ${verb}: `), `${args.join(' ')}: ${line}`);
      if (verb !== 'convert') assert.doesNotMatch(line, /conversion/, `${args.join(' ')}: ${line}`);
    }
  }
  assert.ok(seen > 10, `closing lines seen: ${seen}`);
  // the downlevel refusal says why in its own terms
  const refused = await runCli('aep', ['downlevel', '--ceiling', 'redacted', LEAK]);
  assert.match(
    refused.stderr,
    /^aep downlevel: \d+ lines? not written \(\d+ with error findings and content the copy would keep: see above\); \d+ written$/m,
  );
});

test('convert --from on plain AEP lines, or on another bridge’s output, counts them as what they are, not foreign', async () => {
  const lines = readFileSync(PASS, 'utf8')
    .split('\n')
    .filter((l) => l !== '').length;
  const plain = await runCli('aep', ['convert', '--from', 'cloudevents', PASS]);
  assert.equal(plain.code, 1);
  assert.doesNotMatch(plain.stderr, /foreign/);
  // one closing sentence: the first has its aep/bridge-input error (a line not written with error findings), the
  // others are counted as plain AEP
  assert.deepEqual(ownLines(plain.stderr), [
    `aep convert: 0 AEP events written from cloudevents; 1 line not written (1 with error findings: see above); ${lines - 1} more plain AEP lines not written (not CloudEvents output: drop \`--from cloudevents\` to read AEP JSONL)`,
  ]);
  const otlp = (await runCli('aep', ['convert', '--to', 'otlp', PASS])).stdout;
  const other = await runCli('aep', ['convert', '--from', 'cloudevents', '-'], otlp);
  assert.doesNotMatch(other.stderr, /foreign|plain AEP/);
  assert.equal(ownLines(other.stderr).length, 1, other.stderr);
  assert.match(other.stderr, new RegExp(`; ${lines - 1} more lines of OTLP/JSON output not written`));
  // a broken input: its rejected lines and the conversion's count are one closing line too
  const broken = await runCli('aep', ['convert', '--from', 'cloudevents', BROKEN]);
  assert.equal(ownLines(broken.stderr).length, 1, broken.stderr);
  // its own input format converts with no such count
  const ce = (await runCli('aep', ['convert', '--to', 'cloudevents', PASS])).stdout;
  const back = await runCli('aep', ['convert', '--from', 'cloudevents', '-'], ce);
  assert.equal(back.code, 0);
  assert.deepEqual(ownLines(back.stderr), [`aep convert: ${lines} AEP events written from cloudevents`]);
});

test('downlevel closes with what it lowered, as redact counts what it replaced: the counts follow the output', async () => {
  const input = readFileSync(PASS, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as { capture?: string });
  const rank = ['none', 'metadata', 'redacted', 'full'];
  for (const ceiling of rank) {
    const r = await runCli('aep', ['downlevel', '--ceiling', ceiling, PASS]);
    assert.equal(r.code, 0, r.stderr);
    const out = r.stdout
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as { capture?: string });
    const lowered = out.filter((e, i) => (e.capture ?? 'metadata') !== (input[i]!.capture ?? 'metadata')).length;
    assert.ok(ceiling !== 'none' || lowered === input.filter((e) => e.capture !== 'none').length);
    assert.deepEqual(ownLines(r.stderr), [
      `aep downlevel: ${lowered} of ${input.length} events lowered (ceiling ${ceiling}); 0 more changed at their own level (AEP-0001 §8.2)`,
    ]);
  }
});

test('aep redact of plain text (no event read, the run failed) says it reads AEP JSONL and names redact(text); of events it does not', async () => {
  const plain = await runCli('aep', ['redact', '-'], 'export KEY=sk-abcdefghijklmnopqrstuvwxyz123456\n');
  assert.equal(plain.code, 1);
  assert.match(plain.stderr, /^aep redact: it reads AEP events, one JSON object a line; .*redact\(text\)/m);
  for (const input of [PASS, BROKEN]) {
    const r = await runCli('aep', ['redact', input]);
    assert.doesNotMatch(r.stderr, /redact\(text\)/, input);
  }
});
