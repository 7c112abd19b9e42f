/**
 * The `aep live` rules of AEP-0003 §8.4 (AEP-0001 §8.1): toward a slow consumer, notice-and-above Events are
 * delivered or the consumer is disconnected, never dropped silently; and of §3.5 #3: that disconnect, a deliberate
 * close, sends a closing frame first. Checked by backpressure-checks.ts; rules.ts places them in check order.
 */
import type { LiveRule } from './rule-types.ts';

/** The budget the backpressure check posts by default, in MiB (`--backpressure-mib`). */
export const BACKPRESSURE_MIB = 32;
/** The largest budget taken: half of what one connection keeps (client.ts KEEP_LIMIT, 256 MiB). */
export const BACKPRESSURE_MAX_MIB = 128;

/** AEP-0003 §8.4 #2, AEP-0001 §8.1 #4: no silent drop of notice-and-above (the opt-in `backpressure` check). */
export const BACKPRESSURE_RULE: LiveRule = {
  id: 'aep/live-backpressure-drop',
  severity: 'error',
  description:
    'Opt-in (--destructive): toward a slow consumer, notice-and-above Events are delivered, or the consumer is disconnected so it resumes exactly; never dropped silently (debug and info may be).',
  detail: `A disconnect: on the WebSocket a closing frame then close, on SSE the stream ended. The probe subscribes to a session of its own (over the WebSocket when the discovery document names one, else SSE), stops reading so the socket buffers fill, posts large notice Events with an info Event every fourth (up to --backpressure-mib MiB, default ${BACKPRESSURE_MIB}, at most ${BACKPRESSURE_MAX_MIB}; at most 4096 Events or 60 s), then reads again (about 2 s for the default budget on loopback). A notice Event missing is a finding when the connection stayed open, when an Event posted after it was delivered (a consumer resuming from its last position never gets it), or when it is at or before the position the closing frame names delivered. A missing info Event is never a finding (MAY). A close with no closing frame is a disconnect: the consumer resumes from the positions it tracked (§3.5 #4: consumers MUST NOT depend on the frame), so it is not judged here. A POST not answered within --timeout ends the flood (an endpoint MAY block its emitters instead), and its Events are not judged. It moves tens of MiB into the endpoint's buffer and has it drop or disconnect a consumer, so it is destructive: it runs only with --destructive or when named in --checks.`,
  spec: 'AEP-0003 §8.4; AEP-0001 §8.1',
  quote: 'They MUST NOT silently drop notice-and-above',
  messages: {
    dropped:
      'Over {how}, {count} notice Event(s) posted while the consumer was not reading never arrived (the first {id:json}), and the endpoint {kept}; a slow consumer gets notice-and-above Events, or a disconnect it resumes from.',
    gap: 'Over {how}, the notice Event {id:json} (seq {seq}) never arrived, yet the Event at seq {later} posted after it did: a consumer resuming from its last position never gets it ({count} such).',
    position:
      'Over the WebSocket, the closing frame names seq {named} delivered, but the notice Event {id:json} (seq {seq}) never arrived: a consumer resuming from that position never gets it.',
  },
};

/** AEP-0003 §3.5 #3: a WebSocket closed deliberately (here: a slow consumer disconnected) gets a closing frame first. */
export const CLOSING_FRAME_RULE: LiveRule = {
  id: 'aep/live-closing-frame',
  severity: 'warning',
  description:
    "Opt-in (--destructive): an endpoint that disconnects the backpressure check's slow WebSocket consumer sends a closing frame first (SHOULD).",
  detail:
    'The backpressure check (aep/live-backpressure-drop) is the one deliberate close a black-box checker can provoke: an endpoint that disconnects its paused consumer chooses to. Over the WebSocket, a close with no closing frame before it is this warning; the consumer still resumes from the positions it tracked (§3.5 #4), so it is no drop. SSE has no closing frame (the stream ends).',
  spec: 'AEP-0003 §3.5; AEP-0003 §8.4',
  quote: 'a party closing deliberately SHOULD first send a closing frame',
  messages: {
    closed:
      "Over the WebSocket, the endpoint closed the slow consumer's connection without a closing frame first; a party closing deliberately SHOULD send one naming the positions delivered, so the consumer resumes exactly.",
  },
};
