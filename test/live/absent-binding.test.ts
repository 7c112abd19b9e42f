// A binding the discovery document does not name is not offered (AEP-0003 §1: no binding is mandatory; §3.4 names
// them in `endpoints`): the checks that need it are skipped saying so, and no request goes to where it would be. But
// for POST: §3.4 serves the document at `{base}/events`, "the same URL emitters POST to", so an omitted `events`
// member still names it (a null one names none).
// A named binding that answers wrongly still fails. Servers listen on 127.0.0.1 only and stop inside their test.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { checkEndpoint } from '../../src/live/check.ts';
import { startEndpoint, TOKEN } from './endpoint.ts';

const POST_CHECKS = ['version-gate', 'invalid-envelope', 'ingest', 'content-type', 'oversize'] as const;

/** An endpoint answering every POST 404, whose discovery document names `endpoints`; counts the POSTs it got. */
async function serve(endpoints: Record<string, string | null>) {
  const seen = { posts: 0, paths: new Set<string>() };
  const server = createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/events') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ aep: ['0.1'], endpoints }));
    }
    if (req.method === 'POST') {
      seen.posts++;
      seen.paths.add(String(req.url));
    }
    req.resume();
    req.on('end', () => res.writeHead(404).end());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const close = async () => {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  };
  return { url, seen, close };
}

test('"events" omitted from a document served at {base}/events: the POST checks post there (AEP-0003 §3.4, "the same URL emitters POST to")', async () => {
  const ep = await serve({});
  try {
    const r = await checkEndpoint(ep.url, { timeoutMs: 5000, checks: [...POST_CHECKS] });
    assert.deepEqual(r.skipped, [], r.findings.map((f) => f.message).join('\n'));
    assert.deepEqual(r.ran, [...POST_CHECKS]);
    // this server answers every POST 404: judged, they fail
    assert.ok(r.findings.some((f) => f.ruleId === 'aep/live-ingest' && f.severity === 'error'));
    assert.ok(ep.seen.posts > 0);
    assert.deepEqual([...ep.seen.paths], ['/events']);
  } finally {
    await ep.close();
  }
});

test('"events": null (no POST endpoint, AEP-0003 §1): the POST checks and the token check are skipped saying so, and nothing is posted', async () => {
  const ep = await serve({ events: null });
  try {
    const r = await checkEndpoint(ep.url, { timeoutMs: 5000, checks: [...POST_CHECKS, 'token'] });
    assert.deepEqual(r.ran, []);
    assert.deepEqual([...r.skipped].sort(), [...POST_CHECKS, 'token'].sort());
    for (const c of POST_CHECKS)
      assert.match(
        r.checks.find((o) => o.check === c)!.reason!,
        /names no "events" endpoint \(HTTP POST, AEP-0003 §3\.2\), so no Event of this run could be posted/,
      );
    assert.match(r.checks.find((o) => o.check === 'token')!.reason!, /names no surface/);
    assert.deepEqual(
      r.findings.filter((f) => f.severity !== 'info' && f.ruleId !== 'aep/live-well-known'),
      [],
    );
    assert.equal(ep.seen.posts, 0);
  } finally {
    await ep.close();
  }
});

test('a compliant WebSocket-only relay whose document omits "events": the POST checks pass at {base}/events, no stream asked', async () => {
  const ep = await startEndpoint(undefined, { wsOnly: true, omitEvents: true });
  try {
    const checks = ['version-gate', 'invalid-envelope', 'ingest', 'content-type', 'redelivery', 'fanout'] as const;
    const r = await checkEndpoint(ep.url, { token: TOKEN, timeoutMs: 5000, checks: [...checks] });
    const show = r.findings.map((f) => `${f.ruleId}: ${f.message}`).join('\n');
    assert.deepEqual(
      r.findings.filter((f) => f.severity !== 'info'),
      [],
      show,
    );
    assert.deepEqual(
      r.ran,
      checks.filter((c) => c !== 'fanout'),
      show,
    );
    // the document names no stream: fanout is skipped, not probed at /stream
    assert.match(r.checks.find((o) => o.check === 'fanout')!.reason!, /names no "stream" endpoint \(SSE\)/);
  } finally {
    await ep.close();
  }
});

test('an "events" endpoint named but answering 404 still fails the POST checks', async () => {
  const ep = await serve({ events: '/events' });
  try {
    const r = await checkEndpoint(ep.url, { timeoutMs: 5000, checks: ['version-gate', 'ingest'] });
    assert.deepEqual(r.ran, ['version-gate', 'ingest']);
    const rules = new Set(r.findings.filter((f) => f.severity === 'error').map((f) => f.ruleId));
    assert.deepEqual([...rules].sort(), ['aep/live-ingest', 'aep/live-version-gate']);
    assert.ok(ep.seen.posts > 0);
  } finally {
    await ep.close();
  }
});
