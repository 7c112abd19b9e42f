// The wire's limits and its token fallback, against small servers on 127.0.0.1 that stop inside each test: a
// WebSocket frame past 4 MiB and more SSE messages than KEEP_LIMIT close the connection with a named finding (never
// a throw); a WebSocket upgrade that takes the token only as `access_token` (AEP-0003 §8.1) is reached with it; the
// heartbeat check skips a stream the endpoint ends.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { test } from 'node:test';
import { WebSocketServer } from 'ws';
import { checkEndpoint } from '../../src/live/check.ts';
import { BODY_LIMIT, KEEP_LIMIT } from '../../src/live/client.ts';
import { listenLocal } from './endpoint.ts';

const DISCOVERY = JSON.stringify({
  aep: ['0.1'],
  endpoints: { events: '/events', stream: '/stream', socket: '/socket' },
});

/** A server answering discovery, `stream` for GET /stream and `onHello` for a WebSocket's first frame. */
async function serve(
  stream: (res: ServerResponse) => void,
  onHello: (send: (data: string | Buffer) => void) => void,
  upgrade: (req: IncomingMessage) => boolean = () => true,
) {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    if (req.method === 'GET' && (path === '/events' || path === '/.well-known/aep')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(DISCOVERY);
    }
    if (req.method === 'POST' && path === '/events') {
      req.resume();
      return req.on('end', () => res.writeHead(202).end());
    }
    if (path === '/stream') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      return stream(res);
    }
    res.writeHead(404).end();
  });
  const wss = new WebSocketServer({ noServer: true });
  server.on('upgrade', (req, socket, head) => {
    if (!upgrade(req)) return socket.destroy();
    wss.handleUpgrade(req, socket, head, (ws) => ws.once('message', () => onHello((d) => ws.send(d))));
  });
  return listenLocal(server, wss);
}

const HELLO = JSON.stringify({ type: 'hello', versions: ['0.1'], role: 'both', capabilities: {} });

test('a WebSocket frame past 4 MiB closes the connection with a named finding, not a crash', async () => {
  const ep = await serve(
    (res) => res.end(),
    (send) => send(`{"type":"hello","pad":"${'x'.repeat(BODY_LIMIT)}"}`),
  );
  try {
    const r = await checkEndpoint(ep.url, { timeoutMs: 3000, checks: ['hello'] });
    const limit = r.findings.filter((f) => f.ruleId === 'aep/live-timeout');
    assert.equal(limit.length, 1, r.findings.map((f) => f.message).join('\n'));
    assert.match(
      limit[0]!.message,
      /The hello check closed a connection: the endpoint sent a WebSocket frame larger than 4 MiB/,
    );
    // the hello it waited for never came: its own finding, with the connection closed
    assert.ok(r.findings.some((f) => f.ruleId === 'aep/live-hello' && /connection closed/.test(f.message)));
  } finally {
    await ep.close();
  }
});

test('a frame under the limit is read whole', async () => {
  const ep = await serve(
    (res) => res.end(),
    (send) => send(`{"type":"hello","versions":["0.1"],"pad":"${'x'.repeat(BODY_LIMIT - 100)}"}`),
  );
  try {
    const r = await checkEndpoint(ep.url, { timeoutMs: 3000, checks: ['hello'] });
    assert.ok(!r.findings.some((f) => f.ruleId === 'aep/live-timeout'));
    assert.ok(!r.findings.some((f) => /noHello|is not a hello/.test(f.message)));
  } finally {
    await ep.close();
  }
});

test('an SSE stream past KEEP_LIMIT messages is closed there with a finding naming the check', async () => {
  const ep = await serve(
    (res) => {
      // bounded: a little past the limit, in chunks, honouring backpressure
      let left = KEEP_LIMIT.count + 10;
      const more = () => {
        while (left > 0 && !res.destroyed) {
          const n = Math.min(left, 1000);
          left -= n;
          if (!res.write('data: {"n":1}\n\n'.repeat(n))) return void res.once('drain', more);
        }
        if (!res.destroyed) res.end();
      };
      more();
    },
    (send) => send(HELLO),
  );
  try {
    const r = await checkEndpoint(ep.url, { timeoutMs: 3000, checks: ['fanout'] });
    const capped = r.findings.filter((f) => /passed \d+ messages/.test(f.message));
    assert.equal(capped.length, 1, r.findings.map((f) => f.message).join('\n'));
    assert.equal(capped[0]!.ruleId, 'aep/live-fanout');
    assert.match(capped[0]!.message, /An SSE subscription passed 50000 messages or 256 MiB \(the fanout check\)/);
    // closed by the checker, not ended by the endpoint
    assert.ok(!r.findings.some((f) => /stream ended after/.test(f.message)));
  } finally {
    await ep.close();
  }
});

test('a WebSocket that takes the token only as access_token (AEP-0003 §8.1) is reached with it', async () => {
  const token = 'query-only-token';
  const seen: string[] = [];
  const ep = await serve(
    (res) => res.end(),
    (send) => send(HELLO),
    (req) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      seen.push(url.searchParams.has('access_token') ? 'query' : 'header');
      return url.searchParams.get('access_token') === token;
    },
  );
  try {
    const r = await checkEndpoint(ep.url, { timeoutMs: 3000, checks: ['hello'], token });
    // the hello check opens two connections; each is tried with the header first
    assert.ok(!r.findings.some((f) => f.ruleId === 'aep/live-timeout'), r.findings.map((f) => f.message).join('\n'));
    assert.deepEqual(seen.slice(0, 2), ['header', 'query']);
    // without a token nothing is retried: the refused upgrade is the answer
    seen.length = 0;
    const anon = await checkEndpoint(ep.url, { timeoutMs: 3000, checks: ['hello'] });
    assert.deepEqual(seen, ['header']);
    assert.ok(anon.findings.some((f) => f.ruleId === 'aep/live-timeout'));
  } finally {
    await ep.close();
  }
});

test('the heartbeat check skips a stream the endpoint ends (after one comment), never passes or fails it', async () => {
  const ep = await serve(
    (res) => res.end(': ping\n\n'),
    (send) => send(HELLO),
  );
  try {
    const r = await checkEndpoint(ep.url, { timeoutMs: 3000, checks: ['heartbeat'], heartbeatMs: 200 });
    assert.deepEqual(r.skipped, ['heartbeat']);
    assert.deepEqual(
      r.findings.map((f) => f.ruleId),
      ['aep/live-skipped'],
    );
    assert.match(r.findings[0]!.message, /ended the SSE stream before a heartbeat was due/);
  } finally {
    await ep.close();
  }
});
