/**
 * The opt-in heartbeat check of `aep live` (AEP-0003 §3.3 #4): an idle SSE subscription hears a comment line at
 * least every 30 s. Slow by nature (it waits out the interval twice at most), so it runs only when named.
 */
import type { LiveRun } from './live-run.ts';

/** AEP-0003 §3.3 #4: the interval within which a server sends a comment line. */
export const HEARTBEAT_MS = 30_000;

/**
 * Subscribe to a session no Event has, then wait for a comment after the subscription opened and for another after
 * it: a ping sent only at the start is no heartbeat. Each wait is the interval plus a grace for the network.
 */
export async function heartbeat(run: LiveRun): Promise<void> {
  const ms = (run.opts.heartbeatMs ?? HEARTBEAT_MS) + Math.min(run.opts.timeoutMs, 2000);
  const sub = await run.subscribe({ filter: JSON.stringify({ session: `${run.session}-idle` }) });
  try {
    // the first wait counts a comment that came with the answer's head
    let seen = 0;
    for (const after of ['after the subscription opened', 'after the comment before it']) {
      if (await sub.until(() => sub.comments.length > seen, ms)) {
        seen = sub.comments.length;
        continue;
      }
      if (sub.ended) return run.skip('heartbeat', 'the endpoint ended the SSE stream before a heartbeat was due');
      return run.report('aep/live-heartbeat', 'silent', { ms, after });
    }
  } finally {
    sub.close();
  }
}
