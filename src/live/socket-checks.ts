/**
 * The WebSocket checks of `aep live` (AEP-0003 §2, §3.5, §4, §6.5): hello, the in-band subscribe refusal and unknown
 * frame types. They see the run through {@link SocketRun}, the part of src/live/check.ts's run they need.
 */
import type { MessageArgs } from '../core/message.ts';
import { describeFrame, helloAwaited, limited, namesLimit } from './buffer-run.ts';
import { LiveTimeout } from './client.ts';
import { subscribeRefused } from './credentials.ts';
import { WsPeer } from './ws-peer.ts';
import type { LiveCheck, LiveRuleId } from './rules.ts';

/** What a socket check reads and reports through. */
export interface SocketRun {
  readonly session: string;
  /** The check running now. */
  readonly check: LiveCheck;
  readonly opts: { timeoutMs: number; token?: string };
  capabilities(): Record<string, unknown>;
  report(id: LiveRuleId, messageId: string, args?: MessageArgs, pointer?: string): void;
}

/** The closed refusal codes of a subscribe (AEP-0003 §6.5). */
const CLOSED_SUBSCRIBE_CODES = new Set(['invalid-filter', 'unknown-dialect', 'unauthorized', 'limit-exceeded']);

const isFrame = (type: string, id?: string) => (f: unknown) =>
  !!f &&
  typeof f === 'object' &&
  (f as Record<string, unknown>).type === type &&
  (id === undefined || (f as Record<string, unknown>).id === id);

const HELLO = {
  type: 'hello',
  versions: ['0.1'],
  role: 'consumer',
  identity: { agent: 'agent-conformance' },
  capabilities: {},
};

/** AEP-0003 §3.5 #1, §4 #1: hello is answered by one version, or `version-unsupported`; another first frame gets `hello-required`. */
export async function hello(run: SocketRun, url: URL): Promise<void> {
  const ws = await WsPeer.open(url, run.opts);
  try {
    ws.send(HELLO);
    const h = await ws.next(0, () => true, run.opts.timeoutMs);
    if (!isFrame('hello')(h)) run.report('aep/live-hello', 'noHello', { got: describeFrame(h, ws.closed) });
    else {
      const v = (h as { versions?: unknown }).versions;
      if (!Array.isArray(v) || v.length !== 1 || v[0] !== '0.1')
        run.report('aep/live-hello', 'versions', { count: Array.isArray(v) ? v.length : 0 });
      // §4 #2 closes the set of roles; a hello without one is not judged (no sentence requires it of the responder)
      const role = (h as { role?: unknown }).role;
      if (role !== undefined && !['emitter', 'consumer', 'both'].includes(role as string))
        run.report('aep/live-hello', 'role', { got: JSON.stringify(role) });
      // §4 #3: an emitter's hello names its agent; "both" is not judged, as a relay forwards many agents' Events and has
      // no one "envelope agent of the Events it will send"
      const identity = (h as { identity?: { agent?: unknown } }).identity;
      if (role === 'emitter' && !(typeof identity?.agent === 'string' && identity.agent !== ''))
        run.report('aep/live-hello', 'agent');
      // AEP-0003 §5: a buffer advertised in the discovery document is advertised in hello too
      const replay = (o: unknown) =>
        o && typeof o === 'object' ? (o as { replay?: { buffer?: unknown } }).replay : undefined;
      const caps = (h as { capabilities?: unknown }).capabilities;
      if (typeof replay(run.capabilities())?.buffer === 'number' && typeof replay(caps)?.buffer !== 'number')
        run.report('aep/live-buffer-advertised', 'hello');
    }
  } finally {
    ws.close();
  }
  const bare = await WsPeer.open(url, run.opts);
  try {
    bare.send({ type: 'subscribe', id: 'early', filter: {} });
    const e = await afterOwnHello(run, bare);
    if (!isFrame('error')(e) || (e as { code?: unknown }).code !== 'hello-required')
      run.report('aep/live-hello', 'helloRequired', { got: describeFrame(e, bare.closed) });
  } finally {
    bare.close();
  }
  const future = await WsPeer.open(url, run.opts);
  try {
    future.send({ ...HELLO, versions: ['99.0'] });
    const e = (await afterOwnHello(run, future)) as { code?: unknown; versions?: unknown };
    if (isFrame('error')(e) && e.code === 'version-unsupported' && !Array.isArray(e.versions))
      run.report('aep/live-hello', 'noVersions');
    else if (!isFrame('error')(e) || e.code !== 'version-unsupported')
      run.report('aep/live-hello', 'versionUnsupported', { got: describeFrame(e, future.closed) });
  } finally {
    future.close();
  }
}

/**
 * The answer to the first frame sent on `ws`. AEP-0003 §3.5 #1 orders hello first *in each direction*, so an endpoint
 * may send its own hello as the connection opens, without waiting for ours (README, aep live decisions): a leading
 * hello followed by another frame is that, and the frame after it is the answer; a leading hello with nothing after it
 * but the pong of a ping sent behind it (or nothing within 2 s) is the answer itself.
 */
async function afterOwnHello(run: SocketRun, ws: WsPeer): Promise<unknown> {
  const first = await ws.next(0, () => true, run.opts.timeoutMs);
  if (!isFrame('hello')(first)) return first;
  const t = `after-hello-${Date.now()}`;
  ws.send({ type: 'ping', t });
  const then = await ws.next(1, () => true, Math.min(run.opts.timeoutMs, 2000));
  if (then === undefined) return ws.closed ? undefined : first;
  return isFrame('pong')(then) ? first : then;
}

async function greeted(run: SocketRun, url: URL, hello: object = HELLO): Promise<WsPeer> {
  const ws = await WsPeer.open(url, run.opts);
  ws.send(hello);
  if ((await ws.next(0, isFrame('hello'), run.opts.timeoutMs)) === undefined) {
    ws.close();
    throw new LiveTimeout(helloAwaited(ws));
  }
  return ws;
}

/** AEP-0003 §6.5: a malformed subscribe is refused in-band from the closed set, and the connection survives. */
export async function subscribeRefusal(run: SocketRun, url: URL): Promise<void> {
  const ws = await greeted(run, url);
  try {
    const from = ws.frames.length;
    ws.send({ type: 'subscribe', id: 'bad-1', filter: {}, from: { session: run.session } });
    const e = await ws.next(
      from,
      (f) => !!f && typeof f === 'object' && (f as Record<string, unknown>).id === 'bad-1',
      run.opts.timeoutMs,
    );
    // refused for credentials before its `from` was read: how a malformed one is refused is not seen
    subscribeRefused(e, !!run.opts.token);
    if (!isFrame('error', 'bad-1')(e) || !CLOSED_SUBSCRIBE_CODES.has(String((e as { code?: unknown }).code)))
      run.report('aep/live-subscribe-refusal', 'code', { got: describeFrame(e, ws.closed) });
    if (ws.closed) return run.report('aep/live-subscribe-refusal', 'closed');
    const at = ws.frames.length;
    ws.send({ type: 'subscribe', id: 'good-1', filter: { session: run.session } });
    const ok = await ws.next(
      at,
      (f) => !!f && typeof f === 'object' && (f as Record<string, unknown>).id === 'good-1',
      run.opts.timeoutMs,
    );
    if (ws.closed && ok === undefined) return run.report('aep/live-subscribe-refusal', 'closed');
    subscribeRefused(ok, !!run.opts.token);
    // answered in-band, the connection survived (judged); whether a valid subscribe is honoured is not, for a limit
    if (!isFrame('subscribed', 'good-1')(ok) && !limited(run, ok, 'a valid subscribe after the refused one', true))
      run.report('aep/live-subscribe-refusal', 'noSubscribed');
    await manyPositions(run, ws);
  } finally {
    ws.close();
  }
}

/** How many resume positions the limit probe names: more than an endpoint may replay (AEP-0003 §6.5 limit-exceeded). */
const MANY = 1024;

/** §6.5: a subscribe past an endpoint limit is subscribed or refused from the closed set; limit-exceeded has a detail. */
async function manyPositions(run: SocketRun, ws: WsPeer): Promise<void> {
  const from = Array.from({ length: MANY }, (_, i) => ({ session: `${run.session}.limit-${i}`, epoch: 0, seq: 0 }));
  const at = ws.frames.length;
  ws.send({ type: 'subscribe', id: 'many-1', filter: { session: run.session }, from });
  const a = (await ws.next(
    at,
    (f) => isFrame('subscribed', 'many-1')(f) || isFrame('error', 'many-1')(f),
    run.opts.timeoutMs,
  )) as { type?: unknown; code?: unknown; detail?: unknown } | undefined;
  if (isFrame('subscribed')(a)) return;
  if (!a && ws.closed) return run.report('aep/live-subscribe-refusal', 'closed');
  if (!a || !CLOSED_SUBSCRIBE_CODES.has(String(a.code)))
    return run.report('aep/live-subscribe-refusal', 'code', { got: describeFrame(a, ws.closed) });
  // the same reading of `detail` as every skip reason naming a limit (buffer-run.ts limitNamed)
  if (a.code !== 'limit-exceeded' || namesLimit(a.detail)) return;
  if (a.detail == null) run.report('aep/live-limit-detail', 'missing', { n: MANY });
  else run.report('aep/live-limit-detail', 'unnamed', { n: MANY, got: describeDetail(a.detail) });
}

/** A detail that names no limit, as a finding quotes it (JSON, clipped). */
function describeDetail(detail: unknown): string {
  const text = JSON.stringify(detail);
  return text.length > 60 ? `${text.slice(0, 60)}...` : text;
}

/** AEP-0003 §2, §4 #4: an unknown capability key and an unknown frame type are ignored (a subscribe is still answered). */
export async function unknownFrame(run: SocketRun, url: URL): Promise<void> {
  const future = { ...HELLO, capabilities: { 'x-agent-conformance-probe': { ignored: true } } };
  const ws = await greeted(run, url, future).catch((e: unknown) => {
    // no hello answer blames the capability; a handshake never answered is the run's finding (check.ts)
    if (!(e instanceof LiveTimeout) || e.silent !== undefined) throw e;
    run.report('aep/live-unknown-frame', 'capability');
  });
  if (!ws) return;
  try {
    ws.send({ type: 'x-agent-conformance-probe', note: 'an unknown frame type, to be ignored' });
    // a subscribe is answered (§6.5), where a ping's pong is only described (§3.5 #5)
    const at = ws.frames.length;
    ws.send({ type: 'subscribe', id: 'after-unknown', filter: { session: run.session } });
    const answer = await ws.next(
      at,
      (f) => !!f && typeof f === 'object' && (f as { id?: unknown }).id === 'after-unknown',
      run.opts.timeoutMs,
    );
    subscribeRefused(answer, !!run.opts.token);
    if (answer === undefined)
      run.report('aep/live-unknown-frame', 'closed', { got: ws.closed ? 'closed' : 'stopped answering a subscribe' });
  } finally {
    ws.close();
  }
}
