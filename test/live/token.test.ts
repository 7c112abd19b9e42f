// The bearer token of AEP-0003 §8.1 (the `token` check): which rule an event surface accepting a request without
// credentials breaks is decided by the loopback test of the host (off-host cannot be listened on here, so the decision
// is tested on URLs; test/live/cases.ts reaches a tokenless endpoint as 0.0.0.0 for the whole run); a token-requiring
// endpoint passes with or without --token; a tokenless one warns either way, and the CLI exits 0 on the warning; an
// endpoint refusing at another layer (the connection closed) passes; an answer that tells neither is skipped.
// Every server listens on 127.0.0.1 only and stops inside its test.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { checkEndpoint } from '../../src/live/check.ts';
import { tokenRuleFor } from '../../src/live/token-checks.ts';
import { startEndpoint, TOKEN } from './endpoint.ts';

const TIMEOUT = 5000;
const show = (fs: { ruleId: string; message: string }[]) => fs.map((f) => `${f.ruleId}: ${f.message}`).join('\n');

test('off-host or localhost: the rule of an accepted request without credentials follows the loopback test', () => {
  const rule = (u: string) => tokenRuleFor(new URL(u));
  for (const u of [
    'http://localhost:8080/events',
    'http://dev.localhost/events',
    'http://127.0.0.1:1/events',
    'http://127.9.9.9/events',
    'https://[::1]:8443/stream',
    'http://[::ffff:127.0.0.1]/events',
  ])
    assert.equal(rule(u), 'aep/live-token-localhost', u);
  for (const u of [
    'https://aep.example.com/events',
    'http://10.0.0.5:8080/events',
    'http://0.0.0.0:8080/events',
    'https://[2001:db8::1]/stream',
    'http://localhost.example.com/events',
  ])
    assert.equal(rule(u), 'aep/live-token-off-host', u);
});

test('a token-requiring endpoint passes the token check with the token and without it', async () => {
  const ep = await startEndpoint();
  try {
    for (const token of [TOKEN, undefined]) {
      const r = await checkEndpoint(ep.url, { timeoutMs: TIMEOUT, checks: ['token'], ...(token ? { token } : {}) });
      assert.deepEqual(r.findings, [], show(r.findings));
      assert.deepEqual(r.ran, ['token']);
    }
  } finally {
    await ep.close();
  }
});

test('a tokenless endpoint on 127.0.0.1 is warned about for each surface; without --token the run says its own requests went without one', async () => {
  const ep = await startEndpoint('tokenless');
  try {
    const r = await checkEndpoint(ep.url, { timeoutMs: TIMEOUT, checks: ['token'] });
    assert.deepEqual(
      r.findings.map((f) => `${f.severity} ${f.ruleId}`),
      ['warning aep/live-token-localhost', 'warning aep/live-token-localhost', 'warning aep/live-token-localhost'],
    );
    assert.match(
      r.findings[2]!.message,
      /^A subscribe on the WebSocket duplex at \/socket, opened \(no token was given/,
    );
    assert.match(
      r.findings[0]!.message,
      /^A POST of an Event to \/events \(no token was given to this run\) was accepted \(202\) without a bearer token; on 127\.0\.0\.1, a localhost binding, a bearer token is RECOMMENDED\.$/,
    );
    assert.match(r.findings[1]!.message, /^GET \/stream \(no token was given to this run\) was answered 200/);
    // a warning: the CLI's default --fail-on error exits 0, and names it
    const { runCli } = await import('../cli/helpers.ts');
    const cli = await runCli('aep', ['live', ep.url, '--checks', 'token']);
    assert.equal(cli.code, 0, cli.stdout + cli.stderr);
    assert.match(cli.stdout, /warning +aep\/live-token-localhost/);
  } finally {
    await ep.close();
  }
});

test('the WebSocket duplex (AEP-0003 §8.1 "HTTP / SSE / WS"): a subscribe without credentials answered "subscribed" is warned about; refused at the upgrade or in-band, it passes', async () => {
  // tokenless-ws: POST and SSE need the token, a subscribe on the duplex does not
  const open = await startEndpoint('tokenless-ws');
  try {
    const r = await checkEndpoint(open.url, { timeoutMs: TIMEOUT, token: TOKEN, checks: ['token'] });
    assert.deepEqual(
      r.findings.map((f) => `${f.ruleId}: ${f.message}`),
      [
        'aep/live-token-localhost: A subscribe on the WebSocket duplex at /socket, opened with no Authorization header and no access_token, was answered "subscribed" without a bearer token; on 127.0.0.1, a localhost binding, a bearer token is RECOMMENDED.',
      ],
    );
  } finally {
    await open.close();
  }
  // the compliant endpoint refuses the subscribe in-band ("unauthorized", §6.5); these refuse the upgrade itself
  for (const authenticatedOnly of [true, 'reset'] as const) {
    const gated = await startEndpoint('tokenless-ws', { authenticatedOnly });
    try {
      const r = await checkEndpoint(gated.url, { timeoutMs: TIMEOUT, token: TOKEN, checks: ['token'] });
      assert.deepEqual(r.findings, [], `${authenticatedOnly}: ${show(r.findings)}`);
      assert.deepEqual(r.ran, ['token']);
    } finally {
      await gated.close();
    }
  }
});

/** A server on 127.0.0.1 answering every request with `answer`. */
async function listen(answer: (req: IncomingMessage, res: ServerResponse) => void) {
  const server = createServer(answer);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** Where the discovery document is served: a base at the origin root has it at /.well-known/aep too (AEP-0003 §3.4). */
const DISCOVERED = new Set(['/events', '/.well-known/aep']);
const DISCOVERY = JSON.stringify({ aep: ['0.1'], endpoints: { events: '/events', stream: '/stream' } });

test('an endpoint that closes the connection of a request without credentials (another layer) passes; one telling neither is skipped', async () => {
  const strong = await listen((req, res) => {
    if (req.headers.authorization !== 'Bearer T') return void req.socket.destroy();
    req.resume();
    if (req.method === 'GET' && DISCOVERED.has(req.url ?? ''))
      return res.writeHead(200, { 'content-type': 'application/json' }).end(DISCOVERY);
    res.writeHead(req.method === 'POST' ? 202 : 404).end();
  });
  try {
    const r = await checkEndpoint(strong.url, { timeoutMs: TIMEOUT, token: 'T', checks: ['token'] });
    assert.deepEqual(r.findings, [], show(r.findings));
    assert.deepEqual(r.ran, ['token']);
  } finally {
    await strong.close();
  }
  // a POST answered 404 and a stream answered 404: neither accepted nor refused for credentials
  const neither = await listen((req, res) => {
    req.resume();
    if (req.method === 'GET' && DISCOVERED.has(req.url ?? ''))
      return res.writeHead(200, { 'content-type': 'application/json' }).end(DISCOVERY);
    res.writeHead(404).end();
  });
  try {
    const r = await checkEndpoint(neither.url, { timeoutMs: TIMEOUT, checks: ['token'] });
    assert.deepEqual(r.skipped, ['token']);
    assert.deepEqual(
      r.findings.map((f) => f.message),
      [
        'The token check was skipped: the POST without credentials was answered 404, neither accepted (2xx) nor refused for its credentials (401, 403), and the SSE stream told neither.',
      ],
    );
  } finally {
    await neither.close();
  }
});
