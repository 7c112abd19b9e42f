/**
 * The SSE checks of `aep live` that judge a stream's own behaviour rather than the Events it carries (AEP-0003 §3.3,
 * §5): the refusal of a malformed `from`, and the opt-in heartbeat.
 */
import { HEAD_GRACE_MS, SseSubscriber } from './client.ts';
import type { LiveRun } from './live-run.ts';

/** AEP-0003 §5, §3.3: a malformed `from` over SSE is refused (the WebSocket's refusal is subscribe-refusal's). */
export async function malformedFrom(run: LiveRun): Promise<void> {
  const query = { filter: JSON.stringify({ session: run.session }), from: JSON.stringify({ session: run.session }) };
  const url = run.url(run.path('stream'), query, 'stream');
  const sub = await SseSubscriber.open(url, run.opts);
  sub.close();
  // status 0: no head within the grace, a stream held open (LiveRun.subscribe takes it as opened too)
  const stream =
    sub.status === 0 || (sub.status === 200 && /^text\/event-stream\s*(;|$)/i.test(sub.contentType.trim()));
  if (stream)
    run.report('aep/live-from-refusal', 'sse', {
      path: url.pathname,
      got: sub.status === 0 ? `with no head within ${HEAD_GRACE_MS} ms, held open` : '200 text/event-stream',
    });
}

/** The heartbeat interval AEP-0003 §3.3 #4 names (30 s), the default of `--heartbeat`. */
export const HEARTBEAT_MS = 30_000;

/**
 * AEP-0003 §3.3 #4: an idle SSE stream gets a comment line at least every interval (SHOULD); opt-in, it waits. A
 * comment sent with the stream's opening says nothing of the next interval: one from half of it on counts.
 */
export async function heartbeat(run: LiveRun): Promise<void> {
  const every = run.opts.heartbeatMs ?? HEARTBEAT_MS;
  // a session no Event has: only comments arrive
  const sub = await run.subscribe({ filter: JSON.stringify({ session: `${run.session}-idle` }) });
  const opened = Date.now();
  const half = Math.floor(every / 2);
  const deadline = opened + every + run.opts.timeoutMs;
  try {
    let seen = 0;
    // bounded: each wait ends by the deadline, and a comment past half the interval ends the loop
    while (await sub.until(() => sub.comments.length > seen, deadline - Date.now())) {
      seen = sub.comments.length;
      if (Date.now() - opened >= half) return;
    }
    if (sub.ended) return run.skip('heartbeat', 'the endpoint ended the SSE stream before a heartbeat was due');
    run.report('aep/live-heartbeat', 'none', { half, ms: Date.now() - opened, every });
  } finally {
    sub.close();
  }
}
