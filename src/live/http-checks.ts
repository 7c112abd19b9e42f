/**
 * The HTTP and SSE checks of `aep live` (AEP-0003 §3.2-§3.4, §6.2, §6.4): discovery, the version gate, envelope
 * refusal, ingest and fan-out (the filters and the capture ceiling: filter-checks.ts).
 */
import { isLoopback } from '../core/loopback.ts';
import { describeValue } from '../core/finding.ts';
import { coreOf } from './buffer-run.ts';
import { BODY_LIMIT, fetchText, LiveTimeout, type SseSubscriber } from './client.ts';
import { CredentialsRefused, refusedForCredentials } from './credentials.ts';
import { ForeignEndpoint, type LiveRun, StreamFailed } from './live-run.ts';

/** The first pointer at which two JSON values differ (`""` for the whole value). */
export function firstDifference(a: unknown, b: unknown, at = ''): string | undefined {
  if (a === b) return undefined;
  if (a && b && typeof a === 'object' && typeof b === 'object' && Array.isArray(a) === Array.isArray(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) {
      const d = firstDifference(
        (a as Record<string, unknown>)[k],
        (b as Record<string, unknown>)[k],
        `${at}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`,
      );
      if (d !== undefined) return d;
    }
    return undefined;
  }
  return at;
}

/** The value at a JSON Pointer of `v` (undefined where there is none). */
export function valueAt(v: unknown, pointer: string): unknown {
  for (const raw of pointer.split('/').slice(1)) {
    if (!v || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[raw.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return v;
}

/** A value named for a message without echoing it (payload text never appears in findings). */
export function shapeOf(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v && typeof v === 'object' && !Array.isArray(v)) {
    const n = Object.keys(v).length;
    return `an object (${n} member${n === 1 ? '' : 's'})`;
  }
  const d = describeValue(v);
  return /^[aeiou]/.test(d) ? `an ${d}` : `a ${d}`;
}

/** Each Event at its first delivery: a redelivery of the same (source, id) is legal (AEP-0003 §5, §7). */
export function firstDeliveries<T extends { ev: Record<string, unknown> }>(all: T[]): T[] {
  const seen = new Set<string>();
  return all.filter(({ ev }) => {
    const key = JSON.stringify([ev.source, ev.id]);
    return !seen.has(key) && !!seen.add(key);
  });
}

const excerpt = (text: string) => (text.length > 60 ? `${text.slice(0, 60)}...` : text);

/** An endpoint the discovery document names, when it resolves to a URL of a scheme in `schemes`. */
function endpointOf(run: LiveRun, name: string, v: unknown, schemes: RegExp): string | undefined {
  if (v === undefined || v === null) return undefined;
  try {
    if (typeof v === 'string' && schemes.test(run.url(v).protocol)) return v;
  } catch (e) {
    // another origin is a URL all the same: the checks that need it are skipped, naming it (check.ts)
    if (e instanceof ForeignEndpoint && schemes.test(e.target.protocol)) return v as string;
  }
  const got = excerpt(JSON.stringify(v));
  run.report('aep/live-discovery', 'endpoint', { name: JSON.stringify(name), got }, `/endpoints/${name}`);
  return undefined;
}

/** A discovery member absent ("has no"), or present in another shape, named (`"aep": "0.1"` is "a string"). */
function memberProblem(run: LiveRun, member: string, v: unknown, expected: string, got?: string): void {
  const pointer = `/${JSON.parse(member)}`;
  if (v === undefined) run.report('aep/live-discovery', 'member', { member, expected }, pointer);
  else run.report('aep/live-discovery', 'memberShape', { member, expected, got: got ?? shapeOf(v) }, pointer);
}

/** Where discovery is asked: `GET {base}/events` (AEP-0003 §3.4), the base's path as a folder. */
const DISCOVERY_PATH = '/events';

/** AEP-0003 §3.4: the discovery document names the endpoints and the capabilities the other checks read. */
export async function discovery(run: LiveRun): Promise<void> {
  // the base URL is judged before anything is asked of it: an endpoint that fails discovery is still off-host
  const plain = new Set<string>();
  plainOffHost(run, [['base', run.base.href]], plain);
  const url = run.url(DISCOVERY_PATH);
  // named as requested: under a base with a path, `/events` is `{base}/events`
  const path = url.pathname;
  const r = await fetchText(url, run.opts);
  // refused for credentials (AEP-0003 §8.1): no finding, the run is skipped saying which option to pass (check.ts)
  if (refusedForCredentials(r.status)) throw run.refused(`GET ${path}`, `answered ${r.status}`);
  if (!ok(r.status)) return run.report('aep/live-discovery', 'status', { path, status: r.status });
  if (r.truncated) return run.report('aep/live-discovery', 'tooLarge', { path, mib: BODY_LIMIT >> 20 });
  const type = String(r.headers['content-type'] ?? '');
  if (!/^application\/json\b/i.test(type)) run.report('aep/live-discovery', 'contentType', { path, type });
  let doc: unknown;
  try {
    doc = JSON.parse(r.body);
  } catch {
    return run.report('aep/live-discovery', 'notJson', { path });
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc))
    return run.report('aep/live-discovery', 'notJson', { path });
  const d = doc as Record<string, unknown>;
  const aepGot = Array.isArray(d.aep) ? 'an array without "0.1"' : undefined;
  if (!Array.isArray(d.aep) || !d.aep.includes('0.1'))
    memberProblem(run, '"aep"', d.aep, 'an array naming "0.1"', aepGot);
  const endpoints = d.endpoints;
  if (!endpoints || typeof endpoints !== 'object' || Array.isArray(endpoints))
    memberProblem(run, '"endpoints"', endpoints, 'an object');
  const e = (endpoints && typeof endpoints === 'object' ? endpoints : {}) as Record<string, unknown>;
  const http = /^https?:$/;
  run.discovery = {
    endpoints: {
      events: endpointOf(run, 'events', e.events, http),
      stream: endpointOf(run, 'stream', e.stream, http),
      socket: endpointOf(run, 'socket', e.socket, /^(https?|wss?):$/),
    },
    capabilities:
      d.capabilities && typeof d.capabilities === 'object' ? (d.capabilities as Record<string, unknown>) : {},
    // §3.4: the URL discovery answered at is "the same URL emitters POST to"; only an omitted member defers to it
    // (null or a value that is no URL names no POST endpoint, and nothing is posted)
    ...(e.events === undefined ? { postedAt: DISCOVERY_PATH } : {}),
  };
  plainOffHost(run, Object.entries(e), plain);
  // the SHOULD is for origin-root deployments only
  if (run.base.pathname.replace(/\/+$/, '') !== '') return;
  const wk = await fetchText(new URL('/.well-known/aep', run.base.origin), run.opts).catch(() => undefined);
  if (!wk || !ok(wk.status)) run.report('aep/live-well-known', 'missing', { status: wk?.status ?? 'nothing' });
}

/**
 * AEP-0003 §8.1: TLS is REQUIRED for any off-host binding, so the base URL and every endpoint the discovery document
 * names that is neither on this host nor TLS (http:, ws:) is reported once an origin (`seen`), whether or not a check
 * contacts it.
 */
function plainOffHost(run: LiveRun, named: [string, unknown][], seen: Set<string>): void {
  for (const [name, v] of named) {
    if (typeof v !== 'string') continue;
    let u: URL;
    try {
      u = new URL(v, run.base);
    } catch {
      continue; // aep/live-discovery names an endpoint that is no URL
    }
    if ((u.protocol !== 'http:' && u.protocol !== 'ws:') || isLoopback(u.hostname) || seen.has(u.origin)) continue;
    seen.add(u.origin);
    run.report('aep/live-tls-off-host', 'plain', { name, url: u.origin, scheme: u.protocol.slice(0, -1) });
  }
}

/** AEP-0003 §3.2 #3: a batch answered 400 is rejected whole (the other answer is a 207-style per-line report). */
async function batchWhole(run: LiveRun, sub: SseSubscriber): Promise<void> {
  const bad = run.event();
  delete bad.id;
  const valid = [run.event(), run.event()];
  const lines = [valid[0], bad, valid[1]].map((e) => JSON.stringify(e));
  const r = await run.post(`${lines.join('\n')}\n`, 'application/x-ndjson');
  if (r.status !== 400) return;
  const marker = run.event();
  await run.post(JSON.stringify(marker));
  await sub.until(() => run.mine(sub).some(({ ev }) => ev.id === marker.id), run.opts.timeoutMs);
  run.keep(sub);
  const delivered = valid.filter((e) => run.mine(sub).some(({ ev }) => ev.id === e.id)).length;
  if (delivered > 0) run.report('aep/live-batch-whole', 'partial', { delivered });
}

/** A 2xx status that carries a body (204 and 205 carry none). */
const ok = (status: number) => status >= 200 && status < 300 && status !== 204 && status !== 205;

/** AEP-0003 §3.2 #2: a POST of an unsupported protocol version is refused. */
export async function versionGate(run: LiveRun): Promise<void> {
  const r = await run.post(JSON.stringify(run.event()), 'application/json', '99.0');
  if (r.status !== 426) return run.report('aep/live-version-gate', 'status', { status: r.status });
  try {
    const body = JSON.parse(r.body) as { versions?: unknown };
    if (!Array.isArray(body.versions) || !body.versions.includes('0.1')) run.report('aep/live-version-gate', 'body');
  } catch {
    run.report('aep/live-version-gate', 'body');
  }
}

/** AEP-0003 §3.2 #3: a POST of an invalid envelope is refused, alone or in a batch. */
export async function invalidEnvelope(run: LiveRun): Promise<void> {
  // a stream that fails is aep/live-fanout's finding; the refusal is still checked without it
  const sub = run.discovery?.endpoints.stream
    ? await run.subscribe({ filter: JSON.stringify({ session: run.session }) }).catch((e: unknown) => {
        // a stream refused for credentials leaves the POSTs to judge (they may need none)
        if (e instanceof StreamFailed || e instanceof CredentialsRefused) return undefined;
        throw e;
      })
    : undefined;
  try {
    const bad = run.event();
    delete bad.id;
    const r = await run.post(JSON.stringify(bad));
    if (r.status !== 400) run.report('aep/live-invalid-envelope', 'status', { status: r.status });
    else {
      try {
        if ((JSON.parse(r.body) as { error?: unknown }).error !== 'invalid-event')
          run.report('aep/live-invalid-envelope', 'body');
      } catch {
        run.report('aep/live-invalid-envelope', 'body');
      }
    }
    // §3.2 #3: a batch with a failing line is rejected whole (400) or answered with a 207-style per-line report
    const batch = [run.event(), { ...run.event(), id: undefined }].map((e) => JSON.stringify(e)).join('\n');
    const b = await run.post(`${batch}\n`, 'application/x-ndjson');
    if (b.status !== 400 && b.status !== 207) run.report('aep/live-invalid-envelope', 'batch', { status: b.status });
    if (sub) {
      // a marker after it: once the marker arrives, anything delivered before it was delivered
      const marker = run.event();
      await run.post(JSON.stringify(marker));
      await sub.until(() => run.mine(sub).some(({ ev }) => ev.id === marker.id), run.opts.timeoutMs);
      run.keep(sub);
      if (run.mine(sub).some(({ ev }) => ev.id === undefined))
        run.report('aep/live-invalid-envelope', 'delivered', {
          how: r.status === 400 ? 'refused (400)' : `accepted (${r.status})`,
        });
      if (r.status === 400) await batchWhole(run, sub);
    }
  } finally {
    sub?.close();
  }
}

/** A POST accepted: 202 (AEP-0003 §3.2 #3, no keyword), or 200, which the maintainers' live checker takes too. */
export const accepted = (status: number) => status === 202 || status === 200;

/** AEP-0003 §3.2 #1, #3: a valid Event POSTed is accepted. */
export async function ingest(run: LiveRun): Promise<void> {
  const one = await run.post(JSON.stringify(run.event()));
  if (!accepted(one.status)) run.report('aep/live-ingest', 'status', { what: 'single Event', status: one.status });
  const batch = [run.event(), run.event()].map((e) => JSON.stringify(e)).join('\n');
  const r = await run.post(`${batch}\n`, 'application/x-ndjson');
  if (!accepted(r.status))
    run.report('aep/live-ingest', 'status', { what: 'application/x-ndjson batch', status: r.status });
}

/** AEP-0003 §3.3 #1-2: Events ingested by POST reach an SSE subscriber in order, unaltered (AEP-0001 §4.2). */
export async function fanout(run: LiveRun): Promise<void> {
  const sub = await run.subscribe({ filter: JSON.stringify({ session: run.session }) });
  try {
    const sent = [run.event(), run.event('progress.status', { data: { phase: 'fanout' } }), run.event()];
    await run.post(JSON.stringify(sent[0]));
    await run.post(
      `${sent
        .slice(1)
        .map((e) => JSON.stringify(e))
        .join('\n')}\n`,
      'application/x-ndjson',
    );
    const byId = new Map(sent.map((e) => [e.id, e]));
    const got = () => firstDeliveries(run.mine(sub).filter(({ ev }) => byId.has(ev.id)));
    await sub.until(() => got().length >= sent.length, run.opts.timeoutMs);
    run.keep(sub);
    for (const data of new Set(sub.messages.filter((m) => !run.object(m)).map((m) => m.data)))
      run.report('aep/live-fanout', 'notEvent', { got: excerpt(data) });
    const recv = got();
    // no head in the whole wait (one held back until the first message would have come with it): the stream is silent
    if (!recv.length && sub.status === 0)
      throw new LiveTimeout(`a response head from GET ${sub.path}`, `GET ${sub.path}`);
    if (recv.length < sent.length)
      return sub.ended && !sub.lineTooLong && !sub.capped
        ? run.report('aep/live-fanout', 'ended', { got: recv.length, want: sent.length })
        : run.report('aep/live-fanout', 'missing', { got: recv.length, want: sent.length, ms: run.opts.timeoutMs });
    if (recv.map(({ ev }) => ev.id).join('\n') !== sent.map((e) => e.id).join('\n'))
      run.report('aep/live-fanout', 'order');
    // every copy's fields are judged, a byte-identical redelivery once
    const copies = new Set<string>();
    for (const { m, ev } of run.mine(sub)) {
      const want = byId.get(ev.id);
      const key = JSON.stringify([m.event, m.id, m.data]);
      if (!want || copies.has(key)) continue;
      copies.add(key);
      eventField(run, m.event, want.type);
      const id = `${want.session}:0:${want.seq}`;
      if (m.id !== id) {
        const shape = { want: id, session: 'session', epoch: 'epoch', seq: 'seq' };
        if (m.id === undefined) run.report('aep/live-fanout', 'noIdField', shape);
        else run.report('aep/live-fanout', 'idField', { got: m.id, ...shape });
      }
      if (m.data.includes('\n')) run.report('aep/live-fanout', 'data', { n: m.data.split('\n').length });
      identical(run, ev, want);
    }
  } finally {
    sub.close();
  }
  await agentScoped(run);
}

/** AEP-0003 §3.3 #2: `event:` is the AEP type; a message without the field is named as such, not as `event: ""`. */
function eventField(run: LiveRun, got: string | undefined, type: unknown): void {
  const want = String(type);
  if (got === undefined) run.report('aep/live-fanout', 'noEventField', { want });
  else if (got !== type) run.report('aep/live-fanout', 'eventField', { got, want });
}

/** aep/live-delivery-identity: the delivered Event's core attributes are those posted (AEP-0001 §4.2). */
function identical(run: LiveRun, got: Record<string, unknown>, want: Record<string, unknown>): void {
  const g = coreOf(got);
  const w = coreOf(want);
  const pointer = firstDifference(g, w);
  if (pointer === undefined) return;
  // both values, cut short, as the other live messages quote what they got
  const shown = (v: unknown) => (v === undefined ? 'nothing (absent)' : excerpt(JSON.stringify(v)));
  const args = {
    id: String(want.id),
    pointer: pointer || '""',
    posted: shown(valueAt(w, pointer)),
    delivered: shown(valueAt(g, pointer)),
  };
  run.report('aep/live-delivery-identity', 'changed', args, pointer);
}

/** AEP-0003 §3.3 #2: an agent-scoped Event (no session, AEP-0002 §3 `agent`) is delivered with no `id:` field. */
async function agentScoped(run: LiveRun): Promise<void> {
  const { session: _s, seq: _q, ...base } = run.event('agent.heartbeat', { data: { tick: 1 } });
  const ev: Record<string, unknown> = {
    ...base,
    id: `${run.session}-agent`,
    source: 'aep://agent-conformance/agent/live',
  };
  const sub = await run.subscribe({ filter: JSON.stringify({ id: ev.id }) });
  try {
    await run.post(JSON.stringify(ev));
    const got = () => sub.messages.filter((m) => run.object(m)?.id === ev.id);
    await sub.until(() => got().length > 0, run.opts.timeoutMs);
    const m = got()[0];
    if (!m) return run.report('aep/live-fanout', 'missing', { got: 0, want: 1, ms: run.opts.timeoutMs });
    run.record(m.data);
    eventField(run, m.event, ev.type);
    if (m.id !== undefined) run.report('aep/live-fanout', 'agentId', { id: String(ev.id), got: m.id });
    if (m.data.includes('\n')) run.report('aep/live-fanout', 'data', { n: m.data.split('\n').length });
    identical(run, run.object(m)!, ev);
  } finally {
    sub.close();
  }
}
