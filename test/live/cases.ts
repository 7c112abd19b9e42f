/**
 * The live rules' cases, as the requirements matrix needs them (test/meta/requirements.test.ts): a live rule judges
 * a running service, so its passing case is the compliant endpoint of test/live/endpoint.ts and its failing case a
 * broken variant of it, run by test/live/live.test.ts with the endpoint's token, which fails exactly the rules listed
 * here and no other.
 */
import type { LiveCheck, LiveRuleId } from '../../src/live/rules.ts';
import type { Broken } from './endpoint.ts';

/**
 * One broken variant and the rules it fails; `destructive` runs the opt-in checks too; `control` marks a case
 * test/live/control.test.ts runs, with a token and a --control-session.
 */
export interface LiveCase {
  variant: Broken;
  rules: LiveRuleId[];
  destructive?: boolean;
  control?: boolean;
  /** How byte-identity compares in this case (default the floor). */
  identity?: 'strict';
  /** What one finding of the case says (its message, for a variant whose rule has several). */
  says?: RegExp;
  /** The checks run (a check that runs only when named, `heartbeat`). */
  checks?: LiveCheck[];
  /**
   * The host the endpoint (listening on 127.0.0.1) is reached by: `0.0.0.0` is no loopback name
   * (src/core/loopback.ts), so the run judges it off-host, yet the connection stays on this machine.
   */
  host?: '0.0.0.0';
}

/** Every broken variant of the test endpoint, with the rules it fails. */
export const LIVE_CASES: readonly LiveCase[] = [
  { variant: 'no-discovery', rules: ['aep/live-discovery', 'aep/live-skipped'] },
  { variant: 'no-well-known', rules: ['aep/live-well-known'] },
  // the socket it names is on another origin, so the socket checks are skipped naming it
  {
    variant: 'plain-off-host',
    rules: ['aep/live-tls-off-host', 'aep/live-skipped'],
    says: /The socket endpoint "ws:\/\/aep\.example\.com" is off-host over ws, without TLS/,
  },
  { variant: 'no-version-gate', rules: ['aep/live-version-gate'] },
  // the event surfaces take a request without the token: on 127.0.0.1 a warning (RECOMMENDED, AEP-0003 §8.1)
  {
    variant: 'tokenless',
    rules: ['aep/live-token-localhost'],
    says: /A POST of an Event to \/events with no Authorization header and no access_token was accepted \(202\) without a bearer token; on 127\.0\.0\.1, a localhost binding/,
  },
  // the same reached as 0.0.0.0, off-host to the run: an error (REQUIRED), beside the plain http: of its base
  {
    variant: 'tokenless-off-host',
    host: '0.0.0.0',
    rules: ['aep/live-token-off-host', 'aep/live-tls-off-host'],
    says: /GET \/stream with no Authorization header and no access_token was answered 200 text\/event-stream without a bearer token; on 0\.0\.0\.0, an off-host binding, a bearer token \(or stronger\) is REQUIRED/,
  },
  {
    variant: 'tokenless-ws',
    rules: ['aep/live-token-localhost'],
    says: /A subscribe on the WebSocket duplex at \/socket, opened with no Authorization header and no access_token, was answered "subscribed" without a bearer token; on 127\.0\.0\.1, a localhost binding/,
  },
  {
    variant: 'accepts-invalid',
    rules: ['aep/live-invalid-envelope'],
    says: /The Event without "id" was accepted \(202\) and delivered/,
  },
  {
    variant: 'batch-partial',
    rules: ['aep/live-batch-whole'],
    says: /was answered 400, yet 1 of its 2 valid Events reached a subscriber/,
  },
  // a batch holding an invalid line is neither rejected whole nor answered line by line (AEP-0003 §3.2 #3)
  {
    variant: 'batch-accepts-invalid',
    rules: ['aep/live-invalid-envelope'],
    says: /batch whose second Event has no "id" was answered 202, not 400/,
  },
  // 200 is accepted as 202 is (the literal endpoint answers 200); another 2xx is not
  { variant: 'ingest-201', rules: ['aep/live-ingest'], says: /was answered 201, not 202 accepted \(or 200\)/ },
  {
    variant: 'sse-no-id',
    rules: ['aep/live-fanout'],
    says: /An SSE message has no id: field; a session-scoped Event carries id: "[^"]+:0:\d+" \(session:epoch:seq\)/,
  },
  { variant: 'fanout-dedupes', rules: ['aep/live-redelivery-hop'] },
  // it would also fail byte-identity, which compares the same Events' bytes: run without the opt-in checks
  {
    variant: 'rewrites',
    rules: ['aep/live-delivery-identity'],
    says: /differs at \/time: posted "[^"]+", delivered "2000-01-01T00:00:00Z"/,
  },
  { variant: 'ignores-filter', rules: ['aep/live-filter'] },
  // "critical" and "error" sort before "warning" by name, not by the AEP-0001 §8.1 order
  {
    variant: 'severity-by-name',
    rules: ['aep/live-filter'],
    says: /did not receive an Event of severity critical/,
  },
  { variant: 'up-levels', rules: ['aep/live-capture-ceiling'] },
  // the validate rules catch it in the recorded Events too (aep/capture-level, test/live/live.test.ts)
  {
    variant: 'keeps-content',
    rules: ['aep/live-capture-ceiling'],
    says: /the progress\.status Event \(posted at capture redacted\) other than its §8\.2 down-level: at \/data\/message the down-level has nothing, the delivered Event has a string \(28 characters\)/,
  },
  {
    variant: 'resume-inclusive',
    rules: ['aep/live-resume'],
    says: /Resuming by Last-Event-ID after seq \d+ delivered seq \d+, \d+, \d+; expected seq \d+, \d+\./,
  },
  { variant: 'sse-from-inclusive', rules: ['aep/live-resume'] },
  { variant: 'ws-from-inclusive', rules: ['aep/live-resume'] },
  { variant: 'replay-all-exhausted', rules: ['aep/live-replay-all'] },
  // replay-all's finding, not a stream that failed: the stream checks after it still run
  {
    variant: 'sse-refuses-all',
    rules: ['aep/live-replay-all'],
    says: /GET \/stream with `from` "all" was answered 400 with Content-Type "application\/json", not 200 text\/event-stream, though replay\.all is advertised/,
  },
  {
    variant: 'sse-takes-malformed-from',
    rules: ['aep/live-from-refusal'],
    says: /GET \/stream with a malformed `from` \(an object, not an array of positions\) was answered 200 text\/event-stream/,
  },
  // the replay by `from` after it delivers what Last-Event-ID missed: one finding, no consequence in the record
  {
    variant: 'sse-ignores-last-event-id',
    rules: ['aep/live-resume'],
    says: /Resuming by Last-Event-ID after seq \d+ delivered nothing; expected seq \d+, \d+\./,
  },
  // a comment line only as the stream opens (the compliant endpoint sends one every PING_MS)
  {
    variant: 'sse-no-heartbeat',
    rules: ['aep/live-heartbeat'],
    checks: ['heartbeat'],
    says: /got no comment line \(`: ping`\) from 200 ms to \d+ ms after it opened/,
  },
  {
    variant: 'no-buffer-advert',
    rules: ['aep/live-buffer-advertised'],
    says: /advertises no capabilities\.replay\.buffer/,
  },
  { variant: 'hello-no-buffer', rules: ['aep/live-buffer-advertised'], says: /hello answer has no replay\.buffer/ },
  { variant: 'hello-two-versions', rules: ['aep/live-hello'] },
  {
    variant: 'hello-any-version',
    rules: ['aep/live-hello'],
    says: /offering only version "99\.0" was answered a "hello" frame/,
  },
  {
    variant: 'hello-unsupported-no-versions',
    rules: ['aep/live-hello'],
    says: /code "version-unsupported" that lacks the versions member/,
  },
  {
    variant: 'rejects-unknown-capability',
    rules: ['aep/live-unknown-frame'],
    says: /A hello with an unknown capability key got no hello answer/,
  },
  {
    variant: 'filter-fail-open',
    rules: ['aep/live-filter'],
    says: /filter names "data" \(not filterable\) was answered a "subscribed" frame/,
  },
  { variant: 'closes-on-refusal', rules: ['aep/live-subscribe-refusal'] },
  { variant: 'closes-on-unknown-frame', rules: ['aep/live-unknown-frame'] },
  { variant: 'roster-synthesizes', rules: ['aep/live-roster'] },
  { variant: 'roster-merges', rules: ['aep/live-roster'], says: /roster lists 1 entries for it, not one per claim/ },
  {
    variant: 'roster-no-session',
    rules: ['aep/live-roster'],
    says: /A roster entry has no session: \{"agent":"test-relay"\}; each entry/,
  },
  { variant: 'exhausted-late', rules: ['aep/live-eviction'], destructive: true },
  // a re-serialization is legal at the default floor (AEP-0001 §4.2): only --identity strict fails it
  { variant: 'reserializes', rules: ['aep/live-byte-identity'], destructive: true, identity: 'strict' },
  { variant: 'hangs', rules: ['aep/live-timeout', 'aep/live-skipped'] },
  // trial 13 #7: a surface that sends no response head is said once; the later checks needing it are skipped at once
  {
    variant: 'hangs-post',
    rules: ['aep/live-timeout', 'aep/live-skipped'],
    says: /^POST \/events sent no response head within \d+ ms \(version-gate check\); later checks needing it skipped\.$/,
  },
  {
    variant: 'hangs-sse',
    rules: ['aep/live-timeout', 'aep/live-skipped'],
    says: /^GET \/stream sent no response head within \d+ ms \(\S+ check\); later checks needing it skipped\.$/,
  },
  {
    variant: 'hangs-upgrade',
    rules: ['aep/live-timeout', 'aep/live-skipped'],
    says: /^the WebSocket upgrade at \/socket sent no response head within \d+ ms \(\S+ check\); later checks needing it skipped\.$/,
  },
  // the first subscription reports the answer; the stream checks after it are skipped with it as the reason
  {
    variant: 'sse-500',
    rules: ['aep/live-fanout', 'aep/live-skipped'],
    says: /GET \/stream \(the invalid-envelope check\) was answered 500 with Content-Type "text\/event-stream", not 200 text\/event-stream/,
  },
  {
    variant: 'sse-text-plain',
    rules: ['aep/live-fanout', 'aep/live-skipped'],
    says: /was answered 200 with Content-Type "text\/plain", not 200 text\/event-stream/,
  },
  { variant: 'sse-multiline-data', rules: ['aep/live-fanout'], says: /carries its Event on \d+ data: lines, not one/ },
  {
    variant: 'sse-bad-json',
    rules: ['aep/live-fanout'],
    says: /has data: "\{not json", which is not an AEP Event as JSON/,
  },
  {
    variant: 'sse-long-line',
    rules: ['aep/live-fanout'],
    says: /An SSE line ran past 4 MiB without a line break \(the fanout check\)/,
  },
  { variant: 'sse-ends', rules: ['aep/live-fanout'], says: /The SSE stream ended after 1 of the 3 Events posted/ },
  {
    variant: 'discovery-huge',
    rules: ['aep/live-discovery', 'aep/live-skipped'],
    says: /GET \/events answered a body larger than 4 MiB/,
  },
  {
    variant: 'resets-version-gate',
    rules: ['aep/live-timeout'],
    says: /The version-gate check lost its connection to the endpoint: the connection was reset or closed/,
  },
  {
    variant: 'hello-binary',
    rules: ['aep/live-hello'],
    says: /answered to hello is not a hello \(a binary frame of \d+ bytes/,
  },
  { variant: 'no-socket', rules: ['aep/live-skipped'] },
  {
    variant: 'sse-agent-id',
    rules: ['aep/live-fanout'],
    says: /agent-scoped Event "[^"]+" has id: "live"; agent-scoped Events carry no id: field/,
  },
  { variant: 'wrong-type-accepted', rules: ['aep/live-content-type'] },
  {
    variant: 'oversize-400',
    rules: ['aep/live-oversize'],
    destructive: true,
    says: /POST of one Event of 8 MiB was answered 400, neither 2xx nor 413/,
  },
  { variant: 'unsubscribe-silent', rules: ['aep/live-unsubscribe'], says: /was answered nothing, not an unsubscribed/ },
  {
    variant: 'unsubscribe-keeps',
    rules: ['aep/live-unsubscribe'],
    says: /delivered after its unsubscribed acknowledgement/,
  },
  { variant: 'one-subscription', rules: ['aep/live-subscriptions'] },
  { variant: 'accepts-binary', rules: ['aep/live-binary-frame'] },
  { variant: 'limit-no-detail', rules: ['aep/live-limit-detail'] },
  {
    variant: 'limit-number-detail',
    rules: ['aep/live-limit-detail'],
    says: /with a detail, 256, that names no limit/,
  },
  {
    variant: 'limit-open-code',
    rules: ['aep/live-subscribe-refusal'],
    says: /answered an "error" frame with code "too-many-positions"/,
  },
  { variant: 'hello-bad-role', rules: ['aep/live-hello'], says: /hello answer has role "collector"/ },
  { variant: 'hello-emitter-no-agent', rules: ['aep/live-hello'], says: /role "emitter" and no identity\.agent/ },
  // AEP-0003 §8.4: toward the check's paused consumer, notice Events dropped silently (the connection kept open) ...
  {
    variant: 'drops-notice',
    rules: ['aep/live-backpressure-drop'],
    checks: ['backpressure'],
    says: /Over the WebSocket, \d+ notice Event\(s\) posted while the consumer was not reading never arrived \(the first "live_[^"]+-\d+"\), and the endpoint sent no closing frame and kept the connection open/,
  },
  // ... one notice Event dropped and the ones after it delivered (then the disconnect) ...
  {
    variant: 'drops-one-notice',
    rules: ['aep/live-backpressure-drop'],
    checks: ['backpressure'],
    says: /Over the WebSocket, the notice Event "live_[^"]+-\d+" \(seq \d+\) never arrived, yet the Event at seq \d+ posted after it did/,
  },
  // ... a closing frame naming delivered the notice Event that found the consumer slow, which it never sent
  {
    variant: 'closing-ahead',
    rules: ['aep/live-backpressure-drop'],
    checks: ['backpressure'],
    says: /the closing frame names seq (\d+) delivered, but the notice Event "live_[^"]+-\d+" \(seq \1\) never arrived/,
  },
  // ... and a disconnect of the slow consumer with no closing frame first: no drop, a deliberate close unannounced
  {
    variant: 'closes-unannounced',
    rules: ['aep/live-closing-frame'],
    checks: ['backpressure'],
    says: /closed the slow consumer's connection without a closing frame first/,
  },
  { variant: 'control-unauthenticated', rules: ['aep/live-control-auth-gate'], control: true },
  // without --control-session: the run's own unauthenticated claimant is the would-be target the command reaches
  {
    variant: 'control-open-relay',
    rules: ['aep/live-control-auth-gate'],
    says: /was delivered to the connection claiming "[^"]+\.anon": control flowed on an unauthenticated duplex/,
  },
  {
    variant: 'control-no-route-event',
    rules: ['aep/live-control-no-route'],
    control: true,
    says: /entered that session as a control\.rejected Event/,
  },
  {
    variant: 'control-no-route-accepted',
    rules: ['aep/live-control-no-route'],
    control: true,
    says: /was acked control\.accepted; nothing claims the session/,
  },
  // trial 13 #6: what arrived is named, not "no answer"; the id in the wrong member ends the wait at once
  {
    variant: 'control-no-route-miscaused',
    rules: ['aep/live-control-no-route'],
    control: true,
    says: /got no error frame with its id as cause within \d+ ms: an error frame with code "no-route" arrived with cause "x", not the command's id/,
  },
  {
    variant: 'control-no-route-as-id',
    rules: ['aep/live-control-no-route'],
    control: true,
    says: /an error frame with code "no-route" arrived carrying the command's id as "id", not as "cause"/,
  },
  {
    variant: 'control-ambiguous-broadcast',
    rules: ['aep/live-control-ambiguous'],
    control: true,
    says: /was delivered to a claimant/,
  },
  { variant: 'control-slow-ack', rules: ['aep/live-control-ack'], control: true },
  { variant: 'control-target-undeclared', rules: ['aep/live-control-declared'], control: true },
  { variant: 'control-dedupe-fresh', rules: ['aep/live-control-dedupe'], control: true },
  // the recorded ack redelivered on the stream after the retry, the fresh decision after it (trial 13's race)
  {
    variant: 'control-dedupe-fresh-late',
    rules: ['aep/live-control-dedupe'],
    control: true,
    says: /was answered by a new ack Event "tgt-\d+"/,
  },
  { variant: 'control-accepts-undeclared', rules: ['aep/live-control-unsupported'], control: true },
  { variant: 'control-cancel-uncaused', rules: ['aep/live-control-cancel'], control: true },
];
