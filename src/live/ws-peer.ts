/** The WebSocket peer of `aep live`, over `ws` (client only), its frames bounded like the SSE stream (client.ts). */
import { createRequire } from 'node:module';
import type WebSocket from 'ws';
import { BODY_LIMIT, connectError, KEEP_LIMIT, LiveConnectError, LiveTimeout, type WireOptions } from './client.ts';

/** A binary frame as kept among a peer's frames (AEP-0003 §3.5 #2: reserved, rejected in 0.1). */
export class BinaryFrame {
  constructor(readonly bytes: number) {}
}

/** A WebSocket peer that keeps every text frame it receives as JSON (or the raw text), a binary one as {@link BinaryFrame}. */
export class WsPeer {
  readonly frames: unknown[] = [];
  /** Each frame's text as received, at the same index as in {@link frames}. */
  readonly texts: string[] = [];
  closed = false;
  private stopped = false;
  private kept = 0;
  private waiters: (() => void)[] = [];

  private constructor(
    private readonly ws: WebSocket,
    onLimit?: (what: string) => void,
  ) {
    const stop = (what: string) => {
      if (this.stopped) return;
      this.stopped = true;
      onLimit?.(what);
      this.close();
    };
    ws.on('message', (data, binary) => {
      if (this.stopped) return;
      const n = Array.isArray(data) ? data.reduce((a, b) => a + b.length, 0) : (data as Buffer).byteLength;
      this.kept += n;
      if (this.frames.length >= KEEP_LIMIT.count || this.kept > KEEP_LIMIT.bytes)
        return stop(`more than ${KEEP_LIMIT.count} frames or ${KEEP_LIMIT.bytes >> 20} MiB on one WebSocket`);
      if (binary) {
        this.frames.push(new BinaryFrame(n));
        this.texts.push('');
        return this.wake();
      }
      this.inject(data.toString());
    });
    ws.on('close', () => {
      this.closed = true;
      this.release();
      this.wake();
    });
    ws.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH') stop(`a WebSocket frame larger than ${BODY_LIMIT >> 20} MiB`);
      this.closed = true;
      this.wake();
    });
  }

  /**
   * Connect to `url` (ws: or wss:) with the token in `Authorization`; refused, once more with it as `access_token`
   * (AEP-0003 §8.1: a browser's WebSocket sends no header). @throws LiveConnectError, LiveTimeout
   */
  static async open(url: URL, opts: WireOptions): Promise<WsPeer> {
    try {
      return await WsPeer.connect(url, opts);
    } catch (e) {
      const refused = e instanceof LiveConnectError && (e.status === 401 || e.status === 403 || e.status === undefined);
      if (!opts.token || !refused || url.searchParams.has('access_token')) throw e;
      const query = new URL(url);
      query.searchParams.set('access_token', opts.token);
      return WsPeer.connect(query, opts);
    }
  }

  private static connect(url: URL, opts: WireOptions): Promise<WsPeer> {
    const abort = opts.abort;
    if (abort?.aborted) return Promise.reject(abort.reason);
    // require, not import(): the CLI bundle runs from a V8 code cache, where a dynamic import has no loader
    const WebSocketClient = createRequire(import.meta.url)('ws') as typeof import('ws').default;
    // the path alone in findings: the URL may carry the token
    const path = url.pathname;
    const upgrade = `the WebSocket upgrade at ${path}`;
    if (opts.silent?.has(upgrade))
      return Promise.reject(new LiveTimeout(`the WebSocket handshake at ${path}`, upgrade));
    return new Promise((resolve, reject) => {
      const ws = new WebSocketClient(url, {
        headers: opts.token ? { authorization: `Bearer ${opts.token}` } : {},
        handshakeTimeout: opts.timeoutMs,
        maxPayload: BODY_LIMIT,
      });
      const peer = new WsPeer(ws, opts.onLimit);
      // an abort drops the socket at once (a close handshake would wait up to 30 s for the server's answer)
      if (abort)
        peer.release = abort.hold(() => {
          reject(abort.reason);
          peer.closed = true;
          ws.terminate();
          peer.wake();
        });
      ws.once('open', () => resolve(peer));
      ws.once('error', (e: NodeJS.ErrnoException) =>
        reject(
          /handshake has timed out/i.test(e.message)
            ? new LiveTimeout(`the WebSocket handshake at ${path}`, upgrade)
            : connectError(url, e),
        ),
      );
      ws.once('unexpected-response', (req, res) => {
        req.destroy();
        const e = new LiveConnectError(`the WebSocket upgrade at ${path} was answered ${res.statusCode}`);
        e.status = res.statusCode;
        reject(e);
      });
    });
  }

  private release: () => void = () => {};

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }

  /** Indexes of the frames another binding carried ({@link inject} with `carried`), not this socket. */
  readonly carried = new Set<number>();

  /** Keep `text` as a text frame received (`carried`: an Event the same peer saw on another binding). */
  inject(text: string, carried = false): void {
    if (carried) this.carried.add(this.texts.length);
    this.texts.push(text);
    try {
      this.frames.push(JSON.parse(text));
    } catch {
      this.frames.push(text);
    }
    this.wake();
  }

  /** Send one frame as JSON. */
  send(frame: unknown): void {
    if (!this.closed) this.ws.send(JSON.stringify(frame));
  }

  /** Send one frame as JSON in a binary frame (AEP-0003 §3.5 #2 reserves them: the binary-frame check's probe). */
  sendBinary(frame: unknown): void {
    if (!this.closed) this.ws.send(Buffer.from(JSON.stringify(frame)), { binary: true });
  }

  /** The next frame from index `from` on that satisfies `pick`, within `ms`; undefined on timeout or close. */
  async next(from: number, pick: (f: unknown) => boolean, ms: number): Promise<unknown> {
    const deadline = Date.now() + ms;
    for (;;) {
      const hit = this.frames.slice(from).find(pick);
      if (hit !== undefined) return hit;
      const left = deadline - Date.now();
      if (left <= 0 || this.closed) return undefined;
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  /** Stop reading (the backpressure check's slow consumer): what the server sends waits in the socket buffers. */
  pause(): void {
    this.ws.pause();
  }

  /** Read again after {@link pause}. */
  resume(): void {
    this.ws.resume();
  }

  /** Close the connection. */
  close(): void {
    this.closed = true;
    this.ws.close();
  }
}
