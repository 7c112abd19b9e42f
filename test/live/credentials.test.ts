// aep live against an endpoint that requires credentials (AEP-0003 §8.1), and one whose discovery fails (trial 8 #2,
// #14): a request refused 401/403 skips its check saying which option to pass, once, and exits 2; a failed discovery
// is one finding and asks nothing else. Every server listens on 127.0.0.1 and stops in its test.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { checkEndpoint } from '../../src/live/check.ts';
import { runCli } from '../cli/helpers.ts';
import { startEndpoint, TOKEN } from './endpoint.ts';

const TIMEOUT = 5000;
const show = (fs: { ruleId: string; message: string }[]) => fs.map((f) => `${f.ruleId}: ${f.message}`).join('\n');
const notInfo = <T extends { severity: string }>(fs: T[]) => fs.filter((f) => f.severity !== 'info');
const skipReason = (r: { checks: { check: string; reason?: string }[] }, check: string) =>
  r.checks.find((c) => c.check === check)?.reason ?? '';

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void) {
  const server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, close: () => new Promise<void>((r) => server.close(() => r())) };
}

test('no --token against the compliant endpoint: no error, the refused checks skipped saying to pass --token, exit 2', async () => {
  // discovery and the WebSocket are open, POST and the SSE stream need the token: some surfaces refuse, not all
  const ep = await startEndpoint();
  try {
    const r = await checkEndpoint(ep.url, { timeoutMs: TIMEOUT });
    assert.deepEqual(notInfo(r.findings), [], show(r.findings));
    for (const c of ['unsubscribe', 'subscribe-refusal', 'unknown-frame'])
      assert.match(
        skipReason(r, c),
        /^a subscribe on the WebSocket duplex was refused .*"unauthorized": .*no token/,
        c,
      );
    for (const c of ['version-gate', 'invalid-envelope', 'ingest', 'content-type'])
      assert.match(skipReason(r, c), /^POST \/events was answered 401: .*no token was given \(pass --token TOKEN/, c);
    for (const c of ['fanout', 'filter', 'capture-ceiling'])
      assert.match(skipReason(r, c), /^GET \/stream was answered 401: /, c);
    // the token check probes without credentials on purpose, and the open surfaces are still checked
    for (const c of ['discovery', 'token', 'hello', 'control-auth-gate']) assert.ok(r.ran.includes(c as never), c);
    assert.ok(r.credentials?.skipped.includes('ingest'));
    assert.ok(!r.credentials?.skipped.includes('token'));

    const cli = await runCli('aep', ['live', ep.url, '--timeout', String(TIMEOUT)]);
    assert.equal(cli.code, 2, cli.stdout + cli.stderr);
    // said once on stderr; in the check list a line per refused surface, no error finding
    assert.equal(cli.stderr.trim().split('\n').length, 1, cli.stderr);
    assert.match(
      cli.stderr,
      /^aep live: POST \/events was answered 401: .*pass --token TOKEN .*; \d+ checks were skipped for refused credentials/,
    );
    // the count is of every refused surface (the SSE GET too), not of the POST named first alone
    assert.doesNotMatch(cli.stderr, /skipped for it/);
    assert.doesNotMatch(cli.stdout, / error {2}/);
    assert.equal(cli.stdout.match(/^ {2}skipped .*was answered 401/gm)?.length, 2, cli.stdout);
    assert.match(cli.stdout, /^◐ /m);
    // the machine formats carry it in the check list, and SARIF says the run did not verify (exit 2)
    const sarif = await runCli('aep', ['live', ep.url, '--timeout', String(TIMEOUT), '--format', 'sarif']);
    assert.equal(sarif.code, 2);
    const inv = (JSON.parse(sarif.stdout) as { runs: { invocations: Record<string, unknown>[] }[] }).runs[0]!
      .invocations[0]!;
    assert.equal(inv.exitCode, 2);
    assert.equal(inv.executionSuccessful, false);
    const checks = (inv.properties as { checks: { check: string; status: string; reason?: string }[] }).checks;
    assert.equal(checks.find((c) => c.check === 'ingest')?.status, 'skipped');
    const html = await runCli('aep', ['live', ep.url, '--timeout', String(TIMEOUT), '--format', 'html']);
    assert.equal(html.code, 2);
    assert.match(html.stdout, /class="verdict fail">◐ incomplete/);
    // the token passes everything those checks need
    const ok = await runCli('aep', ['live', ep.url, '--timeout', String(TIMEOUT), '--token', TOKEN]);
    assert.equal(ok.code, 0, ok.stdout + ok.stderr);
    assert.equal(ok.stderr, '');
  } finally {
    await ep.close();
  }
});

test('a wrong --token: the refused checks (control ones too) are skipped as "refused the token given", never failed', async () => {
  const ep = await startEndpoint();
  try {
    const r = await checkEndpoint(ep.url, { timeoutMs: TIMEOUT, token: 'wrong-token' });
    assert.deepEqual(notInfo(r.findings), [], show(r.findings));
    assert.match(skipReason(r, 'ingest'), /^POST \/events was answered 401: the endpoint refused the token given/);
    // the duplex is open, but a subscribe on it is refused "unauthorized" (AEP-0003 §6.5): not a control verdict
    for (const c of ['control-no-route', 'control-ambiguous'])
      assert.match(
        skipReason(r, c),
        /^a subscribe on the WebSocket duplex was refused .*"unauthorized": .*token given/,
        c,
      );
    assert.ok(r.credentials?.skipped.includes('control-ambiguous'));
    const cli = await runCli('aep', ['live', ep.url, '--timeout', String(TIMEOUT), '--token', 'wrong-token']);
    assert.equal(cli.code, 2, cli.stdout + cli.stderr);
    assert.match(cli.stderr, /refused the token given/);
  } finally {
    await ep.close();
  }
});

test('a command refused "unauthorized" to the token given skips control-ambiguous, never fails it as not "ambiguous"', async () => {
  // tokenless: every event surface takes the run, control alone refuses the wrong token (AEP-0004 §4 #1)
  const ep = await startEndpoint('tokenless');
  try {
    const r = await checkEndpoint(ep.url, { timeoutMs: TIMEOUT, token: 'wrong-token', checks: ['control-ambiguous'] });
    assert.deepEqual(notInfo(r.findings), [], show(r.findings));
    assert.match(
      skipReason(r, 'control-ambiguous'),
      /^the x\.agent-conformance\.control\.probe command on the WebSocket duplex was refused with an error frame, code "unauthorized": the endpoint refused the token given/,
    );
    assert.deepEqual(r.credentials?.skipped, ['control-ambiguous']);
  } finally {
    await ep.close();
  }
});

test('every surface refusing (401 or 403, without or with a token): discovery and every check skipped, nothing asked after', async () => {
  for (const status of [401, 403])
    for (const token of [undefined, 'some-token']) {
      let requests = 0;
      const s = await listen((req, res) => {
        requests++;
        req.resume();
        res.writeHead(status, { 'www-authenticate': 'Bearer' }).end();
      });
      try {
        const r = await checkEndpoint(s.url, { timeoutMs: TIMEOUT, ...(token ? { token } : {}) });
        const label = `${status} ${token ?? 'no token'}`;
        assert.deepEqual(notInfo(r.findings), [], `${label}\n${show(r.findings)}`);
        assert.deepEqual(r.ran, [], label);
        assert.equal(r.credentials?.skipped.length, r.checks.length, label);
        assert.equal(requests, 1, `${label}: only discovery was asked`);
        const why = !token
          ? /^GET \/events was answered \d+: the endpoint requires credentials and no token was given/
          : status === 403
            ? /^GET \/events was answered 403: the token given .* is not permitted there$/
            : /^GET \/events was answered 401: the endpoint refused the token given/;
        for (const c of r.checks) assert.match(c.reason ?? '', why, `${label} ${c.check}`);
        const cli = await runCli('aep', ['live', s.url, ...(token ? ['--token', token] : [])]);
        assert.equal(cli.code, 2, `${label}\n${cli.stdout}${cli.stderr}`);
        assert.equal(cli.stderr.trim().split('\n').length, 1, cli.stderr);
      } finally {
        await s.close();
      }
    }
});

test('a WebSocket upgrade refused 401 to the token given skips the socket checks; the unauthenticated gate still passes', async () => {
  // its HTTP surfaces take any request, its WebSocket only the right token
  const ep = await startEndpoint('tokenless', { authenticatedOnly: true });
  try {
    const checks = ['hello', 'unknown-frame', 'control-auth-gate'] as const;
    const r = await checkEndpoint(ep.url, { timeoutMs: TIMEOUT, token: 'wrong-token', checks: [...checks] });
    assert.deepEqual(notInfo(r.findings), [], show(r.findings));
    for (const c of ['hello', 'unknown-frame'])
      assert.match(skipReason(r, c), /^the WebSocket upgrade at \/socket was answered 401: the endpoint refused/, c);
    assert.ok(r.ran.includes('control-auth-gate'));
  } finally {
    await ep.close();
  }
});

// trial 13 #4: roster is honored under subscribe's posture (AEP-0003 §4.1 #2), refused in-band or at the upgrade
for (const [how, opts] of [
  ['in-band "unauthorized"', { rosterAuthed: true }],
  ['a 401 at the WebSocket upgrade', { authenticatedOnly: true }],
] as const)
  test(`no --token and a roster refused for credentials (${how}): roster skipped like the other WebSocket checks, exit 2`, async () => {
    const ep = await startEndpoint(undefined, opts);
    try {
      const checks = ['hello', 'subscribe-refusal', 'roster'] as const;
      const r = await checkEndpoint(ep.url, { timeoutMs: TIMEOUT, checks: [...checks] });
      assert.deepEqual(notInfo(r.findings), [], show(r.findings));
      assert.match(
        skipReason(r, 'roster'),
        'rosterAuthed' in opts
          ? /^a roster request on the WebSocket duplex was refused with an error frame, code "unauthorized": the endpoint requires credentials and no token was given/
          : /^the WebSocket upgrade at \/socket was answered 401: the endpoint requires credentials and no token was given/,
      );
      assert.ok(r.credentials?.skipped.includes('roster'));
      const cli = await runCli('aep', ['live', ep.url, '--timeout', String(TIMEOUT), '--checks', checks.join(',')]);
      assert.equal(cli.code, 2, cli.stdout + cli.stderr);
      assert.equal(cli.stderr.trim().split('\n').length, 1, cli.stderr);
      assert.match(cli.stderr, /checks were skipped for refused credentials/);
      // with the token the roster is asked and passes
      const ok = await checkEndpoint(ep.url, { timeoutMs: TIMEOUT, token: TOKEN, checks: ['roster'] });
      assert.deepEqual(ok.findings, [], show(ok.findings));
      assert.deepEqual(ok.ran, ['roster']);
    } finally {
      await ep.close();
    }
  });

test('a failed discovery (404, or no answer) is one finding: nothing else is asked, every other check skipped', async () => {
  for (const how of ['404', 'hang'] as const) {
    const held: ServerResponse[] = [];
    let requests = 0;
    const s = await listen((req, res) => {
      requests++;
      req.resume();
      if (how === 'hang') held.push(res);
      else res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not-found"}');
    });
    try {
      // a default run: each of its POST, stream and socket checks would have waited the timeout (trial 8 #14)
      const r = await checkEndpoint(s.url, { timeoutMs: how === 'hang' ? 300 : TIMEOUT });
      const failing = notInfo(r.findings);
      assert.deepEqual(
        failing.map((f) => f.ruleId),
        [how === 'hang' ? 'aep/live-timeout' : 'aep/live-discovery'],
        show(r.findings),
      );
      assert.equal(requests, 1, `${how}: only discovery was asked`);
      assert.deepEqual(r.ran, how === 'hang' ? [] : ['discovery']);
      assert.equal(r.skipped.length, r.checks.length - 1);
      for (const c of r.checks.slice(1))
        assert.match(c.reason ?? '', /^discovery failed \(aep\/live-(discovery|timeout)\), so no endpoint is known/);
      assert.equal(r.credentials, undefined);
    } finally {
      for (const res of held) res.destroy();
      await s.close();
    }
  }
});

test('the built bin exits 2 when the backpressure check is skipped for a refused subscribe, with no token or a wrong one (new-user trial: it never exited)', async () => {
  const { execFile } = await import('node:child_process');
  const { REPO } = await import('../cli/helpers.ts');
  const ep = await startEndpoint();
  try {
    for (const token of [undefined, 'wrong-token']) {
      const r = await new Promise<{ code: number | string | null; stdout: string; stderr: string }>((resolve) => {
        const args = ['bin/aep.js', 'live', ep.url, '--timeout', String(TIMEOUT), '--checks', 'backpressure'];
        if (token) args.push('--token', token);
        // a socket left open keeps the process alive: the bound kills it (code null), which fails the assertion
        execFile(process.execPath, args, { cwd: REPO, timeout: 20_000 }, (e, stdout, stderr) =>
          resolve({ code: e ? ((e as { code?: number | string }).code ?? null) : 0, stdout, stderr }),
        );
      });
      assert.equal(r.code, 2, `${token ?? 'no token'}: ${r.stdout}${r.stderr}`);
      assert.match(r.stderr, /subscribe on the WebSocket duplex was refused/);
    }
  } finally {
    await ep.close();
  }
});
