/**
 * The `aep live` rules of an SSE stream's own behaviour (AEP-0003 §3.3, §5), checked by src/live/stream-checks.ts;
 * rules.ts places them in check order.
 */
import type { LiveRule } from './rule-types.ts';

/** AEP-0003 §5: a malformed SSE `from` is refused (the `filter` check asks it). */
export const FROM_REFUSAL_RULE: LiveRule = {
  id: 'aep/live-from-refusal',
  severity: 'warning',
  description:
    'Over SSE, a subscription whose `from` is malformed (an object, not an array of positions nor "all") is refused, never answered as a stream.',
  detail:
    "§5 says a refused `from` goes through the refusal classes that already govern a malformed one on SSE (§3.3) and the WebSocket (§6.5). §6.5 gives the WebSocket's (an invalid-filter error frame, aep/live-subscribe-refusal); §3.3 names no SSE refusal and no keyword, so any answer but 200 text/event-stream is a refusal here, and a stream is a warning (the maintainers' live checker probes a malformed `from` over the WebSocket only). A head held back past 500 ms is a stream opened.",
  spec: 'AEP-0003 §5; §3.3 #1; §6.5',
  quote: 'the closed refusal classes that already govern malformed `from` (SSE §3.3, WS §6.5)',
  messages: {
    sse: 'GET {path} with a malformed `from` (an object, not an array of positions) was answered {got}: a subscription, not a refusal.',
  },
};

/** AEP-0003 §3.3 #4: the opt-in heartbeat (the `heartbeat` check, in LIVE_SLOW). */
export const HEARTBEAT_RULE: LiveRule = {
  id: 'aep/live-heartbeat',
  severity: 'warning',
  description:
    'Opt-in (--checks heartbeat, slow): an idle SSE subscription gets a comment line (`: ping`) at least every 30 s (SHOULD); --heartbeat sets the interval judged.',
  detail:
    "The subscription names a session no Event has, so only comments arrive; any comment line counts: the sentence asks for a comment line, `: ping` is its form. One that comes before half the interval has passed (as one sent with the stream's opening) is not counted: it says nothing of the interval after it. The wait is the interval plus --timeout, so the check runs only when named in --checks (never by default, nor with --destructive). A stream the endpoint ends is not judged (the check is skipped).",
  spec: 'AEP-0003 §3.3 #4',
  quote: 'servers SHOULD send a comment line (`: ping`) at least every 30 s',
  messages: {
    none: 'An idle SSE subscription got no comment line (`: ping`) from {half} ms to {ms} ms after it opened; a server SHOULD send one at least every 30 s (judged every {every} ms).',
  },
};
