/**
 * `aep live URL` / `checkEndpoint(url, options)`: conformance of a running collector, relay or fan-out endpoint over
 * the AEP-0003 bindings (HTTP discovery and POST ingest, SSE fan-out, the WebSocket duplex). Each check is a rule of
 * src/live/rules.ts; a check the endpoint does not advertise is skipped with its reason (an info), never passed. The
 * Events the endpoint delivered are returned (`--record FILE` writes them) and checked by the `validate` rules too.
 */
import type { Finding } from '../core/finding.ts';
import type { MessageArgs } from '../core/message.ts';
import { findingAt } from '../core/rule.ts';
import { AEP_CORE_ATTRIBUTES } from '../aep/bridges/types.ts';
import { downlevelEvent } from '../aep/downlevel.ts';
import { LiveConnectError, LiveTimeout, type SseMessage, SseSubscriber, fetchText } from './client.ts';
import { byteIdentity, eviction, replayAll, resume, roster } from './buffer-checks.ts';
import { hello, subscribeRefusal, unknownFrame } from './socket-checks.ts';
import * as control from './control-checks.ts';
import { LIVE_CHECKS, LIVE_DESTRUCTIVE, LIVE_RULES, type LiveCheck, type LiveRuleId } from './rules.ts';

/** Options of {@link checkEndpoint}. */
export interface LiveOptions {
  /** Bearer token sent with every request (AEP-0003 §8.1). */
  token?: string;
  /**
   * The checks to run (default: every check of {@link LIVE_CHECKS} but the destructive ones of
   * {@link LIVE_DESTRUCTIVE}, which run only when named here or with `destructive`).
   */
  checks?: readonly LiveCheck[];
  /** Also run the destructive checks (they fill the endpoint's replay buffer and post large Events). */
  destructive?: boolean;
  /** How byte-identity compares: the bytes posted (`strict`, default) or the AEP-0001 §4.2 floor (`floor`). */
  identity?: 'strict' | 'floor';
  /** Milliseconds a check waits for one answer (default 5000). */
  timeoutMs?: number;
  /** The control checks' options (`--control-*`, `--ack-window`). */
  control?: control.ControlOptions;
  /** Called as each check starts (a progress line). */
  onCheck?: (check: LiveCheck) => void;
}

/** What {@link checkEndpoint} found. */
export interface LiveResult {
  findings: Finding[];
  /** Every Event the endpoint delivered to our subscribers, as its JSON text, in arrival order (each text once). */
  delivered: string[];
  /** The checks run, and those skipped. */
  ran: LiveCheck[];
  skipped: LiveCheck[];
}

const RULES = new Map(LIVE_RULES.map((r) => [r.id, r]));

interface Discovery {
  endpoints: { events?: string; stream?: string; socket?: string };
  capabilities: Record<string, unknown>;
}

/** A unique session per run, so checks see only their own Events on a shared endpoint. */
function runSession(): string {
  return `live_${Date.now().toString(36)}_${Math.floor(Math.random() * 1e9).toString(36)}`;
}

class LiveRun {
  readonly findings: Finding[] = [];
  readonly delivered: string[] = [];
  readonly ran: LiveCheck[] = [];
  readonly skipped: LiveCheck[] = [];
  discovery: Discovery | undefined;
  readonly session = runSession();
  private seq = 0;
  private n = 0;

  constructor(
    readonly base: URL,
    readonly opts: Required<Pick<LiveOptions, 'timeoutMs'>> & LiveOptions,
  ) {}

  report(id: LiveRuleId, messageId: string, args?: MessageArgs, pointer?: string): void {
    const rule = RULES.get(id)!;
    this.findings.push(findingAt(rule, { source: this.base.href, ...(pointer ? { pointer } : {}) }, messageId, args));
  }

  url(path: string, query?: Record<string, string>): URL {
    const u = new URL(
      path.replace(/^\//, ''),
      this.base.href.endsWith('/') ? this.base : new URL(`${this.base.href}/`),
    );
    for (const [k, v] of Object.entries(query ?? {})) u.searchParams.set(k, v);
    return u;
  }

  path(name: 'events' | 'stream' | 'socket'): string {
    return this.discovery?.endpoints[name] ?? `/${name}`;
  }

  /** A valid session-scoped Event of this run, next in position. */
  event(type = 'progress.status', over: Record<string, unknown> = {}): Record<string, unknown> {
    return {
      aep: '0.1',
      id: `${this.session}-${++this.n}`,
      type,
      time: new Date().toISOString(),
      source: `aep://agent-conformance/agent/live/session/${this.session}`,
      agent: 'live',
      session: this.session,
      seq: this.seq++,
      data: type === 'progress.status' ? { phase: 'checking' } : {},
      ...over,
    };
  }

  post(body: string, type = 'application/json', version = '0.1') {
    return fetchText(this.url(this.path('events')), {
      ...this.opts,
      method: 'POST',
      headers: { 'content-type': type, 'aep-version': version },
      body,
    });
  }

  subscribe(query: Record<string, string>, headers?: Record<string, string>): Promise<SseSubscriber> {
    return SseSubscriber.open(this.url(this.path('stream'), query), {
      ...this.opts,
      ...(headers ? { headers } : {}),
    });
  }

  /** This run's Events (of `session`) among an SSE subscriber's messages, parsed. */
  mine(sub: SseSubscriber, session = this.session): { m: SseMessage; ev: Record<string, unknown> }[] {
    const out: { m: SseMessage; ev: Record<string, unknown> }[] = [];
    for (const m of sub.messages) {
      let ev: unknown;
      try {
        ev = JSON.parse(m.data);
      } catch {
        continue;
      }
      if (ev && typeof ev === 'object' && (ev as Record<string, unknown>).session === session)
        out.push({ m, ev: ev as Record<string, unknown> });
    }
    return out;
  }

  private readonly seen = new Set<string>();

  /**
   * Keep one delivered Event text. A copy that several of our own subscriptions received is kept once: those copies
   * are the checker's doing, not a redelivery by the endpoint.
   */
  record(text: string): void {
    if (this.seen.has(text)) return;
    this.seen.add(text);
    this.delivered.push(text);
  }

  keep(sub: SseSubscriber, session = this.session): void {
    for (const { m } of this.mine(sub, session)) this.record(m.data);
  }

  capabilities(): Record<string, unknown> {
    return this.discovery?.capabilities ?? {};
  }

  socket(): URL | undefined {
    return socketUrl(this);
  }

  skip(check: LiveCheck, reason: string): void {
    skip(this, check, reason);
  }
}

/** The first pointer at which two JSON values differ (`""` for the whole value). */
function firstDifference(a: unknown, b: unknown, at = ''): string | undefined {
  if (a === b) return undefined;
  if (a && b && typeof a === 'object' && typeof b === 'object' && Array.isArray(a) === Array.isArray(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) {
      const d = firstDifference(
        (a as Record<string, unknown>)[k],
        (b as Record<string, unknown>)[k],
        `${at}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`,
      );
      if (d !== undefined) return d;
    }
    return undefined;
  }
  return at;
}

const CORE_ATTRIBUTES: ReadonlySet<string> = new Set(AEP_CORE_ATTRIBUTES);

/** The Event without extension attributes: a relay MAY add them (AEP-0001 §4.2 floor). */
function withoutExtensions(ev: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(ev).filter(([k]) => CORE_ATTRIBUTES.has(k)));
}

async function discovery(run: LiveRun): Promise<void> {
  const path = '/events';
  const r = await fetchText(run.url(path), run.opts);
  if (r.status !== 200) return run.report('aep/live-discovery', 'status', { path, status: r.status });
  const type = String(r.headers['content-type'] ?? '');
  if (!/^application\/json\b/i.test(type)) run.report('aep/live-discovery', 'contentType', { path, type });
  let doc: unknown;
  try {
    doc = JSON.parse(r.body);
  } catch {
    return run.report('aep/live-discovery', 'notJson', { path });
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc))
    return run.report('aep/live-discovery', 'notJson', { path });
  const d = doc as Record<string, unknown>;
  if (!Array.isArray(d.aep) || !d.aep.includes('0.1'))
    run.report('aep/live-discovery', 'member', { member: '"aep"', expected: 'an array naming "0.1"' }, '/aep');
  const endpoints = d.endpoints;
  if (!endpoints || typeof endpoints !== 'object' || Array.isArray(endpoints))
    run.report('aep/live-discovery', 'member', { member: '"endpoints"', expected: 'an object' }, '/endpoints');
  const e = (endpoints && typeof endpoints === 'object' ? endpoints : {}) as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
  run.discovery = {
    endpoints: { events: str(e.events), stream: str(e.stream), socket: str(e.socket) },
    capabilities:
      d.capabilities && typeof d.capabilities === 'object' ? (d.capabilities as Record<string, unknown>) : {},
  };
  const wk = await fetchText(run.url('/.well-known/aep'), run.opts).catch(() => undefined);
  if (wk?.status !== 200) run.report('aep/live-well-known', 'missing', { status: wk?.status ?? 'nothing' });
}

async function versionGate(run: LiveRun): Promise<void> {
  const r = await run.post(JSON.stringify(run.event()), 'application/json', '99.0');
  if (r.status !== 426) return run.report('aep/live-version-gate', 'status', { status: r.status });
  try {
    const body = JSON.parse(r.body) as { versions?: unknown };
    if (!Array.isArray(body.versions) || !body.versions.includes('0.1')) run.report('aep/live-version-gate', 'body');
  } catch {
    run.report('aep/live-version-gate', 'body');
  }
}

async function invalidEnvelope(run: LiveRun): Promise<void> {
  const sub = run.discovery?.endpoints.stream
    ? await run.subscribe({ filter: JSON.stringify({ session: [run.session] }) })
    : undefined;
  try {
    const bad = run.event();
    delete bad.id;
    const r = await run.post(JSON.stringify(bad));
    if (r.status !== 400) run.report('aep/live-invalid-envelope', 'status', { status: r.status });
    else {
      try {
        if ((JSON.parse(r.body) as { error?: unknown }).error !== 'invalid-event')
          run.report('aep/live-invalid-envelope', 'body');
      } catch {
        run.report('aep/live-invalid-envelope', 'body');
      }
    }
    if (sub) {
      // a marker after it: once the marker arrives, anything delivered before it was delivered
      const marker = run.event();
      await run.post(JSON.stringify(marker));
      await sub.until(() => run.mine(sub).some(({ ev }) => ev.id === marker.id), run.opts.timeoutMs);
      run.keep(sub);
      if (run.mine(sub).some(({ ev }) => ev.id === undefined)) run.report('aep/live-invalid-envelope', 'delivered');
    }
  } finally {
    sub?.close();
  }
}

async function ingest(run: LiveRun): Promise<void> {
  const one = await run.post(JSON.stringify(run.event()));
  if (one.status !== 202) run.report('aep/live-ingest', 'status', { what: 'single Event', status: one.status });
  const batch = [run.event(), run.event()].map((e) => JSON.stringify(e)).join('\n');
  const r = await run.post(`${batch}\n`, 'application/x-ndjson');
  if (r.status !== 202)
    run.report('aep/live-ingest', 'status', { what: 'application/x-ndjson batch', status: r.status });
}

async function fanout(run: LiveRun): Promise<void> {
  const sub = await run.subscribe({ filter: JSON.stringify({ session: [run.session] }) });
  try {
    const sent = [run.event(), run.event('progress.status', { data: { phase: 'fanout' } }), run.event()];
    await run.post(JSON.stringify(sent[0]));
    await run.post(
      `${sent
        .slice(1)
        .map((e) => JSON.stringify(e))
        .join('\n')}\n`,
      'application/x-ndjson',
    );
    const ids = new Set(sent.map((e) => e.id));
    const got = () => run.mine(sub).filter(({ ev }) => ids.has(ev.id));
    await sub.until(() => got().length >= sent.length, run.opts.timeoutMs);
    run.keep(sub);
    const recv = got();
    if (recv.length < sent.length)
      return run.report('aep/live-fanout', 'missing', { got: recv.length, want: sent.length, ms: run.opts.timeoutMs });
    if (recv.map(({ ev }) => ev.id).join('\n') !== sent.map((e) => e.id).join('\n'))
      run.report('aep/live-fanout', 'order');
    for (const [i, { m, ev }] of recv.entries()) {
      const want = sent[i]!;
      if (m.event !== want.type)
        run.report('aep/live-fanout', 'eventField', { got: m.event ?? '', want: String(want.type) });
      const id = `${want.session}:0:${want.seq}`;
      if (m.id !== id)
        run.report('aep/live-fanout', 'idField', {
          got: m.id ?? '',
          want: id,
          session: 'session',
          epoch: 'epoch',
          seq: 'seq',
        });
      if (m.data.includes('\n')) run.report('aep/live-fanout', 'data');
      const pointer = firstDifference(withoutExtensions(ev), want);
      if (pointer !== undefined)
        run.report('aep/live-delivery-identity', 'changed', { id: String(want.id), pointer: pointer || '""' }, pointer);
    }
  } finally {
    sub.close();
  }
}

async function filter(run: LiveRun): Promise<void> {
  const type = 'error.raised';
  const sub = await run.subscribe({ filter: JSON.stringify({ session: [run.session], type: [type] }) });
  try {
    const other = run.event();
    const match = run.event(type, { data: { code: 'probe', fatal: false } });
    const marker = run.event(type, { data: { code: 'marker', fatal: false } });
    await run.post(`${[other, match, marker].map((e) => JSON.stringify(e)).join('\n')}\n`, 'application/x-ndjson');
    await sub.until(() => run.mine(sub).some(({ ev }) => ev.id === marker.id), run.opts.timeoutMs);
    run.keep(sub);
    const got = run.mine(sub).map(({ ev }) => ev);
    for (const ev of got) if (ev.type !== type) run.report('aep/live-filter', 'extra', { type, got: String(ev.type) });
    if (!got.some((ev) => ev.id === match.id)) run.report('aep/live-filter', 'missing', { type });
  } finally {
    sub.close();
  }
}

async function captureCeiling(run: LiveRun): Promise<void> {
  const levels = run.discovery?.capabilities.capture;
  if (Array.isArray(levels) && !levels.includes('metadata'))
    return skip(run, 'capture-ceiling', 'the endpoint does not list "metadata" in capabilities.capture');
  const ceiling = 'metadata';
  const sub = await run.subscribe({ filter: JSON.stringify({ session: [run.session] }), capture: ceiling });
  try {
    // redacted-gated text that a metadata ceiling removes (AEP-0002 §5.4 progress.status `message`)
    const ev = run.event('progress.status', {
      capture: 'redacted',
      data: { phase: 'ceiling', message: 'checking the capture ceiling' },
    });
    await run.post(JSON.stringify(ev));
    await sub.until(() => run.mine(sub).some((x) => x.ev.id === ev.id), run.opts.timeoutMs);
    run.keep(sub);
    const got = run.mine(sub).find((x) => x.ev.id === ev.id)?.ev;
    if (!got) return run.report('aep/live-capture-ceiling', 'missing', { ceiling });
    const rank = { none: 0, metadata: 1, redacted: 2, full: 3 } as Record<string, number>;
    const at = typeof got.capture === 'string' ? got.capture : 'metadata';
    if ((rank[at] ?? 9) > rank[ceiling]!) return run.report('aep/live-capture-ceiling', 'above', { ceiling, got: at });
    // what the ceiling governs (capture and payload); other rewrites are aep/live-delivery-identity's
    const want = downlevelEvent(ev, ceiling).event;
    const pointer = firstDifference(
      { capture: got.capture, data: got.data },
      { capture: want.capture, data: want.data },
    );
    if (pointer !== undefined)
      run.report('aep/live-capture-ceiling', 'payload', { ceiling, pointer: pointer || '""' }, pointer);
  } finally {
    sub.close();
  }
}

function skip(run: LiveRun, check: LiveCheck, reason: string): void {
  run.skipped.push(check);
  run.report('aep/live-skipped', 'skipped', { check, reason });
}

function socketUrl(run: LiveRun): URL | undefined {
  const p = run.discovery?.endpoints.socket;
  if (!p) return undefined;
  const u = run.url(p);
  u.protocol = u.protocol === 'https:' ? 'wss:' : 'ws:';
  return u;
}

type CheckFn = (run: LiveRun) => Promise<void>;
/** A socket check; a string it returns is why it could not run here (skipped). */
type SocketFn = (run: LiveRun, url: URL) => Promise<unknown>;
const HTTP_CHECKS: Partial<Record<LiveCheck, CheckFn>> = {
  discovery,
  'version-gate': versionGate,
  'invalid-envelope': invalidEnvelope,
  ingest,
  fanout,
  filter,
  'capture-ceiling': captureCeiling,
  resume,
  'replay-all': replayAll,
  roster,
  eviction,
  'byte-identity': byteIdentity,
};
const SOCKET_CHECKS: Partial<Record<LiveCheck, SocketFn>> = {
  hello,
  'subscribe-refusal': subscribeRefusal,
  'unknown-frame': unknownFrame,
  'control-auth-gate': control.controlAuthGate,
  'control-no-route': control.controlNoRoute,
  'control-ack': control.controlAck,
  'control-dedupe': control.controlDedupe,
  'control-unsupported': control.controlUnsupported,
  'control-cancel': control.controlCancel,
};
const NEEDS_STREAM = new Set<LiveCheck>([
  'fanout',
  'filter',
  'capture-ceiling',
  'resume',
  'replay-all',
  'eviction',
  'byte-identity',
]);

/**
 * Check the endpoint at `base` (its discovery document is read first, whatever `checks` says). @throws
 * LiveConnectError when it cannot be reached at all.
 */
export async function checkEndpoint(base: string | URL, options: LiveOptions = {}): Promise<LiveResult> {
  const url = typeof base === 'string' ? new URL(base) : base;
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new TypeError(`${url.href}: an http: or https: URL is needed`);
  const run = new LiveRun(url, { ...options, timeoutMs: options.timeoutMs ?? 5000 });
  const wanted = new Set<LiveCheck>(
    options.checks ?? LIVE_CHECKS.filter((c) => options.destructive || !LIVE_DESTRUCTIVE.has(c)),
  );
  if (options.destructive) for (const c of LIVE_DESTRUCTIVE) wanted.add(c);
  for (const check of LIVE_CHECKS) {
    if (!wanted.has(check) && check !== 'discovery') continue;
    options.onCheck?.(check);
    try {
      if (NEEDS_STREAM.has(check) && !run.discovery?.endpoints.stream) {
        skip(run, check, 'the discovery document names no "stream" endpoint (SSE)');
        continue;
      }
      const socketCheck = SOCKET_CHECKS[check];
      if (socketCheck) {
        const ws = socketUrl(run);
        if (!ws) {
          skip(run, check, 'the discovery document names no "socket" endpoint (WebSocket)');
          continue;
        }
        const reason = await socketCheck(run, ws);
        if (typeof reason === 'string') {
          skip(run, check, reason);
          continue;
        }
      } else await HTTP_CHECKS[check]!(run);
      if (wanted.has(check) && !run.skipped.includes(check)) run.ran.push(check);
    } catch (e) {
      if (e instanceof LiveTimeout)
        run.report('aep/live-timeout', 'timeout', { check, ms: run.opts.timeoutMs, waiting: e.waiting });
      else if (e instanceof LiveConnectError && check !== 'discovery' && run.discovery)
        run.report('aep/live-timeout', 'timeout', { check, ms: run.opts.timeoutMs, waiting: e.message });
      else throw e;
    }
  }
  return { findings: run.findings, delivered: run.delivered, ran: run.ran, skipped: run.skipped };
}
