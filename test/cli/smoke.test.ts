/**
 * A few runs of the real bins (a process each: tsx registration, argv, stdin, stdout, stderr,
 * the process exit code), covering the exit codes 0/1/2 of both. Everything else about the CLI
 * is tested in-process through `main` (test/cli/helpers.ts); test/cli/epipe.test.ts covers a
 * reader that closes the pipe.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { REPO } from './helpers.ts';

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Run a bin with `args`, optional stdin text; no colour, no CI-specific environment. */
function spawnBin(bin: 'aep' | 'ahp', args: string[], stdin = ''): Promise<Result> {
  return new Promise((resolve, reject) => {
    const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1' };
    delete env.FORCE_COLOR;
    const p = spawn(process.execPath, [join(REPO, 'bin', `${bin}.js`), ...args], {
      cwd: REPO,
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    p.stdout.setEncoding('utf8').on('data', (d) => (stdout += d));
    p.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
    p.on('error', reject);
    p.on('close', (code) => resolve({ code, stdout, stderr }));
    p.stdin.end(stdin);
  });
}

const GOOD =
  '{"aep":"0.1","id":"e1","type":"agent.heartbeat","time":"2026-01-01T00:00:00Z","source":"aep://h/a","agent":"a"}\n';
const BAD_TIME =
  '{"aep":"0.1","id":"e2","type":"agent.heartbeat","time":"yesterday","source":"aep://h/a","agent":"a"}\n';

test('the bins: exit 0 clean, 1 on findings (stdin and a file), 2 on unreadable input', async () => {
  // one process each, run side by side
  const [clean, bad, missing, ahpBroken] = await Promise.all([
    spawnBin('aep', ['validate', 'examples/aep/session.jsonl']),
    spawnBin('aep', ['validate', '-'], GOOD + BAD_TIME),
    spawnBin('aep', ['validate', 'no/such/file.jsonl']),
    spawnBin('ahp', ['validate', '--format', 'json', 'examples/ahp/session-broken.jsonl']),
  ]);
  assert.equal(clean.code, 0, clean.stderr);
  assert.match(clean.stdout, /^✔ \d+ events, 0 errors, 0 warnings, 0 infos\n/);
  assert.equal(clean.stderr, '');
  assert.equal(bad.code, 1, bad.stderr);
  assert.match(bad.stdout, /<stdin>:2:\d+ {2}error {2}aep\/time-format/);
  assert.match(bad.stdout, /✖ 2 events, 1 error, 0 warnings, 0 infos/);
  assert.equal(bad.stderr, '');
  assert.equal(missing.code, 2);
  assert.equal(missing.stdout, '');
  assert.equal(missing.stderr, 'aep: cannot read no/such/file.jsonl: no such file or directory\n');
  assert.equal(ahpBroken.code, 1, ahpBroken.stderr);
  assert.ok((JSON.parse(ahpBroken.stdout) as { summary: { errors: number } }).summary.errors > 0);
});
