/**
 * The subscription checks of `aep live` (AEP-0003 §6.1-§6.5, AEP-0001 §8.1-§8.2): attr-match and the capture ceiling
 * over each consuming binding offered (§1: a consumer implements attr-match on each binding it supports), and the
 * fail-closed refusal of a filter naming a key that is not filterable.
 */
import { downlevelEvent } from '../aep/downlevel.ts';
import { describeFrame, type Ev, greeted, isFrame, limited, wsSubscribe } from './buffer-run.ts';
import { HEAD_GRACE_MS, SseSubscriber } from './client.ts';
import { BINDING_NAME, type Consumer, consumeEach, consumingBindings } from './consume.ts';
import { firstDeliveries, firstDifference, shapeOf, valueAt } from './http-checks.ts';
import { ForeignEndpoint, type LiveRun, skip } from './live-run.ts';
import { malformedFrom } from './stream-checks.ts';

/** AEP-0003 §6.2: a subscription filter delivers only the Events it selects, and one naming `data` is refused. */
export async function filter(run: LiveRun): Promise<void> {
  await typeFilter(run);
  await severityFilter(run);
  const bindings = consumingBindings(run);
  if (bindings.includes('sse')) await malformedFrom(run);
  // §6.2 #1 fails closed on a key that is not filterable; the WebSocket gives the refusal its shape (§6.5), so SSE is
  // asked only where no socket is offered
  let url: URL | undefined;
  try {
    url = run.socket();
  } catch (e) {
    if (!(e instanceof ForeignEndpoint)) throw e;
  }
  if (!url) return bindings.includes('sse') ? sseFailClosed(run) : undefined;
  const ws = await greeted(run, url, 'consumer');
  try {
    const id = 'fail-closed-1';
    const answer = await wsSubscribe(run, ws, { id, filter: { session: run.session, data: 'x' } });
    // reached only where the type and severity filters were judged (refused for a limit, they skip the check)
    const what = 'a WebSocket subscribe whose filter names "data" (fail closed, §6.2 #1)';
    if (limited(run, answer, what, true)) return;
    if (!isFrame('error', id)(answer) || (answer as { code?: unknown }).code !== 'invalid-filter')
      run.report('aep/live-filter', 'failOpen', { got: describeFrame(answer, ws.closed) });
  } finally {
    ws.close();
  }
}

/** AEP-0003 §6.2 #1 over SSE (no socket offered): a filter naming `data` gets any answer but a stream (fail closed). */
async function sseFailClosed(run: LiveRun): Promise<void> {
  const query = { filter: JSON.stringify({ session: run.session, data: 'x' }) };
  const url = run.url(run.path('stream'), query, 'stream');
  const sub = await SseSubscriber.open(url, run.opts);
  sub.close();
  // status 0: no head within the grace, a stream held open (as malformedFrom reads it)
  if (sub.status === 0 || (sub.status === 200 && /^text\/event-stream\s*(;|$)/i.test(sub.contentType.trim())))
    run.report('aep/live-filter', 'sseFailOpen', {
      path: url.pathname,
      got: sub.status === 0 ? `with no head within ${HEAD_GRACE_MS} ms, held open` : '200 text/event-stream',
    });
}

/** The filter `{session, type}`: the matching Event arrives on each binding, the other one never does. */
async function typeFilter(run: LiveRun): Promise<void> {
  const type = 'error.raised';
  const ask = { filter: { session: run.session, type } };
  await consumeEach(run, run.session, ask, 'aep/live-filter', 'filter-type', async (subs) => {
    const other = run.event();
    const match = run.event(type, { data: { code: 'probe', fatal: false } });
    const marker = run.event(type, { data: { code: 'marker', fatal: false } });
    await run.post(`${[other, match, marker].map((e) => JSON.stringify(e)).join('\n')}\n`, 'application/x-ndjson');
    for (const sub of subs) {
      await sub.until((ev) => ev.id === marker.id);
      sub.keep();
      const binding = BINDING_NAME[sub.binding];
      const got = firstDeliveries(sub.mine()).map(({ ev }) => ev);
      for (const ev of got)
        if (ev.type !== type) run.report('aep/live-filter', 'extra', { type, got: String(ev.type), binding });
      if (!got.some((ev) => ev.id === match.id)) run.report('aep/live-filter', 'missing', { type, binding });
    }
  });
}

/**
 * AEP-0003 §6.1-§6.2 rules 4-5, AEP-0001 §8.1: `{"gte": "warning"}` compares by the six levels' order, inclusive,
 * an absent severity as "info"; a comparison by name would let "critical" and "error" fall below "warning".
 */
async function severityFilter(run: LiveRun): Promise<void> {
  const ask = { filter: { session: run.session, severity: { gte: 'warning' } } };
  await consumeEach(run, run.session, ask, 'aep/live-filter', 'filter-severity', async (subs) => {
    const sent = [undefined, 'notice', 'warning', 'error', 'critical'].map((severity) =>
      run.event('progress.status', severity ? { severity } : {}),
    );
    await run.post(`${sent.map((e) => JSON.stringify(e)).join('\n')}\n`, 'application/x-ndjson');
    const marker = sent.at(-1)!;
    for (const sub of subs) {
      await sub.until((ev) => ev.id === marker.id);
      sub.keep();
      const got = new Set(firstDeliveries(sub.mine()).map(({ ev }) => ev.id));
      for (const ev of sent) {
        const severity = String(ev.severity ?? 'info');
        const want = severity === 'warning' || severity === 'error' || severity === 'critical';
        if (want !== got.has(ev.id))
          run.report('aep/live-filter', want ? 'severityMissing' : 'severityExtra', {
            severity,
            binding: BINDING_NAME[sub.binding],
          });
      }
    }
  });
}

/** AEP-0003 §6.4; AEP-0001 §8.2: a subscriber below the capture of an Event receives it down-leveled, on each binding. */
export async function captureCeiling(run: LiveRun): Promise<void> {
  const levels = run.discovery?.capabilities.capture;
  if (Array.isArray(levels) && !levels.includes('metadata'))
    return skip(run, 'capture-ceiling', 'the endpoint does not list "metadata" in capabilities.capture');
  const ceiling = 'metadata';
  const ask = { filter: { session: run.session }, capture: ceiling };
  await consumeEach(run, run.session, ask, 'aep/live-capture-ceiling', 'capture-1', async (subs) => {
    // redacted-gated text that a metadata ceiling removes (AEP-0002 progress.status `message`), on a type that opens
    // no lifecycle: a run.started here left the delivered stream an open run of ours (aep/open-at-end in every report)
    const ev = run.event('progress.status', {
      capture: 'redacted',
      data: { phase: 'checking', message: 'checking the capture ceiling' },
    });
    await run.post(JSON.stringify(ev));
    for (const sub of subs) await judgeCeiling(run, sub, ev, ceiling);
  });
}

/** One binding's delivery of `ev` under `ceiling`: there, at or below the ceiling, and its §8.2 down-level. */
async function judgeCeiling(run: LiveRun, sub: Consumer, ev: Ev, ceiling: 'metadata'): Promise<void> {
  const binding = BINDING_NAME[sub.binding];
  await sub.until((x) => x.id === ev.id);
  sub.keep();
  const got = sub.mine().find((x) => x.ev.id === ev.id)?.ev;
  if (!got) return run.report('aep/live-capture-ceiling', 'missing', { ceiling, binding });
  const rank = { none: 0, metadata: 1, redacted: 2, full: 3 } as Record<string, number>;
  const at = typeof got.capture === 'string' ? got.capture : 'metadata';
  if ((rank[at] ?? 9) > rank[ceiling]!)
    return run.report('aep/live-capture-ceiling', 'above', { ceiling, got: at, binding });
  // what the ceiling governs (capture and payload); other rewrites are aep/live-delivery-identity's
  const want = downlevelEvent(ev, ceiling).event;
  const seen = { capture: at, data: got.data };
  const wanted = { capture: want.capture, data: want.data };
  const pointer = firstDifference(seen, wanted);
  // name the Event and what differs there, so the operator sees what the down-level keeps or drops
  if (pointer !== undefined)
    run.report(
      'aep/live-capture-ceiling',
      'payload',
      {
        ceiling,
        binding,
        pointer: pointer || '""',
        type: String(ev.type),
        posted: String(ev.capture),
        want: shapeOf(valueAt(wanted, pointer)),
        got: shapeOf(valueAt(seen, pointer)),
      },
      pointer,
    );
}
