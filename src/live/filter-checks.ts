/** The filter check of `aep live` (AEP-0003 §6.1-§6.2, AEP-0001 §8.1): attr-match over SSE, fail-closed over the WebSocket. */
import { describeFrame, greeted, isFrame, wsSubscribe } from './buffer-run.ts';
import { firstDeliveries } from './http-checks.ts';
import { ForeignEndpoint, type LiveRun } from './live-run.ts';
import { malformedFrom } from './stream-checks.ts';

/** AEP-0003 §6.2: a subscription filter delivers only the Events it selects, and one naming `data` is refused. */
export async function filter(run: LiveRun): Promise<void> {
  const type = 'error.raised';
  const sub = await run.subscribe({ filter: JSON.stringify({ session: run.session, type }) });
  try {
    const other = run.event();
    const match = run.event(type, { data: { code: 'probe', fatal: false } });
    const marker = run.event(type, { data: { code: 'marker', fatal: false } });
    await run.post(`${[other, match, marker].map((e) => JSON.stringify(e)).join('\n')}\n`, 'application/x-ndjson');
    await sub.until(() => run.mine(sub).some(({ ev }) => ev.id === marker.id), run.opts.timeoutMs);
    run.keep(sub);
    const got = firstDeliveries(run.mine(sub)).map(({ ev }) => ev);
    for (const ev of got) if (ev.type !== type) run.report('aep/live-filter', 'extra', { type, got: String(ev.type) });
    if (!got.some((ev) => ev.id === match.id)) run.report('aep/live-filter', 'missing', { type });
  } finally {
    sub.close();
  }
  await severityFilter(run);
  await malformedFrom(run);
  // §6.2 #1 fails closed on a key that is not filterable; the WebSocket gives the refusal its shape (§6.5)
  let url: URL | undefined;
  try {
    url = run.socket();
  } catch (e) {
    if (e instanceof ForeignEndpoint) return;
    throw e;
  }
  if (!url) return;
  const ws = await greeted(run, url, 'consumer');
  try {
    const id = 'fail-closed-1';
    const answer = await wsSubscribe(run, ws, { id, filter: { session: run.session, data: 'x' } });
    if (!isFrame('error', id)(answer) || (answer as { code?: unknown }).code !== 'invalid-filter')
      run.report('aep/live-filter', 'failOpen', { got: describeFrame(answer, ws.closed) });
  } finally {
    ws.close();
  }
}

/**
 * AEP-0003 §6.1-§6.2 rules 4-5, AEP-0001 §8.1: `{"gte": "warning"}` compares by the six levels' order, inclusive,
 * an absent severity as "info"; a comparison by name would let "critical" and "error" fall below "warning".
 */
async function severityFilter(run: LiveRun): Promise<void> {
  const sub = await run.subscribe({ filter: JSON.stringify({ session: run.session, severity: { gte: 'warning' } }) });
  try {
    const sent = [undefined, 'notice', 'warning', 'error', 'critical'].map((severity) =>
      run.event('progress.status', severity ? { severity } : {}),
    );
    await run.post(`${sent.map((e) => JSON.stringify(e)).join('\n')}\n`, 'application/x-ndjson');
    const marker = sent.at(-1)!;
    await sub.until(() => run.mine(sub).some(({ ev }) => ev.id === marker.id), run.opts.timeoutMs);
    run.keep(sub);
    const got = new Set(firstDeliveries(run.mine(sub)).map(({ ev }) => ev.id));
    for (const ev of sent) {
      const severity = String(ev.severity ?? 'info');
      const want = severity === 'warning' || severity === 'error' || severity === 'critical';
      if (want !== got.has(ev.id))
        run.report('aep/live-filter', want ? 'severityMissing' : 'severityExtra', { severity });
    }
  } finally {
    sub.close();
  }
}
