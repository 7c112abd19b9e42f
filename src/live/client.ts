/**
 * The wire of `aep live`: HTTP requests and an SSE subscriber over Node's own http/https (the WebSocket peer is in
 * ws-peer.ts). Every wait is bounded by a timeout; a failure to connect is a {@link LiveConnectError}.
 */
import { LineReader } from './line-reader.ts';
import type { LiveResult } from './result.ts';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { abortReason, onAbort } from '../core/abort.ts';

/** The endpoint could not be reached (refused, DNS, TLS): the run stops with exit 2. */
export class LiveConnectError extends Error {
  static {
    Object.defineProperty(LiveConnectError.prototype, 'name', { value: 'LiveConnectError', writable: true });
  }
  /** The HTTP status that refused a WebSocket upgrade, when one did. */
  status?: number;
  /** What happened, without the origin (`connection refused`, `the connection was reset or closed`). */
  reason?: string;
  /**
   * Discovery's: the run's result all the same, its findings those the URL alone decided (a plain off-host base is
   * aep/live-tls-off-host), discovery failed and every other check skipped.
   */
  result?: LiveResult;
}

/** A check waited longer than its timeout; `waiting` says for what, `silent` the request that sent no response head. */
export class LiveTimeout extends Error {
  constructor(
    readonly waiting: string,
    readonly silent?: string,
  ) {
    super(`timed out waiting for ${waiting}`);
  }
}

/** One HTTP answer; `truncated` when the body exceeded {@link BODY_LIMIT} (the rest was not read). */
export interface HttpAnswer {
  status: number;
  headers: IncomingMessage['headers'];
  body: string;
  truncated?: boolean;
}

/** The most bytes of a body, of one SSE line or of one WebSocket frame read (4 MiB). */
export const BODY_LIMIT = 1 << 22;

/** How long a subscription waits for the answer's head before its check goes on without it (README §Check a running endpoint). */
export const HEAD_GRACE_MS = 500;

/** The most SSE messages or WebSocket frames (and bytes) one connection keeps; no check posts 10 004 Events. */
export const KEEP_LIMIT = { count: 50_000, bytes: 1 << 28 } as const;

/** Options every request takes; `onLimit` hears of a connection closed at a limit, and which. */
export interface WireOptions {
  token?: string;
  timeoutMs: number;
  onLimit?: (what: string) => void;
  /** The run's abort: every request, subscription and socket open when it fires is closed. */
  abort?: WireAbort;
  /** Requests that already sent no response head within the timeout: asked again, they fail at once (one timeout). */
  silent?: Set<string>;
}

/**
 * The caller's `signal` for one run: one listener on it (a listener per open connection would pass Node's
 * listener-count warning on a fan-out check) closes whatever is open when it aborts; {@link dispose} stops listening.
 */
export class WireAbort {
  private readonly open = new Set<() => void>();
  private readonly stop: () => void;

  constructor(readonly signal: AbortSignal) {
    this.stop = onAbort(signal, () => {
      for (const close of [...this.open]) close();
      this.open.clear();
    });
  }

  get aborted(): boolean {
    return this.signal.aborted;
  }

  /** What the run rejects with. */
  get reason(): unknown {
    return abortReason(this.signal);
  }

  /** Call `close` on abort (at once if aborted already) until the returned function is called. */
  hold(close: () => void): () => void {
    if (this.signal.aborted) {
      close();
      return () => {};
    }
    this.open.add(close);
    return () => void this.open.delete(close);
  }

  /** Stop listening to the signal (the run has ended). */
  dispose(): void {
    this.stop();
    this.open.clear();
  }
}

/** A failure to connect to `url`, in words. */
export function connectError(url: URL, e: NodeJS.ErrnoException): LiveConnectError {
  const what =
    e.code === 'ECONNREFUSED'
      ? 'connection refused'
      : e.code === 'ENOTFOUND' || e.code === 'EAI_AGAIN'
        ? `host not found (${e.code})`
        : e.code === 'ECONNRESET' || e.code === 'EPIPE'
          ? 'the connection was reset or closed'
          : /certificate|SSL|TLS/i.test(`${e.code ?? ''} ${e.message}`)
            ? `TLS failure (${e.code ?? e.message})`
            : (e.code ?? e.message);
  // with the path (the base may have one), never the query (it may carry `access_token`)
  const err = new LiveConnectError(`cannot reach ${url.origin}${url.pathname}: ${what}`);
  err.reason = what;
  return err;
}

/** One request; the whole body read (at most {@link BODY_LIMIT}, then `truncated`). @throws LiveConnectError, LiveTimeout */
export function fetchText(
  url: URL,
  opts: WireOptions & { method?: string; headers?: Record<string, string>; body?: string },
): Promise<HttpAnswer> {
  if (opts.abort?.aborted) return Promise.reject(opts.abort.reason);
  const what = `${opts.method ?? 'GET'} ${url.pathname}`;
  if (opts.silent?.has(what)) return Promise.reject(new LiveTimeout(what, what));
  let release = () => {};
  return new Promise<HttpAnswer>((resolve, reject) => {
    const req = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, {
      method: opts.method ?? 'GET',
      headers: { ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}), ...opts.headers },
    });
    let headed = false;
    const timer = setTimeout(() => {
      req.destroy();
      reject(new LiveTimeout(what, headed ? undefined : what));
    }, opts.timeoutMs);
    const abort = opts.abort;
    if (abort)
      release = abort.hold(() => {
        clearTimeout(timer);
        reject(abort.reason);
        req.destroy();
      });
    req.on('error', (e: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(connectError(url, e));
    });
    req.on('response', (res) => {
      headed = true;
      const parts: Buffer[] = [];
      let size = 0;
      res.on('data', (b: Buffer) => {
        size += b.length;
        if (size <= BODY_LIMIT) return void parts.push(b);
        clearTimeout(timer);
        req.destroy();
        const head = Buffer.concat(parts).toString('utf8');
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: head, truncated: true });
      });
      res.on('end', () => {
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts).toString('utf8') });
      });
      res.on('error', (e) => {
        clearTimeout(timer);
        reject(connectError(url, e as NodeJS.ErrnoException));
      });
    });
    req.end(opts.body);
  }).finally(() => release());
}

/** A delivered text as one JSONL line: a line break (JSON whitespace between tokens) becomes a space (README). */
export const oneLine = (text: string) => text.replace(/[\r\n]/g, ' ');

/** One SSE message: its fields as received. */
export interface SseMessage {
  event?: string;
  id?: string;
  data: string;
}

/** An open SSE subscription: messages and comment lines as they arrive. */
export class SseSubscriber {
  readonly messages: SseMessage[] = [];
  readonly comments: string[] = [];
  /** For each comment, how many messages had arrived before it (so its place among them is known). */
  readonly commentsAt: number[] = [];
  private waiters: (() => void)[] = [];
  private req: ReturnType<typeof httpRequest> | undefined;
  private res: IncomingMessage | undefined;
  private paused = false;
  status = 0;
  contentType = '';
  /** The path requested (never the query: it may carry the token). */
  path = '';
  ended = false;
  /** A line ran past {@link BODY_LIMIT} without a line break: the stream was closed there. */
  lineTooLong = false;
  /** Closed at {@link KEEP_LIMIT}. */
  capped = false;
  private kept = 0;

  /** The answer's head came after {@link open} resolved: {@link LiveRun.subscribe} judges it here (it may close). */
  onHead: (() => void) | undefined;

  /**
   * Open `GET url` as `text/event-stream`; resolves once the answer's head arrived, or with `status` 0 once the
   * request is sent and {@link HEAD_GRACE_MS} passed without one (a server may hold its head back until the first
   * message; no sentence says when it is sent). @throws LiveConnectError, LiveTimeout
   */
  static open(url: URL, opts: WireOptions & { headers?: Record<string, string> }): Promise<SseSubscriber> {
    const sub = new SseSubscriber();
    sub.path = url.pathname;
    let opened = false;
    const abort = opts.abort;
    if (abort?.aborted) return Promise.reject(abort.reason);
    return new Promise((resolve, reject) => {
      const req = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, {
        headers: {
          accept: 'text/event-stream',
          ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
          ...opts.headers,
        },
      });
      sub.req = req;
      const timer = setTimeout(() => {
        req.destroy();
        reject(new LiveTimeout(`the SSE stream ${url.pathname} to open`, `GET ${url.pathname}`));
      }, opts.timeoutMs);
      let grace: NodeJS.Timeout | undefined;
      // counted from when the request is sent: the server has it then
      req.on('finish', () => {
        grace = setTimeout(
          () => {
            clearTimeout(timer);
            opened = true;
            resolve(sub);
          },
          Math.min(HEAD_GRACE_MS, opts.timeoutMs),
        );
      });
      // open or opening, an abort closes it (a wait on it then ends: `until` sees the stream ended)
      if (abort)
        sub.release = abort.hold(() => {
          clearTimeout(timer);
          clearTimeout(grace);
          reject(abort.reason);
          sub.close();
        });
      req.on('error', (e: NodeJS.ErrnoException) => {
        clearTimeout(timer);
        clearTimeout(grace);
        if (sub.status === 0 && !opened) reject(connectError(url, e));
        sub.finish();
      });
      req.on('response', (res) => {
        clearTimeout(timer);
        clearTimeout(grace);
        sub.status = res.statusCode ?? 0;
        sub.res = res;
        sub.contentType = String(res.headers['content-type'] ?? '');
        if (opened) sub.onHead?.();
        if (sub.ended) return;
        const lines = new LineReader(BODY_LIMIT, (line) => sub.line(line));
        res.setEncoding('utf8');
        let first = true;
        res.on('data', (chunk: string) => {
          // WHATWG SSE: one leading U+FEFF is ignored
          if (first && chunk !== '') {
            first = false;
            if (chunk.startsWith('\uFEFF')) chunk = chunk.slice(1);
          }
          if (lines.push(chunk)) return;
          sub.lineTooLong = true;
          sub.close();
        });
        res.on('end', () => sub.finish());
        res.on('error', () => sub.finish());
        // a head held back past the grace comes to a consumer already paused
        if (sub.paused) res.pause();
        resolve(sub);
      });
      req.end();
    });
  }

  /** Hears each message as it is dispatched. */
  onMessage: ((m: SseMessage) => void) | undefined;
  private cur: SseMessage = { data: '' };
  private hasData = false;

  /** One line of the stream (WHATWG SSE: a blank line dispatches, `:` a comment, else `field: value`). */
  private line(line: string): void {
    if (this.capped) return;
    this.kept += line.length;
    if (this.messages.length + this.comments.length >= KEEP_LIMIT.count || this.kept > KEEP_LIMIT.bytes) {
      this.capped = true;
      this.close();
      return;
    }
    if (line === '') {
      if (this.hasData) {
        this.messages.push(this.cur);
        this.onMessage?.(this.cur);
        this.wake();
      }
      this.cur = { data: '' };
      this.hasData = false;
    } else if (line.startsWith(':')) {
      this.comments.push(line.slice(1).trimStart());
      this.commentsAt.push(this.messages.length);
      this.wake();
    } else {
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      let value = colon === -1 ? '' : line.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      if (field === 'data') {
        this.cur.data = this.hasData ? `${this.cur.data}\n${value}` : value;
        this.hasData = true;
      } else if (field === 'event') this.cur.event = value;
      else if (field === 'id') this.cur.id = value;
    }
  }

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }

  private finish(): void {
    this.ended = true;
    this.release();
    this.wake();
  }

  private release: () => void = () => {};

  /** Wait until `done()` holds, the stream ends or `ms` pass; true when `done()` holds. */
  async until(done: () => boolean, ms: number): Promise<boolean> {
    const deadline = Date.now() + ms;
    while (!done()) {
      const left = deadline - Date.now();
      if (left <= 0 || this.ended) return done();
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
    return true;
  }

  /** Stop reading (the backpressure check's slow consumer): what the server sends waits in the socket buffers. */
  pause(): void {
    this.paused = true;
    this.res?.pause();
  }

  /** Read again after {@link pause}. */
  resume(): void {
    this.paused = false;
    this.res?.resume();
  }

  /** Close the subscription. */
  close(): void {
    this.req?.destroy();
    this.finish();
  }
}
