/**
 * The opt-in buffer checks of `aep live`, which put pressure on a shared buffer (AEP-0003 §3.3, §5; AEP-0001 §4.2):
 * eviction past the advertised depth, and byte identity of the delivered Events.
 */
import { AEP_CORE_ATTRIBUTES } from '../aep/bridges/types.ts';
import * as buffer from './buffer-run.ts';
import type { Ev } from './buffer-run.ts';
import { BINDING_NAME, type ConsumeRun, consumeEach, consumingBindings, overSocket, socketOffered } from './consume.ts';

/** The most Events the eviction check posts to overflow an advertised buffer. */
export const EVICTION_LIMIT = 10_000;

/**
 * AEP-0003 §3.3 #3, §5 (opt-in): overflow the advertised buffer with this run's Events, then resume from the first of
 * them; replay-exhausted must name the earliest held position before any replayed Event, and the replay run on from
 * exactly there to the last Event with no gap. On each consuming binding offered: SSE `from`, WebSocket subscribe.from
 * (§6.5, §7).
 */
export async function eviction(run: ConsumeRun): Promise<void> {
  const d = buffer.depth(run);
  if (d === undefined)
    return run.skip('eviction', 'the endpoint advertises no replay buffer (capabilities.replay.buffer)');
  if (d + 3 > EVICTION_LIMIT)
    return run.skip(
      'eviction',
      `the advertised buffer of ${d} Events is above the ${EVICTION_LIMIT - 3} this check overflows`,
    );
  const own = buffer.ownSession(run, 'evict');
  const sent = Array.from({ length: d + 3 }, () => own.event());
  await buffer.postAll(run, sent);
  const first = sent[0]!;
  const last = sent.at(-1)!;
  const judge = (how: string, got: { seq: number; i: number }[], marker: Marker | undefined) => {
    if (!marker) return run.report('aep/live-eviction', 'missing', { how });
    const replayed = got.filter((g) => g.seq > (first.seq as number) && g.seq <= (last.seq as number));
    if (replayed[0] && replayed[0].i < marker.at) return run.report('aep/live-eviction', 'late', { how });
    if (replayed[0] && (marker.epoch !== 0 || marker.seq !== replayed[0].seq))
      return run.report('aep/live-eviction', 'position', {
        how,
        named: `${marker.epoch}:${marker.seq}`,
        first: `0:${replayed[0].seq}`,
      });
    const seqs = buffer.firstSeen(replayed.map((g) => g.seq));
    const start = seqs[0] ?? marker.seq;
    if (seqs.length !== (last.seq as number) - start + 1 || seqs.some((s, k) => s !== start + k))
      run.report('aep/live-eviction', 'gap', {
        how,
        got:
          seqs.length > 8
            ? `seq ${seqs.slice(0, 4).join(', ')}, ..., ${seqs.slice(-2).join(', ')}`
            : seqs.length
              ? `seq ${seqs.join(', ')}`
              : 'nothing',
        last: last.seq as number,
      });
  };
  const bindings = consumingBindings(run);
  if (bindings.includes('sse')) await evictionSse(run, own.session, first, last, judge);
  // a socket on another origin beside a stream is named unjudged (socketOffered); named alone, opening it skips
  if (!socketOffered(run)) return;
  await overSocket(run, () =>
    buffer.wsConsumer(
      run,
      'aep/live-eviction',
      { id: 'evict-1', from: buffer.fromOf(first) },
      own.session,
      async (ws) => {
        await buffer.wsUntil(run, ws, last.id);
        buffer.wsKeep(run, ws, own.session);
        const k = ws.frames.findIndex((f) => buffer.isFrame('replay-exhausted')(f) && (f as Ev).sub === 'evict-1');
        const earliest = (k === -1 ? undefined : (ws.frames[k] as Ev).earliest) as Ev | undefined;
        judge(
          'subscribe.from',
          buffer.wsMine(run, ws, own.session).map(({ ev, i }) => ({ seq: ev.seq as number, i })),
          k === -1 ? undefined : { at: k, epoch: Number(earliest?.epoch ?? -1), seq: Number(earliest?.seq ?? -1) },
        );
      },
    ),
  );
}

/** Where the replay-exhausted marker came among the messages (`at`), and the position it names. */
type Marker = { at: number; epoch: number; seq: number };

/** The SSE form of {@link eviction}: resume by `from` at the first Event posted, `last` the one to wait for. */
async function evictionSse(
  run: ConsumeRun,
  session: string,
  first: Ev,
  last: Ev,
  judge: (how: string, got: { seq: number; i: number }[], marker: Marker | undefined) => void,
): Promise<void> {
  const sub = await run.subscribe({
    filter: JSON.stringify({ session }),
    from: JSON.stringify(buffer.fromOf(first)),
  });
  try {
    await sub.until(() => run.mine(sub, session).some(({ ev }) => ev.id === last.id), run.opts.timeoutMs);
    run.keep(sub, session);
    const k = sub.comments.findIndex((c) => c.startsWith(`replay-exhausted ${session} `));
    const pos = k === -1 ? undefined : /(\d+):(\d+)\s*$/.exec(sub.comments[k]!);
    // `i` counts every message, as commentsAt does, not only this session's
    const at = new Map(sub.messages.map((m, i) => [m, i]));
    judge(
      'the from parameter',
      run.mine(sub, session).map(({ m, ev }) => ({ seq: ev.seq as number, i: at.get(m)! })),
      k === -1 ? undefined : { at: sub.commentsAt[k]!, epoch: Number(pos?.[1] ?? -1), seq: Number(pos?.[2] ?? -1) },
    );
  } finally {
    sub.close();
  }
}

const CORE: ReadonlySet<string> = new Set(AEP_CORE_ATTRIBUTES);

/** The Events the byte-identity check posts: legal JSON a re-serializer would change (key order, spacing, escapes, number forms), one large. */
function identityTexts(own: ReturnType<typeof buffer.ownSession>): { id: string; text: string }[] {
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

/** The first core attribute (`data` included, defaults applied) that differs, at the floor every live check uses. */
function coreDifference(got: Ev, want: Ev): string | undefined {
  const [a, b] = [buffer.coreOf(got), buffer.coreOf(want)];
  for (const k of CORE) if (buffer.canonicalValue(a[k]) !== buffer.canonicalValue(b[k])) return `/${k}`;
  return undefined;
}

/**
 * AEP-0001 §4.2 (opt-in): delivered Events keep the posted core attributes and `data` (floor), or bytes (strict), on
 * each consuming binding offered (AEP-0003 §6.5: SSE and the WebSocket deliver the same Events).
 */
export async function byteIdentity(run: ConsumeRun): Promise<void> {
  const own = buffer.ownSession(run, 'bytes');
  const posts = identityTexts(own);
  // the seqs used above, so later Events of the run stay after them
  for (let i = 1; i < posts.length; i++) own.event();
  const ask = { filter: { session: own.session } };
  await consumeEach(run, own.session, ask, 'aep/live-byte-identity', 'identity-1', async (subs) => {
    // an endpoint MAY refuse a large Event as oversize (AEP-0003 §3.2 #3, 413): it is then not expected back
    const accepted: typeof posts = [];
    for (const p of posts) if ((await run.post(p.text)).status !== 413) accepted.push(p);
    const lastId = accepted.at(-1)?.id;
    for (const sub of subs) {
      await sub.until((ev) => ev.id === lastId);
      sub.keep();
      const how = BINDING_NAME[sub.binding];
      const got = sub.mine();
      for (const p of accepted) {
        const g = got.find((x) => x.ev.id === p.id);
        if (!g) {
          run.report('aep/live-byte-identity', 'missing', { id: p.id, how });
          continue;
        }
        if (run.opts.identity !== 'strict') {
          const pointer = coreDifference(g.ev, JSON.parse(p.text) as Ev);
          if (pointer) run.report('aep/live-byte-identity', 'floor', { id: p.id, how, pointer }, pointer);
        } else if (g.text !== p.text)
          run.report('aep/live-byte-identity', 'bytes', { id: p.id, how, at: firstByte(g.text, p.text) });
      }
    }
  });
}
