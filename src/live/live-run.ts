/** The run of `aep live` the checks see: its options, session, findings, the Events delivered, and its HTTP helpers. */
import type { Finding } from '../core/finding.ts';
import type { MessageArgs } from '../core/message.ts';
import { findingAt } from '../core/rule.ts';
import {
  BODY_LIMIT,
  KEEP_LIMIT,
  oneLine,
  type SseMessage,
  SseSubscriber,
  fetchText,
  LiveTimeout,
  WireAbort,
  type WireOptions,
} from './client.ts';
import type * as control from './control-checks.ts';
import { CredentialsRefused, refusedForCredentials } from './credentials.ts';
import { LIVE_CHECKS, LIVE_DESTRUCTIVE, LIVE_RULES, LIVE_SLOW, type LiveCheck, type LiveRuleId } from './rules.ts';

/** Options of `checkEndpoint` (src/live/check.ts). */
export interface LiveOptions {
  /** Bearer token sent with every request (AEP-0003 §8.1). */
  token?: string;
  /** The checks to run (default: {@link LIVE_CHECKS} but the destructive and the slow ones, {@link LIVE_DESTRUCTIVE}, {@link LIVE_SLOW}). */
  checks?: readonly LiveCheck[];
  /** Also run the destructive checks (they fill the endpoint's replay buffer and post large Events). */
  destructive?: boolean;
  /** How byte-identity compares: the AEP-0001 §4.2 floor (`floor`, default) or the bytes posted (`strict`). */
  identity?: 'strict' | 'floor';
  /** Milliseconds a check waits for one answer (default 5000). */
  timeoutMs?: number;
  /** The SSE heartbeat interval the opt-in `heartbeat` check judges (default 30000, AEP-0003 §3.3 #4). */
  heartbeatMs?: number;
  /** The most the opt-in `backpressure` check posts, in MiB (default 32, at most 128: checkEndpoint refuses more; AEP-0003 §8.4).. */
  backpressureMib?: number;
  /** The control checks' options (`--control-*`, `--ack-window`). */
  control?: control.ControlOptions;
  /** Called as each check starts (a progress line). */
  onCheck?: (check: LiveCheck) => void;
  /**
   * Stop the run when it aborts: the promise rejects with the signal's reason (an `AbortError` DOMException unless one
   * was given) and every request, SSE subscription and WebSocket open is closed, its timer cleared.
   */
  signal?: AbortSignal;
}

const RULES = new Map(LIVE_RULES.map((r) => [r.id, r]));

/** The discovery document as read (AEP-0003 §3.4). */
export interface Discovery {
  endpoints: { events?: string; stream?: string; socket?: string };
  capabilities: Record<string, unknown>;
  /** Where to POST when `events` is omitted: where it was fetched, "the same URL emitters POST to" (AEP-0003 §3.4). */
  postedAt?: string;
}

/** A unique session per run, so checks see only their own Events on a shared endpoint. */
function runSession(): string {
  return `live_${Date.now().toString(36)}_${Math.floor(Math.random() * 1e9).toString(36)}`;
}

/** A subscription not answered 200 `text/event-stream`; `first` when this run reported it (else: skip, `reason`). */
export class StreamFailed extends Error {
  constructor(
    readonly reason: string,
    readonly first: boolean,
    /** Refused for what it asked (a `from`), reported under the asking check's rule. */
    readonly refused = false,
  ) {
    super(reason);
  }
}

function asObject(text: string): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** One run of `aep live`: what the checks share and report into. */
export class LiveRun {
  readonly findings: Finding[] = [];
  readonly delivered: string[] = [];
  readonly ran: LiveCheck[] = [];
  readonly skipped: LiveCheck[] = [];
  /** Why each skipped check was skipped. */
  readonly reasons = new Map<LiveCheck, string>();
  discovery: Discovery | undefined;
  /** The check running now (named in findings about a shared binding). */
  check: LiveCheck = 'discovery';
  readonly session = runSession();
  private seq = 0;
  private n = 0;

  readonly opts: Required<Pick<LiveOptions, 'timeoutMs'>> &
    LiveOptions &
    Pick<WireOptions, 'onLimit' | 'abort'> &
    Required<Pick<WireOptions, 'silent'>>;

  constructor(
    readonly base: URL,
    opts: Required<Pick<LiveOptions, 'timeoutMs'>> & LiveOptions,
  ) {
    const met = new Set<string>();
    this.opts = {
      ...opts,
      silent: new Set(),
      ...(opts.signal ? { abort: new WireAbort(opts.signal) } : {}),
      onLimit: (what) => {
        if (met.has(`${this.check} ${what}`)) return;
        met.add(`${this.check} ${what}`);
        this.report('aep/live-timeout', 'limit', { check: this.check, what });
      },
    };
  }

  report(id: LiveRuleId, messageId: string, args?: MessageArgs, pointer?: string): void {
    const rule = RULES.get(id)!;
    this.findings.push(findingAt(rule, { source: this.base.href, ...(pointer ? { pointer } : {}) }, messageId, args));
  }

  /** `path` under the base URL. @throws ForeignEndpoint when it resolves to another origin (never contacted). */
  url(path: string, query?: Record<string, string>, endpoint?: string): URL {
    // endpoints resolve against the base's path as a folder; its query (an API key, a tenant) goes with every request
    const folder = new URL(this.base.pathname.endsWith('/') ? this.base.pathname : `${this.base.pathname}/`, this.base);
    const u = new URL(baseRelative(this.base, path), folder);
    if (originOf(u) !== originOf(this.base)) throw new ForeignEndpoint(endpoint ?? path, u, this.base);
    for (const [k, v] of this.base.searchParams) if (!u.searchParams.has(k)) u.searchParams.append(k, v);
    for (const [k, v] of Object.entries(query ?? {})) u.searchParams.set(k, v);
    return u;
  }

  /**
   * The path of a binding the discovery document names (an omitted `events`: {@link Discovery.postedAt}). @throws
   * AbsentEndpoint when it names none: no binding is mandatory (AEP-0003 §1), so one left out is not offered.
   */
  path(name: 'events' | 'stream' | 'socket'): string {
    const named = this.discovery?.endpoints[name] ?? (name === 'events' ? this.discovery?.postedAt : undefined);
    if (named === undefined && this.discovery) throw new AbsentEndpoint(name);
    return named ?? `/${name}`;
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

  /** The checks skipped because the run's credentials (or their absence) were refused, and the first refusal. */
  readonly credentials: { skipped: LiveCheck[]; first?: CredentialsRefused } = { skipped: [] };

  /** A refusal for credentials of `what` (thrown, the check skipped for it in check.ts). */
  refused(what: string, how: string): CredentialsRefused {
    return new CredentialsRefused(what, how, !!this.opts.token);
  }

  /** A POST to the events endpoint. @throws CredentialsRefused when answered 401 or 403 (AEP-0003 §8.1) */
  async post(body: string, type = 'application/json', version = '0.1') {
    const url = this.url(this.path('events'), undefined, 'events');
    const r = await fetchText(url, {
      ...this.opts,
      method: 'POST',
      headers: { 'content-type': type, 'aep-version': version },
      body,
    });
    if (refusedForCredentials(r.status)) throw this.refused(`POST ${url.pathname}`, `answered ${r.status}`);
    return r;
  }

  private readonly streamAnswers = new Set<string>();
  /** The finding of the first stream answered other than 200 text/event-stream (aep/live-fanout's), if any. */
  streamFailure: Finding | undefined;

  /**
   * An SSE subscription; one not answered 200 `text/event-stream` is reported and closed. `refused` names the rule
   * of a request the endpoint may refuse for what it asks (a `from` position or `all`): its refusal is that rule's
   * `sseRefused` finding, not a stream failure, and the stream checks after it are not skipped for it.
   * @throws StreamFailed, CredentialsRefused (answered 401 or 403: AEP-0003 §8.1 lets the endpoint require a token)
   */
  async subscribe(
    query: Record<string, string>,
    headers?: Record<string, string>,
    refused?: LiveRuleId,
  ): Promise<SseSubscriber> {
    const url = this.url(this.path('stream'), query, 'stream');
    // the path requested, not the one discovery named: under a base with a path they differ
    const path = url.pathname;
    // a stream that sent no head through fanout's whole wait is not asked again (check.ts skips the check)
    if (this.opts.silent.has(`GET ${path}`)) throw new LiveTimeout(`the SSE stream ${path} to open`, `GET ${path}`);
    const sub = await SseSubscriber.open(url, {
      ...this.opts,
      ...(headers ? { headers } : {}),
    });
    const good = () => sub.status === 200 && /^text\/event-stream\s*(;|$)/i.test(sub.contentType.trim());
    if (sub.status === 0) {
      // the head is still to come (with the first message): judged then, its messages unread if it is another
      const check = this.check;
      sub.onHead = () => void (good() || this.streamFailed(sub, path, check, refused));
      return sub;
    }
    if (good()) return sub;
    if (refusedForCredentials(sub.status)) {
      sub.close();
      throw this.refused(`GET ${path}`, `answered ${sub.status}`);
    }
    throw this.streamFailed(sub, path, this.check, refused);
  }

  /** Close a subscription not answered 200 `text/event-stream` and report it (once per answer, or as `refused`'s). */
  private streamFailed(sub: SseSubscriber, path: string, check: LiveCheck, refused?: LiveRuleId): StreamFailed {
    sub.close();
    const type = sub.contentType;
    const key = `${sub.status} with Content-Type ${JSON.stringify(type)}`;
    // an answer every stream gets is the stream's failure (aep/live-fanout), not a refusal of what this one asks
    if (refused && !this.streamAnswers.has(key)) {
      this.report(refused, 'sseRefused', { path, status: sub.status, type });
      return new StreamFailed(`GET ${path} was answered ${key} (${refused})`, true, true);
    }
    const first = !this.streamAnswers.has(key);
    this.streamAnswers.add(key);
    if (first) {
      this.report('aep/live-fanout', 'stream', { path, status: sub.status, type, check });
      this.streamFailure = this.findings[this.findings.length - 1];
    }
    return new StreamFailed(`GET ${path} was answered ${key}, not 200 text/event-stream (aep/live-fanout)`, first);
  }

  private readonly parsed = new WeakMap<SseMessage, Record<string, unknown> | null>();

  /** A message's data as a JSON object (parsed once), else undefined. */
  object(m: SseMessage): Record<string, unknown> | undefined {
    let v = this.parsed.get(m);
    if (v === undefined) this.parsed.set(m, (v = asObject(m.data) ?? null));
    return v ?? undefined;
  }

  /** This run's Events (of `session`) among an SSE subscriber's messages, parsed. */
  mine(sub: SseSubscriber, session = this.session): { m: SseMessage; ev: Record<string, unknown> }[] {
    const out: { m: SseMessage; ev: Record<string, unknown> }[] = [];
    for (const m of sub.messages) {
      const ev = this.object(m);
      if (ev?.session === session) out.push({ m, ev });
    }
    return out;
  }

  private readonly seen = new Set<string>();
  /** Per delivered line: its session position, and the subscription or connection it came on. */
  private readonly placed: { at?: Position; from?: object }[] = [];

  /**
   * Keep one delivered Event text as one line, once: copies several of our subscriptions got are not redeliveries.
   * In arrival order, but for backfill: an Event `from` one subscription below a position another one delivered is
   * placed by (epoch, seq) in its session (AEP-0001 §7 #2 consumer-side), so the record merging our subscriptions
   * shows no regression no single one delivered; one within a subscription stays where it came.
   */
  record(text: string, from?: object): void {
    const line = oneLine(text);
    if (this.seen.has(line)) return;
    this.seen.add(line);
    const at = positionOf(text);
    let i = this.placed.length;
    if (at && from) {
      let own = -1;
      for (let j = this.placed.length - 1; j >= 0 && own === -1; j--)
        if (this.placed[j]!.from === from && this.placed[j]!.at?.session === at.session) own = j;
      if (own === -1 || earlier(this.placed[own]!.at!, at))
        for (let j = own + 1; j < this.placed.length; j++) {
          const p = this.placed[j]!;
          if (p.from !== from && p.at?.session === at.session && earlier(at, p.at)) {
            i = j;
            break;
          }
        }
    }
    this.placed.splice(i, 0, { ...(at ? { at } : {}), ...(from ? { from } : {}) });
    this.delivered.splice(i, 0, line);
  }

  private readonly cut = new WeakSet<SseSubscriber>();

  /** Keep `sub`'s Events of `session` and its data that is no JSON object; report a line cut at the limit, once. */
  keep(sub: SseSubscriber, session = this.session): void {
    for (const m of sub.messages) if (this.object(m)?.session === session || !this.object(m)) this.record(m.data, sub);
    if ((sub.lineTooLong || sub.capped) && !this.cut.has(sub)) {
      this.cut.add(sub);
      if (sub.lineTooLong) this.report('aep/live-fanout', 'lineTooLong', { mib: BODY_LIMIT >> 20, check: this.check });
      else
        this.report('aep/live-fanout', 'capped', {
          count: KEEP_LIMIT.count,
          mib: KEEP_LIMIT.bytes >> 20,
          check: this.check,
        });
    }
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

/** A session position (AEP-0001 §7). */
interface Position {
  session: string;
  epoch: number;
  seq: number;
}

/** The position of an Event's JSON text, when it has one. */
function positionOf(text: string): Position | undefined {
  const ev = asObject(text);
  const epoch = ev?.epoch ?? 0;
  if (typeof ev?.session !== 'string' || typeof ev.seq !== 'number' || typeof epoch !== 'number') return undefined;
  return { session: ev.session, epoch, seq: ev.seq };
}

/** `a` before `b` in (epoch, seq) order. */
const earlier = (a: Position, b: Position) => a.epoch < b.epoch || (a.epoch === b.epoch && a.seq < b.seq);

/** Mark `check` skipped, with why (an info finding). */
export function skip(run: LiveRun, check: LiveCheck, reason: string): void {
  run.skipped.push(check);
  run.reasons.set(check, reason);
  run.report('aep/live-skipped', 'skipped', { check, reason });
}

/** The WebSocket endpoint of the discovery document, as a ws: or wss: URL. */
export function socketUrl(run: LiveRun): URL | undefined {
  const p = run.discovery?.endpoints.socket;
  if (!p) return undefined;
  const u = run.url(p, undefined, 'socket');
  if (u.protocol === 'http:' || u.protocol === 'https:') u.protocol = u.protocol === 'https:' ? 'wss:' : 'ws:';
  return u;
}

/** `path` under the base (`/stream` is `{base}/stream`, AEP-0003 §3.3), unless it starts with the base's path. */
function baseRelative(base: URL, path: string): string {
  if (!path.startsWith('/') || path.startsWith('//')) return path;
  const root = base.pathname.replace(/\/+$/, '');
  if (root !== '' && (path === root || path.startsWith(`${root}/`))) return `${base.origin}${path}`;
  return path.replace(/^\/+/, '');
}

/** A URL's origin with ws: and wss: read as http: and https: (the same server, the same trust). */
function originOf(u: URL): string {
  const scheme = u.protocol === 'ws:' ? 'http:' : u.protocol === 'wss:' ? 'https:' : u.protocol;
  // the loopback names are one machine: a token sent to either never leaves it
  const host = /^(localhost|127\.0\.0\.1|\[::1\])$/i.test(u.hostname) ? 'loopback' : u.hostname;
  return `${scheme}//${host}:${u.port}`;
}

/** A binding the discovery document does not name (AEP-0003 §3.4): the checks that need it are skipped saying so. */
export class AbsentEndpoint extends Error {
  constructor(readonly endpoint: 'events' | 'stream' | 'socket') {
    super(
      endpoint === 'events'
        ? 'the discovery document names no "events" endpoint (HTTP POST, AEP-0003 §3.2), so no Event of this run could be posted'
        : `the discovery document names no "${endpoint}" endpoint (${endpoint === 'stream' ? 'SSE' : 'WebSocket'})`,
    );
  }
}

/**
 * An endpoint of the discovery document on another origin (scheme, host, port) than the base URL: `aep live`
 * contacts only the base URL's origin, so the token never leaves it (README §Check a running endpoint).
 */
export class ForeignEndpoint extends Error {
  constructor(
    readonly endpoint: string,
    readonly target: URL,
    base: URL,
  ) {
    const what = /^(events|stream|socket)$/.test(endpoint) ? `its "${endpoint}" endpoint` : endpoint;
    super(
      `the discovery document names ${what} on another origin (${target.protocol}//${target.host}); aep live contacts only ${base.origin}, the base URL's origin, and sends the token nowhere else`,
    );
  }
}
