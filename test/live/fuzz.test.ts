// A relation over server answers: whatever a server says (any status, media type, body, SSE
// line, WebSocket frame, a reset, a close, silence), `checkEndpoint` gives findings and never
// rejects other than with the documented LiveConnectError. The server answers each request by a
// seeded draw, echoes the Events it was posted (duplicated, reordered, split across data: lines)
// among the garbage, and listens on 127.0.0.1 only; every run is bounded by a short timeout.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { test } from 'node:test';
import { WebSocketServer } from 'ws';
import { checkEndpoint } from '../../src/live/check.ts';
import { LiveConnectError } from '../../src/live/client.ts';
import { LIVE_RULES } from '../../src/live/rules.ts';
import { prng } from '../../tools/bench/generate-aep.ts';
import { listenLocal } from './endpoint.ts';

const SEEDS = 16;
const TIMEOUT = 150;

/** A deterministic draw from a list (tools/bench/generate-aep.ts's mulberry32). */
function draw(seed: number): <T>(xs: readonly T[]) => T {
  const next = prng(seed);
  return (xs) => xs[Math.floor(next() * xs.length)]!;
}

const DISCOVERY = [
  { aep: ['0.1'], endpoints: { events: '/events', stream: '/stream', socket: '/socket' } },
  {
    aep: ['0.1'],
    endpoints: { events: '/events', stream: '/stream', socket: '/socket' },
    capabilities: { replay: { buffer: 3, all: true }, roster: {}, control: {}, capture: ['metadata'] },
  },
  {
    aep: ['0.1'],
    endpoints: { events: '/events', stream: '/stream', socket: '/socket' },
    capabilities: { replay: { buffer: 3, all: true }, roster: {}, control: {}, capture: ['metadata'] },
  },
  { aep: ['0.1'], endpoints: { events: 'ftp://x/events', stream: 'http://[x', socket: 42 } },
  { aep: '0.1', endpoints: [], capabilities: [] },
  { aep: ['0.1'], endpoints: { stream: '/stream' }, capabilities: { replay: { buffer: -1 }, roster: 1, control: 1 } },
];
const BODIES = ['', 'null', '[]', '{', '"text"', '{"versions":null}', '{"error":5}', '{"versions":["0.1"]}'];
const TYPES = ['application/json', 'text/event-stream', 'text/plain', undefined];
const STATUSES = [200, 202, 400, 426, 500, 301];

/** Start a server whose every answer is drawn from `pick`. */
async function startFuzz(seed: number) {
  const pick = draw(seed);
  const posted: string[] = [];
  const answer = (req: IncomingMessage, res: ServerResponse) => {
    // mostly what the path asks for, so the checks after discovery run too
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const usual = req.method === 'POST' ? 'status' : path === '/stream' ? 'stream' : 'discovery';
    const how = pick([usual, usual, usual, usual, 'status', 'reset', 'silent', 'discovery', 'stream', 'end']);
    // odd seeds answer discovery well, so every check meets the rest of the drawn answers
    if (seed % 2 && path === '/events' && req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify(DISCOVERY[1]));
    }
    if (how === 'reset') return req.socket.destroy();
    if (how === 'silent') return;
    const type = pick(TYPES);
    const status = req.method === 'POST' ? pick([202, 202, ...STATUSES]) : pick(STATUSES);
    res.writeHead(how === 'discovery' || how === 'stream' ? pick([200, 200, status]) : status, {
      ...(type ? { 'content-type': how === 'stream' ? pick(['text/event-stream', type]) : type } : {}),
    });
    if (how === 'discovery') return res.end(JSON.stringify(pick(DISCOVERY)));
    if (how !== 'stream') return res.end(pick(BODIES));
    // SSE: the posted Events again, some twice, some split, among garbage, then maybe more later
    const lines = () => {
      const out: string[] = [];
      for (const text of pick([posted, [...posted].reverse(), posted.slice(-3)]))
        for (let n = pick([0, 1, 1, 2]); n > 0; n--) {
          const split = pick([false, false, true]);
          const data = split ? text.replace(/,/g, ',\ndata: ') : text;
          out.push(`${pick(['event: x\n', ''])}${pick(['id: a:b:c\n', 'id: \n', ''])}data: ${data}\n\n`);
        }
      out.push(pick(['data: {not json\n\n', 'data: null\n\n', ': replay-exhausted x y\n\n', 'data\n\n', '\r\n']));
      return out.join('');
    };
    res.write(lines());
    const later = setTimeout(() => res.writableEnded || res.end(lines()), TIMEOUT / 3);
    req.on('close', () => clearTimeout(later));
  };
  const server = createServer((req, res) => {
    if (req.method === 'POST') {
      const parts: Buffer[] = [];
      req.on('data', (b: Buffer) => parts.push(b));
      req.on('end', () => {
        const text = Buffer.concat(parts).toString('utf8');
        posted.push(...text.split('\n').filter((l) => l.length < 4096 && l.trim() !== ''));
        posted.splice(0, Math.max(0, posted.length - 8));
        answer(req, res);
      });
      return;
    }
    answer(req, res);
  });
  const wss = new WebSocketServer({ noServer: true });
  server.on('upgrade', (req, socket, head) => {
    const how = pick(['open', 'open', 'open', '401', 'destroy']);
    if (how === 'destroy') return socket.destroy();
    if (how === '401') return socket.end('HTTP/1.1 401 Unauthorized\r\ncontent-length: 0\r\n\r\n');
    wss.handleUpgrade(req, socket, head, (ws) => {
      ws.on('message', (data) => {
        let f: Record<string, unknown> = {};
        try {
          const v: unknown = JSON.parse(data.toString());
          if (v && typeof v === 'object') f = v as Record<string, unknown>;
        } catch {
          // answered like any other frame
        }
        const frames: unknown[] = [
          { type: 'hello', versions: pick([['0.1'], 5, []]), capabilities: pick([{}, { control: null }]) },
          { type: 'subscribed', id: f.id },
          { type: 'error', id: f.id, cause: f.id, code: pick(['no-route', 'unauthorized', 'unsupported', 7]) },
          { type: 'roster', id: f.id, entries: pick([[null, 1, {}], 'x', [{ session: f.session }]]) },
          { type: 'pong', t: f.t },
          { type: pick(['control.accepted', 'control.rejected']), cause: f.id, data: pick([null, { reason: 'x' }]) },
          { type: 'replay-exhausted', sub: f.id, earliest: pick([null, { epoch: 'a', seq: 1 }]) },
          ...posted.slice(-2).map((t) => JSON.parse(t) as unknown),
          null,
          [],
        ];
        for (let n = pick([0, 1, 2, 3]); n > 0; n--) {
          const what = pick(['frame', 'frame', 'frame', 'text', 'binary', 'close']);
          if (what === 'close') return ws.close();
          if (what === 'binary') ws.send(Buffer.from('{"type":"hello"}'), { binary: true });
          else ws.send(what === 'text' ? pick(['not json', '{"type":', '']) : JSON.stringify(pick(frames)));
        }
      });
    });
  });
  return listenLocal(server, wss);
}

const KNOWN = new Set<string>(LIVE_RULES.map((r) => r.id));

test('no server answer makes a check throw: findings, or the one LiveConnectError', { timeout: 240_000 }, async () => {
  for (let seed = 1; seed <= SEEDS; seed++) {
    const srv = await startFuzz(seed);
    try {
      const r = await checkEndpoint(srv.url, {
        timeoutMs: TIMEOUT,
        destructive: true,
        token: 'fuzz',
        control: { session: 'fuzz_target', ackWindowMs: TIMEOUT, cancelRun: 'fuzz_run' },
      }).catch((e: unknown) => {
        assert.ok(e instanceof LiveConnectError, `seed ${seed}: ${(e as Error)?.stack ?? String(e)}`);
        return undefined;
      });
      for (const f of r?.findings ?? []) assert.ok(KNOWN.has(f.ruleId), `seed ${seed}: ${f.ruleId}`);
      for (const d of r?.delivered ?? []) assert.doesNotMatch(d, /[\r\n]/, `seed ${seed}: a record line`);
    } finally {
      await srv.close();
    }
  }
});
