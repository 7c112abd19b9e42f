/** What the buffer checks of `aep live` share: the run they see ({@link BufferRun}) and their socket and post helpers. */
import { AEP_CORE_ATTRIBUTES } from '../aep/bridges/types.ts';
import { canonicalJson } from '../core/canonical.ts';
import type { MessageArgs } from '../core/message.ts';
import { type HttpAnswer, LiveTimeout, type SseMessage, type SseSubscriber } from './client.ts';
import { subscribeRefused } from './credentials.ts';
import { BinaryFrame, WsPeer } from './ws-peer.ts';
import type { LiveCheck, LiveRuleId } from './rules.ts';

/** An Event or frame as parsed JSON. */
export type Ev = Record<string, unknown>;

const CORE: ReadonlySet<string> = new Set(AEP_CORE_ATTRIBUTES);

/** The Event's core attributes, the AEP-0001 §5.1 defaults applied: a relay MAY add extension attributes (§4.2). */
export function coreOf(ev: Ev): Ev {
  const core = Object.fromEntries(Object.entries(ev).filter(([k]) => CORE.has(k)));
  return { epoch: 0, severity: 'info', capture: 'metadata', ...core };
}

/**
 * The one comparison the live checks make of two copies of an Event: its core attributes and `data` as canonical JSON,
 * the §5.1 defaults applied (AEP-0001 §4.2: a relay MUST NOT alter them, MAY add extension attributes, and may
 * re-serialize). A frame that is no Event (no dotted type) is compared whole.
 */
export function floorKey(v: unknown): string {
  const o = v && typeof v === 'object' && !Array.isArray(v) ? (v as Ev) : undefined;
  return canonicalValue(o && typeof o.type === 'string' && o.type.includes('.') ? coreOf(o) : v);
}

/** A JSON value as canonical JSON (object keys sorted), `undefined` (an absent attribute) as itself. */
export const canonicalValue = (v: unknown): string =>
  v === undefined ? 'undefined' : canonicalJson({ value: v, bigIntegers: [] });

/** {@link floorKey} of a frame's text (the text itself when it is not JSON). */
export function floorKeyOfText(text: string): string {
  try {
    return floorKey(JSON.parse(text));
  } catch {
    return text;
  }
}

/** What a buffer check reads and reports through (the part of src/live/check.ts's run it needs). */
export interface BufferRun {
  readonly session: string;
  /** The check running now. */
  readonly check: LiveCheck;
  readonly opts: { timeoutMs: number; token?: string; identity?: 'strict' | 'floor' };
  record(text: string, from?: object): void;
  capabilities(): Record<string, unknown>;
  socket(): URL | undefined;
  report(id: LiveRuleId, messageId: string, args?: MessageArgs, pointer?: string): void;
  skip(check: LiveCheck, reason: string): void;
  event(type?: string, over?: Ev): Ev;
  post(body: string, type?: string): Promise<HttpAnswer>;
  subscribe(
    query: Record<string, string>,
    headers?: Record<string, string>,
    refused?: LiveRuleId,
  ): Promise<SseSubscriber>;
  mine(sub: SseSubscriber, session?: string): { m: SseMessage; ev: Ev }[];
  keep(sub: SseSubscriber, session?: string): void;
}

/**
 * A session of its own for a check that replays a whole buffer, so the replayed Events never interleave with the
 * other checks' Events in the record (one session's stream stays in (epoch, seq) order for the validate rules).
 */
export function ownSession(run: BufferRun, name: string): { session: string; event: (type?: string, over?: Ev) => Ev } {
  const session = `${run.session}.${name}`;
  const source = `aep://agent-conformance/agent/live/session/${session}`;
  return { session, event: (type, over) => run.event(type, { session, source, ...over }) };
}

const line = (evs: Ev[]) => `${evs.map((e) => JSON.stringify(e)).join('\n')}\n`;

/** POST `evs` as NDJSON, 500 a request. */
export async function postAll(run: BufferRun, evs: Ev[]): Promise<void> {
  for (let i = 0; i < evs.length; i += 500) await run.post(line(evs.slice(i, i + 500)), 'application/x-ndjson');
}

/** A test for a frame of `type` (answering `id` when given). */
export const isFrame = (type: string, id?: string) => (f: unknown) =>
  !!f && typeof f === 'object' && (f as Ev).type === type && (id === undefined || (f as Ev).id === id);

/** A frame as named in a finding (`nothing` when none came; `closed`: the connection closed before one did). */
export function describeFrame(f: unknown, closed = false): string {
  if (f === undefined) return closed ? 'nothing (the connection closed)' : 'nothing';
  if (f instanceof BinaryFrame) return `a binary frame of ${f.bytes} bytes, which AEP-0003 §3.5 #2 reserves`;
  if (f && typeof f === 'object') {
    const o = f as Ev;
    const type = String(o.type);
    return `${/^[aeiou]/i.test(type) ? 'an' : 'a'} ${JSON.stringify(type)} frame${o.code !== undefined ? ` with code ${JSON.stringify(String(o.code))}` : ''}`;
  }
  return 'a frame that is not a JSON object';
}

/** A WebSocket past the hello exchange, as `role`. */
export async function greeted(run: BufferRun, url: URL, role: 'consumer' | 'emitter', caps: Ev = {}): Promise<WsPeer> {
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
    throw new LiveTimeout(helloAwaited(ws));
  }
  return ws;
}

/** What a greeting that got no hello waited for (a binary frame that came instead is named). */
export const helloAwaited = (ws: WsPeer) =>
  ws.frames.some((f) => f instanceof BinaryFrame)
    ? 'the hello answer; a binary frame came instead (AEP-0003 §3.5 #2)'
    : 'the hello answer';

/**
 * A request refused `limit-exceeded`: AEP-0003 §6.5 lets an endpoint refuse a subscribe that "would exceed an endpoint
 * resource limit" ("Limits are the endpoint's own"), and §4.1 #2 refuses a roster request with the same pattern, so
 * what it asked is not judged: check.ts skips the check, or, where part of it was judged, {@link limited} names the
 * binding left out (aep/live-skipped `binding`).
 */
export class LimitExceeded extends Error {}

/**
 * Whether a `limit-exceeded` `detail` names a limit (AEP-0003 §6.5: "`detail` SHOULD name the one that was hit"): a
 * string with text, or a structured value (object or array) with a member; its shape is open (`"detail": ...`), its
 * content not judged. A number or a boolean says no limit's name, nor does an empty string, object or array.
 */
export function namesLimit(detail: unknown): boolean {
  if (typeof detail === 'string') return detail.trim() !== '';
  return !!detail && typeof detail === 'object' && Object.keys(detail).length > 0;
}

/** How a finding or skip reason says a `limit-exceeded` detail: the limit it names, or that it names none. */
export function limitNamed(detail: unknown): string {
  const clip = (t: string) => JSON.stringify(t.length > 120 ? `${t.slice(0, 120)}...` : t);
  if (namesLimit(detail))
    return `the limit named ${clip(typeof detail === 'string' ? detail.trim() : JSON.stringify(detail))}`;
  // absent or null is no detail; a number or an empty one is a detail that names no limit (aep/live-limit-detail)
  return detail == null ? 'no detail naming the limit' : `a detail, ${clip(JSON.stringify(detail))}, naming no limit`;
}

/** A {@link LimitExceeded} for `answer` to `what` when it is an error frame coded `limit-exceeded`, else undefined. */
export function limitExceeded(answer: unknown, what: string): LimitExceeded | undefined {
  if (!isFrame('error')(answer) || (answer as Ev).code !== 'limit-exceeded') return undefined;
  return new LimitExceeded(
    `${what} was refused with code "limit-exceeded" (${limitNamed((answer as Ev).detail)}): a resource limit of the endpoint's own (AEP-0003 §6.5), so it could not be judged there`,
  );
}

/** A consuming binding: SSE (§3.3) or the WebSocket (§3.5). */
export type Binding = 'sse' | 'ws';

/** How findings name a binding (`Resuming by {how}`, `over {binding}`). */
export const BINDING_NAME: Record<Binding, string> = { sse: 'SSE', ws: 'the WebSocket' };

/** Name `binding` as left unjudged by the running check, and why (aep/live-skipped `binding`, an info). */
export function notJudged(run: Pick<BufferRun, 'check' | 'report'>, binding: Binding, reason: string): void {
  run.report('aep/live-skipped', 'binding', { check: run.check, binding: BINDING_NAME[binding], reason });
}

/**
 * The one answer every live check gives a request refused `limit-exceeded` (AEP-0003 §6.5, §4.1 #2): false when
 * `answer` is not that refusal. When it is and `judged` (part of the running check was judged already), the part left
 * is named over `binding` ({@link notJudged}) and true returned; when nothing was judged, never a pass nor the check's
 * own refusal finding: the check is skipped naming the code and the limit.
 * @throws LimitExceeded when refused and not `judged` (check.ts skips the check)
 */
export function limited(
  run: Pick<BufferRun, 'check' | 'report'>,
  answer: unknown,
  what: string,
  judged: boolean,
  binding: Binding = 'ws',
): boolean {
  const e = limitExceeded(answer, what);
  if (!e) return false;
  if (!judged) throw e;
  notJudged(run, binding, e.message);
  return true;
}

/** Subscribe on a greeted socket; the answer frame to `id` (undefined on timeout). */
export async function wsSubscribe(run: BufferRun, ws: WsPeer, frame: Ev, session = run.session): Promise<unknown> {
  const at = ws.frames.length;
  ws.send({ type: 'subscribe', filter: { session: session }, ...frame });
  const answer = await ws.next(
    at,
    (f) => !!f && typeof f === 'object' && (f as Ev).id === frame.id,
    run.opts.timeoutMs,
  );
  subscribeRefused(answer, !!run.opts.token);
  return answer;
}

/** This run's Events among a socket's frames, with their index and text; each kept as delivered once. */
export function wsMine(run: BufferRun, ws: WsPeer, session = run.session): { i: number; ev: Ev; text: string }[] {
  const out: { i: number; ev: Ev; text: string }[] = [];
  for (const [i, f] of ws.frames.entries()) {
    const ev = f as Ev;
    if (ev && typeof ev === 'object' && typeof ev.type === 'string' && ev.type.includes('.') && ev.session === session)
      out.push({ i, ev, text: ws.texts[i]! });
  }
  return out;
}

/** Record the run's Events of a socket (the Events delivered). */
export function wsKeep(run: BufferRun, ws: WsPeer, session = run.session): void {
  for (const { text } of wsMine(run, ws, session)) run.record(text, ws);
}

/** The replay buffer the endpoint advertises (capabilities.replay.buffer), if any. */
export function depth(run: BufferRun): number | undefined {
  const replay = run.capabilities().replay as { buffer?: unknown } | undefined;
  return replay && typeof replay.buffer === 'number' ? replay.buffer : undefined;
}

/** Each value at its first delivery: a redelivery is legal (AEP-0003 §7, dedupe on (source, id)), never a gap. */
export const firstSeen = (seqs: number[]) => [...new Set(seqs)];

/** The position of `ev` as a `from` value (resume strictly after it). */
export const fromOf = (ev: Ev) => [{ session: ev.session as string, epoch: 0, seq: ev.seq as number }];

/**
 * A consumer on the WebSocket binding (AEP-0003 §3.5) subscribed with `frame` to `session`, handed to `use` and closed
 * after: nothing when no socket is discovered; a refused subscription is `rule`'s `refused` finding.
 * @throws LimitExceeded when refused `limit-exceeded` (AEP-0003 §6.5)
 */
export async function wsConsumer(
  run: BufferRun,
  rule: LiveRuleId,
  frame: Ev & { id: string },
  session: string,
  use: (ws: WsPeer) => Promise<void>,
): Promise<void> {
  const url = run.socket();
  if (!url) return;
  const ws = await greeted(run, url, 'consumer');
  try {
    const answer = await wsSubscribe(run, ws, frame, session);
    limited(run, answer, 'a WebSocket subscribe', false);
    if (!isFrame('subscribed', frame.id)(answer)) return run.report(rule, 'refused', { got: describeFrame(answer) });
    await use(ws);
  } finally {
    ws.close();
  }
}

/** Wait (within the run's timeout) until the Event `id` has arrived on `ws`. */
export function wsUntil(run: BufferRun, ws: WsPeer, id: unknown): Promise<unknown> {
  return ws.next(0, (f) => !!f && typeof f === 'object' && (f as Ev).id === id, run.opts.timeoutMs);
}
