// The token never leaves the base URL's origin: endpoints the discovery document names on another origin
// (another port, host or scheme, a downgrade from https) are not contacted and their checks are skipped with
// the origin named; redirects are not followed, so a 3xx to another origin carries nothing there either.
// Every server listens on 127.0.0.1 only and stops inside its test.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { checkEndpoint } from '../../src/live/check.ts';
import { ForeignEndpoint, LiveRun, socketUrl } from '../../src/live/live-run.ts';

const TIMEOUT = 5000;

async function listen(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  upgrade?: (req: IncomingMessage, socket: Duplex) => void,
) {
  const server: Server = createServer(handler);
  if (upgrade) server.on('upgrade', upgrade);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** A server that records every request it gets (method, path, Authorization) and answers 404. */
async function other() {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url} ${req.headers.authorization ?? '-'}`);
    res.writeHead(404).end();
  });
  server.on('upgrade', (req, socket) => {
    seen.push(`UPGRADE ${req.url} ${req.headers.authorization ?? '-'}`);
    socket.destroy();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, seen, close: () => new Promise<void>((r) => server.close(() => r())) };
}

test('endpoints on another origin are not contacted: their checks are skipped naming the origin', async () => {
  const o = await other();
  const main = await listen((req, res) => {
    if (req.url === '/events' && req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(
        JSON.stringify({
          aep: ['0.1'],
          endpoints: {
            events: `${o.url}/events`,
            stream: `${o.url}/stream`,
            socket: `${o.url.replace('http', 'ws')}/s`,
          },
        }),
      );
    }
    res.writeHead(404).end();
  });
  try {
    const r = await checkEndpoint(main.url, { timeoutMs: TIMEOUT, token: 'T' });
    assert.deepEqual(o.seen, []);
    assert.deepEqual(r.ran, ['discovery']);
    for (const check of ['version-gate', 'ingest', 'fanout', 'hello'])
      assert.ok(r.skipped.includes(check as never), check);
    const fanout = r.findings.find((f) => f.ruleId === 'aep/live-skipped' && /fanout/.test(f.message))!;
    assert.ok(fanout.message.includes(`"stream" endpoint on another origin (${o.url})`), fanout.message);
    assert.ok(r.findings.every((f) => f.severity === 'info' || f.ruleId === 'aep/live-well-known'));
  } finally {
    await main.close();
    await o.close();
  }
});

test('an https base never follows an http or ws endpoint (a downgrade is another origin)', () => {
  const run = new LiveRun(new URL('https://127.0.0.1:8443/aep'), { timeoutMs: TIMEOUT, token: 'T' });
  run.discovery = {
    endpoints: { events: 'http://127.0.0.1:8443/aep/events', stream: '/stream', socket: 'ws://127.0.0.1:8443/s' },
    capabilities: {},
  };
  assert.throws(() => run.url(run.path('events'), undefined, 'events'), ForeignEndpoint);
  assert.throws(() => socketUrl(run), /"socket" endpoint on another origin \(ws:\/\/127\.0\.0\.1:8443\)/);
  assert.equal(run.url(run.path('stream')).href, 'https://127.0.0.1:8443/aep/stream');
  // the same origin spelled absolutely, and a wss: socket on it, are followed (and wss: stays wss:)
  run.discovery.endpoints = { events: 'https://127.0.0.1:8443/aep/in', socket: 'wss://127.0.0.1:8443/aep/s' };
  assert.equal(run.url(run.path('events')).href, 'https://127.0.0.1:8443/aep/in');
  assert.equal(socketUrl(run)?.href, 'wss://127.0.0.1:8443/aep/s');
});

test('the endpoint forms the discovery document may use resolve under the base; loopback names are one origin', () => {
  const run = new LiveRun(new URL('http://127.0.0.1:8080/aep'), { timeoutMs: TIMEOUT });
  const at = (events: string) => {
    run.discovery = { endpoints: { events }, capabilities: {} };
    return run.url(run.path('events'), undefined, 'events').href;
  };
  // {base}/events (AEP-0003 §3.2), however the path is spelled
  for (const p of ['/events', 'events', './events', '/aep/events', 'http://127.0.0.1:8080/aep/events'])
    assert.equal(at(p), 'http://127.0.0.1:8080/aep/events', p);
  assert.equal(at('/aep/events/'), 'http://127.0.0.1:8080/aep/events/');
  assert.equal(at('//127.0.0.1:8080/in'), 'http://127.0.0.1:8080/in');
  // localhost, 127.0.0.1 and [::1] are the same machine; another port or host is not
  assert.equal(at('http://localhost:8080/aep/in'), 'http://localhost:8080/aep/in');
  assert.equal(at('ws://[::1]:8080/s'), 'ws://[::1]:8080/s');
  assert.throws(() => at('http://localhost:8081/in'), ForeignEndpoint);
  assert.throws(() => at('http://10.0.0.1:8080/in'), ForeignEndpoint);
  // a trailing slash on the base changes nothing
  const slash = new LiveRun(new URL('http://127.0.0.1:8080/aep/'), { timeoutMs: TIMEOUT });
  assert.equal(slash.url('/events').href, 'http://127.0.0.1:8080/aep/events');
  assert.equal(slash.url('/aep/events').href, 'http://127.0.0.1:8080/aep/events');
  // a query or fragment on the base never eats the path; the query goes with every request, a check's own wins
  const q = new LiveRun(new URL('http://127.0.0.1:8080/aep/v1?tenant=t1#x'), { timeoutMs: TIMEOUT });
  assert.equal(q.url('/events').href, 'http://127.0.0.1:8080/aep/v1/events?tenant=t1');
  assert.equal(
    q.url('stream', { tenant: 't2', from: '0' }).href,
    'http://127.0.0.1:8080/aep/v1/stream?tenant=t2&from=0',
  );
  assert.equal(q.url('/aep/v1/socket').href, 'http://127.0.0.1:8080/aep/v1/socket?tenant=t1');
});

test('redirects are not followed: a 3xx to another origin gets no request and no token', async () => {
  const o = await other();
  const main = await listen(
    (req, res) => {
      if (req.url === '/events' && req.method === 'GET') {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ aep: ['0.1'], endpoints: { events: '/in', stream: '/stream', socket: '/s' } }));
      }
      res.writeHead(307, { location: `${o.url}${req.url}` }).end();
    },
    (req, socket) =>
      socket.end(`HTTP/1.1 307 Temporary Redirect\r\nlocation: ${o.url}${req.url}\r\ncontent-length: 0\r\n\r\n`),
  );
  try {
    const r = await checkEndpoint(main.url, {
      timeoutMs: TIMEOUT,
      token: 'T',
      checks: ['version-gate', 'ingest', 'fanout', 'hello'],
    });
    assert.deepEqual(o.seen, []);
    // each check judged the 307 it was answered
    assert.ok(r.findings.some((f) => f.ruleId === 'aep/live-version-gate'));
    assert.ok(r.findings.some((f) => f.ruleId === 'aep/live-ingest'));
  } finally {
    await main.close();
    await o.close();
  }
});

test('a finding about an answer names the path requested under the base, not the endpoint as discovery spelled it', async () => {
  const seen: string[] = [];
  const main = await listen((req, res) => {
    seen.push(`${req.method} ${req.url!.split('?')[0]}`);
    if (req.url === '/aep/events' && req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ aep: ['0.1'], endpoints: { events: '/events', stream: '/stream' } }));
    }
    res.writeHead(404, { 'content-type': 'application/json' }).end('{}');
  });
  try {
    // `/stream` under http://h/aep is /aep/stream (AEP-0003 §3.3 `{base}/stream`): the 404 came from there
    const r = await checkEndpoint(`${main.url}/aep`, { timeoutMs: TIMEOUT, checks: ['fanout'] });
    assert.ok(seen.includes('GET /aep/stream'), seen.join(', '));
    const stream = r.findings.find((f) => f.ruleId === 'aep/live-fanout')!;
    assert.match(stream.message, /^GET \/aep\/stream \(the fanout check\) was answered 404/);
    // and discovery under a base whose `{base}/events` is not served names that path
    const d = await checkEndpoint(`${main.url}/other`, { timeoutMs: TIMEOUT, checks: ['discovery'] });
    const status = d.findings.find((f) => f.ruleId === 'aep/live-discovery')!;
    assert.equal(status.message, 'GET /other/events answered 404, not 2xx with the discovery document.');
  } finally {
    await main.close();
  }
});
