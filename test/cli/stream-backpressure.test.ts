// The verbs that write a stream honour backpressure (issue 39 item 2): while the output is not
// drained, the run reads no further chunk of its input; a reader that goes away stops the run
// quietly; `-o FILE` writes the same lines and never replaces an input.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type TestContext, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { InputSpec } from '../../src/core/pipeline.ts';
import { runAepFilter } from '../../src/run/aep-filter.ts';
import { RunStopped } from '../../src/run/run.ts';
import { runCli } from './helpers.ts';
import { tempDir } from '../temp.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const EXAMPLE = readFileSync(join(ROOT, 'examples/aep/session.jsonl'));

/** An input of `n` copies of the example stream, one copy a chunk, counting the chunks pulled. */
function countedInput(n: number): { input: InputSpec; pulled: () => number } {
  let pulled = 0;
  return {
    input: {
      source: 'many.jsonl',
      framing: 'jsonl',
      open: async function* () {
        for (let i = 0; i < n; i++) {
          pulled++;
          yield EXAMPLE;
        }
      },
    },
    pulled: () => pulled,
  };
}

test('a run reads no further chunk while its output asks to wait, and reads on once drained', async () => {
  const { input, pulled } = countedInput(20);
  let release: () => void = () => {};
  let waits = 0;
  let pulledWhenWaiting = -1;
  const lines: string[] = [];
  const run = runAepFilter(
    [input],
    () => undefined,
    (l) => void lines.push(l),
    () => {},
    {},
    () => {
      // hold after the third chunk until released
      if (waits > 0 || pulled() < 3) return undefined;
      waits++;
      pulledWhenWaiting = pulled();
      return new Promise<void>((r) => (release = r));
    },
  );
  // let the run go as far as it can on its own
  for (let i = 0; i < 50 && waits === 0; i++) await new Promise((r) => setImmediate(r));
  assert.equal(waits, 1, 'the run asked to wait');
  for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
  assert.equal(pulled(), pulledWhenWaiting, 'no chunk was read while waiting');
  release();
  const r = await run;
  assert.equal(pulled(), 20);
  assert.equal(r.written, lines.length);
  assert.ok(r.written > 0 && !r.stopped);
});

test('RunStopped from the output ends the run early with stopped set, without end-of-stream findings', async () => {
  const { input, pulled } = countedInput(20);
  const findings: string[] = [];
  const r = await runAepFilter(
    [input],
    () => undefined,
    () => {},
    (f) => void findings.push(f.ruleId),
    {},
    () => {
      if (pulled() >= 2) throw new RunStopped();
      return undefined;
    },
  );
  assert.equal(r.stopped, true);
  assert.equal(pulled(), 2);
  assert.deepEqual(findings, []);
});

function runClosingStdout(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.stdout.once('data', () => child.stdout.destroy());
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

const STREAM_VERBS = [
  ['filter', '--where', '{}'],
  ['redact'],
  ['downlevel', '--ceiling', 'metadata'],
  ['convert', '--to', 'cloudevents'],
];

/** A file of `copy` repeated far past what a pipe holds, so the verbs are still writing when the reader goes. */
function repeated(t: TestContext, copy: Buffer): string {
  const file = join(tempDir(t, 'ac-bp-'), 'many.jsonl');
  writeFileSync(file, Buffer.concat(Array.from({ length: 3000 }, () => copy)));
  return file;
}

test('a closed stdout pipe stops filter, redact, downlevel and convert quietly with exit 0', async (t) => {
  const file = repeated(t, EXAMPLE);
  for (const verb of STREAM_VERBS) {
    const r = await runClosingStdout(['bin/aep.js', ...verb, file]);
    assert.equal(r.code, 0, `${verb[0]}: ${r.stderr}`);
    // quietly: no error, no count of what was converted (the reader did not get it all)
    assert.equal(r.stderr, '', verb[0]);
  }
});

test('a closed stdout pipe keeps exit 1 when errors were found before it closed, as the whole input gives', async (t) => {
  // every copy has lines with error findings and a line that is no JSON (the one error `filter` reports)
  const broken = Buffer.concat([
    readFileSync(join(ROOT, 'examples/aep/session-broken.jsonl')),
    Buffer.from('no json\n'),
  ]);
  const small = join(tempDir(t, 'ac-bp-'), 'one.jsonl');
  writeFileSync(small, broken);
  const file = repeated(t, broken);
  for (const verb of STREAM_VERBS) {
    assert.equal((await runCli('aep', [...verb, small])).code, 1, `${verb[0]}: the whole input`);
    const r = await runClosingStdout(['bin/aep.js', ...verb, file]);
    assert.equal(r.code, 1, `${verb[0]}: ${r.stderr.slice(-500)}`);
    // the findings so far, and no closing count (the run did not reach the end)
    assert.match(r.stderr, /error {2}jsonl\/invalid-json/, verb[0]);
    assert.doesNotMatch(r.stderr, /^aep( convert)?: |EPIPE|^\s+at /m, verb[0]);
  }
});

test('-o FILE holds what stdout would, and is refused when it is an input', async (t) => {
  const dir = tempDir(t, 'ac-o-');
  const out = join(dir, 'out.jsonl');
  for (const verb of [['filter', '--where', '{"type":["run.*"]}'], ['redact'], ['convert', '--to', 'otlp']]) {
    const plain = await runCli('aep', [...verb, 'examples/aep/session.jsonl']);
    const toFile = await runCli('aep', [...verb, 'examples/aep/session.jsonl', '-o', out]);
    assert.equal(toFile.code, plain.code, verb[0]);
    assert.equal(toFile.stdout, '', verb[0]);
    assert.equal(readFileSync(out, 'utf8'), plain.stdout, verb[0]);
  }
  const before = readFileSync(out, 'utf8');
  const same = await runCli('aep', ['redact', out, '-o', out]);
  assert.equal(same.code, 2);
  // one wording for every verb that reads what -o names (validate, the stream verbs)
  const message = (stderr: string) => stderr.replaceAll(out, 'OUT');
  assert.equal(
    message(same.stderr),
    'aep: --output OUT is the input OUT: writing there would destroy it; name another file\n',
  );
  for (const [verb, ...args] of [['downlevel', '--ceiling', 'metadata'], ['filter', '--where', '{}'], ['validate']]) {
    const other = await runCli('aep', [verb!, out, '-o', out, ...args]);
    assert.equal(other.code, 2, verb);
    assert.equal(message(other.stderr), message(same.stderr), verb);
  }
  assert.equal(readFileSync(out, 'utf8'), before, 'the input is untouched');
});
