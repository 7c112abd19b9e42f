/**
 * The `aep live` rules: each check of a running collector, relay or fan-out endpoint over the AEP-0003 bindings, with
 * the sentence it enforces. Like the pin rules they judge a service, not a stream, so they have no JSONL cases: the
 * compliant test endpoint and its broken variants (test/live/) are their passing and failing cases.
 */
import type { Severity } from '../core/finding.ts';
import type { MessageTemplates } from '../core/message.ts';

/** One live rule: id, severity, description, citation, message templates. */
export interface LiveRule {
  id: LiveRuleId;
  severity: Severity;
  description: string;
  /** What the one-sentence description leaves out. */
  detail?: string;
  spec: string;
  /** A short literal quote of the cited sentence. */
  quote?: string;
  messages: MessageTemplates;
}

/** Every rule id `aep live` can report. */
export type LiveRuleId =
  | 'aep/live-discovery'
  | 'aep/live-well-known'
  | 'aep/live-version-gate'
  | 'aep/live-invalid-envelope'
  | 'aep/live-ingest'
  | 'aep/live-fanout'
  | 'aep/live-delivery-identity'
  | 'aep/live-filter'
  | 'aep/live-capture-ceiling'
  | 'aep/live-resume'
  | 'aep/live-hello'
  | 'aep/live-subscribe-refusal'
  | 'aep/live-unknown-frame'
  | 'aep/live-timeout'
  | 'aep/live-skipped';

/** The live rules in check order (`aep live --checks` takes the names after `aep/live-`). */
export const LIVE_RULES: readonly LiveRule[] = [
  {
    id: 'aep/live-discovery',
    severity: 'error',
    description:
      'GET {base}/events returns the discovery document: 200, application/json, an `aep` array naming "0.1" and an `endpoints` object.',
    spec: 'AEP-0003 §3.4',
    messages: {
      status: 'GET {path} answered {status}, not 200 with the discovery document.',
      contentType: 'GET {path} answered with Content-Type {type:json}, not application/json.',
      notJson: 'GET {path} did not answer a JSON object.',
      member: 'The discovery document has no {member} ({expected}).',
    },
  },
  {
    id: 'aep/live-well-known',
    severity: 'warning',
    description: 'An origin-root deployment also serves the discovery document at /.well-known/aep (SHOULD).',
    spec: 'AEP-0003 §3.4',
    messages: { missing: 'GET /.well-known/aep answered {status}, not the discovery document.' },
  },
  {
    id: 'aep/live-version-gate',
    severity: 'error',
    description:
      'A POST with an unsupported major version (AEP-Version: 99.0) is answered 426 Upgrade Required with {"versions": [...]} naming "0.1".',
    spec: 'AEP-0003 §3.2 #2',
    messages: {
      status: 'A POST with AEP-Version 99.0 was answered {status}, not 426 Upgrade Required.',
      body: 'The 426 answer has no "versions" array naming "0.1".',
    },
  },
  {
    id: 'aep/live-invalid-envelope',
    severity: 'error',
    description:
      'A POST of an Event that fails envelope validation (no `id`) is answered 400 with {"error": "invalid-event"}, and the Event is not delivered.',
    spec: 'AEP-0003 §3.2 #3',
    messages: {
      status: 'A POST of an Event without "id" was answered {status}, not 400.',
      body: 'The 400 answer has no "error": "invalid-event".',
      delivered: 'The Event without "id" was refused yet delivered to a subscriber.',
    },
  },
  {
    id: 'aep/live-ingest',
    severity: 'error',
    description: 'A POST of valid Events (a single Event, and an application/x-ndjson batch) is answered 202.',
    spec: 'AEP-0003 §3.2 #1, #3',
    messages: { status: 'A POST of a valid {what} was answered {status}, not 202.' },
  },
  {
    id: 'aep/live-fanout',
    severity: 'error',
    description:
      'Events ingested by POST reach an SSE subscriber in their order: `event:` the type, `id:` {session}:{epoch}:{seq}, `data:` the Event on one line.',
    spec: 'AEP-0003 §3.3 #1-2; §3.2 #1',
    messages: {
      missing: 'The SSE subscriber received {got} of the {want} Events posted (timeout {ms} ms).',
      order: 'The SSE subscriber received the posted Events out of their order (batch order is preserved).',
      eventField: 'An SSE message has event: {got:json}, not the Event type {want:json}.',
      idField: 'An SSE message has id: {got:json}, not {want:json} ({session}:{epoch}:{seq}).',
      data: 'An SSE message data: is not one AEP Event as JSON.',
    },
  },
  {
    id: 'aep/live-delivery-identity',
    severity: 'error',
    description:
      'A delivered Event is the Event ingested: no binding wraps or rewrites Events (compared as canonical JSON; a relay MAY add extension attributes, AEP-0001 §4.2).',
    spec: 'AEP-0003 Abstract; AEP-0001 §4.2',
    messages: { changed: 'The Event delivered for id {id:json} differs from the Event posted (at {pointer}).' },
  },
  {
    id: 'aep/live-filter',
    severity: 'error',
    description: 'A subscription with an attr-match filter receives exactly the Events that match it.',
    spec: 'AEP-0003 §6.2; §3.3 #1',
    messages: {
      extra: 'A subscriber with filter {"type":["{type}"]} received a {got} Event.',
      missing: 'A subscriber with filter {"type":["{type}"]} did not receive the matching Event.',
    },
  },
  {
    id: 'aep/live-capture-ceiling',
    severity: 'error',
    description:
      'A subscription with a capture ceiling receives Events down-leveled to it per AEP-0001 §8.2, never above it.',
    spec: 'AEP-0003 §6.4; AEP-0001 §8.2',
    messages: {
      above: 'A subscriber with capture={ceiling} received an Event at capture {got}.',
      payload:
        'A subscriber with capture={ceiling} received an Event whose payload is not the §8.2 down-level (at {pointer}).',
      missing: 'A subscriber with capture={ceiling} received no Event.',
    },
  },
  {
    id: 'aep/live-resume',
    severity: 'error',
    description:
      'A subscriber resuming with Last-Event-ID {session}:{epoch}:{seq} (or `from`) receives the buffered Events strictly after that position, in order, with none missing.',
    spec: 'AEP-0003 §3.3 #3; §7',
    messages: {
      got: 'Resuming after seq {after} delivered seq {got}; expected {want}.',
      notAdvertised: 'The endpoint advertises a replay buffer but resumed nothing.',
    },
  },
  {
    id: 'aep/live-hello',
    severity: 'error',
    description:
      'Over the WebSocket binding, a hello is answered by hello selecting exactly one version ("0.1"); any other first frame gets an error frame with code "hello-required".',
    spec: 'AEP-0003 §3.5 #1; §4 #1',
    messages: {
      noHello: 'The first frame answered to hello is not a hello ({got}).',
      versions: 'The hello answer selects {count} versions, not exactly ["0.1"].',
      helloRequired:
        'A first frame other than hello was answered {got}, not an error frame with code "hello-required".',
    },
  },
  {
    id: 'aep/live-subscribe-refusal',
    severity: 'error',
    description:
      'A malformed subscribe is refused in-band by an error frame with its id and a code of the closed set; the connection survives and a valid subscribe is then answered subscribed.',
    spec: 'AEP-0003 §6.5',
    messages: {
      code: 'A malformed subscribe was answered {got}, not an error frame with its id and a closed-set code.',
      closed: 'The connection closed after a refused subscribe.',
      noSubscribed: 'A valid subscribe after a refused one was not answered subscribed.',
    },
  },
  {
    id: 'aep/live-unknown-frame',
    severity: 'error',
    description: 'An unknown frame type is ignored: the connection stays open and a ping is still answered pong.',
    spec: 'AEP-0003 §2; §3.5 #5',
    messages: { closed: 'After an unknown frame type the connection {got}, instead of ignoring it.' },
  },
  {
    id: 'aep/live-timeout',
    severity: 'error',
    description: 'A check waited longer than --timeout for the endpoint: the check is named.',
    spec: 'agent-conformance (README §aep live)',
    messages: { timeout: 'The {check} check got no answer within {ms} ms ({waiting}).' },
  },
  {
    id: 'aep/live-skipped',
    severity: 'info',
    description:
      'A check the endpoint does not advertise (a binding absent from `endpoints`) is skipped, never passed.',
    spec: 'AEP-0003 §3.4; §4 #5',
    messages: { skipped: 'The {check} check was skipped: {reason}.' },
  },
];

/** The check names `--checks` takes, in order. */
export const LIVE_CHECKS = [
  'discovery',
  'version-gate',
  'invalid-envelope',
  'ingest',
  'fanout',
  'filter',
  'capture-ceiling',
  'resume',
  'hello',
  'subscribe-refusal',
  'unknown-frame',
] as const;
/** One check name. */
export type LiveCheck = (typeof LIVE_CHECKS)[number];
