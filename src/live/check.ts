/**
 * `aep live URL` / `checkEndpoint(url, options)`: conformance of a running endpoint over the AEP-0003 bindings. Each
 * check is a rule of src/live/rules.ts; a check the endpoint does not advertise is skipped with its reason, never
 * passed. The Events delivered are returned (`--record FILE`) and checked by the `validate` rules too.
 */
import { abortReason } from '../core/abort.ts';
import type { CheckOutcome } from '../core/check-outcome.ts';
import type { Finding } from '../core/finding.ts';
import { LiveConnectError, LiveTimeout } from './client.ts';
import { CredentialsRefused, refusedForCredentials } from './credentials.ts';
import { backpressure } from './backpressure-checks.ts';
import { byteIdentity, eviction, replayAll, resume, roster } from './buffer-checks.ts';
import { LimitExceeded } from './buffer-run.ts';
import { hello, subscribeRefusal, unknownFrame } from './socket-checks.ts';
import { binaryFrame, contentType, oversize, redelivery, unsubscribe } from './binding-checks.ts';
import * as control from './control-checks.ts';
import { LIVE_CHECKS, LIVE_DESTRUCTIVE, LIVE_SLOW, type LiveCheck } from './rules.ts';
import { captureCeiling, filter } from './filter-checks.ts';
import { discovery, fanout, ingest, invalidEnvelope, versionGate } from './http-checks.ts';
import { heartbeat } from './stream-checks.ts';
import { token } from './token-checks.ts';
import {
  AbsentEndpoint,
  ForeignEndpoint,
  type LiveOptions,
  LiveRun,
  skip,
  socketUrl,
  StreamFailed,
} from './live-run.ts';
import type { LiveResult } from './result.ts';

export type { LiveOptions } from './live-run.ts';
export type { CheckOutcome } from '../core/check-outcome.ts';

export type { LiveResult } from './result.ts';

/** The outcome of `check`, from the findings it added to the run. */
function outcome(run: LiveRun, check: LiveCheck, own: readonly Finding[], asked: boolean): CheckOutcome {
  // a whole check skipped is said by its status; a binding left unjudged (messageId `binding`) counts beside a pass
  const count = (s: Finding['severity']) =>
    own.filter((f) => f.severity === s && !(f.ruleId === 'aep/live-skipped' && f.messageId === 'skipped')).length;
  const errors = count('error');
  const reason = run.reasons.get(check);
  const unjudged = [
    ...new Set(
      own
        .filter((f) => f.ruleId === 'aep/live-skipped' && f.messageId === 'binding')
        .map((f) => String(f.args?.binding)),
    ),
  ];
  return {
    check,
    status: reason !== undefined ? 'skipped' : errors > 0 ? 'failed' : 'passed',
    ...(reason !== undefined ? { reason } : {}),
    ...(asked ? {} : { implicit: true as const }),
    errors,
    warnings: count('warning'),
    infos: count('info'),
    ...(reason === undefined && unjudged.length ? { unjudged } : {}),
  };
}

type CheckFn = (run: LiveRun) => Promise<void>;
/** A socket check; a string it returns is why it could not run here (skipped). */
type SocketFn = (run: LiveRun, url: URL) => Promise<unknown>;
const HTTP_CHECKS: Partial<Record<LiveCheck, CheckFn>> = {
  discovery,
  'version-gate': versionGate,
  'invalid-envelope': invalidEnvelope,
  ingest,
  token,
  'content-type': contentType,
  fanout,
  redelivery,
  filter,
  'capture-ceiling': captureCeiling,
  resume,
  'replay-all': replayAll,
  roster,
  eviction,
  'byte-identity': byteIdentity,
  oversize,
  backpressure,
  heartbeat,
};
const SOCKET_CHECKS: Partial<Record<LiveCheck, SocketFn>> = {
  hello,
  'subscribe-refusal': subscribeRefusal,
  'unknown-frame': unknownFrame,
  'binary-frame': binaryFrame,
  unsubscribe,
  'control-auth-gate': control.controlAuthGate,
  'control-no-route': control.controlNoRoute,
  'control-ambiguous': control.controlAmbiguous,
  'control-ack': control.controlAck,
  'control-dedupe': control.controlDedupe,
  'control-unsupported': control.controlUnsupported,
  'control-cancel': control.controlCancel,
};
const NEEDS_STREAM = new Set<LiveCheck>(['fanout', 'heartbeat']);
/** Checks with a form on each consuming binding (AEP-0003 §1, §6.5, §7): run over each one the endpoint names. */
const NEEDS_CONSUMER = new Set<LiveCheck>([
  'filter',
  'capture-ceiling',
  'resume',
  'replay-all',
  'redelivery',
  'eviction',
  'byte-identity',
]);

/**
 * Check the endpoint at `base` (discovery first, always). @throws LiveConnectError when it cannot be reached, with
 * the run's result in its `result`: the findings judged from the URL alone (`aep/live-tls-off-host`), the rest skipped.
 */
export async function checkEndpoint(base: string | URL, options: LiveOptions = {}): Promise<LiveResult> {
  const url = typeof base === 'string' ? new URL(base) : base;
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new TypeError(`${url.href}: an http: or https: URL is needed`);
  const abort = options.signal;
  if (abort?.aborted) throw abortReason(abort);
  const run = new LiveRun(url, { ...options, timeoutMs: options.timeoutMs ?? 5000 });
  try {
    return await runChecks(run, options);
  } catch (e) {
    // a check that met the abort may have turned it into a finding or another error: the abort is the answer
    if (abort?.aborted) throw abortReason(abort);
    throw e;
  } finally {
    run.opts.abort?.dispose();
  }
}

async function runChecks(run: LiveRun, options: LiveOptions): Promise<LiveResult> {
  const abort = options.signal;
  const wanted = new Set<LiveCheck>(
    options.checks ?? LIVE_CHECKS.filter((c) => !LIVE_SLOW.has(c) && (options.destructive || !LIVE_DESTRUCTIVE.has(c))),
  );
  if (options.destructive) for (const c of LIVE_DESTRUCTIVE) wanted.add(c);
  const checks: CheckOutcome[] = [];
  // named by the finding that failed discovery (a timeout is not a bad document)
  let noDiscovery = 'discovery failed (aep/live-discovery), so no endpoint is known and nothing else was asked';
  // discovery could not connect: the rest is skipped, and the run ends with this error after (its result attached)
  let unreachable: LiveConnectError | undefined;
  // discovery refused for credentials: every other check is skipped for the same reason
  let refused: CredentialsRefused | undefined;
  const credentialSkip = (check: LiveCheck, e: CredentialsRefused) => {
    skip(run, check, e.reason);
    run.credentials.skipped.push(check);
    run.credentials.first ??= e;
  };
  // the SSE stream's failure met by a check before fanout, to count under fanout (its rule's own check)
  let streamFailure: Finding | undefined;
  const movable = (check: LiveCheck, before: number) =>
    !streamFailure &&
    check !== 'fanout' &&
    wanted.has('fanout') &&
    !run.ran.includes('fanout') &&
    run.streamFailure !== undefined &&
    run.findings.indexOf(run.streamFailure) >= before;
  for (const check of LIVE_CHECKS) {
    if (!wanted.has(check) && check !== 'discovery') continue;
    if (abort?.aborted) throw abortReason(abort);
    const before = run.findings.length;
    run.check = check;
    // no discovery document (unreachable, no answer, refused, not one): every check needs an endpoint it names, so
    // none is asked anything (one finding for the failure, not one per check, nor a timeout each: trial 8 #14)
    if (unreachable || (check !== 'discovery' && !run.discovery)) {
      if (refused) credentialSkip(check, refused);
      else
        skip(
          run,
          check,
          unreachable
            ? `the endpoint could not be reached (${unreachable.reason ?? unreachable.message}; aep/live-timeout)`
            : noDiscovery,
        );
      checks.push(outcome(run, check, run.findings.slice(before), true));
      continue;
    }
    options.onCheck?.(check);
    try {
      if (NEEDS_STREAM.has(check) && !run.discovery?.endpoints.stream) {
        skip(run, check, 'the discovery document names no "stream" endpoint (SSE)');
        continue;
      }
      if (NEEDS_CONSUMER.has(check) && !run.discovery?.endpoints.stream && !run.discovery?.endpoints.socket) {
        skip(run, check, 'the discovery document names neither a "stream" (SSE) nor a "socket" (WebSocket) endpoint');
        continue;
      }
      const socketCheck = SOCKET_CHECKS[check];
      if (socketCheck) {
        const ws = socketUrl(run);
        if (!ws) {
          skip(run, check, 'the discovery document names no "socket" endpoint (WebSocket)');
          continue;
        }
        const reason = await socketCheck(run, ws);
        if (typeof reason === 'string') {
          skip(run, check, reason);
          continue;
        }
      } else await HTTP_CHECKS[check]!(run);
      if (wanted.has(check) && !run.skipped.includes(check)) run.ran.push(check);
    } catch (e) {
      // a WebSocket upgrade refused 401/403 with the run's credentials (or none) is a refusal for them too, whichever
      // check opened it (`status` is only ever an upgrade's; roster is a buffer check, trial 13 #4)
      const cause =
        e instanceof CredentialsRefused
          ? e
          : e instanceof LiveConnectError && refusedForCredentials(e.status)
            ? run.refused(`the WebSocket upgrade at ${socketUrl(run)?.pathname}`, `answered ${e.status}`)
            : undefined;
      if (cause) {
        if (check === 'discovery') refused = cause;
        credentialSkip(check, cause);
      } else if (
        (e instanceof ForeignEndpoint || e instanceof AbsentEndpoint || e instanceof LimitExceeded) &&
        check !== 'discovery'
      )
        skip(run, check, e.message);
      // a request that got no response head at all: said once, and every later check asking it again is skipped
      // (it fails at once, client.ts `silent`) rather than waiting the timeout each (trial 13 #7)
      else if (
        e instanceof LiveTimeout &&
        e.silent !== undefined &&
        check !== 'discovery' &&
        run.opts.silent.has(e.silent)
      )
        skip(run, check, `${e.silent} sent no response head within ${run.opts.timeoutMs} ms (aep/live-timeout)`);
      else if (e instanceof LiveTimeout && e.silent !== undefined && check !== 'discovery') {
        run.opts.silent.add(e.silent);
        run.report('aep/live-timeout', 'silent', { check, ms: run.opts.timeoutMs, request: e.silent });
      } else if (e instanceof LiveTimeout)
        run.report('aep/live-timeout', 'timeout', { check, ms: run.opts.timeoutMs, waiting: e.waiting });
      else if (e instanceof LiveConnectError && check !== 'discovery' && run.discovery)
        run.report('aep/live-timeout', 'lost', { check, reason: e.reason ?? e.message });
      else if (e instanceof LiveConnectError && check === 'discovery') {
        unreachable = e;
        run.report('aep/live-timeout', 'unreachable', { check, reason: e.reason ?? e.message });
      } else if (e instanceof StreamFailed) {
        // the stream's failure is aep/live-fanout's: met first by an earlier check, it is counted under fanout when
        // fanout runs after, and the check that met it is skipped naming it (trial 13 #9)
        if (!e.first && check === 'fanout' && streamFailure) run.ran.push(check);
        else if (!e.first || movable(check, before)) skip(run, check, e.reason);
        else if (wanted.has(check)) run.ran.push(check);
      } else throw e;
    } finally {
      const slice = run.findings.slice(before);
      if (movable(check, before)) streamFailure = run.streamFailure;
      const found =
        streamFailure === undefined
          ? slice
          : check === 'fanout'
            ? [...new Set([streamFailure, ...slice])]
            : slice.filter((f) => f !== streamFailure);
      // the finding that failed it (the off-host verdict on the base URL alone fails nothing)
      const failed = found.find((f) => f.ruleId === 'aep/live-discovery' || f.ruleId === 'aep/live-timeout');
      if (check === 'discovery' && failed)
        noDiscovery = `discovery failed (${failed.ruleId}), so no endpoint is known and nothing else was asked`;
      checks.push(outcome(run, check, found, wanted.has(check)));
    }
  }
  if (abort?.aborted) throw abortReason(abort);
  const result: LiveResult = {
    findings: run.findings,
    delivered: run.delivered,
    ran: run.ran,
    skipped: run.skipped,
    checks,
    ...(run.credentials.first
      ? { credentials: { skipped: run.credentials.skipped, reason: run.credentials.first.reason } }
      : {}),
  };
  if (unreachable) {
    // no verdict on the endpoint, but what the URL alone decided is one (the base's aep/live-tls-off-host)
    unreachable.result = result;
    throw unreachable;
  }
  return result;
}
