// What the live checks say to an operator: a 401/403 at discovery skips it naming the missing or refused token, a discovery
// member present in another shape is named as such ("is a string"), not as absent, and an SSE message without an
// event: field is said to have none. Every server listens on 127.0.0.1 and stops in its test.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { checkEndpoint } from '../../src/live/check.ts';

async function listen(handler: (req: IncomingMessage, res: ServerResponse) => void) {
  const server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, close: () => new Promise<void>((r) => server.close(() => r())) };
}

const discoveryMessages = async (url: string, token?: string) =>
  (await checkEndpoint(url, { checks: ['discovery'], timeoutMs: 5000, ...(token ? { token } : {}) })).findings
    .filter((f) => f.ruleId === 'aep/live-discovery')
    .map((f) => f.message);

test('live discovery: 401 without a token is skipped saying to pass one; with a token, that it was refused; 404 as before', async () => {
  const s = await listen((req, res) => {
    req.resume();
    const status = req.headers.authorization === 'Bearer good' ? 404 : 401;
    res.writeHead(status).end();
  });
  // a refusal for credentials is no aep/live-discovery finding (AEP-0003 §8.1 lets an endpoint require a token)
  const reason = async (token?: string) => {
    const r = await checkEndpoint(s.url, { checks: ['discovery'], timeoutMs: 5000, ...(token ? { token } : {}) });
    assert.deepEqual(await discoveryMessages(s.url, token), []);
    return r.checks[0]!.reason;
  };
  try {
    assert.match(
      (await reason())!,
      /^GET \/events was answered 401: .*no token was given \(pass --token TOKEN or set AEP_TOKEN\)$/,
    );
    assert.equal(
      await reason('wrong'),
      'GET /events was answered 401: the endpoint refused the token given (--token or AEP_TOKEN)',
    );
    const [other] = await discoveryMessages(s.url, 'good');
    assert.equal(other, 'GET /events answered 404, not 2xx with the discovery document.');
  } finally {
    await s.close();
  }
});

test('live discovery: "aep" as a string or an array without "0.1" is named as found; an absent member as absent', async () => {
  let doc: unknown = {};
  const s = await listen((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(doc));
  });
  try {
    doc = { aep: '0.1', endpoints: { events: '/events' } };
    assert.deepEqual(await discoveryMessages(s.url), [
      'The discovery document\'s "aep" is a string (3 characters), not an array naming "0.1".',
    ]);
    doc = { aep: ['1.0'], endpoints: [] };
    assert.deepEqual(await discoveryMessages(s.url), [
      'The discovery document\'s "aep" is an array without "0.1", not an array naming "0.1".',
      'The discovery document\'s "endpoints" is an array (0 items), not an object.',
    ]);
    doc = {};
    assert.deepEqual(await discoveryMessages(s.url), [
      'The discovery document has no "aep" (an array naming "0.1").',
      'The discovery document has no "endpoints" (an object).',
    ]);
  } finally {
    await s.close();
  }
});

test('live fanout: an SSE message without an event: field is named as such, not as event: ""', async () => {
  const subs = new Set<ServerResponse>();
  const s = await listen((req, res) => {
    if (req.method === 'GET' && req.url === '/events') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ aep: ['0.1'], endpoints: { events: '/events', stream: '/stream' } }));
    }
    if (req.method === 'GET' && req.url?.startsWith('/stream')) {
      res.writeHead(200, { 'content-type': 'text/event-stream' }).write(': open\n\n');
      subs.add(res);
      req.on('close', () => subs.delete(res));
      return;
    }
    let body = '';
    req.on('data', (c: Buffer) => {
      body += c;
    });
    req.on('end', () => {
      for (const line of body.split('\n').filter(Boolean)) {
        const ev = JSON.parse(line) as { session?: string; seq?: number };
        // the id: field is right, the event: field left out
        const id = ev.session === undefined ? '' : `id: ${ev.session}:0:${ev.seq}\n`;
        for (const sub of subs) sub.write(`${id}data: ${line}\n\n`);
      }
      res.writeHead(202).end();
    });
  });
  try {
    const r = await checkEndpoint(s.url, { checks: ['fanout'], timeoutMs: 5000 });
    const fanout = r.findings.filter((f) => f.ruleId === 'aep/live-fanout').map((f) => f.message);
    assert.ok(fanout.length > 0, 'the missing event: field is found');
    for (const m of fanout)
      assert.match(m, /^An SSE message has no event: field \(an EventSource reads it as "message"\)/);
  } finally {
    for (const sub of subs) sub.destroy();
    await s.close();
  }
});

test('live: the checks skipped after discovery got no answer name aep/live-timeout, not aep/live-discovery', async () => {
  const held: ServerResponse[] = [];
  const s = await listen((_req, res) => {
    held.push(res); // never answered
  });
  try {
    const r = await checkEndpoint(s.url, { checks: ['discovery', 'fanout'], timeoutMs: 200 });
    assert.deepEqual(
      r.findings.map((f) => f.ruleId),
      ['aep/live-timeout', 'aep/live-skipped'],
    );
    assert.match(r.findings[1]!.message, /discovery failed \(aep\/live-timeout\), so no endpoint is known/);
  } finally {
    for (const res of held) res.destroy();
    await s.close();
  }
});

test('live content-type: a POST refused for its credentials (401/403) skips the check with that reason, never passes it', async () => {
  for (const refusal of [401, 403, 415, 202]) {
    const s = await listen((req, res) => {
      req.resume();
      if (req.method === 'GET')
        return void res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ aep: ['0.1'], endpoints: { events: '/events', stream: '/stream' } }));
      res.writeHead(refusal).end();
    });
    try {
      const r = await checkEndpoint(s.url, { checks: ['content-type'], timeoutMs: 5000 });
      const skipped = refusal === 401 || refusal === 403;
      assert.equal(r.skipped.includes('content-type'), skipped, `${refusal}`);
      const content = r.findings.filter((f) => f.ruleId === 'aep/live-content-type');
      assert.equal(content.length, refusal === 202 ? 1 : 0, `${refusal}`);
      if (skipped)
        assert.ok(r.findings.some((f) => f.ruleId === 'aep/live-skipped' && f.message.includes(`${refusal}`)));
    } finally {
      await s.close();
    }
  }
});
