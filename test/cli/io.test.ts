/**
 * The command line's inputs and output (issue 16 items 1-9; framing of single-document inputs):
 * each test drives the CLI in-process (test/cli/helpers.ts) unless it needs a real process.
 */
import { findingAt } from '../../src/core/rule.ts';
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  closeSync,
  constants,
  existsSync,
  linkSync,
  lstatSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  readSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { validate } from '../../src/api/validate.ts';
import { aepCli } from '../../src/cli/aep.ts';
import { outputTarget } from '../../src/cli/output.ts';
import { main, type CliIO } from '../../src/cli/program.ts';
import { messageWithRelated } from '../../src/report/text.ts';
import { fixtureSample, REPO, runCli } from './helpers.ts';
import { explainDateTime } from '../../src/core/schema/formats.ts';
import { tempDir } from '../temp.ts';

test('a single-document input over --max-line-bytes is jsonl/line-too-long, never a clean pass', async () => {
  // 3 MiB of one JSON object, read as one HTTP body from stdin, under a 1 MiB cap
  const body = Buffer.from(
    JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'hooks/observe', params: { pad: 'x'.repeat(3 << 20) } }),
  );
  const r = await runCli('ahp', ['validate', '--binding', 'http', '--max-line-bytes', String(1 << 20), '-'], body);
  assert.equal(r.code, 1, r.stdout);
  assert.match(
    r.stdout,
    /^<stdin>:1:1 +error +jsonl\/line-too-long +Document is \d+ bytes long, over the cap of 1048576 bytes/m,
  );
  assert.match(r.stdout, /0 messages, 1 error/);
  // a registration document the same
  const reg = await runCli(
    'ahp',
    ['validate', '--binding', 'registration', '--max-line-bytes', '100', '-'],
    Buffer.from(JSON.stringify({ pad: 'y'.repeat(200) })),
  );
  assert.equal(reg.code, 1);
  assert.match(reg.stdout, /jsonl\/line-too-long/);
});

test('a failed write to stdout (> /dev/full) is one line on stderr and exit 2, for every verb', {
  skip: existsSync('/dev/full') ? false : 'no /dev/full on this system',
}, () => {
  const runs: [string, string[]][] = [
    ['aep', ['validate', 'examples/aep/session.jsonl']],
    ['aep', ['validate', 'conformance/aep/fail/aep.version.jsonl']],
    ['aep', ['validate', '-f', 'json', 'examples/aep/session.jsonl']],
    ['aep', ['fixtures', fixtureSample('aep')]],
    ['aep', ['rules']],
    ['aep', ['explain', 'aep/version']],
    ['aep', ['--help']],
    ['ahp', ['rules', '-f', 'json']],
    ['ahp', ['validate', 'conformance/ahp/pass/ahp.method-params--http.json']],
    // the stream verbs: no count of what they "converted" or wrote after the failed write
    ['aep', ['convert', '--to', 'otlp', 'examples/aep/session.jsonl']],
    ['aep', ['convert', '--to', 'cloudevents', 'examples/aep/session.jsonl']],
    ['aep', ['redact', 'examples/aep/session.jsonl']],
    ['aep', ['filter', '--where', '{}', 'examples/aep/session.jsonl']],
  ];
  for (const [bin, args] of runs) {
    const full = openSync('/dev/full', 'w');
    try {
      const r = spawnSync(process.execPath, [`bin/${bin}.js`, ...args], {
        cwd: REPO,
        stdio: ['ignore', full, 'pipe'],
        encoding: 'utf8',
      });
      assert.equal(r.status, 2, `${bin} ${args.join(' ')}: ${r.stderr}`);
      assert.equal(
        r.stderr,
        `${bin}: cannot write to standard output: ENOSPC: no space left on device, write\n`,
        `${bin} ${args.join(' ')}`,
      );
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
  const j = await runCli('aep', [
    'validate',
    '--max-findings',
    '0',
    '-f',
    'json',
    'conformance/aep/fail/aep.version.jsonl',
  ]);
  const doc = JSON.parse(j.stdout);
  assert.deepEqual(doc.findings, []);
  assert.equal(doc.summary.errors, 1);
  assert.equal(doc.summary.omitted, 1);
  const fx = await runCli('aep', ['fixtures', '--max-findings', '0', fixtureSample('aep')]);
  assert.equal(fx.code, 0, fx.stderr);
  for (const bad of ['-1', '1.5', 'x'])
    assert.equal((await runCli('aep', ['validate', '--max-findings', bad, 'examples/aep/session.jsonl'])).code, 2);
});

test('a directory as input points at `fixtures DIR`; validate on a terminal says it reads standard input', async () => {
  const d = await runCli('aep', ['validate', 'conformance/aep']);
  assert.equal(d.code, 2);
  assert.match(
    d.stderr,
    /conformance\/aep: is a directory: name the files in it to validate them \(e\.g\. conformance\/aep\/\*\.jsonl\), or, for a fixture directory .*run `aep fixtures conformance\/aep`/,
  );
  const h = await runCli('ahp', ['validate', 'conformance/ahp']);
  assert.match(h.stderr, /`ahp fixtures conformance\/ahp`/);
  const line =
    '{"aep":"0.1","id":"e1","type":"agent.heartbeat","time":"2026-11-30T10:00:00Z","source":"aep://h/agent/a/session/s","agent":"a"}\n';
  const tty = await runCli('aep', ['validate'], line, { stdinIsTTY: true });
  assert.match(tty.stderr, /^aep: reading standard input \(end it with Ctrl-D/);
  assert.doesNotMatch(tty.stdout, /reading standard input/);
  // not on a pipe, not with --quiet, not when only files are named
  for (const [args, over] of [
    [['validate'], {}],
    [['validate', '-q'], { stdinIsTTY: true }],
    [['validate', 'examples/aep/session.jsonl'], { stdinIsTTY: true }],
  ] as const) {
    const r = await runCli('aep', args, line, over);
    assert.doesNotMatch(r.stderr, /reading standard input/);
  }
});

test('--each: every input its own stream with its own summary line; default per binding (documents alone, JSONL one stream)', async (t) => {
  const dir = tempDir(t, 'ac-each-');
  const reuse = readFileSync('conformance/ahp/fail/ahp.event-id-reuse.jsonl', 'utf8').split('\n');
  writeFileSync(join(dir, 'a.jsonl'), reuse[0] + '\n');
  writeFileSync(join(dir, 'b.jsonl'), reuse[1] + '\n');
  const a = join(dir, 'a.jsonl');
  const b = join(dir, 'b.jsonl');
  // JSONL: one stream by default (rotated logs); the reuse across files is found and names the other file
  const one = await runCli('ahp', ['validate', a, b]);
  assert.equal(one.code, 1);
  assert.match(
    one.stdout,
    new RegExp(
      `^${b.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:1:\\d+ +error +ahp/event-id-reuse .*line 1 of ${a.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`,
      'm',
    ),
  );
  assert.doesNotMatch(one.stdout, /^✔ .*: \d+ message/m); // one stream: no per-input line
  const each = await runCli('ahp', ['validate', '--each', a, b]);
  assert.equal(each.code, 0, each.stdout);
  assert.match(each.stdout, new RegExp(`^✔ ${a.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: 1 message, 0 errors`, 'm'));
  assert.match(each.stdout, new RegExp(`^✔ ${b.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: 1 message, 0 errors`, 'm'));
  assert.match(each.stdout, /^✔ 2 inputs: 2 messages, 0 errors/m);
  // HTTP bodies: each alone by default; --no-each correlates them
  // two bodies reusing one event id (each valid alone) and a third: a reuse only when correlated
  writeFileSync(join(dir, 'b1.json'), reuse[0]!);
  writeFileSync(join(dir, 'b2.json'), reuse[1]!);
  writeFileSync(join(dir, 'b3.json'), readFileSync('conformance/ahp/pass/ahp.method-params--http.json'));
  const bodies = [1, 2, 3].map((n) => join(dir, `b${n}.json`));
  const alone = await runCli('ahp', ['validate', ...bodies]);
  assert.equal(alone.code, 0, alone.stdout);
  assert.equal(alone.stdout.match(/^✔ .*b\d\.json: 1 message, 0 errors/gm)?.length, 3);
  const together = await runCli('ahp', ['validate', '--no-each', ...bodies, '-f', 'json']);
  assert.ok(
    JSON.parse(together.stdout).findings.some((f: { ruleId: string }) => f.ruleId === 'ahp/event-id-reuse'),
    together.stdout,
  );
  // the library API: the same default and the same option
  const api = await validate('ahp', bodies);
  assert.equal(api.summary.errors, 0);
  assert.equal(
    (await validate('ahp', bodies, { each: false })).findings.some((f) => f.ruleId === 'ahp/event-id-reuse'),
    true,
  );
  assert.equal((await validate('ahp', [a, b])).summary.errors, 1);
  assert.equal((await validate('ahp', [a, b], { each: true })).summary.errors, 0);
  // ndjson: a per-input summary line after each stream
  const nd = await runCli('ahp', ['validate', '--each', '-f', 'ndjson', a, b]);
  const kinds = nd.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l).kind);
  assert.deepEqual(kinds, ['input-summary', 'input-summary', 'summary']);
});

test('text output names the file of a related location in another input; the same input says only "line N"', () => {
  const rule = {
    id: 'x/reuse',
    severity: 'error' as const,
    description: 'd',
    spec: 's',
    messages: { m: 'Event id already used at {prior}.' },
  };
  const finding = (source: string, prior: { source: string; line: number }) => ({
    ...findingAt(rule, { source, line: 12 }, 'm', { prior }),
    related: [prior],
  });
  const other = finding('b.jsonl', { source: 'a.jsonl', line: 1 });
  assert.equal(messageWithRelated(other), 'Event id already used at line 1 of a.jsonl.');
  const same = finding('b.jsonl', { source: 'b.jsonl', line: 1 });
  assert.equal(messageWithRelated(same), 'Event id already used at line 1.');
  // a related location the arguments do not name is added once at the end
  assert.equal(
    messageWithRelated({
      message: 'Opened here.',
      source: 'b',
      related: [
        { source: 'a', line: 4 },
        { source: 'a', line: 4 },
      ],
    }),
    'Opened here. (see line 4 of a)',
  );
});

test('--format ndjson: one finding per line with the json field names, then one summary line', async () => {
  const file = 'examples/aep/session-broken.jsonl';
  const nd = await runCli('aep', ['validate', '-f', 'ndjson', file]);
  const js = await runCli('aep', ['validate', '-f', 'json', file]);
  assert.equal(nd.code, js.code);
  const lines = nd.stdout.split('\n');
  assert.equal(lines.pop(), '');
  const records = lines.map((l) => JSON.parse(l));
  const last = records.pop();
  assert.equal(last.kind, 'summary');
  const doc = JSON.parse(js.stdout);
  assert.deepEqual(last.summary, doc.summary);
  assert.deepEqual(last.tool, doc.tool);
  // the same findings, with the same keys in the same order (json sorts; ndjson is in order found)
  const key = (f: Record<string, unknown>) => JSON.stringify(f);
  assert.deepEqual(records.map(key).sort(), doc.findings.map(key).sort());
  for (const r of records) assert.equal(r.kind, undefined);
  assert.ok(records.length >= 3);
});

test('ndjson streams: a finding is written before the input has ended', async () => {
  let stdout = '';
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  let seenBeforeEnd = '';
  const io: CliIO = {
    stdout: { write: (s) => void (stdout += s) },
    stderr: { write: () => {} },
    stdin: (async function* () {
      yield Buffer.from('{"not":"an event"}\n');
      // the first line's findings are out before the second chunk is read
      await new Promise((r) => setTimeout(r, 0));
      seenBeforeEnd = stdout;
      release();
      await gate;
      yield Buffer.from('{"also":"not"}\n');
    })(),
    env: {},
    stdoutIsTTY: false,
    stderrIsTTY: false,
    cwd: REPO,
  };
  assert.equal(await main(aepCli, ['node', 'aep', 'validate', '-f', 'ndjson', '-'], io), 1);
  assert.match(seenBeforeEnd, /"ruleId":"aep\/envelope-required"/);
  assert.doesNotMatch(seenBeforeEnd, /"kind":"summary"/);
});

test('-o naming an input is refused (also through a symbolic or hard link); the report is renamed into place only on success', async (t) => {
  const dir = tempDir(t, 'ac-out-');
  const log = join(dir, 'log.jsonl');
  const original = readFileSync('examples/aep/session.jsonl');
  writeFileSync(log, original);
  symlinkSync(log, join(dir, 'sym.jsonl'));
  linkSync(log, join(dir, 'hard.jsonl'));
  for (const out of [log, join(dir, 'sym.jsonl'), join(dir, 'hard.jsonl'), join(dir, '.', 'log.jsonl')]) {
    const r = await runCli('aep', ['validate', log, '-o', out]);
    assert.equal(r.code, 2, out);
    assert.match(r.stderr, /--output .* is the input .*: writing there would destroy it; name another file/);
    assert.deepEqual(readFileSync(log), original);
  }
  // fixtures too never leaves a half report; a good run replaces the previous report whole
  const report = join(dir, 'report.json');
  writeFileSync(report, 'previous');
  assert.equal((await runCli('aep', ['validate', log, '-o', report, '-f', 'json'])).code, 0);
  assert.equal(JSON.parse(readFileSync(report, 'utf8')).kind, 'validate');
  // a run that fails (unreadable input: exit 2) leaves the previous report as it was and no temporary file
  writeFileSync(report, 'previous');
  const bad = await runCli('aep', ['validate', join(dir, 'missing.jsonl'), '-o', report]);
  assert.equal(bad.code, 2);
  assert.equal(readFileSync(report, 'utf8'), 'previous');
  const crashed = await runCli('aep', ['fixtures', join(dir, 'no-such-dir'), '-o', report]);
  assert.equal(crashed.code, 2);
  assert.equal(readFileSync(report, 'utf8'), 'previous');
  assert.deepEqual(
    readdirSync(dir).filter((n) => n.endsWith('.tmp')),
    [],
  );
  // a folder that cannot take the file: one line, exit 2
  const nowhere = await runCli('aep', ['validate', log, '-o', join(dir, 'no', 'such', 'r.txt')]);
  assert.equal(nowhere.code, 2);
  assert.match(nowhere.stderr, /^aep: cannot write .*r\.txt: ENOENT/);
  // -o naming a folder: one line, exit 2, nothing written beside or inside it
  const before = readdirSync(dir).sort();
  const folder = await runCli('aep', ['validate', log, '-o', dir]);
  assert.equal(folder.code, 2);
  assert.equal(folder.stderr, `aep: cannot write ${dir}: it is a folder (give -o a file name)\n`);
  assert.deepEqual(readdirSync(dir).sort(), before);
});

test('-o through a symbolic link writes the file it names, which keeps its mode; the link stays a link', async (t) => {
  const dir = tempDir(t, 'ac-out-link-');
  const real = join(dir, 'real.txt');
  writeFileSync(real, 'previous');
  chmodSync(real, 0o600);
  symlinkSync('real.txt', join(dir, 'link.txt'));
  const plain = await runCli('aep', ['validate', 'examples/aep/session.jsonl']);
  assert.equal((await runCli('aep', ['validate', 'examples/aep/session.jsonl', '-o', join(dir, 'link.txt')])).code, 0);
  assert.ok(lstatSync(join(dir, 'link.txt')).isSymbolicLink());
  assert.equal(readlinkSync(join(dir, 'link.txt')), 'real.txt');
  assert.equal(readFileSync(real, 'utf8'), plain.stdout);
  assert.equal(statSync(real).mode & 0o777, 0o600);
  // a failed run leaves the target as it was, and no temporary beside the link or the target
  writeFileSync(real, 'previous');
  assert.equal((await runCli('aep', ['validate', join(dir, 'missing.jsonl'), '-o', join(dir, 'link.txt')])).code, 2);
  assert.equal(readFileSync(real, 'utf8'), 'previous');
  // a dangling link names the file to create
  symlinkSync('new.txt', join(dir, 'dangling.txt'));
  assert.equal(
    (await runCli('aep', ['redact', 'examples/aep/session.jsonl', '-o', join(dir, 'dangling.txt')])).code,
    0,
  );
  assert.ok(lstatSync(join(dir, 'dangling.txt')).isSymbolicLink());
  assert.equal(
    readFileSync(join(dir, 'new.txt'), 'utf8'),
    (await runCli('aep', ['redact', 'examples/aep/session.jsonl'])).stdout,
  );
  assert.deepEqual(
    readdirSync(dir).filter((n) => n.endsWith('.tmp')),
    [],
  );
});

test('-o over a regular file keeps its mode (and, as root, its owner), also when the run fails', async (t) => {
  const dir = tempDir(t, 'ac-out-mode-');
  const report = join(dir, 'report.json');
  writeFileSync(report, 'previous');
  chmodSync(report, 0o600);
  const root = process.getuid?.() === 0;
  if (root) chownSync(report, 4321, 4321);
  assert.equal((await runCli('aep', ['validate', 'examples/aep/session.jsonl', '-f', 'json', '-o', report])).code, 0);
  assert.equal(JSON.parse(readFileSync(report, 'utf8')).kind, 'validate');
  const st = statSync(report);
  assert.equal(st.mode & 0o777, 0o600);
  if (root) assert.deepEqual([st.uid, st.gid], [4321, 4321]);
  writeFileSync(report, 'previous');
  assert.equal((await runCli('aep', ['validate', join(dir, 'missing.jsonl'), '-o', report])).code, 2);
  assert.equal(readFileSync(report, 'utf8'), 'previous');
  assert.equal(statSync(report).mode & 0o777, 0o600);
  assert.deepEqual(readdirSync(dir), ['report.json']);
});

test('-o over a file with hard links writes its inode, so every name sees the report; a failed run leaves it', async (t) => {
  const dir = tempDir(t, 'ac-out-hard-');
  const report = join(dir, 'report.json');
  const other = join(dir, 'artifacts-report.json');
  writeFileSync(report, 'previous');
  chmodSync(report, 0o640);
  linkSync(report, other);
  const ino = statSync(report).ino;
  for (const verb of [['validate', '-f', 'json'], ['redact']]) {
    const plain = await runCli('aep', [...verb, 'examples/aep/session.jsonl']);
    assert.equal((await runCli('aep', [...verb, 'examples/aep/session.jsonl', '-o', report])).code, plain.code);
    assert.equal(statSync(report).ino, ino, `${verb[0]}: the same inode`);
    assert.equal(statSync(report).nlink, 2);
    assert.equal(readFileSync(other, 'utf8'), plain.stdout, `${verb[0]}: the other name sees the report`);
    assert.equal(statSync(report).mode & 0o777, 0o640);
  }
  writeFileSync(report, 'previous');
  assert.equal((await runCli('aep', ['validate', join(dir, 'missing.jsonl'), '-o', report])).code, 2);
  assert.equal(readFileSync(other, 'utf8'), 'previous');
  assert.deepEqual(readdirSync(dir).sort(), ['artifacts-report.json', 'report.json'], 'no temporary left');
});

test('-o FIFO writes into the FIFO for its reader, which stays a FIFO (validate and the stream verbs)', async (t) => {
  const dir = tempDir(t, 'ac-out-fifo-');
  const fifo = join(dir, 'pipe');
  execFileSync('mkfifo', [fifo]);
  for (const args of [
    ['validate', 'examples/aep/session.jsonl'],
    ['redact', 'examples/aep/session.jsonl'],
  ]) {
    // a reader opened before the run (not blocking), so the run's open and its small writes return at once
    const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const r = await runCli('aep', [...args, '-o', fifo]);
      assert.equal(r.code, 0, r.stderr);
      const buf = Buffer.alloc(1 << 16);
      let got = '';
      for (let n: number; (n = readSync(reader, buf)) > 0; ) got += buf.toString('utf8', 0, n);
      assert.equal(got, (await runCli('aep', args)).stdout, args[0]);
      assert.ok(lstatSync(fifo).isFIFO(), args[0]);
    } finally {
      closeSync(reader);
    }
  }
  assert.deepEqual(readdirSync(dir), ['pipe']);
});

test('-o to a device or a descriptor link is written through, never replaced (the decision; no device is opened)', (t) => {
  const dir = tempDir(t, 'ac-out-dev-');
  symlinkSync('/dev/null', join(dir, 'null-link'));
  assert.deepEqual(outputTarget('/dev/null'), { kind: 'direct', path: '/dev/null' });
  assert.deepEqual(outputTarget(join(dir, 'null-link')), { kind: 'direct', path: '/dev/null' });
  // /dev/stdout is a link to /proc/self/fd/1, whose own link may name a pipe (`pipe:[N]`) and not a path
  if (existsSync('/proc/self/fd/0'))
    assert.deepEqual(outputTarget('/proc/self/fd/0'), { kind: 'direct', path: '/proc/self/fd/0' });
  assert.equal(outputTarget(join(dir, 'absent.json')).kind, 'replace');
});

test('an interrupted -o run (SIGINT, SIGTERM, SIGHUP) leaves no temporary and still dies of the signal', async (t) => {
  const dir = tempDir(t, 'ac-out-sig-');
  for (const [signal, verb] of [
    ['SIGINT', 'validate'],
    ['SIGTERM', 'redact'],
    ['SIGHUP', 'validate'],
  ] as const) {
    // stdin held open: the run waits for input once its temporary exists
    const child = spawn(process.execPath, ['bin/aep.js', verb, '-', '-o', join(dir, 'out.json')], {
      cwd: REPO,
      stdio: ['pipe', 'ignore', 'pipe'],
    });
    const exited = new Promise<NodeJS.Signals | null>((res) => child.on('exit', (_code, sig) => res(sig)));
    child.stdin.write(readFileSync('examples/aep/session.jsonl'));
    for (let i = 0; i < 500 && !readdirSync(dir).some((n) => n.endsWith('.tmp')); i++)
      await new Promise((res) => setTimeout(res, 20));
    assert.ok(
      readdirSync(dir).some((n) => n.endsWith('.tmp')),
      `${signal}: the run made its temporary`,
    );
    child.kill(signal);
    assert.equal(await exited, signal);
    child.stdin.destroy();
    assert.deepEqual(readdirSync(dir), [], signal);
  }
});

test('progress on a terminal: a finding clears the progress line first and it is drawn again after', async () => {
  let screen = '';
  let t = 0;
  const bad =
    '{"aep":"0.9","id":"e1","type":"agent.heartbeat","time":"2026-11-30T10:00:00Z","source":"aep://h/agent/a/session/s","agent":"a"}\n';
  const good = bad.replace('0.9', '0.1');
  const io: CliIO = {
    stdout: { write: (s) => void (screen += s) },
    stderr: { write: (s) => void (screen += s) },
    stdin: (async function* () {
      for (let i = 0; i < 20; i++) yield Buffer.from((i % 4 === 3 ? bad : good).replace('"e1"', `"e${i}"`));
    })(),
    env: {},
    stdoutIsTTY: true,
    stderrIsTTY: true,
    now: () => (t += 500),
    cwd: REPO,
  };
  assert.equal(await main(aepCli, ['node', 'aep', 'validate', '--no-color', '--rule', 'aep/version', '-'], io), 1);
  const findings = screen.split('\n').filter((l) => l.includes('error  aep/version'));
  assert.equal(findings.length, 5);
  assert.match(screen, /events\/s/, 'the progress line was shown');
  // what a terminal shows: a carriage return and erase-line start the line again
  const shown = screen.split('\n').map((l) => l.slice(l.lastIndexOf('\r\x1b[K') + (l.includes('\r\x1b[K') ? 4 : 0)));
  for (const l of shown.filter((x) => x.includes('error  aep/version')))
    assert.match(l, /^<stdin>:\d+:\d+ +error +aep\/version /, JSON.stringify(l));
  // after every finding the progress text comes back (until the end clears it)
  // a finding on a terminal is its head line and the indented sentence under it
  const afterFinding = screen.split(/error {2}aep\/version[^\n]*\n(?: {4}[^\n]*\n)*/).slice(1, -1);
  for (const rest of afterFinding) assert.match(rest, /^(\r\x1b\[K)?[0-9.]+ (of [0-9.]+ )?MiB/);
});

test('progress under a pseudo-terminal (script(1)): no finding line shares the screen line with the progress text', {
  skip: spawnSync('script', ['--version']).status === 0 ? false : 'script(1) is not installed',
}, (t) => {
  const dir = tempDir(t, 'ac-pty-');
  const file = join(dir, 'big.jsonl');
  const good =
    '{"aep":"0.1","id":"eN","type":"agent.heartbeat","time":"2026-11-30T10:00:00Z","source":"aep://h/agent/a/session/s","agent":"a"}\n';
  const lines: string[] = [];
  for (let i = 0; i < 30_000; i++)
    lines.push((i % 3000 === 2999 ? good.replace('0.1', '0.9') : good).replace('eN', `e${i}`));
  writeFileSync(file, lines.join(''));
  // progress from the first chunk on, so the 10 findings meet it on screen
  const r = spawnSync(
    'script',
    ['-qfc', `${process.execPath} bin/aep.js validate --no-color --rule aep/version ${file}`, '/dev/null'],
    { cwd: REPO, encoding: 'utf8', env: { ...process.env, AGENT_CONFORMANCE_PROGRESS_MS: '0,0', NO_COLOR: '1' } },
  );
  assert.equal(r.status, 0, r.stderr); // script(1) itself; the run's own code is not passed through everywhere
  const screen = r.stdout;
  assert.match(screen, /MiB \(\d+%\), \d+ events\/s/, 'the progress line was drawn on the terminal');
  const rows = screen.split(/\r?\n/).map((l) => {
    const k = l.lastIndexOf('\r\x1b[K');
    return k === -1 ? l : l.slice(k + 4);
  });
  const found = rows.filter((l) => l.includes('aep/version  '));
  assert.equal(found.length, 10, screen.slice(0, 2000));
  for (const l of found) assert.ok(l.startsWith(`${file}:`), JSON.stringify(l));
});

test('messages say what exactly is wrong: the time part, the version found, the valid choice ids, lengths in characters (code points)', async () => {
  const ev = (o: Record<string, unknown>) =>
    JSON.stringify({
      aep: '0.1',
      id: 'e1',
      type: 'agent.heartbeat',
      time: '2026-11-30T10:00:00Z',
      source: 'aep://h/agent/a/session/s',
      agent: 'a',
      ...o,
    }) + '\n';
  const msg = async (line: string, rule: string) => {
    const r = await runCli('aep', ['validate', '-f', 'json', '--rule', rule, '-'], line);
    return (JSON.parse(r.stdout).findings as { ruleId: string; message: string }[])
      .filter((f) => f.ruleId === rule)
      .map((f) => f.message);
  };
  // the time-format finding carries the clause explainDateTime gives for that text (its wording lives there)
  const times = [
    '2026-11-30 10:00:00Z',
    '2026-11-30\u200310:00:00Z',
    '2026-11-30T10:00:00+0530',
    '2026-11-30T10:00:00+05',
    '2026-11-30T10:00:00',
    '2026-11-30T10:00:00+24:00',
    '2026-02-29T10:00:00Z',
    '2026-11-30T24:00:00Z',
    '2026-11-30',
    // a fraction with no digit, a decimal comma: the fraction's fault, not the offset's (RFC 3339 §5.6 time-secfrac)
    '2026-11-30T09:00:00.Z',
    '2026-11-30T09:00:00,5Z',
  ];
  const whys = new Set<string>();
  for (const t of times) {
    const why = explainDateTime(t);
    assert.ok(why !== undefined, t);
    whys.add(why);
    const [m = ''] = await msg(ev({ time: t }), 'aep/time-format');
    assert.ok(m.includes(why), `${t}: ${m}`);
  }
  assert.equal(whys.size, times.length - 1, 'each fault its own clause (+0530 and +05 share one)');
  assert.deepEqual(await msg(ev({ aep: '0.2' }), 'aep/version'), ['"/aep" must be "0.1", found "0.2".']);
  assert.match((await msg(ev({ aep: 1 }), 'aep/version'))[0]!, /found 1\./);
  // the valid choice ids of a closed select, up to five (AEP-0006 field_spec choices)
  const form = readFileSync('conformance/aep/fail/aep.form-values-choice.jsonl', 'utf8');
  const r = await runCli('aep', ['validate', '-f', 'json', '--rule', 'aep/form-values-choice', '-'], form);
  const choice = (
    JSON.parse(r.stdout).findings as { ruleId: string; messageId?: string; args?: Record<string, unknown> }[]
  ).filter((f) => f.ruleId === 'aep/form-values-choice');
  assert.ok(choice.length > 0);
  for (const f of choice) {
    assert.equal(f.messageId, 'choice');
    assert.match(String(f.args?.choices), /^\d+ choice ids? \("[^"]*"(, "[^"]*")*(, and \d+ more)?\)$/);
  }
  // lengths: "N characters", counted in code points (one emoji is one character)
  const { describeValue } = await import('../../src/core/finding.ts');
  assert.equal(describeValue('a😀b'), 'string (3 characters)');
  assert.equal(describeValue('x'), 'string (1 character)');
});

test("text output carries each finding's spec citation, dimmed", async () => {
  const plain = await runCli('aep', ['validate', 'conformance/aep/fail/aep.version.jsonl']);
  assert.match(plain.stdout, /aep\/version .*\/aep {2}\[AEP-0001 §5\.1 #1\]$/m);
  let out = '';
  const io: CliIO = {
    stdout: { write: (s) => void (out += s) },
    stderr: { write: () => {} },
    stdin: (async function* () {})(),
    env: { FORCE_COLOR: '1' },
    stdoutIsTTY: true,
    stderrIsTTY: false,
    cwd: REPO,
  };
  await main(aepCli, ['node', 'aep', 'validate', 'conformance/aep/fail/aep.version.jsonl'], io);
  assert.match(out, /\x1b\[2m\[AEP-0001 §5\.1 #1\]\x1b\[22m/);
});

test('explain shows a gzip case decompressed, never its raw compressed bytes', async () => {
  for (const bin of ['aep', 'ahp'] as const) {
    const r = await runCli(bin, ['explain', 'jsonl/gzip-corrupt']);
    assert.equal(r.code, 0);
    assert.doesNotMatch(r.stdout, /[\x00-\x08\x0b-\x1f\x7f\ufffd]/);
    assert.match(r.stdout, /gzip stream of \d+ bytes is cut here/);
  }
});
