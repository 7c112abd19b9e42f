/**
 * The `aep live` check of AEP-0003 §8.1's bearer token: the event surfaces (POST ingest, the SSE stream) are asked
 * once without credentials; one that accepts is reported under the rule of its host (trust-rules.ts).
 */
import { isLoopback } from '../core/loopback.ts';
import { fetchText, LiveConnectError, SseSubscriber } from './client.ts';
import { refusedForCredentials } from './credentials.ts';
import { ForeignEndpoint, type LiveRun, skip } from './live-run.ts';
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

/** AEP-0003 §8.1: a POST and an SSE subscription without credentials are refused, on localhost (SHOULD) or off it. */
export async function token(run: LiveRun): Promise<void> {
  // the run's token stripped: no Authorization header, and no URL here carries an access_token
  const bare = { ...run.opts, token: undefined };
  const given = run.opts.token !== undefined && run.opts.token !== '';
  const without = given ? 'with no Authorization header and no access_token' : '(no token was given to this run)';
  const events = run.url(run.path('events'), undefined, 'events');
  let post: Verdict;
  let status = 0;
  try {
    status = (
      await fetchText(events, {
        ...bare,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'aep-version': '0.1' },
        body: JSON.stringify(run.event()),
      })
    ).status;
    post = status >= 200 && status < 300 ? 'accepted' : refusedForCredentials(status) ? 'refused' : undefined;
  } catch (e) {
    // without a token this is the run's own request, so a lost connection is the endpoint's (aep/live-timeout);
    // with one, a connection closed only to the request without credentials is a refusal at another layer
    if (!given || !(e instanceof LiveConnectError)) throw e;
    post = 'refused';
  }
  if (post === 'accepted')
    run.report(tokenRuleFor(events), 'post', {
      what: `A POST of an Event to ${events.pathname} ${without}`,
      status,
      host: events.hostname,
    });
  const stream = await streamVerdict(run, bare, given);
  if (stream?.verdict === 'accepted')
    run.report(tokenRuleFor(stream.url), 'stream', {
      what: `GET ${stream.url.pathname} ${without}`,
      host: stream.url.hostname,
    });
  if (post === undefined && stream?.verdict === undefined)
    skip(
      run,
      'token',
      `the POST without credentials was answered ${status}, neither accepted (2xx) nor refused for its credentials (401, 403)${stream ? ', and the SSE stream told neither' : ''}`,
    );
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
