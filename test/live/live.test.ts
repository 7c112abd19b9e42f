// `checkEndpoint` / `aep live` against an endpoint written in test/live/endpoint.ts from AEP-0003:
// the compliant endpoint passes every check; each broken variant fails exactly its own check and
// no other; nothing listening is one connection error; a check that waits too long is named.
// Every server listens on 127.0.0.1 only and stops inside its test.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { checkEndpoint } from '../../src/live/check.ts';
import { LiveConnectError } from '../../src/live/client.ts';
import { CONTROL_CHECKS } from '../../src/live/control-rules.ts';
import { LIVE_CHECKS, LIVE_DESTRUCTIVE, LIVE_RULES, LIVE_SLOW } from '../../src/live/rules.ts';
import { LIVE_CASES } from './cases.ts';
import { BUFFER, PING_MS, startEndpoint, TOKEN } from './endpoint.ts';
import { runCli } from '../cli/helpers.ts';
import { tempDir } from '../temp.ts';

const TIMEOUT = 5000;
/** The heartbeat interval judged in tests: a few of the endpoint's PING_MS, far below the 30 s default. */
const HEARTBEAT = 4 * PING_MS;
/** `aep live URL` with the endpoints' token and {@link TIMEOUT}, then `rest`. */
const liveCli = (url: string, rest: readonly string[]) =>
  runCli('aep', ['live', url, '--token', TOKEN, '--timeout', String(TIMEOUT), ...rest]);
/** The control checks a run with the token but no --control-session skips: those that reach a target. */
const TARGET_CHECKS = CONTROL_CHECKS.slice(3);
const show = (fs: { ruleId: string; message: string }[]) => fs.map((f) => `${f.ruleId}: ${f.message}`).join('\n');
const errors = (fs: { ruleId: string; severity: string }[]) =>
  [...new Set(fs.filter((f) => f.severity !== 'info').map((f) => f.ruleId))].sort();

test('the compliant endpoint passes every check, the destructive ones too, and its deliveries are recorded', async () => {
  const ep = await startEndpoint();
  try {
    const r = await checkEndpoint(ep.url, { token: TOKEN, timeoutMs: TIMEOUT, destructive: true });
    assert.deepEqual(
      r.findings.filter((f) => f.ruleId !== 'aep/live-skipped').map((f) => `${f.ruleId}: ${f.message}`),
      [],
    );
    // the control checks that reach a target need a --control-session (test/live/control.test.ts)
    assert.deepEqual(r.skipped, TARGET_CHECKS);
    assert.deepEqual(
      r.ran,
      LIVE_CHECKS.filter((c) => !LIVE_SLOW.has(c) && !r.skipped.includes(c)),
    );
    // the eviction check alone overflows the buffer
    assert.ok(r.delivered.length > BUFFER, `delivered ${r.delivered.length}`);
    const strict = await checkEndpoint(ep.url, {
      token: TOKEN,
      timeoutMs: TIMEOUT,
      checks: ['byte-identity'],
      identity: 'strict',
    });
    assert.deepEqual(strict.findings, []);
  } finally {
    await ep.close();
  }
});

test('an endpoint that delivers and replays each Event twice (at-least-once, AEP-0003 §5, §7) passes every check', async () => {
  const ep = await startEndpoint(undefined, { redeliver: true });
  try {
    const r = await checkEndpoint(ep.url, { token: TOKEN, timeoutMs: TIMEOUT, destructive: true });
    assert.deepEqual(
      r.findings.filter((f) => f.ruleId !== 'aep/live-skipped').map((f) => `${f.ruleId}: ${f.message}`),
      [],
    );
    assert.deepEqual(r.skipped, TARGET_CHECKS);
    // each text once: the copies are one delivery in the record
    assert.equal(new Set(r.delivered).size, r.delivered.length);
  } finally {
    await ep.close();
  }
});

test('an endpoint taking every latitude the spec text leaves (base path, URL forms, media type parameters, a 207 per-line report of a batch, SSE BOM, CRLF, comments, field order, extra members, unknown frames) passes every check', async () => {
  const ep = await startEndpoint(undefined, { literal: true });
  try {
    assert.match(ep.url, /\/aep\/$/);
    const r = await checkEndpoint(ep.url, { token: TOKEN, timeoutMs: TIMEOUT, destructive: true });
    assert.deepEqual(
      r.findings.filter((f) => f.ruleId !== 'aep/live-skipped').map((f) => `${f.ruleId}: ${f.message}`),
      [],
    );
    assert.deepEqual(r.skipped, TARGET_CHECKS);
    assert.ok(r.delivered.length > BUFFER, `delivered ${r.delivered.length}`);
    // no BOM, CR or comment leaks into a recorded Event
    assert.ok(r.delivered.every((line) => line.startsWith('{')));
    // the same endpoint named without the trailing slash
    const bare = await checkEndpoint(ep.url.replace(/\/$/, ''), {
      token: TOKEN,
      timeoutMs: TIMEOUT,
      checks: ['fanout', 'hello'],
    });
    assert.deepEqual(bare.findings, []);
    assert.deepEqual(bare.ran, ['fanout', 'hello']);
  } finally {
    await ep.close();
  }
});

test("an endpoint that sends the SSE head only with the first message (as the maintainers' test collector does) passes the stream checks", async () => {
  const ep = await startEndpoint(undefined, { lazyHead: true });
  try {
    const checks = ['invalid-envelope', 'fanout', 'filter', 'capture-ceiling', 'resume', 'replay-all'] as const;
    const r = await checkEndpoint(ep.url, { token: TOKEN, timeoutMs: TIMEOUT, checks: [...checks] });
    assert.deepEqual(r.findings, [], show(r.findings));
    assert.deepEqual(r.ran, [...checks]);
  } finally {
    await ep.close();
  }
});

test('by default the destructive checks do not run; named in checks they do', async () => {
  const ep = await startEndpoint();
  try {
    const r = await checkEndpoint(ep.url, { token: TOKEN, timeoutMs: TIMEOUT });
    assert.deepEqual(
      r.ran,
      LIVE_CHECKS.filter((c) => !LIVE_DESTRUCTIVE.has(c) && !LIVE_SLOW.has(c) && !r.skipped.includes(c)),
    );
    assert.ok(r.delivered.length < BUFFER);
    const named = await checkEndpoint(ep.url, { token: TOKEN, timeoutMs: TIMEOUT, checks: ['eviction'] });
    assert.deepEqual(named.ran, ['eviction']);
  } finally {
    await ep.close();
  }
});

for (const { variant, rules, destructive, says, identity, checks, host } of LIVE_CASES.filter((c) => !c.control)) {
  const errorRules = rules.filter((id) => LIVE_RULES.find((r) => r.id === id)!.severity !== 'info');
  test(`a broken endpoint (${variant}) reports ${rules.join(' and ')} and no other error`, async () => {
    const ep = await startEndpoint(variant);
    // reached by another name of this machine where the case says so (its off-host verdicts)
    const url = host ? ep.url.replace('127.0.0.1', host) : ep.url;
    try {
      const r = await checkEndpoint(url, {
        token: TOKEN,
        // the heartbeat variant waits HEARTBEAT and the timeout past it for a comment that never comes
        timeoutMs: variant.startsWith('hangs') ? 300 : checks ? 1000 : TIMEOUT,
        destructive: !!destructive,
        ...(identity ? { identity } : {}),
        ...(checks ? { checks, heartbeatMs: HEARTBEAT } : {}),
      });
      // a check whose binding or capability is not advertised is skipped, never passed
      assert.deepEqual(errors(r.findings), errorRules.sort(), r.findings.map((f) => f.message).join('\n'));
      for (const id of rules)
        assert.ok(
          r.findings.some((f) => f.ruleId === id),
          `${id} reported`,
        );
      if (says)
        assert.ok(
          r.findings.some((f) => says.test(f.message)),
          `${says} in\n${show(r.findings)}`,
        );
      if (variant === 'no-discovery' || variant === 'discovery-huge') {
        assert.ok(r.skipped.includes('fanout') && r.skipped.includes('hello'));
        assert.match(show(r.findings), /fanout check was skipped: discovery failed \(aep\/live-discovery\)/);
      }
      // the stream's failure counts under fanout, its rule's check, though invalid-envelope met it first (trial 13 #9)
      if (variant === 'sse-500' || variant === 'sse-text-plain') {
        // invalid-envelope still judged its POSTs without the stream, and passed them
        assert.ok(r.ran.includes('invalid-envelope') && r.ran.includes('fanout'), show(r.findings));
        const by = (c: string) => r.checks.find((o) => o.check === c)!;
        assert.equal(by('fanout').status, 'failed');
        assert.equal(by('fanout').errors, 1);
        assert.equal(by('invalid-envelope').status, 'passed');
        assert.ok(r.skipped.includes('filter'));
      }
      if (variant === 'no-socket') assert.ok(r.skipped.includes('hello') && r.skipped.includes('roster'));
      // said once, not once a check
      if (variant === 'hangs-post' || variant === 'hangs-upgrade' || variant === 'hangs-sse') {
        assert.equal(r.findings.filter((f) => f.ruleId === 'aep/live-timeout').length, 1, show(r.findings));
        const later = {
          'hangs-post': ['ingest', 'fanout'],
          'hangs-upgrade': ['hello', 'roster'],
          'hangs-sse': ['filter', 'resume'],
        }[variant];
        for (const c of later)
          assert.match(
            show(r.findings),
            new RegExp(`The ${c} check was skipped: .* sent no response head within 300 ms`),
          );
      }
    } finally {
      await ep.close();
    }
  });
}

test('the heartbeat check runs only when named; a stream pinged every PING_MS passes it at a short --heartbeat', async () => {
  const ep = await startEndpoint();
  try {
    const r = await checkEndpoint(ep.url, {
      token: TOKEN,
      timeoutMs: TIMEOUT,
      checks: ['heartbeat'],
      heartbeatMs: HEARTBEAT,
    });
    assert.deepEqual(r.findings, [], show(r.findings));
    assert.deepEqual(r.ran, ['heartbeat']);
    const cli = await runCli('aep', [
      'live',
      ep.url,
      '--token',
      TOKEN,
      '--checks',
      'heartbeat',
      '--heartbeat',
      String(HEARTBEAT),
    ]);
    assert.equal(cli.code, 0, cli.stdout + cli.stderr);
    assert.match(cli.stdout, /passed {3}discovery, heartbeat|passed {3}heartbeat/);
    const zero = await runCli('aep', ['live', ep.url, '--token', TOKEN, '--checks', 'heartbeat', '--heartbeat', '0']);
    assert.equal(zero.code, 2);
    assert.match(zero.stderr, /--heartbeat.*positive number of milliseconds/);
  } finally {
    await ep.close();
  }
});

test('a capability the endpoint does not advertise is skipped with its reason', async () => {
  const { createServer: create } = await import('node:http');
  // discovery with a stream but no replay, no roster: resume, replay-all, roster and eviction are skipped
  const server = create((req, res) => {
    // it ingests nothing (a POST is 404), so no buffer shows either
    if (req.method === 'GET' && req.url === '/events') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(
        JSON.stringify({ aep: ['0.1'], endpoints: { events: '/events', stream: '/stream', socket: '/socket' } }),
      );
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const r = await checkEndpoint(url, { timeoutMs: TIMEOUT, checks: ['resume', 'replay-all', 'roster', 'eviction'] });
    assert.deepEqual(r.skipped, ['resume', 'replay-all', 'roster', 'eviction']);
    assert.deepEqual(r.ran, []);
    assert.ok(r.findings.every((f) => f.ruleId === 'aep/live-skipped' || f.ruleId === 'aep/live-well-known'));
    assert.match(
      r.findings.find((f) => /replay-all/.test(f.message))!.message,
      /does not advertise capabilities\.replay\.all/,
    );
  } finally {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  }
});

test('the oversize probe (no body limit is advertised) is skipped, never passed, when the body is accepted or the connection closed unanswered', async () => {
  const { createServer: create } = await import('node:http');
  for (const [how, reason] of [
    ['accepts', /oversize check was skipped: the endpoint accepted a POST of 8 MiB \(202\)/],
    ['resets', /oversize check was skipped: the endpoint closed the connection before answering a POST of 8 MiB/],
  ] as const) {
    const server = create((req, res) => {
      if (req.method === 'GET') {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ aep: ['0.1'], endpoints: { events: '/events' } }));
      }
      if (how === 'resets') return void req.once('data', () => req.socket.destroy());
      req.resume();
      req.on('end', () => res.writeHead(202).end());
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const r = await checkEndpoint(url, { timeoutMs: TIMEOUT, checks: ['oversize'] });
      assert.deepEqual(r.skipped, ['oversize'], show(r.findings));
      assert.deepEqual(r.ran, []);
      assert.ok(
        r.findings.some((f) => reason.test(f.message)),
        show(r.findings),
      );
      assert.deepEqual(errors(r.findings), []);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  }
});

test('nothing listening is one LiveConnectError; a silent endpoint is a named timeout', async () => {
  const free = createServer();
  await new Promise<void>((r) => free.listen(0, '127.0.0.1', r));
  const { port } = free.address() as AddressInfo;
  await new Promise<void>((r) => free.close(() => r()));
  await assert.rejects(checkEndpoint(`http://127.0.0.1:${port}`, { timeoutMs: TIMEOUT }), (e: unknown) => {
    assert.ok(e instanceof LiveConnectError);
    // the run's result all the same: discovery failed, unreachable, and every other check skipped saying so
    assert.deepEqual(
      e.result?.findings.filter((f) => f.ruleId !== 'aep/live-skipped').map((f) => f.message),
      ['The discovery check could not reach the endpoint: connection refused; no check that needs it ran.'],
    );
    assert.deepEqual(e.result?.ran, []);
    assert.equal(e.result?.checks[0]?.status, 'failed');
    assert.ok(e.result?.checks.slice(1).every((c) => c.status === 'skipped' && /could not be reached/.test(c.reason!)));
    return true;
  });
  // 0.0.0.0 is no loopback name (src/core/loopback.ts) but connects here: unreachable, the plain base is still judged
  await assert.rejects(checkEndpoint(`http://0.0.0.0:${port}`, { timeoutMs: TIMEOUT }), (e: unknown) => {
    assert.ok(e instanceof LiveConnectError);
    assert.deepEqual(
      e.result?.findings.filter((f) => f.ruleId !== 'aep/live-skipped').map((f) => f.ruleId),
      ['aep/live-tls-off-host', 'aep/live-timeout'],
    );
    return true;
  });

  // accepts connections, never answers
  const silent = createServer(() => {});
  await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
  try {
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    const r = await checkEndpoint(url, { timeoutMs: 300, checks: ['discovery'] });
    assert.deepEqual(
      r.findings.map((f) => f.ruleId),
      ['aep/live-timeout'],
    );
    assert.match(r.findings[0]!.message, /discovery check got no answer within 300 ms/);
  } finally {
    silent.closeAllConnections();
    await new Promise<void>((r) => silent.close(() => r()));
  }
});

test('aep live: exit 0 on the compliant endpoint with --record, 1 on a broken one, 2 with one line when nothing listens', async (t) => {
  const { readFileSync } = await import('node:fs');
  const { join } = await import('node:path');
  const record = join(tempDir(t, 'ac-live-'), 'delivered.jsonl');
  const ok = await startEndpoint();
  try {
    // every check, the destructive ones too: the record (the replayed buffer, the large Events) passes validate
    const r = await liveCli(ok.url, ['--record', record, '--destructive']);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const lines = readFileSync(record, 'utf8').trimEnd().split('\n');
    assert.ok(lines.length > BUFFER && lines.every((l) => JSON.parse(l).aep === '0.1'));
    // each delivered text once
    assert.equal(new Set(lines).size, lines.length);
    const json = await runCli('aep', [
      'live',
      ok.url,
      '--token',
      TOKEN,
      '--checks',
      'discovery,fanout',
      '--format',
      'json',
    ]);
    assert.equal(json.code, 0);
    assert.deepEqual(JSON.parse(json.stdout).findings, []);
    // the ceiling probe opens nothing of ours: no aep/open-at-end about the checker's own Events in the report
    const ceiling = await runCli('aep', [
      'live',
      ok.url,
      '--token',
      TOKEN,
      '--checks',
      'capture-ceiling',
      '--format',
      'json',
    ]);
    assert.equal(ceiling.code, 0);
    assert.deepEqual(JSON.parse(ceiling.stdout).findings, []);
  } finally {
    await ok.close();
  }
  const bad = await startEndpoint('rewrites');
  try {
    const r = await liveCli(bad.url, ['--checks', 'fanout']);
    assert.equal(r.code, 1);
    assert.match(r.stdout, /aep\/live-delivery-identity/);
    // piped (no terminal): no colour, as for validate
    assert.doesNotMatch(r.stdout, /\u001b\[/);
  } finally {
    await bad.close();
  }
  // an unreachable endpoint leaves an earlier record as it was; --record and -o may not be one file
  const { writeFileSync } = await import('node:fs');
  writeFileSync(record, 'earlier\n');
  assert.equal((await runCli('aep', ['live', 'http://127.0.0.1:1', '--record', record])).code, 2);
  assert.equal(readFileSync(record, 'utf8'), 'earlier\n');
  const same = await runCli('aep', ['live', 'http://127.0.0.1:1', '--record', record, '-o', record]);
  assert.equal(same.code, 2);
  assert.match(same.stderr, /--record and -o name the same file/);
  const gone = await runCli('aep', ['live', 'http://127.0.0.1:1']);
  assert.equal(gone.code, 2);
  assert.equal(gone.stderr.trim().split('\n').length, 1);
  assert.match(gone.stderr, /cannot reach .*connection refused/);
  // unreachable off-host over http: the base URL's TLS verdict and the connection error in the report (exit 1)
  const plain = await runCli('aep', ['live', 'http://0.0.0.0:1', '--format', 'json']);
  assert.equal(plain.code, 1, plain.stderr);
  assert.equal(plain.stderr, '');
  const doc = JSON.parse(plain.stdout) as { findings: { ruleId: string }[]; checks: { status: string }[] };
  assert.deepEqual(
    doc.findings
      .map((f) => f.ruleId)
      .filter((id) => id !== 'aep/live-skipped')
      .sort(),
    ['aep/live-timeout', 'aep/live-tls-off-host'],
  );
  assert.deepEqual([...new Set(doc.checks.map((c) => c.status))], ['failed', 'skipped']);
  const usage = await runCli('aep', ['live', 'ftp://x', '--checks', 'fanout']);
  assert.equal(usage.code, 2);
  const unknown = await runCli('aep', ['live', 'http://127.0.0.1:1', '--checks', 'nope']);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /unknown check nope/);
});

test('aep live: the recorded Events go through the validate rules; TLS failure is one line; --timeout names the check; progress only on a terminal', async () => {
  const leaky = await startEndpoint('keeps-content');
  try {
    // a relay that keeps content above the ceiling: the live check and the validate rule on what it delivered
    const r = await liveCli(leaky.url, ['--checks', 'capture-ceiling']);
    assert.equal(r.code, 1);
    assert.match(r.stdout, /aep\/live-capture-ceiling/);
    assert.match(r.stdout, /<delivered>:1:\d+ +error +aep\/capture-level/);
  } finally {
    await leaky.close();
  }
  const ok = await startEndpoint();
  try {
    const tls = await runCli('aep', ['live', ok.url.replace('http:', 'https:')]);
    assert.equal(tls.code, 2);
    assert.equal(tls.stderr.trim().split('\n').length, 1);
    assert.match(tls.stderr, /cannot reach https:.*TLS failure/);
    const tty = await runCli('aep', ['live', ok.url, '--token', TOKEN, '--checks', 'discovery,hello'], '', {
      stderrIsTTY: true,
    });
    assert.equal(tty.code, 0);
    assert.match(tty.stderr, /checking discovery\.\.\..*checking hello\.\.\./s);
    const piped = await runCli('aep', ['live', ok.url, '--token', TOKEN, '--checks', 'discovery,hello']);
    assert.equal(piped.stderr, '');
  } finally {
    await ok.close();
  }
  const slow = await startEndpoint('hangs');
  try {
    const r = await runCli('aep', ['live', slow.url, '--token', TOKEN, '--timeout', '300', '--checks', 'discovery']);
    assert.equal(r.code, 1);
    assert.match(r.stdout, /aep\/live-timeout +The discovery check got no answer within 300 ms \(GET \/events\)/);
  } finally {
    await slow.close();
  }
});

test('aep live: a resume that misses what Last-Event-ID names is one aep/live-resume finding; the backfill after it is no seq-regression in <delivered>', async () => {
  const ep = await startEndpoint('sse-ignores-last-event-id');
  try {
    const r = await liveCli(ep.url, ['--checks', 'fanout,resume']);
    assert.equal(r.code, 1, r.stderr);
    assert.equal(r.stdout.match(/aep\/live-resume/g)?.length, 2, r.stdout);
    assert.doesNotMatch(r.stdout, /aep\/seq-regression/);
  } finally {
    await ep.close();
  }
});

test('aep live: multi-line data is one finding a message and one record line an Event; bad data is one invalid-json', async (t) => {
  const { readFileSync } = await import('node:fs');
  const { join } = await import('node:path');
  const record = join(tempDir(t, 'ac-live-'), 'delivered.jsonl');
  const multi = await startEndpoint('sse-multiline-data');
  try {
    const args = [
      'live',
      multi.url,
      '--token',
      TOKEN,
      '--timeout',
      String(TIMEOUT),
      '--checks',
      'fanout',
      '--record',
      record,
    ];
    const r = await runCli('aep', args);
    assert.equal(r.code, 1, r.stderr);
    // the three Events posted and the agent-scoped one (AEP-0003 §3.3 #2)
    assert.equal(r.stdout.match(/aep\/live-fanout +An SSE message carries its Event on \d+ data: lines/g)?.length, 4);
    assert.doesNotMatch(r.stdout, /jsonl\//);
    // each Event one line: the breaks between its data: lines became spaces
    const lines = readFileSync(record, 'utf8').trimEnd().split('\n');
    assert.equal(lines.length, 4);
    for (const l of lines) assert.equal((JSON.parse(l) as { aep: string }).aep, '0.1');
  } finally {
    await multi.close();
  }
  const bad = await startEndpoint('sse-bad-json');
  try {
    const r = await liveCli(bad.url, ['--checks', 'fanout']);
    assert.equal(r.code, 1);
    assert.match(r.stdout, /aep\/live-fanout +An SSE message has data: "\{not json"/);
    assert.equal(r.stdout.match(/<delivered>:\d+:\d+ +error +jsonl\/invalid-json/g)?.length, 1, r.stdout);
  } finally {
    await bad.close();
  }
});

test('aep explain knows every live rule, with its citation, description and cases; aep rules --verb live lists them', async () => {
  for (const rule of LIVE_RULES) {
    const r = await runCli('aep', ['explain', rule.id]);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(r.stdout.startsWith(`${rule.id} (${rule.severity})`));
    assert.ok(r.stdout.includes(rule.description) && r.stdout.includes(`Spec: ${rule.spec}`), rule.id);
    assert.match(r.stdout, /Cases:\n.*test\/live\/cases\.ts/);
  }
  const listed = await runCli('aep', ['rules', '--verb', 'live', '--format', 'json']);
  assert.deepEqual(
    (JSON.parse(listed.stdout) as { id: string }[]).map((r) => r.id),
    LIVE_RULES.map((r) => r.id),
  );
  const near = await runCli('aep', ['explain', 'aep/live-evicton']);
  assert.equal(near.code, 2);
  assert.match(near.stderr, /did you mean aep\/live-eviction\?/);
});
