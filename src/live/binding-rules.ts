/**
 * The `aep live` rules of the WebSocket frames beyond hello and subscribe (unknown and binary frames, unsubscribe,
 * concurrent subscriptions) and of the POST answers beyond ingest (415, 413), checked by src/live/binding-checks.ts and
 * src/live/socket-checks.ts; rules.ts places them in check order.
 */
import type { LiveRule } from './rule-types.ts';

/** The binding rules, in check order. */
export const BINDING_RULES: readonly LiveRule[] = [
  {
    id: 'aep/live-unknown-frame',
    severity: 'error',
    description:
      'An unknown capability key in hello and an unknown frame type are ignored: hello is answered, the connection stays open and a subscribe after it is still answered.',
    spec: 'AEP-0003 §2; §4 #4; §6.5',
    messages: {
      closed: 'After an unknown frame type the connection {got}, instead of ignoring it.',
      capability: 'A hello with an unknown capability key got no hello answer; unknown capability keys are ignored.',
    },
  },
  {
    id: 'aep/live-binary-frame',
    severity: 'error',
    description:
      'An Event sent in a binary WebSocket frame is rejected (an error frame, a close, or nothing), never ingested: it reaches no subscriber.',
    detail:
      'Judged where an Event sent in a text frame by an emitter connection is delivered (else skipped); the text frame sent after the binary one bounds the wait.',
    spec: 'AEP-0003 §3.5 #2',
    quote: 'binary frames are reserved and MUST be rejected in 0.1',
    messages: { accepted: 'An Event sent in a binary frame was ingested and delivered to a subscriber.' },
  },
  {
    id: 'aep/live-unsubscribe',
    severity: 'warning',
    description:
      'A WebSocket unsubscribe by id is acknowledged with an unsubscribed frame (one echoing another id is no answer), and no Event of that subscription is delivered after it.',
    detail:
      "A warning: the sentence has no BCP 14 keyword and the AEP maintainers' live checker does not judge it. Events name no subscription, so both subscriptions of a connection are unsubscribed, and the wait for a late Event is bounded by a marker Event on a second connection.",
    spec: 'AEP-0003 §6.5; §2',
    quote: '`unsubscribe` by `id` is acknowledged with `unsubscribed`',
    messages: {
      noAck: 'An unsubscribe of {id:json} was answered {got}, not an unsubscribed frame (with its id or none).',
      delivered: 'An Event of the subscription {id:json} was delivered after its unsubscribed acknowledgement.',
    },
  },
  {
    id: 'aep/live-subscriptions',
    severity: 'error',
    description:
      'Two concurrent subscriptions on one WebSocket connection (different filters) are each answered subscribed and each receives its matching Event.',
    spec: 'AEP-0003 §6.5',
    quote: 'Multiple concurrent subscriptions per connection are REQUIRED server-side',
    messages: {
      refused: 'The {which} subscribe on one connection was answered {got}, not subscribed.',
      missing: 'With two subscriptions on one connection, the Event matching only the {which} one was not delivered.',
    },
  },
  {
    id: 'aep/live-content-type',
    severity: 'warning',
    description:
      'A POST of an Event with a Content-Type other than application/json or application/x-ndjson (text/plain) is answered 415.',
    detail:
      "A warning: §3.2 #3 lists 415 with no BCP 14 keyword, and the AEP maintainers' live checker does not judge it (their test collector accepts any content type).",
    spec: 'AEP-0003 §3.2 #1, #3',
    quote: '`415` wrong content type',
    messages: { status: 'A POST with Content-Type text/plain was answered {status}, not 415.' },
  },
  {
    id: 'aep/live-oversize',
    severity: 'warning',
    description:
      'Opt-in: a POST of one 8 MiB Event is either accepted (a limit above the probe) or refused 413, never with another status.',
    detail:
      "A warning: §3.2 #3 lists 413 with no BCP 14 keyword, and the AEP maintainers' live checker does not judge it. No document advertises a body limit (AEP-0003 §3.4 names none), so the probe is bounded (8 MiB) and runs only when named in --checks or with --destructive. An endpoint that accepts it is skipped with that reason, never passed; one that closes the connection before answering is skipped too (a 413 sent before the body was read can be lost that way).",
    spec: 'AEP-0003 §3.2 #3',
    quote: '`413` oversize',
    messages: { status: 'A POST of one Event of {mib} MiB was answered {status}, neither 2xx nor 413 (oversize).' },
  },
];
