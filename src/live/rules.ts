/**
 * The `aep live` rules: each check of a running collector, relay or fan-out endpoint over the AEP-0003 bindings, with
 * the sentence it enforces. Like the pin rules they judge a service, not a stream, so they have no JSONL cases: the
 * compliant test endpoint and its broken variants (test/live/) are their passing and failing cases.
 */
import { BACKPRESSURE_RULE, CLOSING_FRAME_RULE } from './backpressure-rules.ts';
import { BINDING_RULES } from './binding-rules.ts';
import { CONTROL_CHECKS, CONTROL_RULES } from './control-rules.ts';
import type { LiveRule } from './rule-types.ts';
import { FROM_REFUSAL_RULE, HEARTBEAT_RULE } from './stream-rules.ts';
import { CAPTURE_CEILING_RULE, FILTER_RULE } from './subscription-rules.ts';
import { TLS_RULE, TOKEN_RULES } from './trust-rules.ts';

export type { LiveRule, LiveRuleId } from './rule-types.ts';

/** The live rules in check order (`aep live --checks` takes the names after `aep/live-`). */
export const LIVE_RULES: readonly LiveRule[] = [
  {
    id: 'aep/live-discovery',
    severity: 'error',
    description:
      'GET {base}/events returns the discovery document: 2xx, application/json, an `aep` array naming "0.1" and an `endpoints` object.',
    spec: 'AEP-0003 §3.4',
    messages: {
      status: 'GET {path} answered {status}, not 2xx with the discovery document.',
      contentType: 'GET {path} answered with Content-Type {type:json}, not application/json.',
      notJson: 'GET {path} did not answer a JSON object.',
      tooLarge: 'GET {path} answered a body larger than {mib} MiB, more than this check reads.',
      endpoint: 'The discovery document names the {name} endpoint {got}, which is no http(s) URL or path.',
      member: 'The discovery document has no {member} ({expected}).',
      memberShape: "The discovery document's {member} is {got}, not {expected}.",
    },
  },
  TLS_RULE,
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
      'A POST of an Event that fails envelope validation (no `id`), alone or in a batch, is refused: 400 with {"error": "invalid-event"}, and the Event is not delivered.',
    detail:
      'A batch holding such an Event may instead get a 207-style per-line report (AEP-0003 §3.2 #3: MAY), so 400 (the batch rejected whole) and 207 both pass for it.',
    spec: 'AEP-0003 §3.2 #3',
    messages: {
      status: 'A POST of an Event without "id" was answered {status}, not 400.',
      batch:
        'A POST of an application/x-ndjson batch whose second Event has no "id" was answered {status}, not 400 (the batch rejected whole) or 207 (a per-line report).',
      body: 'The 400 answer has no "error": "invalid-event".',
      delivered: 'The Event without "id" was {how} and delivered to a subscriber.',
    },
  },
  {
    id: 'aep/live-batch-whole',
    severity: 'warning',
    description:
      'An application/x-ndjson batch with an invalid Event (no `id`) between two valid ones, answered 400, is rejected whole: neither valid Event is delivered.',
    detail:
      "§3.2 #3 gives a failing batch two answers: a 207-style per-line report, or the batch rejected whole with the first failing line index; a 400 is the second. A warning: the list has no BCP 14 keyword and the AEP maintainers' live checker does not judge it. Another answer than 400 is not judged here (aep/live-invalid-envelope judges the single Event); run only when that single Event was refused with 400.",
    spec: 'AEP-0003 §3.2 #3',
    messages: {
      partial:
        'A batch of 3 Events whose line 1 (0-based) has no "id" was answered 400, yet {delivered} of its 2 valid Events reached a subscriber; a 400 rejects the batch whole (a per-line report is a 207-style answer).',
    },
  },
  {
    id: 'aep/live-ingest',
    severity: 'error',
    description:
      'A POST of valid Events (a single Event, and an application/x-ndjson batch) is accepted: answered 202, or 200.',
    detail:
      "§3.2 #3 lists 202 with no BCP 14 keyword; the AEP maintainers' live checker (conformance/live.js) takes 200 or 202, and so does this rule.",
    spec: 'AEP-0003 §3.2 #1, #3',
    messages: { status: 'A POST of a valid {what} was answered {status}, not 202 accepted (or 200).' },
  },
  ...TOKEN_RULES,
  {
    id: 'aep/live-fanout',
    severity: 'error',
    description:
      'Events ingested by POST reach an SSE subscriber in their order: a 200 text/event-stream answer, each message with `event:` the type, `id:` {session}:{epoch}:{seq}, `data:` the Event on one line.',
    detail:
      'An agent-scoped Event (agent.heartbeat, no session) is delivered with no `id:` field (§3.3 #2: it is no resumable position). A redelivered Event (the same source and id again) is legal (AEP-0003 §5, §7): order and coverage count its first delivery. A subscription answered otherwise than 200 text/event-stream is not read (WHATWG SSE fails the connection), and the stream checks after it that get the same answer are skipped. A line longer than 4 MiB closes the subscription.',
    spec: 'AEP-0003 §3.3 #1-2; §3.2 #1',
    messages: {
      missing: 'The SSE subscriber received {got} of the {want} Events posted (timeout {ms} ms).',
      ended: 'The SSE stream ended after {got} of the {want} Events posted.',
      order: 'The SSE subscriber received the posted Events out of their order (batch order is preserved).',
      eventField: 'An SSE message has event: {got:json}, not the Event type {want:json}.',
      idField: 'An SSE message has id: {got:json}, not {want:json} ({session}:{epoch}:{seq}).',
      noEventField:
        'An SSE message has no event: field (an EventSource reads it as "message"), not the Event type {want:json}.',
      noIdField:
        'An SSE message has no id: field; a session-scoped Event carries id: {want:json} ({session}:{epoch}:{seq}).',
      agentId:
        'The SSE message of the agent-scoped Event {id:json} has id: {got:json}; agent-scoped Events carry no id: field.',
      data: 'An SSE message carries its Event on {n} data: lines, not one (it is recorded as one line).',
      notEvent: 'An SSE message has data: {got:json}, which is not an AEP Event as JSON.',
      stream:
        'GET {path} (the {check} check) was answered {status} with Content-Type {type:json}, not 200 text/event-stream; its messages were not read.',
      lineTooLong:
        'An SSE line ran past {mib} MiB without a line break (the {check} check); the subscription was closed there.',
      capped:
        'An SSE subscription passed {count} messages or {mib} MiB (the {check} check), more than any check asks for; the subscription was closed there.',
    },
  },
  {
    id: 'aep/live-redelivery-hop',
    severity: 'error',
    description:
      'Live fan-out forwards Events as received: an Event POSTed twice (the same source and id, the same bytes) reaches a live subscriber twice, on each consuming binding offered.',
    detail:
      'Buffer admission may dedupe on (source, id); live delivery may not, or recovery built on redelivery breaks at the hop. Judged once an Event posted after the two copies has arrived (fan-out keeps order), over every consuming binding the discovery document names: an SSE subscription and a WebSocket subscribe (AEP-0003 §6.5); skipped where nothing posted is delivered.',
    spec: 'AEP-0003 §5; §6.5',
    quote: 'at-least-once redelivery MUST be able to traverse the hop',
    messages: {
      deduped:
        'An Event posted twice reached a live subscriber over {binding} {got} time(s) before the Event posted after it; live fan-out forwards a redelivery as received.',
      refused: 'A WebSocket subscribe {what} was answered {got}, not subscribed.',
    },
  },
  {
    id: 'aep/live-delivery-identity',
    severity: 'error',
    description:
      'A delivered Event is the Event ingested: no binding wraps or rewrites Events (compared as canonical JSON; a relay MAY add extension attributes, AEP-0001 §4.2).',
    spec: 'AEP-0003 Abstract; AEP-0001 §4.2',
    messages: { changed: 'Event {id:json} differs at {pointer}: posted {posted}, delivered {delivered}.' },
  },
  FILTER_RULE,
  FROM_REFUSAL_RULE,
  CAPTURE_CEILING_RULE,
  {
    id: 'aep/live-resume',
    severity: 'error',
    description:
      'A subscriber resuming from a (session, epoch, seq) position receives the buffered Events strictly after it, in order, with none missing.',
    detail:
      'Checked over each consuming binding the discovery document names (AEP-0003 §1, §7 "all consuming bindings"): over SSE by Last-Event-ID and by `from` (which takes precedence), and over the WebSocket by subscribe.from.',
    spec: 'AEP-0003 §3.3 #3; §6.5; §7',
    messages: {
      got: 'Resuming by {how} after seq {after} delivered {got}; expected seq {want}.',
      refused: 'A subscribe with `from` [{session, epoch, seq}] was answered {got}, not subscribed.',
      sseRefused:
        'GET {path} with a `from` resume position was answered {status} with Content-Type {type:json}, not 200 text/event-stream.',
    },
  },
  {
    id: 'aep/live-buffer-advertised',
    severity: 'error',
    description:
      'An endpoint that keeps a replay buffer advertises its depth (capabilities.replay.buffer) in the discovery document and in hello.',
    detail:
      'Where the discovery document advertises none, the resume check resumes by `from` all the same (over SSE when a stream is named, else by WebSocket subscribe.from): a replayed Event shows a buffer kept unadvertised.',
    spec: 'AEP-0003 §5',
    quote: 'if it does, MUST advertise its depth in `hello` and the discovery document',
    messages: {
      discovery:
        'A resume by `from` replayed a buffered Event, but the discovery document advertises no capabilities.replay.buffer.',
      hello: 'The discovery document advertises capabilities.replay.buffer, but the hello answer has no replay.buffer.',
    },
  },
  {
    id: 'aep/live-replay-all',
    severity: 'error',
    description:
      'An endpoint advertising replay.all answers `from` "all" with every Event it holds of a session, from its earliest held position in order, then live delivery, and no replay-exhausted.',
    detail:
      'Asked over SSE (`from=all`) and over the WebSocket (subscribe.from "all"); a refusal on either binding is this rule\'s finding, and a stream refused for its `from` skips no other stream check.',
    spec: 'AEP-0003 §5 (Replay-all)',
    messages: {
      missing: 'Replay-all by {how} did not deliver the held Events {want} of this run (got {got}).',
      order: "Replay-all by {how} delivered this run's Events out of (epoch, seq) order ({got}).",
      exhausted: 'Replay-all by {how} produced replay-exhausted, which never fires for it.',
      refused: 'A subscribe with `from` "all" was answered {got}, not subscribed, though replay.all is advertised.',
      sseRefused:
        'GET {path} with `from` "all" was answered {status} with Content-Type {type:json}, not 200 text/event-stream, though replay.all is advertised.',
    },
  },
  {
    id: 'aep/live-roster',
    severity: 'error',
    description:
      "An endpoint advertising `roster` answers a roster request with one entry per live claim, relaying the claimant's hello declarations verbatim.",
    detail:
      "The answer carries the request's id; every entry has a session; nothing is synthesized; a second claimant of the session is a second entry (never merged); the entry is dropped when the claimants leave; an emitter-role request is refused in-band (unauthorized, same id) and the connection survives.",
    spec: 'AEP-0003 §4.1 #1-5',
    messages: {
      noReply:
        'A roster request (id {id:json}) was answered {got}, not a roster frame echoing its id with an entries array.',
      noEntry: 'The roster holds no entry for the session {session:json} a live emitter connection claims.',
      member: "The roster entry for this run's session has {member} {got}; the claimant declared {want}.",
      synthesized: "The roster entry for this run's session has {member}, which the claimant never declared.",
      stale: 'The roster still lists the session {session:json} after its only claimant closed.',
      merged:
        'Two live connections claim the session {session:json}, but the roster lists {got} entries for it, not one per claim.',
      noSession: 'A roster entry has no session: {got}; each entry names the session of its claim.',
      emitter:
        'A roster request on an emitter-role connection was answered {got}, not an error frame with code "unauthorized" and its id.',
      closed: 'The connection closed after a refused roster request.',
    },
  },
  {
    id: 'aep/live-eviction',
    severity: 'error',
    description:
      'Opt-in: a resume position that predates the buffer produces replay-exhausted naming the earliest held position, then delivery from exactly that position with no gap.',
    detail:
      'It fills the replay buffer, so it runs only when named in --checks or with --destructive. The marker (an SSE comment, a WebSocket frame) comes before any replayed Event. Over every consuming binding the discovery document names: SSE `from` (§3.3 #3) and WebSocket subscribe.from (§6.5).',
    spec: 'AEP-0003 §3.3 #3; §5; §6.5',
    messages: {
      missing: 'Resuming by {how} from an evicted position produced no replay-exhausted.',
      late: 'Resuming by {how} from an evicted position delivered an Event before replay-exhausted.',
      position: 'Resuming by {how}: replay-exhausted names {named} but the first replayed Event is at {first}.',
      gap: 'Resuming by {how} from an evicted position delivered {got}; expected every seq from the earliest held to {last}.',
      refused: 'A subscribe with an evicted `from` position was answered {got}, not subscribed.',
    },
  },
  {
    id: 'aep/live-byte-identity',
    severity: 'error',
    description:
      'Opt-in: a delivered Event is the Event ingested, at the AEP-0001 §4.2 floor (--identity floor, the default) or byte for byte (--identity strict).',
    detail:
      'It posts large Events, so it runs only when named in --checks or with --destructive. At the floor, the core context attributes and data are unaltered (a re-serialization is legal) and only extension attributes may be added. Over every consuming binding the discovery document names: SSE and the WebSocket (AEP-0003 §6.5).',
    spec: 'AEP-0001 §4.2; AEP-0003 Abstract; §6.5',
    messages: {
      refused: 'A WebSocket subscribe {what} was answered {got}, not subscribed.',
      bytes: 'The Event {id:json} was delivered by {how} with other bytes than posted (first difference at byte {at}).',
      floor: 'The Event {id:json} was delivered by {how} with a core attribute or its data altered (at {pointer}).',
      missing: 'The Event {id:json} was not delivered by {how}.',
    },
  },
  {
    id: 'aep/live-hello',
    severity: 'error',
    description:
      'Over the WebSocket binding, a hello is answered by hello selecting exactly one version ("0.1"), or version-unsupported; any other first frame gets an error frame with code "hello-required".',
    detail:
      'The role of the hello answer, when it has one, is one of the closed set of §4 #2 (a discovery document role such as "collector" is not). An answer with role "emitter" carries identity.agent (§4 #3: "REQUIRED for emitters"); a "both" answer is not judged, since a relay forwards the Events of many agents and has no one agent they carry.',
    spec: 'AEP-0003 §3.5 #1; §4 #1-3',
    messages: {
      noHello: 'The first frame answered to hello is not a hello ({got}).',
      versions: 'The hello answer selects {count} versions, not exactly ["0.1"].',
      role: 'The hello answer has role {got}, not "emitter", "consumer" or "both".',
      agent: 'The hello answer has role "emitter" and no identity.agent, which is REQUIRED for emitters.',
      helloRequired:
        'A first frame other than hello was answered {got}, not an error frame with code "hello-required".',
      versionUnsupported:
        'A hello offering only version "99.0" was answered {got}, not an error frame with code "version-unsupported" and its versions.',
      noVersions:
        'A hello offering only version "99.0" was answered an error frame with code "version-unsupported" that lacks the versions member listing the supported versions.',
    },
  },
  {
    id: 'aep/live-subscribe-refusal',
    severity: 'error',
    description:
      'A malformed subscribe is refused in-band by an error frame with its id and a code of the closed set; the connection survives and a valid subscribe is then answered subscribed.',
    detail:
      'Then a subscribe naming 1024 resume positions (more than an endpoint may replay) is answered subscribed, or refused in-band with a code of the closed set.',
    spec: 'AEP-0003 §6.5',
    messages: {
      code: 'A malformed subscribe was answered {got}, not an error frame with its id and a closed-set code.',
      closed: 'The connection closed after a refused subscribe.',
      noSubscribed: 'A valid subscribe after a refused one was not answered subscribed.',
    },
  },
  {
    id: 'aep/live-limit-detail',
    severity: 'warning',
    description:
      'A subscribe refused limit-exceeded (here: one naming 1024 resume positions) carries a detail naming the limit that was hit (SHOULD).',
    detail:
      'A detail names a limit when it is a string with text or an object or array with a member (its shape is open; what it names is not judged); a number, a boolean or an empty one names none. Every skip reason that quotes a limit-exceeded refusal reads detail the same way.',
    spec: 'AEP-0003 §6.5',
    quote: '`detail` SHOULD name the one that was hit',
    messages: {
      missing:
        'A subscribe with {n} from positions was refused limit-exceeded with no detail; it SHOULD name the limit hit.',
      unnamed:
        'A subscribe with {n} from positions was refused limit-exceeded with a detail, {got}, that names no limit; it SHOULD name the limit hit.',
    },
  },
  ...BINDING_RULES,
  ...CONTROL_RULES,
  BACKPRESSURE_RULE,
  CLOSING_FRAME_RULE,
  HEARTBEAT_RULE,
  {
    id: 'aep/live-timeout',
    severity: 'error',
    description:
      'A check waited longer than --timeout for the endpoint, could not reach it or lost its connection to it, or closed it at a limit of the checker (a frame past 4 MiB): the check is named.',
    spec: 'agent-conformance (README §Check a running endpoint)',
    messages: {
      timeout: 'The {check} check got no answer within {ms} ms ({waiting}).',
      silent: '{request} sent no response head within {ms} ms ({check} check); later checks needing it skipped.',
      lost: 'The {check} check lost its connection to the endpoint: {reason}.',
      unreachable: 'The {check} check could not reach the endpoint: {reason}; no check that needs it ran.',
      limit: 'The {check} check closed a connection: the endpoint sent {what}, more than this checker reads.',
    },
  },
  {
    id: 'aep/live-skipped',
    severity: 'info',
    description:
      'A check the endpoint does not advertise (a binding absent from `endpoints`, a capability absent from `capabilities`) is skipped with its reason, never passed.',
    detail:
      'A consuming check judged over one binding but not another (a subscribe refused limit-exceeded, §6.5; a subscription delivered none of the Events posted; a socket on another origin) names the binding left out (message `binding`) and passes with that info counted beside it.',
    spec: 'AEP-0003 §3.4; §4 #5; §4.1 #1',
    messages: {
      skipped: 'The {check} check was skipped: {reason}.',
      binding: 'Part of the {check} check was not judged over {binding}: {reason}.',
    },
  },
];

/** The check names `--checks` takes, in order. */
export const LIVE_CHECKS = [
  'discovery',
  'version-gate',
  'invalid-envelope',
  'ingest',
  'token',
  'content-type',
  'fanout',
  'redelivery',
  'filter',
  'capture-ceiling',
  'resume',
  'replay-all',
  'hello',
  'subscribe-refusal',
  'unknown-frame',
  'binary-frame',
  'unsubscribe',
  'roster',
  ...CONTROL_CHECKS,
  'eviction',
  'byte-identity',
  'oversize',
  'backpressure',
  'heartbeat',
] as const;
/** One check name. */
export type LiveCheck = (typeof LIVE_CHECKS)[number];

/**
 * The checks that put pressure on a shared endpoint (they fill its replay buffer, post large Events or bodies, or
 * flood a consumer of their own until the endpoint drops or disconnects it): run only when named in `checks` or with
 * `destructive`, never by default.
 */
export const LIVE_DESTRUCTIVE: ReadonlySet<LiveCheck> = new Set([
  'eviction',
  'byte-identity',
  'oversize',
  'backpressure',
]);

/**
 * The checks that wait out a long interval (`heartbeat`, 30 s): run only when named in `checks`, never by default
 * nor with `destructive`.
 */
export const LIVE_SLOW: ReadonlySet<LiveCheck> = new Set(['heartbeat']);
