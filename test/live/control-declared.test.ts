// control-ack against a target the checker reaches directly (its own hello answers as the `emitter` and declares
// `control.accepts`, AEP-0004 §7): a probe type it does not declare is nacked `unsupported` as §4 #2 requires, so the
// check is skipped naming the declaration; a declared type nacked so still fails. 127.0.0.1 only, stopped in the test.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { WebSocketServer } from 'ws';
import { checkEndpoint } from '../../src/live/check.ts';

const SESSION = 's_target';

/** A WebSocket-only control target declaring `accepts`, nacking every command `unsupported`. */
async function target(accepts: string[]) {
  const server = createServer((req, res) => {
    res.writeHead(req.url === '/events' ? 200 : 404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ aep: ['0.1'], endpoints: { socket: '/socket' } }));
  });
  const wss = new WebSocketServer({ server, path: '/socket' });
  let seq = 0;
  wss.on('connection', (ws) => {
    ws.on('message', (data) => {
      const m = JSON.parse(String(data)) as Record<string, unknown>;
      if (m.type === 'hello')
        ws.send(
          JSON.stringify({
            type: 'hello',
            versions: ['0.1'],
            role: 'emitter',
            identity: { agent: 'test-target' },
            capabilities: { control: { accepts } },
          }),
        );
      else if (m.type === 'subscribe') ws.send(JSON.stringify({ type: 'subscribed', id: m.id }));
      else if (String(m.type).startsWith('control.'))
        ws.send(
          JSON.stringify({
            aep: '0.1',
            id: `ack-${seq}`,
            type: 'control.rejected',
            time: new Date().toISOString(),
            source: 'aep://test/target',
            agent: 'test-target',
            session: SESSION,
            seq: seq++,
            cause: m.id,
            data: { reason: 'unsupported' },
          }),
        );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const close = async () => {
    for (const c of wss.clients) c.terminate();
    wss.close();
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  };
  return { url, close };
}

const OPTIONS = { token: 't', timeoutMs: 5000, checks: ['control-ack' as const], control: { session: SESSION } };

test("a probe type the target's hello does not declare, nacked unsupported, skips control-ack naming the declaration", async () => {
  const t = await target(['control.cancel']);
  try {
    const r = await checkEndpoint(t.url, OPTIONS);
    assert.deepEqual(r.skipped, ['control-ack']);
    assert.match(
      r.checks.find((c) => c.check === 'control-ack')!.reason!,
      /hello declares control\.accepts \["control\.cancel"\], which does not list control\.attention\.respond.*--control-accepts/,
    );
    assert.deepEqual(
      r.findings.filter((f) => f.severity === 'error'),
      [],
    );
  } finally {
    await t.close();
  }
});

test('a declared type nacked unsupported still fails control-ack', async () => {
  const t = await target(['control.attention.respond']);
  try {
    const r = await checkEndpoint(t.url, OPTIONS);
    assert.deepEqual(r.ran, ['control-ack']);
    assert.deepEqual(
      r.findings.filter((f) => f.severity === 'error').map((f) => f.message),
      ['A control.attention.respond command (a declared type) was nacked "unsupported" by the target.'],
    );
  } finally {
    await t.close();
  }
});
