/**
 * The `aep live` checks of the answers AEP-0003 names beyond ingest and fan-out: the 415 and 413 refusals of a POST
 * (§3.2 #3), a redelivery forwarded by live fan-out (§5), and the WebSocket unsubscribe acknowledgement over concurrent
 * subscriptions on one connection (§6.5).
 */
import {
  describeFrame,
  type Ev,
  greeted,
  isFrame,
  limited,
  ownSession,
  wsKeep,
  wsMine,
  wsSubscribe,
  wsUntil,
} from './buffer-run.ts';
import { LiveConnectError } from './client.ts';
import { BINDING_NAME, type Binding, consumeEach, notJudged } from './consume.ts';
import { type LiveRun, skip } from './live-run.ts';

/** AEP-0003 §3.2 #1, #3: a body of another media type than the two of #1 is answered 415. */
export async function contentType(run: LiveRun): Promise<void> {
  // refused for its credentials first (§8.1), the POST shows nothing of how a media type is answered: run.post
  // throws, and the check is skipped saying so (check.ts)
  const r = await run.post(JSON.stringify(run.event()), 'text/plain');
  if (r.status !== 415) run.report('aep/live-content-type', 'status', { status: r.status });
}

/**
 * AEP-0003 §5: live fan-out forwards Events as received, so an Event posted twice (an emitter's retry, the same bytes)
 * reaches a live subscriber twice; only buffer admission and the terminal consumer dedupe. On each consuming binding
 * offered (§6.5: the WebSocket's subscribe as SSE's stream). The posts are sequential and fan-out keeps order, so once
 * the marker posted after them arrives, both copies were due.
 */
export async function redelivery(run: LiveRun): Promise<void> {
  const { session, event } = ownSession(run, 'redelivery');
  let asked = false;
  const unjudged: Binding[] = [];
  let told = false;
  await consumeEach(run, session, { filter: { session } }, 'aep/live-redelivery-hop', 'redelivery-1', async (subs) => {
    asked = true;
    const [ev, marker] = [event(), event()];
    const text = JSON.stringify(ev);
    await run.post(text);
    await run.post(text);
    await run.post(JSON.stringify(marker));
    for (const sub of subs) {
      await sub.until((x) => x.id === marker.id);
      sub.keep();
      const copies = sub.mine().filter((x) => x.ev.id === ev.id).length;
      // an Event never delivered at all is no verdict on redelivery: §5 speaks of a hop that forwards, and no
      // sentence of §6.5 makes delivery on a subscription a finding of its own here, so the binding is named unjudged
      if (copies === 0 || !sub.mine().some((x) => x.ev.id === marker.id)) {
        unjudged.push(sub.binding);
        continue;
      }
      told = true;
      if (copies < 2)
        run.report('aep/live-redelivery-hop', 'deduped', { got: copies, binding: BINDING_NAME[sub.binding] });
    }
  });
  const reason = 'the Events posted were not delivered, so a redelivery cannot be told';
  if (asked && !told) return skip(run, 'redelivery', reason);
  for (const b of unjudged) notJudged(run, b, `${reason} there`);
}

/** The size of the oversize probe: no document advertises a body limit, so the probe is bounded (README). */
export const OVERSIZE_PROBE_MIB = 8;

/** AEP-0003 §3.2 #3: a body past the endpoint's own limit is answered 413; one within it is accepted. */
export async function oversize(run: LiveRun): Promise<void> {
  const mib = OVERSIZE_PROBE_MIB;
  const ev = run.event('progress.status', {
    capture: 'redacted',
    data: { phase: 'oversize', message: 'x'.repeat(mib << 20) },
  });
  let status: number;
  try {
    status = (await run.post(JSON.stringify(ev))).status;
  } catch (e) {
    if (!(e instanceof LiveConnectError)) throw e;
    // a server may answer 413 before reading the body and close: the answer is then lost, not wrong
    return skip(run, 'oversize', `the endpoint closed the connection before answering a POST of ${mib} MiB`);
  }
  if (status >= 200 && status < 300)
    return skip(
      run,
      'oversize',
      `the endpoint accepted a POST of ${mib} MiB (${status}): its body limit, if any, is above the probe (none is advertised)`,
    );
  if (status !== 413) run.report('aep/live-oversize', 'status', { mib, status });
}

/**
 * AEP-0003 §6.5: two concurrent subscriptions on one connection each deliver their Events; each unsubscribe is
 * acknowledged with `unsubscribed`, after which the connection, holding no subscription, is delivered nothing. Events
 * name no subscription, so the wait is bounded by a marker on a second connection, not by the other subscription.
 */
export async function unsubscribe(run: LiveRun, url: URL): Promise<string | undefined> {
  const ws = await greeted(run, url, 'consumer');
  let watch: Awaited<ReturnType<typeof greeted>> | undefined;
  try {
    const subs = [
      ['unsub-1', 'progress.status', 'first'],
      ['unsub-2', 'error.raised', 'second, concurrent'],
    ] as const;
    for (const [id, type, which] of subs) {
      const answer = await wsSubscribe(run, ws, { id, filter: { session: run.session, type } });
      if (isFrame('subscribed', id)(answer)) continue;
      // §6.5 names "more concurrent subscriptions than it fans out" a limit of the endpoint's own: a second refused
      // so is no verdict on multiplexing (a limit other subscribers reached looks the same), nor is a first
      limited(run, answer, `the ${which} WebSocket subscribe on one connection`, false);
      // a first subscribe refused is no fact about concurrency or unsubscribe
      if (which === 'first') return `a subscribe was answered ${describeFrame(answer, ws.closed)}, not subscribed`;
      return void run.report('aep/live-subscriptions', 'refused', { which, got: describeFrame(answer, ws.closed) });
    }
    const error = (code: string) => run.event('error.raised', { data: { code, fatal: false } });
    const before = [run.event(), error('before')];
    await run.post(`${before.map((e) => JSON.stringify(e)).join('\n')}\n`, 'application/x-ndjson');
    for (const [i, which] of ['first', 'second'].entries())
      if ((await wsUntil(run, ws, before[i]!.id)) === undefined)
        run.report('aep/live-subscriptions', 'missing', { which });
    for (const [id] of subs) {
      const at = ws.frames.length;
      ws.send({ type: 'unsubscribe', id });
      // §6.5 names the `unsubscribed` frame, not its members: one without an id acknowledges the unsubscribe sent
      const answers = (f: unknown) => isFrame('unsubscribed')(f) && ((f as Ev).id ?? id) === id;
      const ack = await ws.next(
        at,
        (f) => answers(f) || (!!f && typeof f === 'object' && (f as Ev).id === id),
        run.opts.timeoutMs,
      );
      if (!answers(ack))
        return void run.report('aep/live-unsubscribe', 'noAck', { id, got: describeFrame(ack, ws.closed) });
    }
    watch = await greeted(run, url, 'consumer');
    const watcher = 'the subscribe of a second connection watching for Events posted after the unsubscribes';
    const watching = await wsSubscribe(run, watch, { id: 'unsub-watch' });
    // the acknowledgements were judged: only whether nothing is delivered after them is left out, and said so
    if (!isFrame('subscribed', 'unsub-watch')(watching)) {
      if (!limited(run, watching, watcher, true))
        notJudged(run, 'ws', `${watcher} was answered ${describeFrame(watching, watch.closed)}, not subscribed`);
      return undefined;
    }
    // batch order is preserved (§3.2 #1): once the marker is fanned out, the Events before it were too
    const after = [run.event(), error('after'), run.event()];
    await run.post(`${after.map((e) => JSON.stringify(e)).join('\n')}\n`, 'application/x-ndjson');
    if ((await wsUntil(run, watch, after[2]!.id)) === undefined) {
      const why = 'the Events posted after the unsubscribes never reached a second connection watching for them';
      notJudged(run, 'ws', `${why}, so a delivery after the acknowledgements cannot be told`);
      return undefined;
    }
    const late = new Set(after.map((e) => e.id));
    const got = wsMine(run, ws).find(({ ev }) => late.has(ev.id));
    if (got)
      run.report('aep/live-unsubscribe', 'delivered', { id: got.ev.type === 'error.raised' ? 'unsub-2' : 'unsub-1' });
  } finally {
    wsKeep(run, ws);
    ws.close();
    if (watch) wsKeep(run, watch);
    watch?.close();
  }
}

/**
 * AEP-0003 §3.5 #2: an Event sent in a binary frame is rejected (by an error frame, a close or silence: never
 * ingested). Judged only where a text frame's Event is delivered; a text frame after it bounds the wait.
 * @returns why it was skipped, if it was
 */
export async function binaryFrame(run: LiveRun, url: URL): Promise<string | undefined> {
  const { session, event } = ownSession(run, 'binary');
  const watch = await greeted(run, url, 'consumer');
  let emitter: Awaited<ReturnType<typeof greeted>> | undefined;
  try {
    const watching = await wsSubscribe(run, watch, { id: 'binary-watch' }, session);
    if (!isFrame('subscribed', 'binary-watch')(watching)) {
      limited(run, watching, 'a WebSocket subscribe watching for the Events sent', false);
      return 'a subscribe was not answered subscribed';
    }
    emitter = await greeted(run, url, 'emitter');
    const text = event();
    emitter.send(text);
    if ((await wsUntil(run, watch, text.id)) === undefined)
      return 'an Event sent in a text frame by an emitter connection was not delivered, so a rejection cannot be told';
    const [binary, marker] = [event(), event()];
    emitter.sendBinary(binary);
    // the same connection keeps order; a connection closed at the binary frame rejected it, and HTTP carries the marker
    emitter.send(marker);
    if (emitter.closed) await run.post(JSON.stringify(marker));
    // no marker, no bound on the wait: whether the binary frame's Event was ingested is not told (never a pass)
    if ((await wsUntil(run, watch, marker.id)) === undefined)
      return 'an Event sent after the binary frame was not delivered, so a rejection cannot be told';
    if (wsMine(run, watch, session).some(({ ev }) => ev.id === binary.id))
      run.report('aep/live-binary-frame', 'accepted');
    return undefined;
  } finally {
    wsKeep(run, watch, session);
    watch.close();
    emitter?.close();
  }
}
