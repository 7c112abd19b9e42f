/**
 * A compliant AEP collector for the `aep live` tests, written from AEP-0003 §2-§7 (discovery, POST ingest with the
 * version gate and envelope validation, SSE fan-out with attr-match filters, capture ceilings and resume, a minimal
 * WebSocket duplex with hello, subscribe refusals and ping), listening on 127.0.0.1 only. `broken` names one way to
 * break it, so each broken variant fails exactly one check.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { matches, parseFilter, type AttrFilter } from '../../src/aep/attr-match.ts';
import { downlevelEvent } from '../../src/aep/downlevel.ts';
import type { AepCaptureLevel } from '../../src/aep/schema/registry.ts';

/** One way to break the endpoint (each fails one check). */
export type Broken =
  | 'no-discovery'
  | 'no-version-gate'
  | 'accepts-invalid'
  | 'ingest-200'
  | 'sse-no-id'
  | 'rewrites'
  | 'ignores-filter'
  | 'up-levels'
  | 'resume-inclusive'
  | 'hello-two-versions'
  | 'closes-on-refusal'
  | 'closes-on-unknown-frame'
  | 'control-unauthenticated'
  | 'control-no-route-event'
  | 'control-slow-ack'
  | 'control-dedupe-fresh'
  | 'control-accepts-undeclared'
  | 'control-cancel-uncaused';

/** The bearer token that authenticates a duplex for control (AEP-0004 §4 #1). */
export const CONTROL_TOKEN = 'live-control-token';
/** The session the endpoint's one connected target claims, and a run of it to cancel. */
export const CONTROL_SESSION = 'ctl_target';
export const CONTROL_RUN = 'ctl_run_1';
/** The ack window the endpoint's hello declares (AEP-0003 §4 `capabilities.control.ack_window_ms`). */
export const HELLO_ACK_WINDOW_MS = 400;
/** How late `control-slow-ack` acks a declared command (past a short test window, within the test timeout). */
export const SLOW_ACK_MS = 700;

type Ev = Record<string, unknown>;
interface Sub {
  filter: AttrFilter;
  capture?: AepCaptureLevel;
  send: (ev: Ev) => void;
}

/** A running endpoint: its base URL and how to stop it. */
export interface Endpoint {
  url: string;
  close(): Promise<void>;
}

const LEVELS = ['none', 'metadata', 'redacted', 'full'];
const COMMAND = /^(control\.|x\.[^.]+\.control\.)/;

/**
 * The one connected control target, claiming {@link CONTROL_SESSION} (AEP-0004 §7): it declares
 * `control.attention.respond` and `control.cancel`, dedupes on (source, id) and re-emits the recorded ack on
 * redelivery, nacks other types `unsupported`, and answers a cancel of {@link CONTROL_RUN} with run.cancelled.
 * `emit` sequences an Event into the session; `redeliver` fans out an Event already emitted.
 */
function controlTarget(emit: (ev: Ev) => void, redeliver: (ev: Ev) => void, broken?: Broken) {
  const accepts = new Set(['control.attention.respond', 'control.cancel']);
  const recorded = new Map<string, Ev>();
  const decided = new Set<Ev>();
  let seq = 0;
  const event = (type: string, data: Ev, over: Ev = {}): Ev => ({
    aep: '0.1',
    id: `tgt-${seq}`,
    type,
    time: new Date().toISOString(),
    source: 'aep://test/agent/target',
    agent: 'test-target',
    session: CONTROL_SESSION,
    seq: seq++,
    data,
    ...over,
  });
  return {
    command(cmd: Ev): void {
      const key = `${String(cmd.source)}\u0000${String(cmd.id)}`;
      const known = recorded.get(key);
      if (known) {
        // still pending: the one forthcoming ack answers every delivery (AEP-0004 §3)
        if (!decided.has(known)) return;
        if (broken === 'control-dedupe-fresh') emit(event(String(known.type), known.data as Ev, { cause: cmd.id }));
        else redeliver(known);
        return;
      }
      const type = String(cmd.type);
      const declared = accepts.has(type) || broken === 'control-accepts-undeclared';
      let ack: Ev;
      if (!declared) ack = event('control.rejected', { reason: 'unsupported' }, { cause: cmd.id });
      else if (type === 'control.cancel' && cmd.run === CONTROL_RUN)
        ack = event('control.accepted', {}, { cause: cmd.id });
      else if (type === 'control.attention.respond')
        ack = event('control.rejected', { reason: 'invalid' }, { cause: cmd.id });
      else
        ack = event(
          type === 'control.cancel' ? 'control.rejected' : 'control.accepted',
          type === 'control.cancel' ? { reason: 'refused' } : {},
          { cause: cmd.id },
        );
      recorded.set(key, ack);
      const decide = () => {
        decided.add(ack);
        emit(ack);
        if (ack.type === 'control.accepted' && type === 'control.cancel')
          emit(
            event(
              'run.cancelled',
              { by: 'control' },
              {
                run: cmd.run,
                ...(broken === 'control-cancel-uncaused' ? {} : { cause: cmd.id }),
              },
            ),
          );
      };
      if (broken === 'control-slow-ack' && type === 'control.attention.respond') setTimeout(decide, SLOW_ACK_MS);
      else decide();
    },
  };
}

/**
 * Start the endpoint (compliant unless `broken`) on 127.0.0.1 and an ephemeral port. `control: false` advertises no
 * control; `authenticatedOnly` answers a WebSocket upgrade without the token 401.
 */
export async function startEndpoint(
  broken?: Broken,
  opts: { control?: boolean; authenticatedOnly?: boolean } = {},
): Promise<Endpoint> {
  const buffer: Ev[] = [];
  const subs = new Set<Sub>();
  const deliver = (s: Sub, ev: Ev) => {
    if (broken !== 'ignores-filter' && !matches(s.filter, ev)) return;
    let out = ev;
    if (s.capture) out = broken === 'up-levels' ? { ...ev, capture: 'full' } : downlevelEvent(ev, s.capture).event;
    if (broken === 'rewrites') out = { ...out, time: '2000-01-01T00:00:00Z' };
    s.send(out);
  };
  const ingestOne = (ev: Ev) => {
    buffer.push(ev);
    if (buffer.length > 1000) buffer.shift();
    for (const s of subs) deliver(s, ev);
  };
  const valid = (ev: unknown): ev is Ev =>
    !!ev &&
    typeof ev === 'object' &&
    !Array.isArray(ev) &&
    ['aep', 'id', 'type', 'time', 'source', 'agent'].every((k) => typeof (ev as Ev)[k] === 'string');

  const discovery = JSON.stringify({
    aep: ['0.1'],
    role: 'collector',
    endpoints: { events: '/events', stream: '/stream', socket: '/socket' },
    capabilities: {
      filters: ['attr-match'],
      replay: { buffer: 1000, all: false },
      capture: ['none', 'metadata', 'redacted'],
      ...(opts.control === false ? {} : { control: { accepts: [] } }),
    },
  });

  const json = (res: ServerResponse, status: number, body?: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(body === undefined ? undefined : JSON.stringify(body));
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method === 'GET' && (url.pathname === '/events' || url.pathname === '/.well-known/aep')) {
      if (broken === 'no-discovery') return json(res, 404, { error: 'not-found' });
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(discovery);
    }
    if (req.method === 'POST' && url.pathname === '/events') {
      const parts: Buffer[] = [];
      req.on('data', (b: Buffer) => parts.push(b));
      req.on('end', () => {
        const version = String(req.headers['aep-version'] ?? '');
        if (broken !== 'no-version-gate' && version.split('.')[0] !== '0') return json(res, 426, { versions: ['0.1'] });
        const text = Buffer.concat(parts).toString('utf8');
        const lines = String(req.headers['content-type']).startsWith('application/x-ndjson')
          ? text.split('\n').filter((l) => l.trim() !== '')
          : [text];
        const events: Ev[] = [];
        for (const [i, l] of lines.entries()) {
          let ev: unknown;
          try {
            ev = JSON.parse(l);
          } catch {
            return json(res, 400, { error: 'invalid-event', detail: { line: i } });
          }
          if (!valid(ev) && broken !== 'accepts-invalid')
            return json(res, 400, { error: 'invalid-event', detail: { line: i } });
          events.push(ev as Ev);
        }
        for (const ev of events) ingestOne(ev);
        json(res, broken === 'ingest-200' ? 200 : 202);
      });
      return;
    }
    if (req.method === 'GET' && url.pathname === '/stream') {
      let filter: AttrFilter;
      try {
        filter = parseFilter(url.searchParams.get('filter') ?? '{}');
      } catch {
        return json(res, 400, { error: 'invalid-filter' });
      }
      const capture = url.searchParams.get('capture') ?? undefined;
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const send = (ev: Ev) => {
        const id =
          typeof ev.session === 'string' && typeof ev.seq === 'number'
            ? `${ev.session}:${ev.epoch ?? 0}:${ev.seq}`
            : undefined;
        res.write(
          `event: ${String(ev.type)}\n${id && broken !== 'sse-no-id' ? `id: ${id}\n` : ''}data: ${JSON.stringify(ev)}\n\n`,
        );
      };
      const sub: Sub = {
        filter,
        ...(capture && LEVELS.includes(capture) ? { capture: capture as AepCaptureLevel } : {}),
        send,
      };
      const last = String(req.headers['last-event-id'] ?? '');
      const m = /^(.*):(\d+):(\d+)$/.exec(last);
      if (m) {
        const [, session, epoch, seq] = m;
        for (const ev of buffer)
          if (
            ev.session === session &&
            Number(ev.epoch ?? 0) === Number(epoch) &&
            (broken === 'resume-inclusive' ? Number(ev.seq) >= Number(seq) : Number(ev.seq) > Number(seq))
          )
            deliver(sub, ev);
      }
      subs.add(sub);
      req.on('close', () => subs.delete(sub));
      res.write(': ping\n\n');
      return;
    }
    json(res, 404, { error: 'not-found' });
  });

  const target = controlTarget(
    ingestOne,
    (ev) => {
      for (const s of subs) deliver(s, ev);
    },
    broken,
  );
  const wss = new WebSocketServer({ noServer: true });
  server.on('upgrade', (req, socket, head) => {
    if (new URL(req.url ?? '/', 'http://127.0.0.1').pathname !== '/socket') return socket.destroy();
    const authed = req.headers.authorization === `Bearer ${CONTROL_TOKEN}`;
    if (!authed && opts.authenticatedOnly) {
      socket.end('HTTP/1.1 401 Unauthorized\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      let greeted = false;
      const own = new Map<string, Sub>();
      ws.on('message', (data) => {
        let f: Ev;
        try {
          f = JSON.parse(data.toString()) as Ev;
        } catch {
          return;
        }
        if (!greeted) {
          if (f.type !== 'hello') {
            ws.send(JSON.stringify({ type: 'error', code: 'hello-required' }));
            return ws.close();
          }
          greeted = true;
          return ws.send(
            JSON.stringify({
              type: 'hello',
              versions: broken === 'hello-two-versions' ? ['0.1', '0.2'] : ['0.1'],
              role: 'both',
              capabilities: { filters: ['attr-match'], control: { accepts: [], ack_window_ms: HELLO_ACK_WINDOW_MS } },
            }),
          );
        }
        if (typeof f.type === 'string' && f.type.includes('.')) {
          if (!COMMAND.test(f.type)) return valid(f) ? ingestOne(f) : undefined;
          const refuse = (code: string) => ws.send(JSON.stringify({ type: 'error', cause: f.id, code }));
          // AEP-0004 §4 #1: control only on an authenticated duplex
          if (!authed && broken !== 'control-unauthenticated') return refuse('unauthorized');
          if (f.session === CONTROL_SESSION) return target.command(f);
          // §4 #2: no live claimant; the refusal is a connection-scoped frame, never a session Event (§8)
          if (broken === 'control-no-route-event')
            return ingestOne({
              ...f,
              id: `relay-${String(f.id)}`,
              type: 'control.rejected',
              source: 'aep://test/relay',
              agent: 'test-relay',
              cause: f.id,
              data: { reason: 'invalid' },
            });
          return refuse('no-route');
        }
        if (f.type === 'ping') return ws.send(JSON.stringify({ type: 'pong', t: f.t }));
        if (f.type === 'subscribe') {
          let filter: AttrFilter;
          try {
            filter = parseFilter(f.filter ?? {});
          } catch {
            ws.send(JSON.stringify({ type: 'error', id: f.id, code: 'invalid-filter', detail: 'malformed filter' }));
            if (broken === 'closes-on-refusal') ws.close();
            return;
          }
          const sub: Sub = { filter, send: (ev) => ws.send(JSON.stringify(ev)) };
          own.set(String(f.id), sub);
          subs.add(sub);
          return ws.send(JSON.stringify({ type: 'subscribed', id: f.id }));
        }
        if (f.type === 'unsubscribe') {
          const sub = own.get(String(f.id));
          if (sub) subs.delete(sub);
          return ws.send(JSON.stringify({ type: 'unsubscribed', id: f.id }));
        }
        // unknown frame types are ignored (AEP-0003 §2)
        if (broken === 'closes-on-unknown-frame') ws.close();
      });
      ws.on('close', () => {
        for (const s of own.values()) subs.delete(s);
      });
    });
  });

  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((r) => {
        for (const c of wss.clients) c.terminate();
        wss.close();
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
