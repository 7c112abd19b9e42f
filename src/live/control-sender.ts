/** What the control checks of `aep live` share: their options, the run they see, frame tests, and the {@link Sender}. */
import type { MessageArgs } from '../core/message.ts';
import { LiveTimeout, oneLine, type SseMessage, type SseSubscriber, type WireAbort } from './client.ts';
import { floorKeyOfText, limited } from './buffer-run.ts';
import { CredentialsRefused, subscribeRefused } from './credentials.ts';
import { BinaryFrame, WsPeer } from './ws-peer.ts';
import type { LiveCheck, LiveRuleId } from './rules.ts';

/** The control options of {@link ControlRun} (`--control-*`, `--ack-window`). */
export interface ControlOptions {
  /** A session a connected target claims (`--control-session`); the target checks run only with it. */
  session?: string;
  /** Sender-side ack window in ms (`--ack-window`; default the endpoint's `ack_window_ms` at hello, else 10 000). */
  ackWindowMs?: number;
  /** A command type the target declares (`--control-accepts`, default `control.attention.respond`). */
  accepts?: string;
  /** A command type the target does not declare (`--control-undeclared`). */
  undeclared?: string;
  /** A run to cancel for the outcome check (`--control-cancel`; destructive). */
  cancelRun?: string;
  /** The commands' `source`, the sender identity dedupe keys on (`--control-source`). */
  source?: string;
}

/** The command types used when the options name none. */
export const CONTROL_DEFAULTS = {
  accepts: 'control.attention.respond',
  undeclared: 'x.agent-conformance.control.probe',
  source: 'aep://agent-conformance/live/control',
  ackWindowMs: 10_000,
} as const;

/** What a control check reads and reports through (a part of src/live/check.ts's run). */
export interface ControlRun {
  readonly session: string;
  /** The check running now. */
  readonly check: LiveCheck;
  readonly opts: { timeoutMs: number; token?: string; control?: ControlOptions; abort?: WireAbort };
  readonly discovery: { capabilities: Record<string, unknown>; endpoints?: { stream?: string } } | undefined;
  readonly delivered: string[];
  report(id: LiveRuleId, messageId: string, args?: MessageArgs, pointer?: string): void;
  subscribe?(query: Record<string, string>): Promise<SseSubscriber>;
}

/**
 * A frame's text compared as the live checks compare Events (buffer-run.ts floorKey): core attributes and `data`, so a
 * copy a relay re-serialized or gave an extension attribute (AEP-0001 §4.2) is the same Event.
 */
export const canonicalText = floorKeyOfText;

/**
 * Keep the Events of `session` an SSE subscription delivers on `ws` too: acks and outcomes are ordinary session
 * Events (AEP-0004 §2 #2), fanned out on every consuming binding, some endpoints only on SSE.
 */
export async function watchStream(run: ControlRun, session: string, ws: WsPeer): Promise<SseSubscriber | undefined> {
  if (!run.subscribe || !run.discovery?.endpoints?.stream) return undefined;
  const sub = await run.subscribe({ filter: JSON.stringify({ session }) }).catch(() => undefined);
  if (!sub) return undefined;
  const take = (m: SseMessage) => {
    try {
      if (String(asFrame(JSON.parse(m.data))?.type).includes('.')) ws.inject(m.data, true);
    } catch {
      // not JSON: fanout's finding, not an ack
    }
  };
  for (const m of sub.messages) take(m);
  sub.onMessage = take;
  return sub;
}

/** A frame or Event as parsed JSON. */
export type Frame = Record<string, unknown>;
/** `f` when it is a JSON object. */
export const asFrame = (f: unknown): Frame | undefined =>
  f && typeof f === 'object' && !Array.isArray(f) ? (f as Frame) : undefined;
/** The ack Event types (AEP-0004 §3). */
export const ACKS = new Set(['control.accepted', 'control.rejected']);

/** An ack Event or a relay-behalf `error` frame for the command `id` (AEP-0004 §3, §4.2). */
export const decisionOf = (id: string) => (f: unknown) => {
  const o = asFrame(f);
  return !!o && o.cause === id && (ACKS.has(String(o.type)) || o.type === 'error');
};
/** An error frame that names the command `id` as its `id` member, where AEP-0004 §4 #2 puts it in `cause`. */
export const idAsId = (id: string) => (f: unknown) => {
  const o = asFrame(f);
  return !!o && o.type === 'error' && o.id === id && o.cause !== id;
};

/**
 * What arrived on `s` from frame `from` that looks like the answer to the command `id` but is not linked to it by
 * `cause` (AEP-0004 §4 #2: "The relay MUST set `cause` to the command's `id`"), described for a finding; undefined when
 * nothing did. Named so that an operator looks for a correlation bug, not a routing one (trial 13 #6).
 */
export function miscorrelated(s: Sender, from: number, id: string): string | undefined {
  for (const f of s.ws.frames.slice(from)) {
    const o = asFrame(f);
    if (o?.type !== 'error' || o.cause === id) continue;
    const code = `an error frame with code ${JSON.stringify(String(o.code))}`;
    if (o.id === id) return `${code} arrived carrying the command's id as "id", not as "cause"`;
    if (o.cause === undefined) return `${code} arrived with no "cause"`;
    return `${code} arrived with cause ${JSON.stringify(String(o.cause))}, not the command's id`;
  }
  return undefined;
}

/** An ack Event for the command `id`. */
export const isAckEvent = (id: string) => (f: unknown) => {
  const o = asFrame(f);
  return !!o && o.cause === id && ACKS.has(String(o.type));
};

/** A frame as named in a finding. */
export function describe(f: unknown): string {
  if (f instanceof BinaryFrame) return 'a binary frame';
  const o = asFrame(f);
  if (!o) return f === undefined ? 'nothing' : 'a frame that is not a JSON object';
  if (o.type === 'error') return `an error frame with code ${JSON.stringify(String(o.code))}`;
  const reason = asFrame(o.data)?.reason;
  return o.type === 'control.rejected' ? `control.rejected (reason ${JSON.stringify(String(reason))})` : String(o.type);
}

/** The hello frame of a control sender. */
export const HELLO = {
  type: 'hello',
  versions: ['0.1'],
  role: 'both',
  identity: { agent: 'agent-conformance' },
  capabilities: {},
};

/** The endpoint carries control only when its discovery document says so (AEP-0003 §3.4, §4 #5). */
export function notAdvertised(run: ControlRun): string | undefined {
  const c = run.discovery?.capabilities.control;
  return c && typeof c === 'object'
    ? undefined
    : 'the endpoint advertises no control capability (capabilities.control)';
}

/** Why a check that needs credentials cannot run. */
export const NO_TOKEN = 'control flows only on an authenticated duplex (AEP-0004 §4 #1) and no --token was given';

/**
 * Why a check against a target cannot run here, if it cannot. The target declares `control.accepts` in its own hello
 * (AEP-0004 §7), which the endpoint's discovery document need not repeat: `--control-session` is the opt-in.
 */
export function needsTarget(run: ControlRun): string | undefined {
  if (!run.opts.token) return NO_TOKEN;
  return run.opts.control?.session ? undefined : 'no --control-session names a session a connected target claims';
}

let counter = 0;

/** The next number of the run's command ids (unique across the checks). */
export function nextCount(): number {
  return ++counter;
}

/** One open sender: an authenticated (unless `anonymous`) duplex, greeted and subscribed to `session`. */
export class Sender {
  readonly ids: string[] = [];
  window = CONTROL_DEFAULTS.ackWindowMs as number;
  /** The target's declared `control.accepts` where this run can see it (its roster entries, or the endpoint's own emitter hello). */
  declared: { accepts: string[]; by: string } | undefined;
  private sse: SseSubscriber | undefined;

  private constructor(
    readonly run: ControlRun,
    readonly ws: WsPeer,
    readonly session: string,
  ) {}

  /** Open, greet and subscribe; a string when the endpoint refused the subscription (why the check cannot run). */
  static async open(run: ControlRun, url: URL, session: string): Promise<Sender | string> {
    const ws = await WsPeer.open(url, run.opts);
    const s = new Sender(run, ws, session);
    try {
      ws.send(HELLO);
      const h = asFrame(await ws.next(0, (f) => asFrame(f)?.type === 'hello', run.opts.timeoutMs));
      if (!h) throw new LiveTimeout('the hello answer');
      const declared = asFrame(asFrame(h.capabilities)?.control)?.ack_window_ms;
      s.window =
        run.opts.control?.ackWindowMs ??
        (typeof declared === 'number' && declared > 0 ? declared : CONTROL_DEFAULTS.ackWindowMs);
      const at = ws.frames.length;
      ws.send({ type: 'subscribe', id: 'ctl', filter: { session: session } });
      const ok = asFrame(await ws.next(at, (f) => asFrame(f)?.id === 'ctl', run.opts.timeoutMs));
      subscribeRefused(ok, !!run.opts.token);
      if (ok?.type === 'subscribed') {
        // AEP-0004 §3: the window is the target's hello declaration; through a relay, its roster entry relays it
        // (AEP-0003 §4.1 #4), and it decides over the relay's own hello (trial 13 #8)
        const claims = await rosterClaims(run, s);
        if (run.opts.control?.ackWindowMs === undefined) {
          const relayed = claims
            ?.map((e) => asFrame(e?.control)?.ack_window_ms)
            .filter((w): w is number => typeof w === 'number' && w > 0);
          if (relayed?.length) s.window = Math.max(...relayed);
        }
        s.declared = declaredAccepts(h, claims);
        s.sse = await watchStream(run, session, ws);
        return s;
      }
      ws.close();
      if (!ok) throw new LiveTimeout(`the answer to a subscription to session ${session}`);
      // AEP-0003 §6.5: a limit of the endpoint's own, said as every live check says it (buffer-run.ts `limited`);
      // no part of the check was judged before its sender opened, so it is thrown and check.ts skips the check
      limited(run, ok, `a WebSocket subscribe to session ${JSON.stringify(session)}`, false);
      return `the endpoint refused a subscription to session ${JSON.stringify(session)} (${describe(ok)}), so acks cannot be observed`;
    } catch (e) {
      ws.close();
      throw e;
    }
  }

  /** A command Event addressed to this sender's session (no `seq`, AEP-0004 §2 #2). */
  command(type: string, over: Frame = {}): Frame {
    const id = `${this.run.session}-ctl-${nextCount()}`;
    this.ids.push(id);
    const data =
      type === 'control.attention.respond'
        ? { answer: { option: 'agent-conformance-probe' } }
        : type === 'control.cancel'
          ? { scope: 'run' }
          : {};
    // a respond names a request that does not exist, so a target declines it: the probe changes nothing
    const subject = type === 'control.attention.respond' ? { subject: `${this.run.session}-no-request` } : {};
    return {
      aep: '0.1',
      id,
      type,
      time: new Date().toISOString(),
      source: this.run.opts.control?.source ?? CONTROL_DEFAULTS.source,
      agent: 'agent-conformance',
      session: this.session,
      ...subject,
      data,
      ...over,
    };
  }

  /** Wait for the next frame from `from` that `pick` accepts, within `ms`. */
  next(from: number, pick: (f: unknown) => boolean, ms = this.window): Promise<unknown> {
    return this.ws.next(from, pick, ms);
  }

  /** A ping answered: frames sent before the pong have arrived. */
  async barrier(): Promise<void> {
    const at = this.ws.frames.length;
    const t = nextCount();
    this.ws.send({ type: 'ping', t });
    // a pong is only described (AEP-0003 §3.5 #5): without one, a grace of at most 2 s
    const ms = Math.min(this.run.opts.timeoutMs, 2000);
    await this.ws.next(at, (f) => asFrame(f)?.type === 'pong' && asFrame(f)?.t === t, ms);
  }

  /** The distinct frames from `from` that `pick` accepts (compared at the floor, {@link canonicalText}), each as first received. */
  texts(from: number, pick: (f: unknown) => boolean): string[] {
    const out = new Map<string, string>();
    for (let i = from; i < this.ws.frames.length; i++) {
      const text = this.ws.texts[i]!;
      if (pick(this.ws.frames[i]) && !out.has(canonicalText(text))) out.set(canonicalText(text), text);
    }
    return [...out.values()];
  }

  /** Keep the ack and outcome Events linked to this sender's commands, once each, as delivered. */
  keep(): void {
    const ids = new Set(this.ids);
    const seen = new Set(this.run.delivered);
    for (const [i, f] of this.ws.frames.entries()) {
      const o = asFrame(f);
      const text = oneLine(this.ws.texts[i]!);
      if (o && String(o.type).includes('.') && ids.has(String(o.cause)) && !seen.has(text)) {
        seen.add(text);
        this.run.delivered.push(text);
      }
    }
  }

  close(): void {
    this.keep();
    this.ws.close();
    this.sse?.close();
  }
}

/**
 * The target's `control.accepts` (AEP-0004 §4 #2, authoritative): relayed verbatim by its roster entries (AEP-0003 §4.1
 * #4), or declared in the endpoint's own hello when it answers as the `emitter` (the target itself; a relay's hello is
 * not the target's). Undefined where neither shows a list.
 */
function declaredAccepts(hello: Frame, claims: unknown[] | undefined): Sender['declared'] {
  const lists = (claims ?? []).map((e) => asFrame(asFrame(e)?.control)?.accepts).filter(Array.isArray);
  if (lists.length) return { accepts: lists.flat().map(String), by: 'roster entry' };
  const own = asFrame(asFrame(hello.capabilities)?.control)?.accepts;
  if (hello.role === 'emitter' && Array.isArray(own)) return { accepts: own.map(String), by: 'hello' };
  return undefined;
}

/** The roster's entries for the sender's session (undefined: no roster advertised, or no roster answer). */
export async function rosterClaims(
  run: ControlRun,
  s: Sender,
): Promise<(Record<string, unknown> | undefined)[] | undefined> {
  const r = run.discovery?.capabilities.roster;
  if (!r || typeof r !== 'object') return undefined;
  const id = `${run.session}-ctl-roster-${nextCount()}`;
  const at = s.ws.frames.length;
  s.ws.send({ type: 'roster', id });
  const reply = asFrame(await s.next(at, (f) => asFrame(f)?.id === id, run.opts.timeoutMs));
  // no reply, or a malformed one, is aep/live-roster's finding (the roster check)
  if (reply?.type !== 'roster' || !Array.isArray(reply.entries)) return undefined;
  return reply.entries.map(asFrame).filter((e) => e?.session === s.session);
}

/** What the roster says of the session an unanswered command was sent to, for the operator (empty: it says nothing). */
export async function claimOf(run: ControlRun, s: Sender): Promise<string> {
  const claims = await rosterClaims(run, s);
  const n = claims?.length;
  const of = `of session ${JSON.stringify(s.session)}`;
  return n === undefined
    ? ''
    : n
      ? `; the roster names ${n} claimant${n === 1 ? '' : 's'} ${of}`
      : `; the roster names no claimant ${of}`;
}

/** One command {@link sendCommand} sent: its sender, the command, the frame count before it, and its decision. */
export interface Sent {
  s: Sender;
  cmd: Frame;
  id: string;
  from: number;
  /** The first ack or error frame for the command within the wait, as it came (`undefined`: none). */
  decision: unknown;
  /** With no decision: what arrived looking like one but not linked by `cause` ({@link miscorrelated}). */
  seen?: string;
}

/**
 * Open a sender subscribed to `session` (default: the target `--control-session` names), send one `type` command
 * (`over` replaces its members) and await its decision (AEP-0004 §3) for `waitMs` (default: the ack window), then hand
 * it to `check`; the sender is closed after. A reason string when the check cannot run here.
 */
export async function sendCommand(
  run: ControlRun,
  url: URL,
  type: string,
  check: (sent: Sent) => Promise<string | undefined> | string | undefined,
  opts: { session?: string; over?: Frame; waitMs?: (s: Sender) => number } = {},
): Promise<string | undefined> {
  const s = await Sender.open(run, url, opts.session ?? run.opts.control!.session!);
  if (typeof s === 'string') return s;
  try {
    const cmd = s.command(type, opts.over);
    const id = String(cmd.id);
    const from = s.ws.frames.length;
    s.ws.send(cmd);
    // an error frame naming the command as `id` ends the wait too: it is the answer, miscorrelated
    const came = await s.next(from, (f) => decisionOf(id)(f) || idAsId(id)(f), opts.waitMs?.(s));
    const decision = decisionOf(id)(came) ? came : undefined;
    // the run's credentials were refused (AEP-0004 §4 #1): what the endpoint does with an authorized command is unseen
    unauthorized(run, type, decision);
    const seen = decision === undefined ? miscorrelated(s, from, id) : undefined;
    return await check({ s, cmd, id, from, decision, ...(seen ? { seen } : {}) });
  } finally {
    s.close();
  }
}

/**
 * @throws CredentialsRefused when `decision` refuses a command the run sent with its token `unauthorized`: the check is
 * skipped (check.ts), since the answer to an authorized command is not seen.
 */
export function unauthorized(run: ControlRun, type: string, decision: unknown): void {
  const d = asFrame(decision);
  if (d?.type === 'error' && d.code === 'unauthorized')
    throw new CredentialsRefused(
      `the ${type} command on the WebSocket duplex`,
      'refused with an error frame, code "unauthorized"',
      !!run.opts.token,
    );
}
