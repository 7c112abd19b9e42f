/**
 * The opt-in `backpressure` check of `aep live` (AEP-0003 §8.4; AEP-0001 §8.1): a consumer that stops reading while
 * large notice Events are posted, then reads again; a notice Event missing without a disconnect it could resume from
 * is `aep/live-backpressure-drop`. Debug and info Events MAY be dropped, so their loss is never judged.
 */
import { BACKPRESSURE_MAX_MIB, BACKPRESSURE_MIB } from './backpressure-rules.ts';
import {
  type Ev,
  describeFrame,
  greeted,
  isFrame,
  limited,
  ownSession,
  wsKeep,
  wsMine,
  wsSubscribe,
} from './buffer-run.ts';
import { LiveTimeout } from './client.ts';
import { accepted } from './http-checks.ts';
import type { LiveRun } from './live-run.ts';

/** The payload of one probe Event at first (halved on a 413, down to {@link MIN_FILL}). */
const FILL = 64 * 1024;
const MIN_FILL = 1024;
/** Events a POST carries (an application/x-ndjson batch of about 512 KiB). */
const BATCH = 8;
/** The most Events and the longest the flood posts, whatever the budget. */
const MAX_EVENTS = 4096;
const FLOOD_MS = 60_000;
const TYPE = 'x.agentconformance.progress.backpressure';

/** The slow consumer, over either binding: what the judgement reads of it. */
interface Slow {
  how: string;
  /** What a kept-open connection failed to do, for the `dropped` message. */
  kept: string;
  pause(): void;
  resume(): void;
  close(): void;
  /** This run's Events of the probe session, in arrival order. */
  events(): Ev[];
  /** Wait until `done()` holds, the connection ends, or `ms` pass (rechecked as each frame or message arrives). */
  until(done: () => boolean, ms: number): Promise<void>;
  /** A disconnect: the connection closed or a closing frame came (WebSocket), the stream ended (SSE). */
  ended(): boolean;
  /** The seq the closing frame names delivered for the probe session, when one came (WebSocket). */
  closingSeq(): number | undefined;
  /** The endpoint closed the WebSocket with no closing frame first (never true of SSE, which has none). */
  closedUnannounced(): boolean;
  keep(): void;
}

async function wsSlow(run: LiveRun, url: URL, session: string): Promise<Slow | string> {
  const ws = await greeted(run, url, 'consumer');
  let answer: unknown;
  try {
    answer = await wsSubscribe(run, ws, { id: 'slow-1' }, session);
  } catch (e) {
    // a subscribe refused for credentials (or lost) must not leave the socket open: the run would never exit
    ws.close();
    throw e;
  }
  if (!isFrame('subscribed', 'slow-1')(answer)) {
    ws.close();
    limited(run, answer, "the slow consumer's WebSocket subscribe", false);
    return `a WebSocket subscribe was answered ${describeFrame(answer, ws.closed)}, not subscribed`;
  }
  const closingFrame = () => ws.frames.find(isFrame('closing')) as Ev | undefined;
  return {
    how: 'the WebSocket',
    kept: 'sent no closing frame and kept the connection open',
    pause: () => ws.pause(),
    resume: () => ws.resume(),
    close: () => ws.close(),
    events: () => wsMine(run, ws, session).map(({ ev }) => ev),
    until: async (done, ms) => {
      const deadline = Date.now() + ms;
      while (!done() && !ws.closed && Date.now() < deadline)
        await ws.next(ws.frames.length, () => true, deadline - Date.now());
    },
    ended: () => ws.closed || closingFrame() !== undefined,
    closedUnannounced: () => ws.closed && closingFrame() === undefined,
    closingSeq: () => {
      const named = closingFrame()?.delivered;
      const at = Array.isArray(named) ? (named as Ev[]).find((p) => p && p.session === session) : undefined;
      return typeof at?.seq === 'number' ? at.seq : undefined;
    },
    keep: () => wsKeep(run, ws, session),
  };
}

async function sseSlow(run: LiveRun, session: string): Promise<Slow> {
  const sub = await run.subscribe({ filter: JSON.stringify({ session }) });
  return {
    how: 'SSE',
    kept: 'kept the stream open',
    pause: () => sub.pause(),
    resume: () => sub.resume(),
    close: () => sub.close(),
    events: () => run.mine(sub, session).map(({ ev }) => ev),
    until: async (done, ms) => void (await sub.until(done, ms)),
    ended: () => sub.ended,
    closingSeq: () => undefined,
    closedUnannounced: () => false,
    keep: () => run.keep(sub, session),
  };
}

/**
 * Post up to `budget` bytes of probe Events (every fourth one info, the rest notice) as NDJSON batches: the Events
 * accepted, or why none could be. A POST not answered in time ends the flood, its Events unknown (not judged).
 */
async function flood(run: LiveRun, own: ReturnType<typeof ownSession>, budget: number): Promise<Ev[] | string> {
  const posted: Ev[] = [];
  let fill = FILL;
  let bytes = 0;
  let n = 0;
  const started = Date.now();
  while (bytes < budget && posted.length < MAX_EVENTS && Date.now() - started < FLOOD_MS) {
    const batch = Array.from({ length: BATCH }, () =>
      own.event(TYPE, { severity: n++ % 4 === 3 ? 'info' : 'notice', data: { note: 'x'.repeat(fill) } }),
    );
    const body = `${batch.map((e) => JSON.stringify(e)).join('\n')}\n`;
    let status: number;
    try {
      status = (await run.post(body, 'application/x-ndjson')).status;
    } catch (e) {
      // an endpoint MAY hold its emitters back instead (the block policy of §8.4's emitter side)
      if (e instanceof LiveTimeout && posted.length > 0) break;
      throw e;
    }
    if (status === 413 && fill > MIN_FILL) {
      fill /= 2;
      continue;
    }
    if (!accepted(status))
      return posted.length > 0 ? posted : `a POST of ${BATCH} probe Events was answered ${status}, not accepted`;
    posted.push(...batch);
    bytes += Buffer.byteLength(body);
  }
  return posted;
}

/** Read what came after the flood: until the last notice posted (or an Event after it) arrived, the end, or a stall. */
async function drain(run: LiveRun, slow: Slow, lastSeq: number): Promise<void> {
  const done = () => slow.ended() || slow.events().some((ev) => (ev.seq as number) >= lastSeq);
  // bounded: each turn reads at least one more probe Event (at most those posted), else ends; heartbeats and other
  // frames are no progress
  while (!done()) {
    const n = slow.events().length;
    await slow.until(() => done() || slow.events().length > n, run.opts.timeoutMs);
    if (slow.events().length === n) return;
  }
}

/** AEP-0003 §8.4 (opt-in): no notice-and-above Event dropped silently toward a slow consumer. */
export async function backpressure(run: LiveRun): Promise<void> {
  const mib = Math.min(run.opts.backpressureMib ?? BACKPRESSURE_MIB, BACKPRESSURE_MAX_MIB);
  const own = ownSession(run, 'slow');
  const url = run.socket();
  if (!url && !run.discovery?.endpoints.stream)
    return run.skip(
      'backpressure',
      'the discovery document names neither a "socket" (WebSocket) nor a "stream" (SSE) endpoint',
    );
  const slow = url ? await wsSlow(run, url, own.session) : await sseSlow(run, own.session);
  if (typeof slow === 'string') return run.skip('backpressure', slow);
  try {
    // the kernel's socket buffers fill first, then the endpoint's own: only then is this a slow consumer to it
    slow.pause();
    const posted = await flood(run, own, mib * 2 ** 20);
    slow.resume();
    if (typeof posted === 'string') return run.skip('backpressure', posted);
    const notices = posted.filter((e) => e.severity === 'notice');
    if (!notices.length) return run.skip('backpressure', 'no notice Event of the probe was accepted');
    await drain(run, slow, notices.at(-1)!.seq as number);
    slow.keep();
    judge(run, slow, notices);
    if (slow.closedUnannounced()) run.report('aep/live-closing-frame', 'closed', {});
  } finally {
    slow.close();
  }
}

function judge(run: LiveRun, slow: Slow, notices: Ev[]): void {
  const got = slow.events();
  const ids = new Set(got.map((ev) => ev.id));
  const seqs = got.map((ev) => ev.seq as number).sort((a, b) => a - b);
  const missing = notices.filter((e) => !ids.has(e.id));
  if (missing.length === 0) return;
  // missing before an Event delivered after it: the consumer's resume position is already past it
  const last = seqs.at(-1) ?? -1;
  const gaps = missing.filter((e) => (e.seq as number) < last);
  if (gaps.length)
    run.report('aep/live-backpressure-drop', 'gap', {
      how: slow.how,
      id: String(gaps[0]!.id),
      seq: gaps[0]!.seq as number,
      later: seqs.find((s) => s > (gaps[0]!.seq as number))!,
      count: gaps.length,
    });
  const tail = missing.filter((e) => !gaps.includes(e));
  if (!tail.length) return;
  if (!slow.ended()) {
    run.report('aep/live-backpressure-drop', 'dropped', {
      how: slow.how,
      count: tail.length,
      id: String(tail[0]!.id),
      kept: slow.kept,
    });
    return;
  }
  const named = slow.closingSeq();
  const passed = named === undefined ? undefined : tail.find((e) => (e.seq as number) <= named);
  if (passed)
    run.report('aep/live-backpressure-drop', 'position', {
      named: named!,
      id: String(passed.id),
      seq: passed.seq as number,
    });
}
