/**
 * A compliant AEP collector for the `aep live` tests, written from AEP-0003 §2-§7 (discovery, POST ingest with the
 * version gate and envelope validation, SSE fan-out with attr-match filters, capture ceilings, resume by Last-Event-ID
 * and `from`, replay-all and replay-exhausted over a bounded buffer, a minimal WebSocket duplex with hello, subscribe
 * with `from`, refusals, the roster of emitter claims and ping), listening on 127.0.0.1 only. Events go out as the
 * bytes they came in unless a ceiling rewrites them. Its event surfaces take only requests with the bearer {@link TOKEN}.
 * `broken` names one way to break it, so each broken variant fails exactly one check.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
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
  | 'batch-partial'
  | 'batch-accepts-invalid'
  | 'ingest-201'
  | 'sse-no-id'
  | 'rewrites'
  | 'ignores-filter'
  | 'severity-by-name'
  | 'up-levels'
  | 'resume-inclusive'
  | 'hello-two-versions'
  | 'closes-on-refusal'
  | 'closes-on-unknown-frame'
  | 'sse-from-inclusive'
  | 'ws-from-inclusive'
  | 'replay-all-exhausted'
  | 'roster-synthesizes'
  | 'exhausted-late'
  | 'reserializes'
  | 'hangs'
  | 'hangs-post'
  | 'hangs-upgrade'
  | 'hangs-sse'
  | 'no-socket'
  | 'no-well-known'
  | 'keeps-content'
  | 'control-unauthenticated'
  | 'control-open-relay'
  | 'control-no-route-event'
  | 'control-slow-ack'
  | 'control-dedupe-fresh'
  | 'control-dedupe-fresh-late'
  | 'control-accepts-undeclared'
  | 'control-cancel-uncaused'
  | 'control-target-undeclared'
  | 'control-no-route-accepted'
  | 'control-no-route-miscaused'
  | 'control-no-route-as-id'
  | 'sse-500'
  | 'sse-text-plain'
  | 'sse-multiline-data'
  | 'sse-bad-json'
  | 'sse-long-line'
  | 'sse-ends'
  | 'discovery-huge'
  | 'resets-version-gate'
  | 'hello-binary'
  // after a binary frame, ignores the rest of that connection's frames, open (compliant: never ingested)
  | 'binary-mutes'
  | 'hello-any-version'
  | 'hello-unsupported-no-versions'
  | 'rejects-unknown-capability'
  | 'filter-fail-open'
  | 'sse-agent-id'
  | 'wrong-type-accepted'
  | 'fanout-dedupes'
  | 'plain-off-host'
  | 'oversize-400'
  | 'unsubscribe-silent'
  | 'unsubscribe-keeps'
  | 'one-subscription'
  | 'hello-bad-role'
  | 'hello-emitter-no-agent'
  | 'accepts-binary'
  | 'limit-no-detail'
  | 'limit-number-detail'
  | 'limit-open-code'
  | 'roster-merges'
  | 'roster-no-session'
  | 'control-ambiguous-broadcast'
  | 'no-buffer-advert'
  | 'hello-no-buffer'
  | 'sse-refuses-all'
  | 'sse-takes-malformed-from'
  | 'sse-ignores-last-event-id'
  | 'sse-no-heartbeat'
  | 'tokenless'
  | 'tokenless-off-host'
  | 'tokenless-ws'
  | 'drops-notice'
  | 'drops-one-notice'
  | 'closing-ahead'
  | 'closes-unannounced'
  | 'ws-silent';

/**
 * The bearer token the endpoint takes (AEP-0003 §8.1): its event surfaces (POST ingest, the SSE stream, a WebSocket
 * subscribe) refuse a request without it unless `tokenless` (`tokenless-ws`: the subscribe only), and it authenticates
 * a duplex for control (AEP-0004 §4 #1).
 */
export const TOKEN = 'live-test-token';
/** The session the endpoint's one connected target claims, and a run of it to cancel. */
export const CONTROL_SESSION = 'ctl_target';
export const CONTROL_RUN = 'ctl_run_1';
/** The ack window the endpoint's hello declares (AEP-0003 §4 `capabilities.control.ack_window_ms`). */
export const HELLO_ACK_WINDOW_MS = 400;
/** How late `control-slow-ack` acks a declared command (past a short test window, within the test timeout). */
export const SLOW_ACK_MS = 700;

/** How much `sse-long-line` and `discovery-huge` send without a line break (past the checker's 4 MiB limit). */
export const OVERSIZE = 5 << 20;

const SEVERITIES = ['debug', 'info', 'notice', 'warning', 'error', 'critical'];

/** `severity-by-name`: the filter with its severity comparison made on the level names (a bug AEP-0001 §8.1 rules out). */
function byName(filter: AttrFilter, ev: Ev): AttrFilter {
  const band = filter.predicates.find((p) => p.kind === 'band');
  if (band?.kind !== 'band') return filter;
  const name = String(ev.severity ?? 'info');
  const ok =
    (band.gte === undefined || name >= SEVERITIES[band.gte]!) &&
    (band.lte === undefined || name <= SEVERITIES[band.lte]!);
  const rest = filter.predicates.filter((p) => p !== band);
  // an absent key never matches: the name comparison refused the Event
  return { predicates: ok ? rest : [...rest, { key: 'x-by-name', kind: 'any', values: [] }] };
}

/** Responses in the middle of a line written in chunks: no heartbeat goes in there. */
const midWrite = new WeakSet<ServerResponse>();

/** Write `head`, `OVERSIZE` bytes of `fill`, then `tail` to `res` (bounded; honours backpressure; stops once closed). */
function oversize(res: ServerResponse, fill: string, tail: string, head = ''): void {
  // a heartbeat between its chunks would break the line it is writing
  midWrite.add(res);
  res.write(head);
  const chunk = fill.repeat(1 << 16);
  let left = OVERSIZE;
  const more = () => {
    while (left > 0 && !res.destroyed) {
      left -= chunk.length;
      if (!res.write(chunk)) return void res.once('drain', more);
    }
    if (!res.destroyed) res.end(tail);
  };
  more();
}

/** The largest POST body the endpoint takes (past it: 413, AEP-0003 §3.2 #3): above byte-identity's, below the probe. */
export const BODY_MAX = 2 << 20;

/** The most resume positions one subscribe may name (past it: limit-exceeded, AEP-0003 §6.5). */
const FROM_MAX = 256;

/** The replay buffer depth the endpoint advertises (global, across sessions). */
export const BUFFER = 1000;

/**
 * AEP-0003 §8.4: past this many bytes queued toward a subscriber (its consumer reads slowly) debug and info Events are
 * dropped; past {@link HARD_QUEUE} a notice-and-above Event disconnects it. Small, so the probe needs little more than
 * the loopback socket buffers; above the largest Event another check delivers (byte-identity's 256 KiB).
 */
export const SOFT_QUEUE = 1 << 20;
export const HARD_QUEUE = 2 << 20;

type Ev = Record<string, unknown>;
interface Sub {
  filter: AttrFilter;
  /** An SSE subscription (not a WebSocket one). */
  sse?: boolean;
  capture?: AepCaptureLevel;
  send: (ev: Ev) => void;
  /** Bytes queued toward the consumer, not yet taken by the kernel. */
  queued: () => number;
  /**
   * End the subscription so its consumer resumes exactly (WS: closing frame with positions, then close); `unsent`
   * is the Event that found it slow (`closing-ahead` names it delivered).
   */
  disconnect: (unsent: Ev) => void;
  droppedOne?: boolean;
  /** The last position sent per session (WebSocket, for a closing frame). */
  positions?: () => Position[];
}
interface Position {
  session: string;
  epoch: number;
  seq: number;
}
interface Claim {
  session: string;
  agent?: unknown;
  instance?: unknown;
  control?: unknown;
  emits?: unknown;
}

/** A running endpoint: its base URL and how to stop it. */
export interface Endpoint {
  url: string;
  close(): Promise<void>;
  /** What its bounded queues did toward slow consumers (AEP-0003 §8.4): Events dropped by severity, disconnects. */
  slow?: SlowStats;
}

/** Counts of the endpoint's backpressure policy, so a test knows its consumer was slow to it. */
export interface SlowStats {
  dropped: Record<string, number>;
  disconnects: number;
}

const LEVELS = ['none', 'metadata', 'redacted', 'full'];
const before = (a: Position, b: { epoch: number; seq: number }) =>
  a.epoch < b.epoch || (a.epoch === b.epoch && a.seq < b.seq);
const positionOf = (ev: Ev): Position | undefined =>
  typeof ev.session === 'string' && typeof ev.seq === 'number'
    ? { session: ev.session, epoch: Number(ev.epoch ?? 0), seq: ev.seq }
    : undefined;

/** A `from` value: `all`, or an array of {session, epoch, seq}; undefined when malformed. */
function parseFrom(v: unknown): 'all' | Position[] | undefined {
  if (v === 'all') return 'all';
  if (!Array.isArray(v)) return undefined;
  const out: Position[] = [];
  for (const p of v) {
    if (!p || typeof p !== 'object') return undefined;
    const { session, epoch, seq } = p as Ev;
    if (typeof session !== 'string' || !Number.isInteger(epoch ?? 0) || !Number.isInteger(seq)) return undefined;
    out.push({ session, epoch: Number(epoch ?? 0), seq: Number(seq) });
  }
  return out;
}

const COMMAND = /^(control\.|x\.[^.]+\.control\.)/;
const TARGET_SOURCE = 'aep://test/agent/target';

/**
 * The one connected control target, claiming {@link CONTROL_SESSION} (AEP-0004 §7): it declares
 * `control.attention.respond` and `control.cancel`, dedupes on (source, id) and re-emits the recorded ack on
 * redelivery, nacks other types `unsupported`, and answers a cancel of {@link CONTROL_RUN} with run.cancelled.
 * `emit` sequences an Event into the session; `redeliver` fans out an Event already emitted.
 */
function controlTarget(
  emit: (ev: Ev) => void,
  redeliver: (ev: Ev, sseOnly?: boolean) => void,
  broken?: Broken,
  windowMs?: number,
) {
  const accepts = new Set(['control.attention.respond', 'control.cancel']);
  const recorded = new Map<string, Ev>();
  const decided = new Set<Ev>();
  let seq = 0;
  const event = (type: string, data: Ev, over: Ev = {}): Ev => ({
    aep: '0.1',
    id: `tgt-${seq}`,
    type,
    time: new Date().toISOString(),
    source: TARGET_SOURCE,
    agent: 'test-target',
    session: CONTROL_SESSION,
    seq: seq++,
    data,
    ...over,
  });
  return {
    /** Its roster entry: the claim and its hello's declarations, verbatim (AEP-0003 §4.1 #4). */
    claim: {
      session: CONTROL_SESSION,
      agent: 'test-target',
      ...(broken === 'control-target-undeclared'
        ? {}
        : { control: { accepts: [...accepts], ...(windowMs ? { ack_window_ms: windowMs } : {}) } }),
    },
    command(cmd: Ev): void {
      const key = `${String(cmd.source)}\u0000${String(cmd.id)}`;
      const known = recorded.get(key);
      if (known) {
        // still pending: the one forthcoming ack answers every delivery (AEP-0004 §3)
        if (!decided.has(known)) return;
        if (broken === 'control-dedupe-fresh') emit(event(String(known.type), known.data as Ev, { cause: cmd.id }));
        else if (broken === 'control-dedupe-fresh-late') {
          // the recorded ack again on the stream only (legal redelivery), the fresh decision after it on every binding
          redeliver(known, true);
          setImmediate(() => emit(event(String(known.type), known.data as Ev, { cause: cmd.id })));
        } else redeliver(known);
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

/** How often the endpoint's SSE streams carry a `: ping` comment (the interval the heartbeat tests judge is a few times this). */
export const PING_MS = 100;

/** The base path of the `literal` endpoint (its URL ends in it, with a trailing slash). */
const LITERAL_BASE = '/aep';

/**
 * Start the endpoint (compliant unless `broken`) on 127.0.0.1 and an ephemeral port. `control: false` advertises no
 * control; `authenticatedOnly` answers a WebSocket upgrade without the token 401 (`reset`: closes the connection); `redeliver` replays every Event
 * twice (at-least-once, still compliant); `acksOnStreamOnly` fans the target's Events out on SSE only; `noPong` leaves pings unanswered; `relayNacks` refuses `unsupported` on the target's behalf. `literal` takes every latitude the spec text leaves, still compliant: a base
 * path, endpoints named by absolute URL, relative path and base-prefixed path, extra members in documents and frames,
 * Events re-serialized with an extension attribute and the §5.1 defaults stated,
 * media types with parameters, a 207 per-line report of a batch with an invalid line, an SSE stream with a BOM, CRLF lines, comments and `retry:` inside messages, `id:`
 * before `event:`, no space after the colons, unknown frame types after hello, and WebSocket pings.
 */
export async function startEndpoint(
  broken?: Broken,
  opts: {
    control?: boolean;
    authenticatedOnly?: boolean | 'reset';
    redeliver?: boolean;
    literal?: boolean;
    acksOnStreamOnly?: boolean;
    noPong?: boolean;
    /** The relay nacks a command of a type its target does not declare itself (AEP-0004 §4 #2, a MAY). */
    relayNacks?: boolean;
    /** Hold the SSE answer's head back until the first message (Node sends it with the first write). */
    lazyHead?: boolean;
    /** Toward a slow consumer, drop only debug and info and deliver every notice-and-above Event (never disconnect). */
    backpressure?: 'deliver';
    /** Name no WebSocket endpoint (the backpressure check then probes SSE), as `no-socket` does. */
    sseOnly?: boolean;
    /** Name no SSE endpoint and answer GET /stream 404: a relay offering only the WebSocket binding (AEP-0003 §1). */
    wsOnly?: boolean;
    /** Leave `events` out of the discovery document (POSTs still go to /events, where it is served: AEP-0003 §3.4). */
    omitEvents?: boolean;
    /**
     * Refuse every well-formed WebSocket subscribe with an error frame of this code (and `detail`, when given, of any
     * JSON type); with `after`, only those after the first `after` the endpoint subscribed (counted across connections);
     * with `early`, before the filter is read (a subscribe naming an illegal key is refused so too).
     */
    refuseSubscribe?: { code: string; detail?: unknown; after?: number; early?: boolean };
    /** Refuse a consumer's roster request so, after the first `after` it answered (default 0), counted across connections. */
    refuseRoster?: { code: string; detail?: unknown; after?: number };
    /**
     * Deliver each of the target's Events (its acks) twice, the second copy with an extension attribute a relay added:
     * at-least-once redelivery (AEP-0001 §7 #4) a relay MAY extend (§4.2), still compliant.
     */
    ackCopies?: boolean;
    /** Keep and advertise a replay buffer of this many Events per session (instead of {@link BUFFER} in all). */
    bufferDepth?: number;
    /**
     * Keep and advertise a global replay buffer of this many Events, busy: another emitter's Event is ingested after each
     * one posted, so a resume position of the run's can predate the buffer (a legal eviction, AEP-0003 §5).
     */
    busyBuffer?: number;
    /** Refuse a roster request on a duplex opened without the token `unauthorized`, as a subscribe is (compliant). */
    rosterAuthed?: boolean;
    /** Send its hello as the WebSocket opens, before the peer's (compliant: §3.5 #1 orders each direction). */
    helloFirst?: boolean;
    /** The ack window the target declares, relayed in its roster entry (AEP-0003 §4.1 #4); the relay's hello keeps its own. */
    targetWindowMs?: number;
  } = {},
): Promise<Endpoint> {
  const literal = !!opts.literal;
  // the route of a request: its path under the base, without a trailing slash
  const route = (path: string) => {
    if (!literal) return path;
    if (path !== LITERAL_BASE && !path.startsWith(`${LITERAL_BASE}/`)) return '/not-here';
    return path.slice(LITERAL_BASE.length).replace(/\/+$/, '') || '/';
  };
  let origin = '';
  const buffer: Ev[] = [];
  // the highest position evicted per session: a resume before it predates the buffer
  const evicted = new Map<string, Position>();
  const raw = new WeakMap<Ev, string>();
  const subs = new Set<Sub>();
  const slow: SlowStats = { dropped: {}, disconnects: 0 };
  const claims = new Map<object, Claim[]>();
  // the subscribes and consumer roster requests answered so far (refuseSubscribe, refuseRoster `after`)
  let subscribed = 0;
  let rostered = 0;
  const deliver = (s: Sub, ev: Ev) => {
    if (broken !== 'ignores-filter' && !matches(broken === 'severity-by-name' ? byName(s.filter, ev) : s.filter, ev))
      return;
    let out = ev;
    if (s.capture) out = broken === 'up-levels' ? { ...ev, capture: 'full' } : downlevelEvent(ev, s.capture).event;
    if (s.capture && broken === 'keeps-content') out = { ...out, data: ev.data };
    if (broken === 'rewrites') out = { ...out, time: '2000-01-01T00:00:00Z' };
    // a relay MAY add extension attributes (AEP-0001 §4.2), and stating a default changes no value (§5.1)
    if (literal) out = { epoch: 0, severity: 'info', ...out, literalhop: 'relay-a' };
    // AEP-0003 §8.4: toward a slow consumer debug and info MAY go; notice-and-above is delivered or disconnects
    // (`backpressure: 'deliver'` always delivers it; `drops-notice` drops it silently, as §8.4 forbids)
    // (`drops-one-notice` drops the first notice past the mark and delivers the rest)
    if (s.queued() > SOFT_QUEUE) {
      const severity = String(ev.severity ?? 'info');
      const drop = () => void (slow.dropped[severity] = (slow.dropped[severity] ?? 0) + 1);
      if (broken === 'drops-notice' || severity === 'debug' || severity === 'info') return drop();
      if (broken === 'drops-one-notice' && !s.droppedOne) {
        s.droppedOne = true;
        return drop();
      }
      if (s.queued() > HARD_QUEUE && opts.backpressure !== 'deliver') {
        slow.disconnects++;
        return s.disconnect(ev);
      }
    }
    s.send(out);
    // `ackCopies`: the target's Events reach a subscriber twice, the second copy with a relay's extension attribute
    if (opts.ackCopies && ev.source === TARGET_SOURCE) s.send({ ...out, relayhop: 'copy' });
  };
  // the (source, id) pairs ingested: the broken variant dedupes live fan-out on them, which AEP-0003 §5 forbids
  const ingested = new Set<string>();
  const ingestOne = (ev: Ev, text?: string) => {
    const key = JSON.stringify([ev.source, ev.id]);
    if (broken === 'fanout-dedupes' && ingested.has(key)) return;
    ingested.add(key);
    if (text !== undefined) raw.set(ev, text);
    buffer.push(ev);
    // `bufferDepth`: a count per session (AEP-0003 §5 lets an endpoint document either), oldest of the session first
    const mine = opts.bufferDepth !== undefined ? buffer.filter((e) => e.session === ev.session) : [];
    const gone =
      opts.bufferDepth !== undefined
        ? mine.length > opts.bufferDepth
          ? buffer.splice(buffer.indexOf(mine[0]!), 1)[0]
          : undefined
        : buffer.length > (opts.busyBuffer ?? BUFFER)
          ? buffer.shift()
          : undefined;
    const p = gone && positionOf(gone);
    if (p) evicted.set(p.session, p);
    for (const s of subs) {
      deliver(s, ev);
      if (opts.redeliver) deliver(s, ev);
    }
  };
  // `busyBuffer`: another emitter's traffic
  let others = 0;
  const other = (): Ev => ({
    aep: '0.1',
    id: `other-${others}`,
    type: 'progress.status',
    time: new Date().toISOString(),
    source: 'aep://test/agent/other',
    agent: 'other',
    session: 'other-emitter',
    seq: others++,
    data: {},
  });
  const textOf = (ev: Ev) => (broken !== 'reserializes' && raw.get(ev)) || JSON.stringify(ev);
  // at-least-once: `redeliver` delivers and replays each Event twice, which is legal (AEP-0003 §5, §7)
  const replayOne = (sub: Sub, ev: Ev) => {
    deliver(sub, ev);
    if (opts.redeliver) deliver(sub, ev);
  };
  /** Replay per `from` (or one Last-Event-ID position) to `sub`, announcing each exhausted session first. */
  const replay = (
    sub: Sub,
    from: 'all' | Position[],
    exhausted: (session: string, earliest: Position) => void,
    inclusive = false,
  ) => {
    if (from === 'all') {
      for (const ev of buffer) if (positionOf(ev)) replayOne(sub, ev);
      if (broken === 'replay-all-exhausted') {
        const firsts = new Map<string, Position>();
        for (const p of buffer.map(positionOf)) if (p && !firsts.has(p.session)) firsts.set(p.session, p);
        for (const [session, p] of firsts) exhausted(session, p);
      }
      return;
    }
    for (const pos of from) {
      const held = buffer.filter((ev) => ev.session === pos.session);
      const after = held.filter((ev) => {
        const p = positionOf(ev)!;
        return inclusive ? !before(p, pos) : before(pos, p);
      });
      const gone = evicted.get(pos.session);
      const predates = gone !== undefined && before(pos, gone);
      if (predates && held[0] && broken !== 'exhausted-late') exhausted(pos.session, positionOf(held[0])!);
      for (const ev of after) replayOne(sub, ev);
      if (predates && held[0] && broken === 'exhausted-late') exhausted(pos.session, positionOf(held[0])!);
    }
  };
  const valid = (ev: unknown): ev is Ev =>
    !!ev &&
    typeof ev === 'object' &&
    !Array.isArray(ev) &&
    ['aep', 'id', 'type', 'time', 'source', 'agent'].every((k) => typeof (ev as Ev)[k] === 'string');

  const discovery = () =>
    JSON.stringify({
      aep: ['0.1'],
      role: 'collector',
      ...(literal ? { name: 'a spec-literal collector', links: { spec: 'AEP-0003' } } : {}),
      endpoints: literal
        ? { events: `${origin}${LITERAL_BASE}/events`, stream: 'stream', socket: `${LITERAL_BASE}/socket/` }
        : {
            ...(opts.omitEvents ? {} : { events: '/events' }),
            ...(opts.wsOnly ? {} : { stream: '/stream' }),
            ...(broken === 'no-socket' || opts.sseOnly
              ? {}
              : { socket: broken === 'plain-off-host' ? 'ws://aep.example.com/socket' : '/socket' }),
          },
      capabilities: {
        filters: ['attr-match'],
        replay:
          broken === 'no-buffer-advert'
            ? { all: true }
            : { buffer: opts.bufferDepth ?? opts.busyBuffer ?? BUFFER, all: true },
        capture: ['none', 'metadata', 'redacted'],
        roster: {},
        'x-unknown-capability': { ignored: true },
        ...(opts.control === false ? {} : { control: { accepts: [] } }),
      },
    });

  const json = (res: ServerResponse, status: number, body?: unknown) => {
    res.writeHead(status, { 'Content-Type': literal ? 'application/json; charset=utf-8' : 'application/json' });
    res.end(body === undefined ? undefined : JSON.stringify(body));
  };

  // AEP-0003 §8.1: the token as a header, or as `?access_token=` (a browser's EventSource sets no header); the
  // discovery document stays open, so a run without the token still learns the endpoints
  const tokenless = broken === 'tokenless' || broken === 'tokenless-off-host' || broken === 'tokenless-ws';
  const tokenOk = (req: IncomingMessage) =>
    broken === 'tokenless' ||
    broken === 'tokenless-off-host' ||
    req.headers.authorization === `Bearer ${TOKEN}` ||
    new URL(req.url ?? '/', 'http://127.0.0.1').searchParams.get('access_token') === TOKEN;
  const unauthorized = (res: ServerResponse) => {
    res.setHeader('www-authenticate', 'Bearer');
    json(res, 401, { error: 'unauthorized' });
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const path = route(url.pathname);
    if (req.method === 'GET' && (path === '/events' || url.pathname === '/.well-known/aep')) {
      if (broken === 'hangs') return;
      if (broken === 'no-well-known' && path !== '/events') return json(res, 404, { error: 'not-found' });
      if (broken === 'no-discovery') return json(res, 404, { error: 'not-found' });
      res.writeHead(200, { 'content-type': literal ? 'application/json;charset=UTF-8' : 'application/json' });
      if (broken === 'discovery-huge') return oversize(res, ' ', discovery());
      return res.end(discovery());
    }
    if (req.method === 'POST' && path === '/events') {
      // never answered, its body never read (the socket is ended when the endpoint closes)
      if (broken === 'hangs-post') return;
      const parts: Buffer[] = [];
      let size = 0;
      // the body is read to its end (an answer before it can be lost to the client), kept only within the limit
      req.on('data', (b: Buffer) => {
        size += b.length;
        if (size <= BODY_MAX) parts.push(b);
      });
      req.on('end', () => {
        if (!tokenOk(req)) return unauthorized(res);
        const version = String(req.headers['aep-version'] ?? '');
        if (broken === 'resets-version-gate' && version.split('.')[0] !== '0') return req.socket.destroy();
        if (broken !== 'no-version-gate' && version.split('.')[0] !== '0')
          return json(res, 426, { versions: ['0.1'], ...(literal ? { detail: `unsupported ${version}` } : {}) });
        // AEP-0003 §3.2 #3: 413 oversize, 415 wrong content type (#1 names the two types, parameters aside)
        const type = /^\s*(application\/(?:json|x-ndjson))\s*(;|$)/i.exec(String(req.headers['content-type'] ?? ''));
        if (!type && broken !== 'wrong-type-accepted') return json(res, 415, { error: 'unsupported-media-type' });
        if (size > BODY_MAX)
          return broken === 'oversize-400'
            ? json(res, 400, { error: 'invalid-event' })
            : json(res, 413, { error: 'oversize', detail: { max: BODY_MAX } });
        const text = Buffer.concat(parts).toString('utf8');
        const lines =
          type?.[1]?.toLowerCase() === 'application/x-ndjson'
            ? text.split('\n').filter((l) => l.trim() !== '')
            : [text];
        const events: [Ev, string][] = [];
        const refused: number[] = [];
        for (const [i, l] of lines.entries()) {
          let ev: unknown;
          try {
            ev = JSON.parse(l);
          } catch {
            return json(res, 400, { error: 'invalid-event', detail: { line: i } });
          }
          if (!valid(ev) && broken !== 'accepts-invalid') {
            // AEP-0003 §3.2 #3: a batch MAY get a 207-style per-line report (the literal endpoint's latitude)
            if (broken === 'batch-accepts-invalid' && lines.length > 1) continue;
            if (literal && lines.length > 1) {
              refused.push(i);
              continue;
            }
            // the lines before the failing one ingested all the same, as the AEP SDK's test relay does
            if (broken === 'batch-partial') for (const [e, t] of events) ingestOne(e, t);
            return json(res, 400, { error: 'invalid-event', detail: { line: i } });
          }
          events.push([ev as Ev, l]);
        }
        for (const [ev, l] of events) {
          ingestOne(ev, l);
          if (opts.busyBuffer !== undefined) ingestOne(other());
        }
        if (refused.length)
          return json(res, 207, {
            results: lines.map((_, i) => (refused.includes(i) ? { line: i, error: 'invalid-event' } : { line: i })),
          });
        // 202 accepted; the literal endpoint answers 200, which the maintainers' live checker takes too
        json(
          res,
          broken === 'ingest-201' ? 201 : literal ? 200 : 202,
          literal ? { accepted: events.length } : undefined,
        );
      });
      return;
    }
    if (req.method === 'GET' && path === '/stream' && !opts.wsOnly) {
      if (!tokenOk(req)) return unauthorized(res);
      // never a head, nor a message (the connection is ended when the endpoint closes)
      if (broken === 'hangs-sse') return;
      let filter: AttrFilter;
      let from: 'all' | Position[] | undefined;
      try {
        try {
          filter = parseFilter(url.searchParams.get('filter') ?? '{}');
        } catch (e) {
          // `filter-fail-open` matches everything past a filter it cannot take, over SSE as over the WebSocket
          if (broken !== 'filter-fail-open') throw e;
          filter = parseFilter({});
        }
        const f = url.searchParams.get('from');
        if (f !== null) {
          if (f === 'all' && broken === 'sse-refuses-all') throw new Error('replay-all not implemented');
          from = parseFrom(f === 'all' ? f : JSON.parse(f));
          // the broken variant guesses past a malformed `from` (a subscription without it), where §5 refuses it
          if (!from && broken !== 'sse-takes-malformed-from') throw new Error('malformed from');
        }
      } catch {
        return json(res, 400, { error: 'invalid-filter' });
      }
      const capture = url.searchParams.get('capture') ?? undefined;
      res.writeHead(broken === 'sse-500' ? 500 : 200, {
        'content-type':
          broken === 'sse-text-plain'
            ? 'text/plain'
            : literal
              ? 'Text/Event-Stream; charset=utf-8'
              : 'text/event-stream',
        'cache-control': 'no-cache',
      });
      // WHATWG SSE: a leading BOM is ignored, CRLF ends a line as LF does, comments and unknown fields are skipped
      if (literal) res.write('\uFEFF');
      const send = (ev: Ev) => {
        if (res.writableEnded) return;
        const p = positionOf(ev);
        const id = p ? `${p.session}:${p.epoch}:${p.seq}` : undefined;
        if (literal)
          return void res.write(
            `${id ? `id:${id}\r\n` : ''}: between the fields\r\nretry: 1000\r\nevent:${String(ev.type)}\r\nx-field: ignored\r\ndata:${textOf(ev)}\r\n\r\n`,
          );
        const agentId = !p && broken === 'sse-agent-id' ? `id: ${String(ev.agent)}\n` : '';
        const head = `event: ${String(ev.type)}\n${id && broken !== 'sse-no-id' ? `id: ${id}\n` : agentId}`;
        // the fanout check's second Event (its data.phase "fanout") is the one these variants break
        if ((ev.data as Ev | undefined)?.phase === 'fanout') {
          if (broken === 'sse-bad-json') return void res.write(`${head}data: {not json\n\n`);
          if (broken === 'sse-ends') return void res.end();
          if (broken === 'sse-long-line') return oversize(res, 'x', '\n\n', `${head}data: `);
        }
        const text =
          broken === 'sse-multiline-data'
            ? JSON.stringify(JSON.parse(textOf(ev)), null, 1).replace(/\n/g, '\ndata: ')
            : textOf(ev);
        res.write(`${head}data: ${text}\n\n`);
      };
      const sub: Sub = {
        filter,
        sse: true,
        ...(capture && LEVELS.includes(capture) ? { capture: capture as AepCaptureLevel } : {}),
        send,
        queued: () => res.writableLength,
        // SSE: the stream ends after what is queued, so the consumer reads up to its last position
        disconnect: () => {
          subs.delete(sub);
          res.end();
        },
      };
      const exhausted = (session: string, e: Position) =>
        res.write(`: replay-exhausted ${session} ${e.epoch}:${e.seq}${literal ? '\r\n\r\n' : '\n\n'}`);
      const m =
        broken === 'sse-ignores-last-event-id'
          ? null
          : /^(.*):(\d+):(\d+)$/.exec(String(req.headers['last-event-id'] ?? ''));
      if (from) replay(sub, from, exhausted, broken === 'sse-from-inclusive');
      else if (m)
        replay(
          sub,
          [{ session: m[1]!, epoch: Number(m[2]), seq: Number(m[3]) }],
          exhausted,
          broken === 'resume-inclusive',
        );
      // `live=0` (named by AEP-0003 §5) ends the stream after the replay: a single pass, no live delivery
      if (url.searchParams.get('live') === '0') return void res.end();
      subs.add(sub);
      req.on('close', () => subs.delete(sub));
      if (opts.lazyHead) return;
      const ping = () =>
        void (res.writableEnded || midWrite.has(res) || res.write(literal ? ':ping\r\n\r\n' : ': ping\n\n'));
      ping();
      // AEP-0003 §3.3 #4: a comment line at least every interval (`sse-no-heartbeat` only at the opening)
      if (broken === 'sse-no-heartbeat') return;
      const beat = setInterval(ping, PING_MS);
      req.on('close', () => clearInterval(beat));
      return;
    }
    json(res, 404, { error: 'not-found' });
  });

  const target = controlTarget(
    ingestOne,
    (ev, sseOnly) => {
      for (const s of subs) if (!sseOnly || s.sse) deliver(s, ev);
    },
    broken,
    opts.targetWindowMs,
  );
  const wss = new WebSocketServer({ noServer: true });
  let binary = 0;
  // `hangs-upgrade`: upgrade requests left unanswered, ended when the endpoint closes
  const hung = new Set<{ destroy(): void }>();
  server.on('upgrade', (req, socket, head) => {
    if (broken === 'hangs-upgrade') return void hung.add(socket);
    if (
      broken === 'no-socket' ||
      opts.sseOnly ||
      route(new URL(req.url ?? '/', 'http://127.0.0.1').pathname) !== '/socket'
    )
      return socket.destroy();
    // AEP-0003 §8.1: servers MAY accept the token as `?access_token=` (a browser's WebSocket sets no header)
    const authed =
      req.headers.authorization === `Bearer ${TOKEN}` ||
      new URL(req.url ?? '/', 'http://127.0.0.1').searchParams.get('access_token') === TOKEN;
    if (!authed && opts.authenticatedOnly === 'reset') return socket.destroy();
    if (!authed && opts.authenticatedOnly) {
      socket.end('HTTP/1.1 401 Unauthorized\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      let hello: Ev | undefined;
      const own = new Map<string, Sub>();
      const mine: Claim[] = [];
      const frame = (f: Ev) => ws.send(JSON.stringify(f));
      const ownHello = (): Ev => ({
        type: 'hello',
        versions: broken === 'hello-two-versions' ? ['0.1', '0.2'] : ['0.1'],
        role: broken === 'hello-bad-role' ? 'collector' : broken === 'hello-emitter-no-agent' ? 'emitter' : 'both',
        ...(literal ? { identity: { agent: 'literal-collector', instance: 'test/1', card: null } } : {}),
        capabilities: {
          filters: ['attr-match'],
          replay:
            broken === 'hello-no-buffer'
              ? { all: true }
              : { buffer: opts.bufferDepth ?? opts.busyBuffer ?? BUFFER, all: true },
          roster: {},
          control: { accepts: [], ack_window_ms: HELLO_ACK_WINDOW_MS },
          ...(literal ? { experimental: { 'x-literal': true } } : {}),
        },
      });
      // AEP-0003 §3.5 #1: the first frame *in each direction* is hello, so an endpoint MAY send its own at once
      if (opts.helloFirst) frame(ownHello());
      // a command (AEP-0004): to the connected target, or refused by the relay
      const command = (f: Ev) => {
        const refuse = (code: string) => ws.send(JSON.stringify({ type: 'error', cause: f.id, code }));
        const owners = [...claims.entries()].filter(([, cs]) => cs.some((c) => c.session === f.session));
        // AEP-0004 §4 #1: control only on an authenticated duplex (`control-open-relay` gates only its built-in target)
        const open = broken === 'control-unauthenticated' || (broken === 'control-open-relay' && owners.length > 0);
        if (!authed && !open) return refuse('unauthorized');
        if (f.session === CONTROL_SESSION) {
          // AEP-0004 §4 #2: a relay that knows the target's declaration MAY nack on its behalf
          const accepts = (target.claim.control?.accepts ?? []) as string[];
          if (opts.relayNacks && !accepts.includes(String(f.type))) return refuse('unsupported');
          return target.command(f);
        }
        // one live claimant: the command goes to it (§4 #5: at most one target)
        if (owners.length === 1) return void (owners[0]![0] as typeof ws).send(JSON.stringify(f));
        // AEP-0004 §4 #5: more than one live claimant is refused ambiguous, never guessed or broadcast
        if (owners.length > 1 && broken === 'control-ambiguous-broadcast') {
          for (const [w] of owners) (w as typeof ws).send(JSON.stringify(f));
          return;
        }
        if (owners.length > 1) return refuse('ambiguous');
        // §4 #2: no live claimant; the refusal is a connection-scoped frame, never a session Event (§8)
        if (broken === 'control-no-route-accepted')
          return frame({
            aep: '0.1',
            id: `relay-${String(f.id)}`,
            type: 'control.accepted',
            time: new Date().toISOString(),
            source: 'aep://test/relay',
            agent: 'test-relay',
            session: f.session,
            cause: f.id,
            data: {},
          });
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
        // the refusal with the command's id in the wrong member, or another cause (AEP-0004 §4 #2 sets `cause`)
        if (broken === 'control-no-route-miscaused') return frame({ type: 'error', cause: 'x', code: 'no-route' });
        if (broken === 'control-no-route-as-id') return frame({ type: 'error', id: f.id, code: 'no-route' });
        return refuse('no-route');
      };
      let muted = false;
      ws.on('message', (data, isBinary) => {
        if (muted) return;
        if (isBinary && broken === 'binary-mutes') {
          muted = true;
          return;
        }
        // AEP-0003 §3.5 #2: binary frames are reserved; 1003, a type of data this endpoint cannot accept (RFC 6455)
        if (isBinary && broken !== 'accepts-binary') return ws.close(1003, 'binary frames are reserved in AEP 0.1');
        const text = data.toString();
        let f: Ev;
        try {
          f = JSON.parse(text) as Ev;
        } catch {
          return;
        }
        if (!hello) {
          if (f.type !== 'hello') {
            frame({ type: 'error', code: 'hello-required' });
            return ws.close();
          }
          // AEP-0003 §4 #1: no version in common is refused; §4 #4: unknown capability keys are ignored
          const offered = Array.isArray(f.versions) ? f.versions : [];
          if (!offered.includes('0.1') && broken !== 'hello-any-version') {
            frame({
              type: 'error',
              code: 'version-unsupported',
              ...(broken === 'hello-unsupported-no-versions' ? {} : { versions: ['0.1'] }),
            });
            return ws.close();
          }
          const known = ['emits', 'capture', 'control', 'replay', 'filters', 'roster', 'experimental'];
          if (
            broken === 'rejects-unknown-capability' &&
            Object.keys(f.capabilities ?? {}).some((k) => !known.includes(k))
          ) {
            frame({ type: 'error', code: 'unknown-capability' });
            return ws.close();
          }
          hello = f;
          const identity = (f.identity ?? {}) as Ev;
          // the hello check's own connection (the first consumer greeting as agent-conformance)
          if (broken === 'hello-binary' && identity.agent === 'agent-conformance' && f.role === 'consumer' && !binary++)
            return ws.send(Buffer.from(JSON.stringify({ type: 'hello', versions: ['0.1'] })), { binary: true });
          // `helloFirst`: its own hello went out on connect, its one first frame (AEP-0003 §3.5 #1)
          if (!opts.helloFirst) frame(ownHello());
          // unknown frame types are for the peer to ignore (AEP-0003 §2); a WebSocket ping is answered by `ws`
          if (literal) {
            frame({ type: 'x-literal-notice', note: 'an unknown frame type' });
            ws.ping();
          }
          return;
        }
        if (typeof f.type === 'string' && f.type.includes('.')) {
          if (COMMAND.test(f.type)) return command(f);
          // an Event: ingested, and its session claimed by this connection
          if (!valid(f)) return frame({ type: 'error', code: 'invalid-event' });
          if (typeof f.session === 'string' && !mine.some((c) => c.session === f.session)) {
            const identity = (hello.identity ?? {}) as Ev;
            const caps = (hello.capabilities ?? {}) as Ev;
            mine.push({
              session: f.session,
              ...(identity.agent !== undefined ? { agent: identity.agent } : {}),
              ...(identity.instance !== undefined ? { instance: identity.instance } : {}),
              ...(caps.control !== undefined ? { control: caps.control } : {}),
              ...(broken === 'roster-synthesizes' && caps.control === undefined ? { control: { accepts: [] } } : {}),
              ...(caps.emits !== undefined ? { emits: caps.emits } : {}),
            });
            claims.set(ws, mine);
          }
          return ingestOne(f, text);
        }
        if (f.type === 'ping') return opts.noPong ? undefined : frame({ type: 'pong', t: f.t });
        if (f.type === 'roster') {
          if (hello.role === 'emitter') return frame({ type: 'error', id: f.id, code: 'unauthorized' });
          // AEP-0003 §4.1 #2: the same §8 posture as subscribe (`rosterAuthed`: refused without the token too)
          if (opts.rosterAuthed && !authed) return frame({ type: 'error', id: f.id, code: 'unauthorized' });
          if (opts.refuseRoster && rostered++ >= (opts.refuseRoster.after ?? 0)) {
            const { code, detail } = opts.refuseRoster;
            return frame({ type: 'error', id: f.id, code, ...('detail' in opts.refuseRoster ? { detail } : {}) });
          }
          let entries: object[] = [...claims.values()].flat();
          // the built-in target's claim (AEP-0003 §4.1 #4), its hello's control declared unless broken
          if (opts.control !== false) entries = [...entries, target.claim];
          // one entry per live claim (AEP-0003 §4.1 #5): the broken variant keeps the last claim of a session
          if (broken === 'roster-merges')
            entries = [...new Map(entries.map((e) => [(e as Claim).session, e])).values()];
          if (broken === 'roster-no-session') entries = [...entries, { agent: 'test-relay' }];
          return frame({ type: 'roster', id: f.id, entries });
        }
        if (f.type === 'subscribe') {
          // AEP-0003 §8.1, §6.5: a connection without the token may not subscribe (`tokenless-ws` lets it)
          if (!authed && !tokenless) return frame({ type: 'error', id: f.id, code: 'unauthorized' });
          const refuse = opts.refuseSubscribe;
          if (refuse?.early && subscribed++ >= (refuse.after ?? 0))
            return frame({
              type: 'error',
              id: f.id,
              code: refuse.code,
              ...('detail' in refuse ? { detail: refuse.detail } : {}),
            });
          let filter: AttrFilter;
          const from = f.from === undefined ? undefined : parseFrom(f.from);
          try {
            if (f.from !== undefined && !from) throw new Error('malformed from');
            try {
              filter = parseFilter(f.filter ?? {});
            } catch (e) {
              if (broken !== 'filter-fail-open') throw e;
              filter = parseFilter({});
            }
          } catch {
            frame({ type: 'error', id: f.id, code: 'invalid-filter', detail: 'malformed filter or from' });
            if (broken === 'closes-on-refusal') ws.close();
            return;
          }
          // AEP-0003 §6.5 limit-exceeded: the endpoint replays at most FROM_MAX positions a subscription
          if (Array.isArray(from) && from.length > FROM_MAX)
            return frame({
              type: 'error',
              id: f.id,
              code: broken === 'limit-open-code' ? 'too-many-positions' : 'limit-exceeded',
              // `limit-number-detail`: a detail that is a number, which names no limit (§6.5: SHOULD name it)
              ...(broken === 'limit-no-detail'
                ? {}
                : { detail: broken === 'limit-number-detail' ? FROM_MAX : `at most ${FROM_MAX} resume positions` }),
            });
          if (refuse && !refuse.early && subscribed++ >= (refuse.after ?? 0))
            return frame({
              type: 'error',
              id: f.id,
              code: refuse.code,
              ...('detail' in refuse ? { detail: refuse.detail } : {}),
            });
          const capture = typeof f.capture === 'string' && LEVELS.includes(f.capture) ? f.capture : undefined;
          // the last position sent per session, which a closing frame names (AEP-0003 §3.5 #4)
          const sent = new Map<string, Position>();
          const sub: Sub = {
            filter,
            ...(capture ? { capture: capture as AepCaptureLevel } : {}),
            send: (ev) => {
              if (opts.acksOnStreamOnly && ev.source === TARGET_SOURCE) return;
              // `ws-silent`: a subscription answered subscribed that is delivered nothing (SSE still is)
              if (broken === 'ws-silent') return;
              ws.send(textOf(ev));
              const p = positionOf(ev);
              if (p) sent.set(p.session, p);
            },
            queued: () => ws.bufferedAmount,
            disconnect: (unsent) => {
              for (const s of own.values()) subs.delete(s);
              const p = positionOf(unsent);
              if (broken === 'closing-ahead' && p) sent.set(p.session, p);
              const delivered = [...own.entries()].flatMap(
                ([id, s]) => s.positions?.().map((p) => ({ sub: id, ...p })) ?? [],
              );
              // `closes-unannounced` closes with no closing frame (AEP-0003 §3.5 #3: a SHOULD)
              if (broken !== 'closes-unannounced') frame({ type: 'closing', reason: 'slow consumer', delivered });
              ws.close(1008, 'slow consumer');
            },
            positions: () => [...sent.values()],
          };
          frame({ type: 'subscribed', id: f.id, ...(literal ? { filter: f.filter ?? {} } : {}) });
          if (from)
            replay(
              sub,
              from,
              (session, e) =>
                frame({ type: 'replay-exhausted', sub: f.id, session, earliest: { epoch: e.epoch, seq: e.seq } }),
              broken === 'ws-from-inclusive',
            );
          // AEP-0003 §6.5: multiple concurrent subscriptions per connection
          if (broken === 'one-subscription') for (const s of own.values()) subs.delete(s);
          own.set(String(f.id), sub);
          subs.add(sub);
          return;
        }
        if (f.type === 'unsubscribe') {
          const sub = own.get(String(f.id));
          if (sub && broken !== 'unsubscribe-keeps') subs.delete(sub);
          // §6.5 names the frame but not its members: the literal endpoint echoes no id
          if (broken !== 'unsubscribe-silent')
            frame(literal ? { type: 'unsubscribed' } : { type: 'unsubscribed', id: f.id });
          return;
        }
        // unknown frame types are ignored (AEP-0003 §2)
        if (broken === 'closes-on-unknown-frame') ws.close();
      });
      ws.on('close', () => {
        claims.delete(ws);
        for (const s of own.values()) subs.delete(s);
      });
    });
  });

  const listening = await listenLocal(server, wss);
  const ep = {
    ...listening,
    close: async () => {
      for (const h of hung) h.destroy();
      await listening.close();
    },
    slow,
  };
  origin = ep.url;
  return literal ? { ...ep, url: `${ep.url}${LITERAL_BASE}/` } : ep;
}

/** Listen on 127.0.0.1 (a free port); `close` ends the sockets and both servers. */
export async function listenLocal(
  server: Server,
  wss: WebSocketServer,
): Promise<{ url: string; close: () => Promise<void> }> {
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
