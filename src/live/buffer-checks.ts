/**
 * The buffer checks of `aep live` (AEP-0003 §3.3, §4.1, §5, §6.5, §7; AEP-0001 §4.2): resume from a position on SSE
 * (Last-Event-ID and `from`) and on the WebSocket (subscribe.from), replay-all and the roster when advertised, and the
 * opt-in eviction and byte-identity checks, which put pressure on a shared buffer. They see the run through
 * {@link BufferRun}.
 */
import { AEP_CORE_ATTRIBUTES } from '../aep/bridges/types.ts';
import type { MessageArgs } from '../core/message.ts';
import { type HttpAnswer, LiveTimeout, type SseMessage, type SseSubscriber, WsPeer } from './client.ts';
import type { LiveCheck, LiveRuleId } from './rules.ts';

type Ev = Record<string, unknown>;

/** What a buffer check reads and reports through (the part of src/live/check.ts's run it needs). */
export interface BufferRun {
  readonly session: string;
  readonly opts: { timeoutMs: number; token?: string; identity?: 'strict' | 'floor' };
  record(text: string): void;
  capabilities(): Record<string, unknown>;
  socket(): URL | undefined;
  report(id: LiveRuleId, messageId: string, args?: MessageArgs, pointer?: string): void;
  skip(check: LiveCheck, reason: string): void;
  event(type?: string, over?: Ev): Ev;
  post(body: string, type?: string): Promise<HttpAnswer>;
  subscribe(query: Record<string, string>, headers?: Record<string, string>): Promise<SseSubscriber>;
  mine(sub: SseSubscriber, session?: string): { m: SseMessage; ev: Ev }[];
  keep(sub: SseSubscriber, session?: string): void;
}

/**
 * A session of its own for a check that replays a whole buffer, so the replayed Events never interleave with the
 * other checks' Events in the record (one session's stream stays in (epoch, seq) order for the validate rules).
 */
function ownSession(run: BufferRun, name: string): { session: string; event: (type?: string, over?: Ev) => Ev } {
  const session = `${run.session}.${name}`;
  const source = `aep://agent-conformance/agent/live/session/${session}`;
  return { session, event: (type, over) => run.event(type, { session, source, ...over }) };
}

/** The most Events the eviction check posts to overflow an advertised buffer. */
export const EVICTION_LIMIT = 10_000;

const line = (evs: Ev[]) => `${evs.map((e) => JSON.stringify(e)).join('\n')}\n`;

async function postAll(run: BufferRun, evs: Ev[]): Promise<void> {
  for (let i = 0; i < evs.length; i += 500) await run.post(line(evs.slice(i, i + 500)), 'application/x-ndjson');
}

const isFrame = (type: string, id?: string) => (f: unknown) =>
  !!f && typeof f === 'object' && (f as Ev).type === type && (id === undefined || (f as Ev).id === id);

function describeFrame(f: unknown): string {
  if (f === undefined) return 'nothing';
  if (f && typeof f === 'object') {
    const o = f as Ev;
    return `a ${JSON.stringify(String(o.type))} frame${o.code !== undefined ? ` with code ${JSON.stringify(String(o.code))}` : ''}`;
  }
  return 'a frame that is not a JSON object';
}

async function greeted(run: BufferRun, url: URL, role: 'consumer' | 'emitter', caps: Ev = {}): Promise<WsPeer> {
  const ws = await WsPeer.open(url, run.opts);
  ws.send({
    type: 'hello',
    versions: ['0.1'],
    role,
    identity: { agent: 'live', instance: `agent-conformance/${run.session}` },
    capabilities: caps,
  });
  if ((await ws.next(0, isFrame('hello'), run.opts.timeoutMs)) === undefined) {
    ws.close();
    throw new LiveTimeout('the hello answer');
  }
  return ws;
}

/** Subscribe on a greeted socket; the answer frame to `id` (undefined on timeout). */
async function wsSubscribe(run: BufferRun, ws: WsPeer, frame: Ev, session = run.session): Promise<unknown> {
  const at = ws.frames.length;
  ws.send({ type: 'subscribe', filter: { session: [session] }, ...frame });
  return ws.next(at, (f) => !!f && typeof f === 'object' && (f as Ev).id === frame.id, run.opts.timeoutMs);
}

/** This run's Events among a socket's frames, with their index and text; each kept as delivered once. */
function wsMine(run: BufferRun, ws: WsPeer, session = run.session): { i: number; ev: Ev; text: string }[] {
  const out: { i: number; ev: Ev; text: string }[] = [];
  for (const [i, f] of ws.frames.entries()) {
    const ev = f as Ev;
    if (ev && typeof ev === 'object' && typeof ev.type === 'string' && ev.type.includes('.') && ev.session === session)
      out.push({ i, ev, text: ws.texts[i]! });
  }
  return out;
}

function wsKeep(run: BufferRun, ws: WsPeer, session = run.session): void {
  for (const { text } of wsMine(run, ws, session)) run.record(text);
}

function depth(run: BufferRun): number | undefined {
  const replay = run.capabilities().replay as { buffer?: unknown } | undefined;
  return replay && typeof replay.buffer === 'number' ? replay.buffer : undefined;
}

/** Each value at its first delivery: a redelivery is legal (AEP-0003 §7, dedupe on (source, id)), never a gap. */
const firstSeen = (seqs: number[]) => [...new Set(seqs)];

const fromOf = (ev: Ev) => [{ session: ev.session as string, epoch: 0, seq: ev.seq as number }];

/**
 * AEP-0003 §3.3 #3, §6.5, §7: resume strictly after a position, with none missing, on every consuming binding. A live
 * marker posted after each subscription opens bounds the wait: replay precedes live delivery, so once the marker is in,
 * so is the replay.
 */
export async function resume(run: BufferRun): Promise<void> {
  const d = depth(run);
  if (d === undefined || d < 3)
    return run.skip(
      'resume',
      'the endpoint advertises no replay buffer of at least 3 Events (capabilities.replay.buffer)',
    );
  const sent = [run.event(), run.event(), run.event()];
  await postAll(run, sent);
  const after = sent[0]!;
  const last = sent[2]!;
  const want = sent.slice(1).map((e) => e.seq as number);
  const judge = (how: string, seqs: number[]) => {
    const got = firstSeen(seqs.filter((s) => s >= (after.seq as number) && s <= (last.seq as number)));
    if (got.join(',') !== want.join(','))
      run.report('aep/live-resume', 'got', {
        how,
        after: after.seq as number,
        got: got.join(', ') || 'nothing',
        want: want.join(', '),
      });
  };
  const sse = async (how: string, query: Record<string, string>, headers: Record<string, string>) => {
    const sub = await run.subscribe({ filter: JSON.stringify({ session: [run.session] }), ...query }, headers);
    try {
      const marker = run.event();
      await run.post(JSON.stringify(marker));
      await sub.until(() => run.mine(sub).some(({ ev }) => ev.id === marker.id), run.opts.timeoutMs);
      run.keep(sub);
      judge(
        how,
        run.mine(sub).map(({ ev }) => ev.seq as number),
      );
    } finally {
      sub.close();
    }
  };
  await sse('Last-Event-ID', {}, { 'last-event-id': `${run.session}:0:${after.seq}` });
  // `from` takes precedence: a Last-Event-ID at the last Event would deliver none of them
  await sse(
    'the from parameter',
    { from: JSON.stringify(fromOf(after)) },
    { 'last-event-id': `${run.session}:0:${last.seq}` },
  );
  const url = run.socket();
  if (!url) return;
  const ws = await greeted(run, url, 'consumer');
  try {
    const answer = await wsSubscribe(run, ws, { id: 'resume-1', from: fromOf(after) });
    if (!isFrame('subscribed', 'resume-1')(answer))
      return run.report('aep/live-resume', 'refused', { got: describeFrame(answer) });
    const marker = run.event();
    await run.post(JSON.stringify(marker));
    await ws.next(0, (f) => !!f && typeof f === 'object' && (f as Ev).id === marker.id, run.opts.timeoutMs);
    wsKeep(run, ws);
    judge(
      'subscribe.from',
      wsMine(run, ws).map(({ ev }) => ev.seq as number),
    );
  } finally {
    ws.close();
  }
}

/** AEP-0003 §5 Replay-all: `from` "all" replays what is held, in order, without replay-exhausted. */
export async function replayAll(run: BufferRun): Promise<void> {
  const replay = run.capabilities().replay as { all?: unknown } | undefined;
  if (replay?.all !== true) return run.skip('replay-all', 'the endpoint does not advertise capabilities.replay.all');
  const own = ownSession(run, 'all');
  const sent = [own.event(), own.event(), own.event()];
  await postAll(run, sent);
  const want = sent.map((e) => e.seq as number);
  const judge = (how: string, seqs: number[], exhausted: boolean) => {
    if (exhausted) run.report('aep/live-replay-all', 'exhausted', { how });
    const got = firstSeen(seqs.filter((s) => s <= want[2]!));
    if (!want.every((s) => got.includes(s)))
      return run.report('aep/live-replay-all', 'missing', {
        how,
        want: want.join(', '),
        got: got.join(', ') || 'nothing',
      });
    if (got.some((s, i) => i > 0 && s < got[i - 1]!))
      run.report('aep/live-replay-all', 'order', { how, got: got.join(', ') });
  };
  const sub = await run.subscribe({ filter: JSON.stringify({ session: [own.session] }), from: 'all' });
  try {
    const marker = own.event();
    await run.post(JSON.stringify(marker));
    await sub.until(() => run.mine(sub, own.session).some(({ ev }) => ev.id === marker.id), run.opts.timeoutMs);
    run.keep(sub, own.session);
    judge(
      'the from parameter',
      run.mine(sub, own.session).map(({ ev }) => ev.seq as number),
      sub.comments.some((c) => c.startsWith(`replay-exhausted ${own.session} `)),
    );
  } finally {
    sub.close();
  }
  const url = run.socket();
  if (!url) return;
  const ws = await greeted(run, url, 'consumer');
  try {
    const answer = await wsSubscribe(run, ws, { id: 'all-1', from: 'all' }, own.session);
    if (!isFrame('subscribed', 'all-1')(answer))
      return run.report('aep/live-replay-all', 'refused', { got: describeFrame(answer) });
    const marker = own.event();
    await run.post(JSON.stringify(marker));
    await ws.next(0, (f) => !!f && typeof f === 'object' && (f as Ev).id === marker.id, run.opts.timeoutMs);
    wsKeep(run, ws, own.session);
    judge(
      'subscribe.from',
      wsMine(run, ws, own.session).map(({ ev }) => ev.seq as number),
      ws.frames.some((f) => isFrame('replay-exhausted')(f) && (f as Ev).session === own.session),
    );
  } finally {
    ws.close();
  }
}

const ROSTER_MEMBERS_DECLARED = { emits: ['progress'] };

/** AEP-0003 §4.1: the roster of live claims, verbatim, refused to an emitter in-band. */
export async function roster(run: BufferRun): Promise<void> {
  const url = run.socket();
  if (!url) return run.skip('roster', 'the discovery document names no "socket" endpoint (WebSocket)');
  const r = run.capabilities().roster;
  if (!r || typeof r !== 'object')
    return run.skip('roster', 'the endpoint does not advertise capabilities.roster (AEP-0003 §4.1 #1)');
  const emitter = await greeted(run, url, 'emitter', ROSTER_MEMBERS_DECLARED);
  const consumer = await greeted(run, url, 'consumer').catch((e) => {
    emitter.close();
    throw e;
  });
  let n = 0;
  // one request, its reply (undefined when none came)
  const ask = async (): Promise<{ entries: Ev[] } | undefined> => {
    const id = `roster-${++n}`;
    const at = consumer.frames.length;
    consumer.send({ type: 'roster', id });
    const reply = await consumer.next(
      at,
      (f) => !!f && typeof f === 'object' && (f as Ev).id === id,
      run.opts.timeoutMs,
    );
    if (!isFrame('roster', id)(reply) || !Array.isArray((reply as Ev).entries)) {
      run.report('aep/live-roster', 'noReply', { id, got: describeFrame(reply) });
      return undefined;
    }
    return reply as { entries: Ev[] };
  };
  // a snapshot may trail the claim by a moment: ask again, bounded by the timeout
  const poll = async (done: (entries: Ev[]) => boolean): Promise<Ev[] | undefined> => {
    const deadline = Date.now() + run.opts.timeoutMs;
    for (;;) {
      const reply = await ask();
      if (!reply) return undefined;
      if (done(reply.entries) || Date.now() >= deadline) return reply.entries;
      await new Promise((res) => setTimeout(res, 50));
    }
  };
  const ours = (entries: Ev[]) => entries.filter((e) => e && typeof e === 'object' && e.session === run.session);
  try {
    emitter.send(run.event());
    const entries = await poll((es) => ours(es).length > 0);
    if (!entries) return;
    const entry = ours(entries)[0];
    if (!entry) return run.report('aep/live-roster', 'noEntry', { session: run.session });
    const declared: Ev = { agent: 'live', instance: `agent-conformance/${run.session}`, ...ROSTER_MEMBERS_DECLARED };
    for (const [member, want] of Object.entries(declared))
      if (JSON.stringify(entry[member]) !== JSON.stringify(want))
        run.report('aep/live-roster', 'member', {
          member,
          got: entry[member] === undefined ? 'none' : JSON.stringify(entry[member]),
          want: JSON.stringify(want),
        });
    if (entry.control !== undefined) run.report('aep/live-roster', 'synthesized', { member: 'control' });

    const at = emitter.frames.length;
    emitter.send({ type: 'roster', id: 'roster-emitter' });
    const refusal = await emitter.next(
      at,
      (f) => !!f && typeof f === 'object' && (f as Ev).id === 'roster-emitter',
      run.opts.timeoutMs,
    );
    if (!isFrame('error', 'roster-emitter')(refusal) || (refusal as Ev).code !== 'unauthorized')
      run.report('aep/live-roster', 'emitter', { got: describeFrame(refusal) });
    const pingAt = emitter.frames.length;
    emitter.send({ type: 'ping', t: 2 });
    if ((await emitter.next(pingAt, isFrame('pong'), run.opts.timeoutMs)) === undefined)
      run.report('aep/live-roster', 'closed');

    emitter.close();
    const after = await poll((es) => ours(es).length === 0);
    if (after && ours(after).length > 0) run.report('aep/live-roster', 'stale', { session: run.session });
  } finally {
    emitter.close();
    consumer.close();
  }
}

/**
 * AEP-0003 §3.3 #3, §5 (opt-in): overflow the advertised buffer with this run's Events, then resume from the first of
 * them; replay-exhausted must name the earliest held position before any replayed Event, and the replay run on from
 * exactly there to the last Event with no gap.
 */
export async function eviction(run: BufferRun): Promise<void> {
  const d = depth(run);
  if (d === undefined)
    return run.skip('eviction', 'the endpoint advertises no replay buffer (capabilities.replay.buffer)');
  if (d + 3 > EVICTION_LIMIT)
    return run.skip(
      'eviction',
      `the advertised buffer of ${d} Events is above the ${EVICTION_LIMIT - 3} this check overflows`,
    );
  const own = ownSession(run, 'evict');
  const sent = Array.from({ length: d + 3 }, () => own.event());
  await postAll(run, sent);
  const first = sent[0]!;
  const last = sent.at(-1)!;
  const judge = (
    how: string,
    got: { seq: number; i: number }[],
    marker: { at: number; epoch: number; seq: number } | undefined,
  ) => {
    if (!marker) return run.report('aep/live-eviction', 'missing', { how });
    const replayed = got.filter((g) => g.seq > (first.seq as number) && g.seq <= (last.seq as number));
    if (replayed[0] && replayed[0].i < marker.at) return run.report('aep/live-eviction', 'late', { how });
    if (replayed[0] && (marker.epoch !== 0 || marker.seq !== replayed[0].seq))
      return run.report('aep/live-eviction', 'position', {
        how,
        named: `${marker.epoch}:${marker.seq}`,
        first: `0:${replayed[0].seq}`,
      });
    const seqs = firstSeen(replayed.map((g) => g.seq));
    const start = seqs[0] ?? marker.seq;
    if (seqs.length !== (last.seq as number) - start + 1 || seqs.some((s, k) => s !== start + k))
      run.report('aep/live-eviction', 'gap', {
        how,
        got:
          seqs.length > 8
            ? `${seqs.slice(0, 4).join(', ')}, ..., ${seqs.slice(-2).join(', ')}`
            : seqs.join(', ') || 'nothing',
        last: last.seq as number,
      });
  };
  const sub = await run.subscribe({
    filter: JSON.stringify({ session: [own.session] }),
    from: JSON.stringify(fromOf(first)),
  });
  try {
    await sub.until(() => run.mine(sub, own.session).some(({ ev }) => ev.id === last.id), run.opts.timeoutMs);
    run.keep(sub, own.session);
    const k = sub.comments.findIndex((c) => c.startsWith(`replay-exhausted ${own.session} `));
    const pos = k === -1 ? undefined : /(\d+):(\d+)\s*$/.exec(sub.comments[k]!);
    judge(
      'the from parameter',
      run.mine(sub, own.session).map(({ ev }, i) => ({ seq: ev.seq as number, i })),
      k === -1 ? undefined : { at: sub.commentsAt[k]!, epoch: Number(pos?.[1] ?? -1), seq: Number(pos?.[2] ?? -1) },
    );
  } finally {
    sub.close();
  }
  const url = run.socket();
  if (!url) return;
  const ws = await greeted(run, url, 'consumer');
  try {
    const answer = await wsSubscribe(run, ws, { id: 'evict-1', from: fromOf(first) }, own.session);
    if (!isFrame('subscribed', 'evict-1')(answer))
      return run.report('aep/live-eviction', 'refused', { got: describeFrame(answer) });
    await ws.next(0, (f) => !!f && typeof f === 'object' && (f as Ev).id === last.id, run.opts.timeoutMs);
    wsKeep(run, ws, own.session);
    const k = ws.frames.findIndex((f) => isFrame('replay-exhausted')(f) && (f as Ev).sub === 'evict-1');
    const earliest = (k === -1 ? undefined : (ws.frames[k] as Ev).earliest) as Ev | undefined;
    judge(
      'subscribe.from',
      wsMine(run, ws, own.session).map(({ ev, i }) => ({ seq: ev.seq as number, i })),
      k === -1 ? undefined : { at: k, epoch: Number(earliest?.epoch ?? -1), seq: Number(earliest?.seq ?? -1) },
    );
  } finally {
    ws.close();
  }
}

const CORE: ReadonlySet<string> = new Set(AEP_CORE_ATTRIBUTES);

/** The Events the byte-identity check posts: legal JSON a re-serializer would change (key order, spacing, escapes, number forms), one large. */
function identityTexts(own: ReturnType<typeof ownSession>): { id: string; text: string }[] {
  const base = own.event('x.agentconformance.progress.identity', { capture: 'full' });
  const out: { id: string; text: string }[] = [];
  const make = (n: number, data: string) => {
    const id = `${base.id}-${n}`;
    const head = `"type" : "x.agentconformance.progress.identity", "aep":"0.1","id":${JSON.stringify(id)}`;
    const rest = `"time":${JSON.stringify(base.time)},"source":${JSON.stringify(base.source)},"agent":"live","session":${JSON.stringify(own.session)},"seq":${(base.seq as number) + n},"capture":"full"`;
    out.push({ id, text: `{ ${head}, ${rest},"data": ${data} }` });
  };
  make(0, '{"note":"caf\\u00e9 \\/ \\"quoted\\"","ratio":1.50,"big":1E2}');
  make(1, '{"note":"é ✓ 🙂","list":[ 1 , 2 ,3 ]}');
  make(2, `{"note":${JSON.stringify('x'.repeat(256 * 1024))}}`);
  return out;
}

function firstByte(a: string, b: string): number {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  let i = 0;
  while (i < x.length && i < y.length && x[i] === y[i]) i++;
  return i;
}

function coreDifference(got: Ev, want: Ev): string | undefined {
  for (const k of CORE) {
    if (JSON.stringify(canon(got[k])) !== JSON.stringify(canon(want[k]))) return `/${k}`;
  }
  return undefined;
}

function canon(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canon);
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, canon((v as Ev)[k])]),
    );
  return v;
}

/**
 * AEP-0001 §4.2 (opt-in): the Events delivered over SSE and the WebSocket are the posted texts byte for byte (strict),
 * or carry the posted core attributes unaltered (floor).
 */
export async function byteIdentity(run: BufferRun): Promise<void> {
  const own = ownSession(run, 'bytes');
  const posts = identityTexts(own);
  // the seqs used above, so later Events of the run stay after them
  for (let i = 1; i < posts.length; i++) own.event();
  const sub = await run.subscribe({ filter: JSON.stringify({ session: [own.session] }) });
  const url = run.socket();
  let ws: WsPeer | undefined;
  try {
    if (url) {
      ws = await greeted(run, url, 'consumer');
      if (!isFrame('subscribed', 'identity-1')(await wsSubscribe(run, ws, { id: 'identity-1' }, own.session))) {
        ws.close();
        ws = undefined;
      }
    }
    // an endpoint MAY refuse a large Event as oversize (AEP-0003 §3.2 #3, 413): it is then not expected back
    const accepted: typeof posts = [];
    for (const p of posts) if ((await run.post(p.text)).status !== 413) accepted.push(p);
    const lastId = accepted.at(-1)?.id;
    await sub.until(() => run.mine(sub, own.session).some(({ ev }) => ev.id === lastId), run.opts.timeoutMs);
    if (ws) await ws.next(0, (f) => !!f && typeof f === 'object' && (f as Ev).id === lastId, run.opts.timeoutMs);
    run.keep(sub, own.session);
    const sse = run.mine(sub, own.session).map(({ m, ev }) => ({ ev, text: m.data }));
    const judge = (how: string, got: { ev: Ev; text: string }[]) => {
      for (const p of accepted) {
        const g = got.find((x) => x.ev.id === p.id);
        if (!g) {
          run.report('aep/live-byte-identity', 'missing', { id: p.id, how });
          continue;
        }
        if (run.opts.identity === 'floor') {
          const pointer = coreDifference(g.ev, JSON.parse(p.text) as Ev);
          if (pointer) run.report('aep/live-byte-identity', 'floor', { id: p.id, how, pointer }, pointer);
        } else if (g.text !== p.text)
          run.report('aep/live-byte-identity', 'bytes', { id: p.id, how, at: firstByte(g.text, p.text) });
      }
    };
    judge('SSE', sse);
    if (ws) {
      wsKeep(run, ws, own.session);
      judge('the WebSocket', wsMine(run, ws, own.session));
    }
  } finally {
    sub.close();
    ws?.close();
  }
}
