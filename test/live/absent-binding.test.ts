// A binding the discovery document does not name is not offered (AEP-0003 §1: no binding is mandatory; §3.4 names
// them in `endpoints`): the checks that need it are skipped saying so, and no request goes to where it would be.
// A named binding that answers wrongly still fails. Servers listen on 127.0.0.1 only and stop inside their test.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { checkEndpoint } from '../../src/live/check.ts';

const POST_CHECKS = ['version-gate', 'invalid-envelope', 'ingest', 'content-type', 'oversize'] as const;

/** An endpoint answering every POST 404, whose discovery document names `endpoints`; counts the POSTs it got. */
async function serve(endpoints: Record<string, string>) {
  const seen = { posts: 0 };
  const server = createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/events') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ aep: ['0.1'], endpoints }));
    }
    if (req.method === 'POST') seen.posts++;
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

test('no "events" endpoint named: the POST checks and the token check are skipped saying so, and nothing is posted', async () => {
  const ep = await serve({});
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
