/**
 * A subscription on either consuming binding (AEP-0003 §3.3 SSE, §6.5 WebSocket) behind one shape, for the checks
 * whose requirement holds on each consuming binding an endpoint offers (§1: attr-match and resume "on the consuming
 * bindings they support"; §6.4: a ceiling on any subscription).
 */
import {
  type Binding,
  type BufferRun,
  describeFrame,
  type Ev,
  greeted,
  isFrame,
  LimitExceeded,
  limited,
  notJudged,
  wsKeep,
  wsMine,
  wsSubscribe,
} from './buffer-run.ts';
import { ForeignEndpoint } from './live-run.ts';
import type { LiveRuleId } from './rules.ts';

export { type Binding, BINDING_NAME, notJudged } from './buffer-run.ts';

/** What a consumer check asks of the run: {@link BufferRun} and whether the discovery document names a stream. */
export interface ConsumeRun extends BufferRun {
  readonly discovery: { endpoints: { stream?: string } } | undefined;
}

/**
 * The consuming bindings the discovery document names, SSE first. A socket on another origin is left out when a
 * stream is named (its checks run over SSE); named alone, it stays, and opening it skips the check naming why.
 */
export function consumingBindings(run: ConsumeRun): Binding[] {
  const out: Binding[] = run.discovery?.endpoints.stream ? ['sse'] : [];
  try {
    if (run.socket()) out.push('ws');
  } catch (e) {
    if (!(e instanceof ForeignEndpoint)) throw e;
    if (!out.length) out.push('ws');
  }
  return out;
}

/**
 * Whether the running check has a WebSocket form to run ({@link consumingBindings}); a socket on another origin left
 * out beside a stream is named as unjudged ({@link notJudged}), so the SSE verdict never reads as the whole check's.
 */
export function socketOffered(run: ConsumeRun): boolean {
  if (consumingBindings(run).includes('ws')) return true;
  try {
    run.socket();
  } catch (e) {
    if (!(e instanceof ForeignEndpoint)) throw e;
    notJudged(run, 'ws', e.message);
  }
  return false;
}

/** One open subscription: this run's Events of its session as delivered, and how to wait for one. */
export interface Consumer {
  readonly binding: Binding;
  /** The Events of the session delivered so far, in arrival order, each with its text as delivered. */
  mine(): { ev: Ev; text: string }[];
  /** Wait, within the run's timeout, until an Event satisfying `pick` has come. */
  until(pick: (ev: Ev) => boolean): Promise<void>;
  /** Record the Events delivered (the run's `delivered`). */
  keep(): void;
  close(): void;
}

/** What a subscription asks: its attr-match filter, a capture ceiling, a `from` (as JSON values). */
export interface Ask {
  filter: Ev;
  capture?: string;
  from?: unknown;
}

/**
 * Subscribe on `binding` to `session` with `ask`. A WebSocket subscribe answered other than `subscribed` is `rule`'s
 * `refused` finding, when one is named (undefined returned); an SSE stream that fails throws as {@link LiveRun.subscribe} does.
 * @throws LimitExceeded when the subscribe is refused `limit-exceeded` (AEP-0003 §6.5: the endpoint's own limit)
 */
export async function consume(
  run: ConsumeRun,
  binding: Binding,
  session: string,
  ask: Ask,
  rule: LiveRuleId | undefined,
  id: string,
): Promise<Consumer | undefined> {
  const frame = { filter: ask.filter, ...(ask.capture ? { capture: ask.capture } : {}) };
  if (binding === 'sse') {
    const sub = await run.subscribe({
      filter: JSON.stringify(ask.filter),
      ...(ask.capture ? { capture: ask.capture } : {}),
      ...(ask.from !== undefined ? { from: JSON.stringify(ask.from) } : {}),
    });
    const mine = () => run.mine(sub, session).map(({ m, ev }) => ({ ev, text: m.data }));
    return {
      binding,
      mine,
      until: async (pick) => void (await sub.until(() => mine().some(({ ev }) => pick(ev)), run.opts.timeoutMs)),
      keep: () => run.keep(sub, session),
      close: () => sub.close(),
    };
  }
  const url = run.socket();
  if (!url) return undefined;
  const ws = await greeted(run, url, 'consumer');
  try {
    const answer = await wsSubscribe(
      run,
      ws,
      { id, ...frame, ...(ask.from !== undefined ? { from: ask.from } : {}) },
      session,
    );
    if (!isFrame('subscribed', id)(answer)) {
      ws.close();
      limited(run, answer, `a WebSocket subscribe ${JSON.stringify(frame)}`, false);
      if (rule) run.report(rule, 'refused', { got: describeFrame(answer, ws.closed), what: JSON.stringify(frame) });
      return undefined;
    }
  } catch (e) {
    ws.close();
    throw e;
  }
  const mine = () => wsMine(run, ws, session);
  return {
    binding,
    mine,
    until: async (pick) =>
      void (await ws.next(
        0,
        (f) => !!f && typeof f === 'object' && (f as Ev).session === session && pick(f as Ev),
        run.opts.timeoutMs,
      )),
    keep: () => wsKeep(run, ws, session),
    close: () => ws.close(),
  };
}

/**
 * AEP-0003 §6.5: `binding` refused a subscription `limit-exceeded` (`e`). Where another binding judged the check, the
 * binding left out is named (aep/live-skipped, info); where none did, `e` is thrown and check.ts skips the check.
 */
export function limitedBinding(run: ConsumeRun, binding: Binding, e: LimitExceeded, judged: boolean): void {
  if (!judged) throw e;
  notJudged(run, binding, e.message);
}

/**
 * The WebSocket form of a check whose SSE form, when SSE is offered, ran before it: refused `limit-exceeded`, only the
 * WebSocket is left out then ({@link limitedBinding}).
 */
export async function overSocket(run: ConsumeRun, ws: () => Promise<void>): Promise<void> {
  try {
    await ws();
  } catch (e) {
    if (!(e instanceof LimitExceeded)) throw e;
    limitedBinding(run, 'ws', e, consumingBindings(run).includes('sse'));
  }
}

/**
 * A subscription with `ask` on each binding the endpoint offers (SSE first: a stream that fails throws before any
 * socket opens), handed to `use` and closed after, whatever it throws. A binding refused `limit-exceeded` is left out
 * ({@link limitedBinding}).
 */
export async function consumeEach(
  run: ConsumeRun,
  session: string,
  ask: Ask,
  rule: LiveRuleId,
  id: string,
  use: (subs: Consumer[]) => Promise<void>,
): Promise<void> {
  const subs: Consumer[] = [];
  try {
    let limited: { b: Binding; e: LimitExceeded } | undefined;
    const bindings = consumingBindings(run);
    if (!bindings.includes('ws')) socketOffered(run);
    for (const b of bindings) {
      try {
        const sub = await consume(run, b, session, ask, rule, id);
        if (sub) subs.push(sub);
      } catch (e) {
        if (!(e instanceof LimitExceeded)) throw e;
        limited = { b, e };
      }
    }
    if (limited) limitedBinding(run, limited.b, limited.e, subs.length > 0);
    if (subs.length) await use(subs);
  } finally {
    for (const s of subs) s.close();
  }
}
