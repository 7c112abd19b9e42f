/**
 * The command line's inputs and output (issue 16 items 1-9; framing of single-document inputs):
 * each test drives the CLI in-process (test/cli/helpers.ts) unless it needs a real process.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync } from 'node:fs';
import { test } from 'node:test';
import { aepCli } from '../../src/cli/aep.ts';
import { ahpCli } from '../../src/cli/ahp.ts';
import { main, type CliIO } from '../../src/cli/program.ts';
import { REPO, runCli } from './helpers.ts';

test('a single-document input over --max-line-bytes is jsonl/line-too-long, never a clean pass', async () => {
  // 3 MiB of one JSON object, read as one HTTP body from stdin, under a 1 MiB cap
  const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'hooks/observe', params: { pad: 'x'.repeat(3 << 20) } }));
  const r = await runCli('ahp', ['validate', '--binding', 'http', '--max-line-bytes', String(1 << 20), '-'], body);
  assert.equal(r.code, 1, r.stdout);
  assert.match(r.stdout, /^<stdin>:1:1 +error +jsonl\/line-too-long +Document is \d+ bytes long, over the cap of 1048576 bytes/m);
  assert.match(r.stdout, /0 events, 1 error/);
  // a registration document the same
  const reg = await runCli('ahp', ['validate', '--binding', 'registration', '--max-line-bytes', '100', '-'], Buffer.from(JSON.stringify({ pad: 'y'.repeat(200) })));
  assert.equal(reg.code, 1);
  assert.match(reg.stdout, /jsonl\/line-too-long/);
});

/** Run the CLI in-process with some {@link CliIO} fields overridden (terminals, ...). */
async function runWith(bin: 'aep' | 'ahp', args: readonly string[], over: Partial<CliIO>, stdin = ''): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: CliIO = {
    stdout: { write: (s) => void (stdout += s) },
    stderr: { write: (s) => void (stderr += s) },
    stdin: (async function* () {
      if (stdin) yield Buffer.from(stdin);
    })(),
    env: { NO_COLOR: '1' },
    stdoutIsTTY: false,
    stderrIsTTY: false,
    cwd: REPO,
    ...over,
  };
  const code = await main(bin === 'aep' ? aepCli : ahpCli, ['node', bin, ...args], io);
  return { code, stdout, stderr };
}

test('a failed write to stdout (> /dev/full) is one line on stderr and exit 2, for every verb', { skip: existsSync('/dev/full') ? false : 'no /dev/full on this system' }, () => {
  const runs: [string, string[]][] = [
    ['aep', ['validate', 'examples/aep/session.jsonl']],
    ['aep', ['validate', 'conformance/aep/fail/aep.version.jsonl']],
    ['aep', ['validate', '-f', 'json', 'examples/aep/session.jsonl']],
    ['aep', ['fixtures', 'conformance/aep']],
    ['aep', ['rules']],
    ['aep', ['explain', 'aep/version']],
    ['aep', ['--help']],
    ['ahp', ['rules', '-f', 'json']],
    ['ahp', ['validate', 'conformance/ahp/pass/ahp.method-params--http.json']],
  ];
  for (const [bin, args] of runs) {
    const full = openSync('/dev/full', 'w');
    try {
      const r = spawnSync(process.execPath, [`bin/${bin}.js`, ...args], { cwd: REPO, stdio: ['ignore', full, 'pipe'], encoding: 'utf8' });
      assert.equal(r.status, 2, `${bin} ${args.join(' ')}: ${r.stderr}`);
      assert.equal(r.stderr, `${bin}: cannot write to standard output: ENOSPC: no space left on device, write\n`, `${bin} ${args.join(' ')}`);
    } finally {
      closeSync(full);
    }
  }
});

test('--max-findings 0 prints the summary only (validate and fixtures); negative or fractional counts are usage errors', async () => {
  const r = await runCli('aep', ['validate', '--max-findings', '0', 'conformance/aep/fail/aep.version.jsonl']);
  assert.equal(r.code, 1);
  assert.doesNotMatch(r.stdout, /^\S+:\d+:\d+ /m);
  assert.match(r.stdout, /1 error.*\(1 more not shown: --max-findings\)/);
  const j = await runCli('aep', ['validate', '--max-findings', '0', '-f', 'json', 'conformance/aep/fail/aep.version.jsonl']);
  const doc = JSON.parse(j.stdout);
  assert.deepEqual(doc.findings, []);
  assert.equal(doc.summary.errors, 1);
  assert.equal(doc.summary.omitted, 1);
  const fx = await runCli('aep', ['fixtures', '--max-findings', '0', 'conformance/aep']);
  assert.equal(fx.code, 0, fx.stderr);
  for (const bad of ['-1', '1.5', 'x']) assert.equal((await runCli('aep', ['validate', '--max-findings', bad, 'examples/aep/session.jsonl'])).code, 2);
});

test('a directory as input points at `fixtures DIR`; validate on a terminal says it reads standard input', async () => {
  const d = await runCli('aep', ['validate', 'conformance/aep']);
  assert.equal(d.code, 2);
  assert.match(d.stderr, /conformance\/aep: is a directory \(`aep fixtures conformance\/aep` runs a fixture directory\)/);
  const h = await runCli('ahp', ['validate', 'conformance/ahp']);
  assert.match(h.stderr, /`ahp fixtures conformance\/ahp`/);
  const line = '{"aep":"0.1","id":"e1","type":"agent.heartbeat","time":"2026-11-30T10:00:00Z","source":"aep://h/agent/a/session/s","agent":"a"}\n';
  const tty = await runWith('aep', ['validate'], { stdinIsTTY: true }, line);
  assert.match(tty.stderr, /^aep: reading standard input \(end it with Ctrl-D/);
  assert.doesNotMatch(tty.stdout, /reading standard input/);
  // not on a pipe, not with --quiet, not when only files are named
  for (const [args, over] of [[['validate'], {}], [['validate', '-q'], { stdinIsTTY: true }], [['validate', 'examples/aep/session.jsonl'], { stdinIsTTY: true }]] as const) {
    const r = await runWith('aep', args, over, line);
    assert.doesNotMatch(r.stderr, /reading standard input/);
  }
});
