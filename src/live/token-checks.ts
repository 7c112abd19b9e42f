/**
 * The `aep live` check of AEP-0003 §8.1's bearer token: the event surfaces (POST ingest, the SSE stream, a subscribe on
 * the WebSocket duplex) are asked once without credentials; one that accepts is reported under the rule of its host (trust-rules.ts).
 */
import { isLoopback } from '../core/loopback.ts';
import { fetchText, LiveConnectError, SseSubscriber } from './client.ts';
import { limited } from './buffer-run.ts';
import { refusedForCredentials } from './credentials.ts';
import { AbsentEndpoint, ForeignEndpoint, type LiveRun, skip } from './live-run.ts';
import { WsPeer } from './ws-peer.ts';
import type { LiveRuleId } from './rules.ts';

/**
 * The rule a surface at `url` accepting a request without credentials breaks: on localhost or a loopback address the
 * token is RECOMMENDED, off-host it is REQUIRED (AEP-0003 §8.1; the loopback test of aep/live-tls-off-host).
 */
export function tokenRuleFor(url: URL): LiveRuleId {
  return isLoopback(url.hostname) ? 'aep/live-token-localhost' : 'aep/live-token-off-host';
}

/** How one surface answered a request without credentials; `undefined` when it told neither. */
type Verdict = 'accepted' | 'refused' | undefined;

/** AEP-0003 §8.1: a POST, an SSE subscription and a WebSocket subscribe without credentials are refused, on localhost (SHOULD) or off it. */
export async function token(run: LiveRun): Promise<void> {
  // the run's token stripped: no Authorization header, and no URL here carries an access_token
  const bare = { ...run.opts, token: undefined };
  const given = run.opts.token !== undefined && run.opts.token !== '';
  const without = given ? 'with no Authorization header and no access_token' : '(no token was given to this run)';
  const posted = await postVerdict(run, bare, given);
  if (posted?.verdict === 'accepted')
    run.report(tokenRuleFor(posted.url), 'post', {
      what: `A POST of an Event to ${posted.url.pathname} ${without}`,
      status: posted.status,
      host: posted.url.hostname,
    });
  const stream = await streamVerdict(run, bare, given);
  if (stream?.verdict === 'accepted')
    run.report(tokenRuleFor(stream.url), 'stream', {
      what: `GET ${stream.url.pathname} ${without}`,
      host: stream.url.hostname,
    });
  const socket = await socketVerdict(run);
  // AEP-0003 §6.5: a subscribe refused for a limit tells nothing of credentials; beside a surface that told, the
  // WebSocket is named unjudged, else the check is skipped naming the limit (never "told neither")
  const told = posted?.verdict !== undefined || stream?.verdict !== undefined;
  if (socket && limited(run, socket.answer, 'a subscribe on the WebSocket duplex without credentials', told)) return;
  if (socket?.verdict === 'accepted')
    run.report(tokenRuleFor(socket.url), 'socket', {
      what: `A subscribe on the WebSocket duplex at ${socket.url.pathname}, opened ${without},`,
      host: socket.url.hostname,
    });
  if (posted?.verdict === undefined && stream?.verdict === undefined && socket?.verdict === undefined) {
    const told = [
      posted &&
        `the POST without credentials was answered ${posted.status}, neither accepted (2xx) nor refused for its credentials (401, 403)`,
      stream && 'the SSE stream told neither',
      socket && 'the WebSocket duplex told neither',
    ].filter((t) => !!t);
    // a binding the endpoint does not offer (AEP-0003 §1: none is mandatory) has no surface to probe
    skip(
      run,
      'token',
      told.length ? told.join(', and ') : "the discovery document names no surface on the base URL's origin to probe",
    );
  }
}

/** How the events endpoint (when discovery names one on the base's origin) answers a POST without credentials. */
async function postVerdict(
  run: LiveRun,
  bare: LiveRun['opts'],
  given: boolean,
): Promise<{ url: URL; verdict: Verdict; status: number } | undefined> {
  let url: URL;
  try {
    url = run.url(run.path('events'), undefined, 'events');
  } catch (e) {
    if (e instanceof AbsentEndpoint) return undefined;
    throw e;
  }
  try {
    const { status } = await fetchText(url, {
      ...bare,
      method: 'POST',
      headers: { 'content-type': 'application/json', 'aep-version': '0.1' },
      body: JSON.stringify(run.event()),
    });
    const verdict = status >= 200 && status < 300 ? 'accepted' : refusedForCredentials(status) ? 'refused' : undefined;
    return { url, verdict, status };
  } catch (e) {
    // without a token this is the run's own request, so a lost connection is the endpoint's (aep/live-timeout);
    // with one, a connection closed only to the request without credentials is a refusal at another layer
    if (!given || !(e instanceof LiveConnectError)) throw e;
    return { url, verdict: 'refused', status: 0 };
  }
}

/**
 * How the WebSocket duplex (when discovery names one on the base's origin) answers a consumer's subscribe without
 * credentials: `subscribed` accepts; a refusal at the upgrade (401, 403, the connection closed), at hello, or an error
 * frame coded `unauthorized` ("this connection may not subscribe (§8)", AEP-0003 §6.5) refuses.
 */
async function socketVerdict(run: LiveRun): Promise<{ url: URL; verdict: Verdict; answer?: unknown } | undefined> {
  let url: URL | undefined;
  try {
    url = run.socket();
  } catch (e) {
    if (e instanceof ForeignEndpoint) return undefined;
    throw e;
  }
  if (!url) return undefined;
  const bare = { timeoutMs: run.opts.timeoutMs, ...(run.opts.abort ? { abort: run.opts.abort } : {}) };
  let ws: WsPeer;
  try {
    ws = await WsPeer.open(url, bare);
  } catch (e) {
    if (e instanceof LiveConnectError && (refusedForCredentials(e.status) || /reset or closed/.test(e.reason ?? '')))
      return { url, verdict: 'refused' };
    if (e instanceof LiveConnectError && e.status !== undefined) return { url, verdict: undefined };
    throw e;
  }
  try {
    const frame = (f: unknown) => (f && typeof f === 'object' ? (f as Record<string, unknown>) : undefined);
    ws.send({ type: 'hello', versions: ['0.1'], role: 'consumer', identity: { agent: 'live', instance: run.session } });
    const h = frame(await ws.next(0, () => true, run.opts.timeoutMs));
    if (h?.type !== 'hello')
      return { url, verdict: ws.closed || (h?.type === 'error' && h.code === 'unauthorized') ? 'refused' : undefined };
    const at = ws.frames.length;
    ws.send({ type: 'subscribe', id: 'token-probe', filter: { session: run.session } });
    const a = frame(await ws.next(at, (f) => frame(f)?.id === 'token-probe', run.opts.timeoutMs));
    const refused = (a?.type === 'error' && a.code === 'unauthorized') || (!a && ws.closed);
    return { url, verdict: a?.type === 'subscribed' ? 'accepted' : refused ? 'refused' : undefined, answer: a };
  } finally {
    ws.close();
  }
}

/** How the stream endpoint (when discovery names one on the base's origin) answers a subscription without credentials. */
async function streamVerdict(
  run: LiveRun,
  bare: LiveRun['opts'],
  given: boolean,
): Promise<{ url: URL; verdict: Verdict } | undefined> {
  if (!run.discovery?.endpoints.stream) return undefined;
  let url: URL;
  try {
    url = run.url(run.path('stream'), { filter: JSON.stringify({ session: run.session }) }, 'stream');
  } catch (e) {
    // another origin is never contacted (ForeignEndpoint): the POST alone decides
    if (e instanceof ForeignEndpoint) return undefined;
    throw e;
  }
  let sub: SseSubscriber;
  try {
    sub = await SseSubscriber.open(url, bare);
  } catch (e) {
    if (!given || !(e instanceof LiveConnectError)) throw e;
    return { url, verdict: 'refused' };
  }
  sub.close();
  // a head held back until the first message (status 0) tells nothing yet; aep/live-fanout judges other answers
  const opened = sub.status === 200 && /^text\/event-stream\s*(;|$)/i.test(sub.contentType.trim());
  return { url, verdict: opened ? 'accepted' : refusedForCredentials(sub.status) ? 'refused' : undefined };
}
