/**
 * Progress lines go to stderr only on a terminal and never with `--quiet` (validate and
 * fixtures), and never mix into stdout.
 */
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { aepCli } from '../../src/cli/aep.ts';
import type { CliIO } from '../../src/cli/program.ts';
import { runFixturesVerb, type FixturesOptions } from '../../src/cli/verbs.ts';
import { fileTempDir } from '../temp.ts';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

function fakeIO(stderrIsTTY: boolean): CliIO & { out: () => string; err: () => string } {
  let out = '';
  let err = '';
  return {
    stdout: { write: (s) => void (out += s) },
    stderr: { write: (s) => void (err += s) },
    stdin: (async function* () {})(),
    env: {},
    stdoutIsTTY: false,
    stderrIsTTY,
    cwd: REPO,
    out: () => out,
    err: () => err,
  };
}

/** Three of our cases (two passing, one failing with its sidecar): what the progress line shows does not need more. */
function smallFixtureDir(): string {
  const dir = fileTempDir('ac-progress-');
  const files = {
    pass: ['aep.ack-cause.jsonl', 'aep.ack-window.jsonl'],
    fail: ['aep.ack-cause.jsonl', 'aep.ack-cause.expected.json'],
  };
  for (const [group, names] of Object.entries(files)) {
    mkdirSync(join(dir, group));
    for (const f of names) copyFileSync(join(REPO, 'conformance/aep', group, f), join(dir, group, f));
  }
  return dir;
}

const OPTS: FixturesOptions = { format: 'text', failOn: 'error', strict: false, quiet: false, progress: true };

test('fixtures progress: on a terminal only, never with --quiet or --no-progress, never on stdout', async () => {
  const dir = smallFixtureDir();
  const tty = fakeIO(true);
  assert.equal(await runFixturesVerb(aepCli.def, dir, OPTS, tty), 0);
  assert.match(tty.err(), /\r\x1b\[K\[1\] /);
  assert.match(tty.err(), /\[3\] /, 'a line for each case');
  assert.doesNotMatch(tty.out(), /\x1b/);
  for (const [io, opts] of [
    [fakeIO(false), OPTS],
    [fakeIO(true), { ...OPTS, quiet: true }],
    [fakeIO(true), { ...OPTS, progress: false }],
  ] as const) {
    assert.equal(await runFixturesVerb(aepCli.def, dir, opts, io), 0);
    assert.equal(io.err(), '');
  }
});
