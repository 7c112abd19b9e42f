// A reader that closes the pipe early (`aep validate x | head -1`) must not produce a stack
// trace or change the exit code the run earns.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { tempDir } from '../temp.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));

function runClosingStdout(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    // read the first chunk, then close our end like `head -1` does
    child.stdout.once('data', () => child.stdout.destroy());
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

test('a closed stdout pipe ends quietly and keeps the exit code (findings: 1)', async (t) => {
  // far more output than a pipe buffer holds, so writes continue after the reader is gone
  const file = join(tempDir(t, 'epipe-'), 'many.jsonl');
  writeFileSync(file, '{"not":"an event"}\n'.repeat(20_000));
  const r = await runClosingStdout(['bin/aep.js', 'validate', '--no-progress', file]);
  assert.equal(r.code, 1);
  assert.doesNotMatch(r.stderr, /EPIPE|Error|at /);
});

test('ahp validate: a closed stdout pipe keeps the exit code of the whole input (findings: 1, clean: 0)', async (t) => {
  // validate reads on to the end of its input: its verdict is the whole stream's, whatever the reader took
  const file = join(tempDir(t, 'epipe-'), 'many.jsonl');
  writeFileSync(file, readFileSync(join(root, 'examples/ahp/session-broken.jsonl'), 'utf8').repeat(300));
  const broken = await runClosingStdout(['bin/ahp.js', 'validate', '--no-progress', file]);
  assert.equal(broken.code, 1);
  assert.doesNotMatch(broken.stderr, /EPIPE|Error|^\s+at /m);
  const clean = await runClosingStdout(['bin/ahp.js', 'validate', 'examples/ahp/session.jsonl']);
  assert.equal(clean.code, 0);
  assert.equal(clean.stderr, '');
});

test('a closed stdout pipe on a clean run keeps exit 0', async () => {
  const r = await runClosingStdout(['bin/aep.js', 'validate', 'examples/aep/session.jsonl']);
  assert.equal(r.code, 0);
  assert.equal(r.stderr, '');
});
