/**
 * The `signal` option of the library's long-running calls (README §Library API, Cancellation): as Node's own stream
 * APIs, an aborted signal ends the call with its reason (an AbortError DOMException unless one is given), an already
 * aborted one before anything is opened, and what the call opened (files, sockets, timers) is released.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { getEventListeners } from 'node:events';
import { existsSync, readdirSync, readlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { checkEndpoint, runFixtures, validate, validateStream, type Finding } from '../../src/index.ts';
import { startEndpoint, TOKEN } from '../live/endpoint.ts';
import { SseSubscriber, WireAbort } from '../../src/live/client.ts';
import { tempDir } from '../temp.ts';
import { WebSocketServer } from 'ws';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const isAbortError = (e: unknown) => e instanceof DOMException && e.name === 'AbortError';
/** A line that gives `aep validate` and `ahp validate` findings (16 bytes or more: the binary sniff needs them). */
const BAD = '{"aep":"0.1"}\n';

/** A Node stream that sends `first`, then nothing, ever; `destroyed` tells whether the run let go of it. */
function silentAfter(first: string): Readable {
  const s = new Readable({ read() {} });
  s.push(first);
  return s;
}

/** A 127.0.0.1 server that takes each request and never answers; `requests` counts them. */
async function mute(): Promise<{ server: Server; url: string; requests: () => number; seen: Promise<void> }> {
  let n = 0;
  let heard!: () => void;
  const seen = new Promise<void>((r) => (heard = r));
  const server = createServer(() => {
    n++;
    heard();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}/`, requests: () => n, seen };
}

test('a signal of the wrong type is a TypeError at the call, naming what it got', async () => {
  for (const bad of ['abort', {}, { aborted: false }, 1, new AbortController()]) {
    assert.throws(() => validateStream('aep', { text: BAD }, { signal: bad as never }), {
      name: 'TypeError',
      message: /option signal must be an AbortSignal.*, not /,
    });
    await assert.rejects(() => validate('ahp', { text: BAD }, { signal: bad as never }), TypeError);
    await assert.rejects(() => runFixtures('aep', 'conformance/aep', { signal: bad as never }), TypeError);
    await assert.rejects(() => checkEndpoint('http://127.0.0.1:9/', { signal: bad as never }), TypeError);
  }
});

test('already aborted: each call rejects at once with the reason, opening nothing', async () => {
  const aborted = AbortSignal.abort();
  // a path that does not exist would be an InputError once opened, a directory a FixtureError
  await assert.rejects(() => validate('aep', ['no/such/file.jsonl'], { signal: aborted }), isAbortError);
  const run = validateStream('ahp', ['no/such/file.jsonl'], { signal: aborted });
  await assert.rejects(() => run.summary(), isAbortError);
  let pulled = false;
  const stream = (async function* () {
    pulled = true;
    yield BAD;
  })();
  await assert.rejects(async () => {
    for await (const _ of validateStream('aep', stream, { signal: aborted })) assert.fail('no finding');
  }, isAbortError);
  assert.equal(pulled, false, 'the stream was never read');
  await assert.rejects(() => runFixtures('aep', 'no/such/dir', { signal: aborted }), isAbortError);
  const reason = new Error('the user went home');
  await assert.rejects(
    () => validate('aep', { text: BAD }, { signal: AbortSignal.abort(reason) }),
    (e) => e === reason,
  );
  const { server, url, requests } = await mute();
  try {
    await assert.rejects(() => checkEndpoint(url, { signal: aborted }), isAbortError);
    assert.equal(requests(), 0, 'no request was sent');
  } finally {
    server.close();
  }
});

test('mid-stream: a Node stream that goes silent ends the iteration with the reason and is destroyed', async () => {
  const ac = new AbortController();
  const stream = silentAfter(BAD.repeat(3));
  const got: Finding[] = [];
  const reason = new Error('stop');
  await assert.rejects(
    async () => {
      for await (const f of validateStream('aep', { stream, source: 'slow.jsonl' }, { signal: ac.signal })) {
        got.push(f);
        ac.abort(reason);
      }
    },
    (e) => e === reason,
  );
  assert.equal(got.length, 1, 'no finding after the abort');
  assert.equal(stream.destroyed, true);
  // the same through validate(): it rejects and keeps none
  const ac2 = new AbortController();
  let reads = 0;
  // its first chunk read, the run asks for the next: the abort comes while that read is pending
  const silent = new Readable({
    read() {
      if (++reads === 1) this.push(BAD.repeat(3));
      else ac2.abort();
    },
  });
  await assert.rejects(() => validate('aep', silent, { signal: ac2.signal }), isAbortError);
  assert.equal(reads, 2);
  assert.equal(silent.destroyed, true);
});

test('mid-stream: a web stream that goes silent is cancelled with the reason', async () => {
  const ac = new AbortController();
  let cancelled: unknown = 'not cancelled';
  const stream = new ReadableStream<Uint8Array>({
    start(c) {
      c.enqueue(new TextEncoder().encode(BAD.repeat(2)));
    },
    cancel(reason) {
      cancelled = reason;
    },
  });
  const run = validateStream('ahp', stream, { signal: ac.signal });
  await assert.rejects(async () => {
    for await (const _ of run) ac.abort();
  }, isAbortError);
  assert.ok(isAbortError(cancelled), `cancelled with ${String(cancelled)}`);
  await assert.rejects(() => run.summary(), isAbortError);
});

test('mid-file: the file is closed before the run rejects', async (t) => {
  // descriptors open on this file (not a count of all: tests sharing the process open and close their own meanwhile)
  const fds = () =>
    existsSync('/proc/self/fd')
      ? readdirSync('/proc/self/fd').filter((fd) => {
          try {
            return readlinkSync(`/proc/self/fd/${fd}`) === path;
          } catch {
            return false;
          }
        }).length
      : 0;
  const dir = tempDir(t, 'ac-abort-');
  const path = join(dir, 'big.jsonl');
  // more findings than the run queues before it pauses reading: the file is open when the abort comes
  writeFileSync(path, BAD.repeat(20_000));
  const ac = new AbortController();
  let n = 0;
  let openDuring = -1;
  await assert.rejects(async () => {
    for await (const _ of validateStream('aep', path, { signal: ac.signal }))
      if (++n === 1) {
        openDuring = fds();
        ac.abort();
      }
  }, isAbortError);
  assert.equal(n, 1);
  // on Linux the check can see the open file (else it could not fail); elsewhere both counts are 0
  if (existsSync('/proc/self/fd')) assert.ok(openDuring >= 1, 'the file is open when the abort comes');
  assert.equal(fds(), 0, 'a descriptor of the file was left open');
});

test('runFixtures stops at the next case', async () => {
  const ac = new AbortController();
  let cases = 0;
  await assert.rejects(
    () =>
      runFixtures('aep', join(REPO, 'conformance/aep'), {
        signal: ac.signal,
        onCase: () => {
          cases++;
          ac.abort();
        },
      }),
    isAbortError,
  );
  assert.equal(cases, 1);
});

test('checkEndpoint against a server that never answers: the abort ends it and its socket', {
  timeout: 60_000,
}, async () => {
  const { server, url, seen } = await mute();
  const ac = new AbortController();
  // a timeout far beyond the test's: only the abort can end the wait
  const run = checkEndpoint(url, { signal: ac.signal, timeoutMs: 3_600_000 });
  await seen;
  ac.abort();
  await assert.rejects(run, isAbortError);
  // close() waits for every connection: it returns only once the client has let its socket go
  await new Promise<void>((r) => server.close(() => r()));
});

/**
 * An endpoint that opens an SSE stream and accepts a WebSocket but sends nothing on either, and takes posted Events:
 * `waiting` is called after a post and after the client's hello (then the client can only wait), to abort there.
 */
async function silentEndpoint(waiting: () => void): Promise<{ url: string; close: () => Promise<void> }> {
  const wss = new WebSocketServer({ noServer: true });
  wss.on('connection', (ws) => ws.on('message', () => setImmediate(waiting)));
  const server = createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/events') {
      const doc = { aep: ['0.1'], endpoints: { events: '/events', stream: '/stream', socket: '/socket' } };
      return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(doc));
    }
    if (req.url?.startsWith('/stream'))
      return void res.writeHead(200, { 'content-type': 'text/event-stream' }).flushHeaders();
    if (req.method !== 'POST') return void res.writeHead(404).end();
    req.resume();
    req.on('end', () => {
      res.writeHead(202).end();
      setImmediate(waiting);
    });
  });
  server.on('upgrade', (req, socket, head) => wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws)));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    // waits for every connection: it returns only once the client has let go of its sockets
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

test('checkEndpoint waiting on a silent SSE stream or WebSocket: the abort ends the wait and closes them', {
  timeout: 60_000,
}, async () => {
  for (const at of ['fanout', 'hello'] as const) {
    const ac = new AbortController();
    const ep = await silentEndpoint(() => ac.abort());
    const run = checkEndpoint(ep.url, { checks: [at], timeoutMs: 3_600_000, signal: ac.signal });
    await assert.rejects(run, isAbortError, at);
    await ep.close();
  }
});

test('an SSE subscription waiting on a silent stream: the abort ends the wait and closes it', {
  timeout: 60_000,
}, async () => {
  // the fan-out check's wait for deliveries, alone: from the server side, when the client starts waiting is unknown
  const ac = new AbortController();
  const abort = new WireAbort(ac.signal);
  const ep = await silentEndpoint(() => {});
  const sub = await SseSubscriber.open(new URL('stream', ep.url), { timeoutMs: 3_600_000, abort });
  const waited = sub.until(() => false, 3_600_000);
  ac.abort();
  assert.equal(await waited, false);
  assert.equal(sub.ended, true);
  await ep.close();
  abort.dispose();
});

test('checkEndpoint mid-check (an SSE subscription, a WebSocket): the abort ends it; a run that ends lets go of the signal', {
  timeout: 60_000,
}, async () => {
  const ep = await startEndpoint();
  try {
    for (const at of ['fanout', 'hello'] as const) {
      const ac = new AbortController();
      const run = checkEndpoint(ep.url, {
        token: TOKEN,
        checks: [at],
        timeoutMs: 3_600_000,
        signal: ac.signal,
        // the check has started its first request or connection when the abort comes
        onCheck: (c) => void (c === at && setImmediate(() => ac.abort())),
      });
      await assert.rejects(run, isAbortError, at);
    }
    const signal = new AbortController().signal;
    const done = await checkEndpoint(ep.url, { token: TOKEN, checks: ['fanout', 'hello'], signal });
    assert.deepEqual(done.ran, ['fanout', 'hello']);
    assert.equal(getEventListeners(signal, 'abort').length, 0, 'checkEndpoint still listens');
    // a file and a Node stream read to their ends
    await validate('aep', [join(REPO, 'examples/aep/session.jsonl'), { stream: Readable.from([BAD]) }], { signal });
    assert.equal(getEventListeners(signal, 'abort').length, 0, 'validate still listens');
  } finally {
    await ep.close();
  }
});

test('no handle is left open: a process that aborts each call exits by itself', () => {
  const index = JSON.stringify(join(REPO, 'src/index.ts'));
  const endpoint = JSON.stringify(join(REPO, 'test/live/endpoint.ts'));
  const script = `
    const lib = await import(${index});
    const { createServer } = await import('node:http');
    const { Readable } = await import('node:stream');
    const out = [];
    const note = (e) => out.push(e?.name ?? String(e));
    const ac1 = new AbortController();
    const slow = new Readable({ read() {} });
    slow.push('{"aep":"0.1"}\\n'.repeat(2));
    try { for await (const f of lib.validateStream('aep', slow, { signal: ac1.signal })) ac1.abort(); } catch (e) { note(e); }
    const ac2 = new AbortController();
    const web = new ReadableStream({ start(c) { c.enqueue(new TextEncoder().encode('{"aep":"0.1"}\\n'.repeat(2))); } });
    try { for await (const f of lib.validateStream('ahp', web, { signal: ac2.signal })) ac2.abort(); } catch (e) { note(e); }
    const server = createServer(() => ac3.abort());
    const ac3 = new AbortController();
    await new Promise((r) => server.listen(0, '127.0.0.1', r));
    const url = 'http://127.0.0.1:' + server.address().port + '/';
    try { await lib.checkEndpoint(url, { signal: ac3.signal, timeoutMs: 3600000 }); } catch (e) { note(e); }
    server.close();
    const { startEndpoint, TOKEN } = await import(${endpoint});
    const ep = await startEndpoint();
    for (const at of ['fanout', 'hello']) {
      const ac = new AbortController();
      const onCheck = (c) => { if (c === at) setImmediate(() => ac.abort()); };
      try { await lib.checkEndpoint(ep.url, { token: TOKEN, checks: [at], timeoutMs: 3600000, signal: ac.signal, onCheck }); } catch (e) { note(e); }
    }
    await ep.close();
    const ac4 = new AbortController();
    try { await lib.runFixtures('ahp', 'conformance/ahp', { signal: ac4.signal, onCase: () => ac4.abort() }); } catch (e) { note(e); }
    console.log(JSON.stringify(out));
  `;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: REPO,
    encoding: 'utf8',
    // bounded: a timer, socket or server left behind would keep the process alive until this kills it
    timeout: 60_000,
  });
  assert.equal(r.signal, null, `the process did not exit by itself: ${r.stderr}`);
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), Array(6).fill('AbortError'));
});
