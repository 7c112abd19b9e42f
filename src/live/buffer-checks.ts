/**
 * The buffer checks of `aep live` (AEP-0003 §3.3, §4.1, §5, §6.5, §7): resume from a position on SSE (Last-Event-ID
 * and `from`) and on the WebSocket (subscribe.from), and replay-all and the roster when advertised. The opt-in checks
 * that put pressure on a shared buffer are in pressure-checks.ts. They see the run through {@link BufferRun}.
 */
import {
  type Ev,
  type BufferRun,
  ownSession,
  postAll,
  isFrame,
  describeFrame,
  greeted,
  wsConsumer,
  wsUntil,
  wsMine,
  wsKeep,
  depth,
  firstSeen,
  fromOf,
  LimitExceeded,
  limited,
} from './buffer-run.ts';
import type { SseSubscriber } from './client.ts';
import { CredentialsRefused } from './credentials.ts';
import { accepted } from './http-checks.ts';
import { type ConsumeRun, consume, consumingBindings, overSocket, socketOffered } from './consume.ts';
import { StreamFailed } from './live-run.ts';

export type { BufferRun } from './buffer-run.ts';
export { byteIdentity, EVICTION_LIMIT, eviction } from './pressure-checks.ts';

/** A subscription, or undefined when the endpoint refused what it asked (reported as the rule's `sseRefused`). */
async function refusable(opening: Promise<SseSubscriber>): Promise<SseSubscriber | undefined> {
  try {
    return await opening;
  } catch (e) {
    if (e instanceof StreamFailed && e.refused) return undefined;
    throw e;
  }
}

/**
 * AEP-0003 §5: whether an endpoint that advertises no buffer replays a buffered Event all the same (a `from` over SSE
 * when named, else subscribe.from: a refusal is no finding, an endpoint without a buffer may refuse a position).
 * @returns true when it replays; a subscribe refused `limit-exceeded` (§6.5), which leaves it untold
 */
async function replaysUnadvertised(run: ConsumeRun): Promise<boolean | LimitExceeded> {
  const [a, b] = [run.event(), run.event()];
  // not accepted (202 or 200, aep/live-ingest), nothing to replay: the stream is not asked
  const r = await run.post(`${JSON.stringify(a)}\n${JSON.stringify(b)}\n`, 'application/x-ndjson');
  if (!accepted(r.status)) return false;
  const binding = consumingBindings(run)[0];
  if (!binding) return false;
  const ask = { filter: { session: run.session }, from: fromOf(a) };
  // refused, it shows no buffer (no finding); refused for a limit (§6.5), it shows nothing either way
  let sub: Awaited<ReturnType<typeof consume>>;
  try {
    sub = await consume(run, binding, run.session, ask, undefined, 'unadvertised-1');
  } catch (e) {
    if (e instanceof LimitExceeded) return e;
    throw e;
  }
  if (!sub) return false;
  try {
    const marker = run.event();
    await run.post(JSON.stringify(marker));
    await sub.until((ev) => ev.id === marker.id);
    sub.keep();
    return sub.mine().some(({ ev }) => ev.id === b.id);
  } finally {
    sub.close();
  }
}

/** The earliest held position a `replay-exhausted` names for `session` (SSE comment or WS frame), if one came. */
function exhaustedAt(session: string, comments: string[], frames: unknown[]): number | undefined {
  for (const c of comments) {
    const m = /^replay-exhausted (\S+) \d+:(\d+)\s*$/.exec(c);
    if (m && m[1] === session) return Number(m[2]);
  }
  const f = frames.find((f) => isFrame('replay-exhausted')(f) && (f as Ev).session === session) as Ev | undefined;
  const seq = (f?.earliest as Ev | undefined)?.seq;
  return typeof seq === 'number' ? seq : undefined;
}

/**
 * AEP-0003 §3.3 #3, §6.5, §7: resume strictly after a position, none missing, on every consuming binding. Each binding
 * resumes in a session of its own, posted no more than an advertised buffer of `d` Events holds (§5: a count per
 * session or a global one): the Event resumed after and up to two after it, all of them held. A legal eviction all the same (a busy
 * global buffer) is a `replay-exhausted` naming the earliest held position, and delivery is judged from it.
 */
export async function resume(run: ConsumeRun): Promise<void> {
  let d = depth(run);
  // §5: a buffer kept MUST be advertised; one found unadvertised is reported, and resume is checked over it
  const unadvertised = d === undefined ? await replaysUnadvertised(run) : false;
  if (unadvertised === true) {
    run.report('aep/live-buffer-advertised', 'discovery');
    d = 3;
  }
  // refused for a limit, the probe told nothing of a buffer kept unadvertised (aep/live-buffer-advertised): said so
  const untold =
    unadvertised instanceof LimitExceeded
      ? `; whether it keeps one unadvertised (aep/live-buffer-advertised) was not judged: ${unadvertised.message}`
      : '';
  if (d === undefined || d < 1)
    return run.skip(
      'resume',
      `the endpoint advertises no replay buffer of at least 1 Event (capabilities.replay.buffer)${untold}`,
    );
  // the Event resumed after is held too where the buffer allows, so an inclusive resume shows (depth 1: it cannot)
  const hold = d >= 2 ? Math.min(2, d - 1) : 1;
  const posted = async (name: string) => {
    const own = ownSession(run, name);
    const sent = Array.from({ length: hold + 1 }, () => own.event());
    await postAll(run, sent);
    return { own, after: sent[0]!, last: sent[hold]!, want: sent.slice(1).map((e) => e.seq as number) };
  };
  type Posted = Awaited<ReturnType<typeof posted>>;
  const judge = (how: string, p: Posted, seqs: number[], earliest: number | undefined) => {
    const { after, last } = p;
    // §5: a position that predates the buffer is announced, then delivery runs from the earliest held position
    const want = earliest === undefined ? p.want : p.want.filter((s) => s >= earliest);
    const got = firstSeen(seqs.filter((s) => s >= (after.seq as number) && s <= (last.seq as number)));
    if (got.join(',') !== want.join(','))
      run.report('aep/live-resume', 'got', {
        how,
        after: after.seq as number,
        got: got.length ? `seq ${got.join(', ')}` : 'nothing',
        want: want.length ? want.join(', ') : 'none',
      });
  };
  const sse = async (
    how: string,
    name: string,
    query: (p: Posted) => Record<string, string>,
    headers: (p: Posted) => Record<string, string>,
  ) => {
    const p = await posted(name);
    const session = p.own.session;
    const q = query(p);
    const filter = { filter: JSON.stringify({ session }), ...q };
    // a refused `from` is resume's finding (§3.3 #3, §7), not a stream that failed
    const sub = await refusable(run.subscribe(filter, headers(p), q.from ? 'aep/live-resume' : undefined));
    if (!sub) return;
    try {
      const marker = p.own.event();
      await run.post(JSON.stringify(marker));
      await sub.until(() => run.mine(sub, session).some(({ ev }) => ev.id === marker.id), run.opts.timeoutMs);
      run.keep(sub, session);
      judge(
        how,
        p,
        run.mine(sub, session).map(({ ev }) => ev.seq as number),
        exhaustedAt(session, sub.comments, []),
      );
    } finally {
      sub.close();
    }
  };
  const position = (p: Posted, e: Ev) => ({ 'last-event-id': `${p.own.session}:0:${e.seq}` });
  // §1, §7: resume on each consuming binding offered, SSE by both its carriages when it is named
  if (run.discovery?.endpoints.stream) {
    await sse(
      'Last-Event-ID',
      'resume-lei',
      () => ({}),
      (p) => position(p, p.after),
    );
    // `from` takes precedence: a Last-Event-ID at the last Event would deliver none of them
    await sse(
      'the from parameter',
      'resume-from',
      (p) => ({ from: JSON.stringify(fromOf(p.after)) }),
      (p) => position(p, p.last),
    );
  }
  // a socket on another origin beside a stream is named unjudged (socketOffered); named alone, opening it skips
  if (!socketOffered(run)) return;
  const p = await posted('resume-ws');
  const session = p.own.session;
  await overSocket(run, () =>
    wsConsumer(run, 'aep/live-resume', { id: 'resume-1', from: fromOf(p.after) }, session, async (ws) => {
      const marker = p.own.event();
      await run.post(JSON.stringify(marker));
      await wsUntil(run, ws, marker.id);
      wsKeep(run, ws, session);
      judge(
        'subscribe.from',
        p,
        wsMine(run, ws, session).map(({ ev }) => ev.seq as number),
        exhaustedAt(session, [], ws.frames),
      );
    }),
  );
}

/**
 * AEP-0003 §5 Replay-all: `from` "all" replays what is held, in order, without replay-exhausted. Each binding asks in
 * a session of its own, posted no more Events than an advertised buffer holds (rule 1: bounded by what it holds).
 */
export async function replayAll(run: ConsumeRun): Promise<void> {
  const replay = run.capabilities().replay as { all?: unknown } | undefined;
  if (replay?.all !== true) return run.skip('replay-all', 'the endpoint does not advertise capabilities.replay.all');
  const d = depth(run);
  if (d !== undefined && d < 1)
    return run.skip('replay-all', `the endpoint advertises a replay buffer of ${d} Events, so it holds none to replay`);
  const hold = Math.min(3, d ?? 3);
  const posted = async (name: string) => {
    const own = ownSession(run, name);
    const sent = Array.from({ length: hold }, () => own.event());
    await postAll(run, sent);
    return { own, want: sent.map((e) => e.seq as number) };
  };
  const judge = (how: string, want: number[], seqs: number[], exhausted: boolean) => {
    if (exhausted) run.report('aep/live-replay-all', 'exhausted', { how });
    const got = firstSeen(seqs.filter((s) => s <= want[want.length - 1]!));
    if (!want.every((s) => got.includes(s)))
      return run.report('aep/live-replay-all', 'missing', {
        how,
        want: want.join(', '),
        got: got.join(', ') || 'nothing',
      });
    if (got.some((s, i) => i > 0 && s < got[i - 1]!))
      run.report('aep/live-replay-all', 'order', { how, got: got.join(', ') });
  };
  // refused over SSE, it is replay-all's finding (§5), and the WebSocket is asked all the same
  const sse = run.discovery?.endpoints.stream ? await posted('all') : undefined;
  const sub =
    sse &&
    (await refusable(
      run.subscribe(
        { filter: JSON.stringify({ session: sse.own.session }), from: 'all' },
        undefined,
        'aep/live-replay-all',
      ),
    ));
  if (sub && sse)
    try {
      const { own } = sse;
      const marker = own.event();
      await run.post(JSON.stringify(marker));
      await sub.until(() => run.mine(sub, own.session).some(({ ev }) => ev.id === marker.id), run.opts.timeoutMs);
      run.keep(sub, own.session);
      judge(
        'the from parameter',
        sse.want,
        run.mine(sub, own.session).map(({ ev }) => ev.seq as number),
        sub.comments.some((c) => c.startsWith(`replay-exhausted ${own.session} `)),
      );
    } finally {
      sub.close();
    }
  // a socket on another origin beside a stream is named unjudged (socketOffered); named alone, opening it skips
  if (!socketOffered(run)) return;
  const { own, want } = await posted('all-ws');
  await overSocket(run, () =>
    wsConsumer(run, 'aep/live-replay-all', { id: 'all-1', from: 'all' }, own.session, async (ws) => {
      const marker = own.event();
      await run.post(JSON.stringify(marker));
      await wsUntil(run, ws, marker.id);
      wsKeep(run, ws, own.session);
      judge(
        'subscribe.from',
        want,
        wsMine(run, ws, own.session).map(({ ev }) => ev.seq as number),
        ws.frames.some((f) => isFrame('replay-exhausted')(f) && (f as Ev).session === own.session),
      );
    }),
  );
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
  let noSession = false;
  // a roster answered, so part of the check is judged; then a request refused for a limit, after which none is sent
  let answered = false;
  let cut = false;
  // one request, its reply (undefined when none came, or refused for a limit)
  const ask = async (): Promise<{ entries: Ev[] } | undefined> => {
    if (cut) return undefined;
    const id = `roster-${++n}`;
    const at = consumer.frames.length;
    consumer.send({ type: 'roster', id });
    const reply = await consumer.next(
      at,
      (f) => !!f && typeof f === 'object' && (f as Ev).id === id,
      run.opts.timeoutMs,
    );
    // AEP-0003 §4.1 #2: a roster answers under subscribe's §8 posture, so refused `unauthorized` it is refused for
    // the run's credentials, as a subscribe would be: skipped, never failed
    if (isFrame('error', id)(reply) && (reply as Ev).code === 'unauthorized')
      throw new CredentialsRefused(
        'a roster request on the WebSocket duplex',
        'refused with an error frame, code "unauthorized"',
        !!run.opts.token,
      );
    // §4.1 #2 refuses with the §6.5 pattern, whose closed set has limit-exceeded: a limit of the endpoint's own
    if (limited(run, reply, 'a roster request on a consumer connection', answered)) {
      cut = true;
      return undefined;
    }
    if (!isFrame('roster', id)(reply) || !Array.isArray((reply as Ev).entries)) {
      run.report('aep/live-roster', 'noReply', { id, got: describeFrame(reply) });
      return undefined;
    }
    const entries = (reply as { entries: Ev[] }).entries;
    answered = true;
    // §4.1 #4: each entry names its claim's session (REQUIRED); reported once a check
    const bare = entries.find((e) => !e || typeof e !== 'object' || typeof e.session !== 'string');
    if (bare !== undefined && !noSession) {
      noSession = true;
      const text = JSON.stringify(bare) ?? String(bare);
      run.report('aep/live-roster', 'noSession', { got: text.length > 60 ? `${text.slice(0, 60)}...` : text });
    }
    return { entries };
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
    // the connection survives: a second request is refused in-band too
    const againAt = emitter.frames.length;
    emitter.send({ type: 'roster', id: 'roster-emitter-2' });
    const again = (f: unknown) => !!f && typeof f === 'object' && (f as Ev).id === 'roster-emitter-2';
    if ((await emitter.next(againAt, again, run.opts.timeoutMs)) === undefined) run.report('aep/live-roster', 'closed');

    // §4.1 #5: a second claimant of the session is a second entry, never merged into the first nor elected over it
    const second = await greeted(run, url, 'emitter', ROSTER_MEMBERS_DECLARED);
    try {
      second.send(run.event());
      const both = await poll((es) => ours(es).length >= 2);
      if (both && ours(both).length < 2)
        run.report('aep/live-roster', 'merged', { session: run.session, got: ours(both).length });
    } finally {
      second.close();
    }
    emitter.close();
    const after = await poll((es) => ours(es).length === 0);
    if (after && ours(after).length > 0) run.report('aep/live-roster', 'stale', { session: run.session });
  } finally {
    emitter.close();
    consumer.close();
  }
}
