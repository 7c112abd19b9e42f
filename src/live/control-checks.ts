/**
 * The control checks of `aep live` (AEP-0004 §2-§7 over the AEP-0003 §3.5 WebSocket duplex): the authentication gate,
 * the deterministic `no-route` refusal and, against the target `--control-session` names, the ack window, dedupe on
 * `(source, id)`, the `unsupported` nack and (with `--control-cancel RUN`) the cancel outcome. A check returns a reason
 * string when it cannot run here (the caller records it as skipped), nothing when it ran.
 */
import { loadAepRegistry } from '../aep/schema/registry.ts';
import { LiveConnectError, LiveTimeout, type SseSubscriber } from './client.ts';
import { WsPeer } from './ws-peer.ts';
import {
  ACKS,
  claimOf,
  asFrame,
  canonicalText,
  CONTROL_DEFAULTS,
  type ControlRun,
  decisionOf,
  describe,
  HELLO,
  idAsId,
  isAckEvent,
  miscorrelated,
  needsTarget,
  nextCount,
  NO_TOKEN,
  notAdvertised,
  rosterClaims,
  Sender,
  sendCommand,
  unauthorized,
  watchStream,
} from './control-sender.ts';

export { CONTROL_DEFAULTS, type ControlOptions, type ControlRun } from './control-sender.ts';

/** AEP-0004 §4 #1-#2, AEP-0003 §8.1: a command on a duplex opened without credentials is refused and reaches no target. */
export async function controlAuthGate(run: ControlRun, url: URL): Promise<string | undefined> {
  // any duplex is probed, advertised or not: an endpoint that carries control unadvertised must gate it too
  const target = run.opts.control?.session;
  let anon: WsPeer | undefined;
  let claimant: WsPeer | undefined;
  let observer: Sender | undefined;
  let stream: SseSubscriber | undefined;
  try {
    try {
      anon = await WsPeer.open(url, {
        timeoutMs: run.opts.timeoutMs,
        ...(run.opts.abort ? { abort: run.opts.abort } : {}),
      });
    } catch (e) {
      // refused at the upgrade (an HTTP answer, or the connection closed): nothing, control included, flows
      if (e instanceof LiveConnectError && (e.status !== undefined || /reset or closed/.test(e.reason ?? '')))
        return undefined;
      throw e;
    }
    // with a target named, an authenticated observer of its session sees whether the probe reached it
    const watch = target && run.opts.token ? await Sender.open(run, url, target) : undefined;
    if (typeof watch === 'string') return watch;
    observer = watch;
    anon.send(HELLO);
    const h = await anon.next(0, () => true, run.opts.timeoutMs);
    if (asFrame(h)?.type !== 'hello') return undefined;
    const window = run.opts.control?.ackWindowMs ?? observer?.window ?? CONTROL_DEFAULTS.ackWindowMs;
    const type = run.opts.control?.undeclared ?? CONTROL_DEFAULTS.undeclared;
    // no target named: a would-be target of our own, on an unauthenticated duplex too, claims the probe's session
    if (!target) claimant = await anonClaimant(run, url, `${run.session}.anon`, type);
    const probe = {
      aep: '0.1',
      id: `${run.session}-ctl-anon-${nextCount()}`,
      type,
      time: new Date().toISOString(),
      source: run.opts.control?.source ?? CONTROL_DEFAULTS.source,
      agent: 'agent-conformance',
      session: target ?? (claimant ? `${run.session}.anon` : run.session),
      data: {},
    };
    observer?.ids.push(probe.id);
    const from = observer?.ws.frames.length ?? 0;
    // an ack the endpoint fans out only on SSE arrives on `anon` too
    stream = observer ? undefined : await watchStream(run, probe.session, anon);
    anon.send(probe);
    const seen = anon.next(anon.frames.length, decisionOf(probe.id), window);
    const acked = observer?.next(from, isAckEvent(probe.id), window);
    const [answer, ack] = await Promise.all([seen, acked]);
    const reached = ack ?? (ACKS.has(String(asFrame(answer)?.type)) ? answer : undefined);
    if (reached) return void run.report('aep/live-control-auth-gate', 'reached', { got: describe(reached) });
    // any refusal holds the gate, whatever its code (AEP-0004 §4 #2: the sender reads any as the refusal)
    if (claimant) await settled(run, claimant);
    if (claimant?.frames.some((f) => asFrame(f)?.id === probe.id))
      run.report('aep/live-control-auth-gate', 'delivered', { session: probe.session });
    return undefined;
  } finally {
    claimant?.close();
    anon?.close();
    observer?.close();
    stream?.close();
  }
}

/**
 * An emitter connection opened without credentials that declares `type` and claims `session` by sending an Event of
 * it; undefined when the endpoint refuses it (at the upgrade, at hello, or by closing), which leaves nothing to route to.
 */
async function anonClaimant(run: ControlRun, url: URL, session: string, type: string): Promise<WsPeer | undefined> {
  const c = await WsPeer.open(url, { timeoutMs: run.opts.timeoutMs }).catch(() => undefined);
  if (!c) return undefined;
  const identity = { agent: 'agent-conformance', instance: `${run.session}/anon-claimant` };
  c.send({ ...HELLO, role: 'emitter', identity, capabilities: { control: { accepts: [type] } } });
  if (asFrame(await c.next(0, () => true, run.opts.timeoutMs))?.type !== 'hello') {
    c.close();
    return undefined;
  }
  c.send({
    aep: '0.1',
    id: `${session}-claim`,
    type: 'progress.status',
    time: new Date().toISOString(),
    source: `aep://agent-conformance/agent/live/anon-claimant/session/${session}`,
    agent: 'agent-conformance',
    session,
    seq: 0,
    data: { phase: 'claim' },
  });
  await settled(run, c);
  return c;
}

/** AEP-0004 §4 #2, §7, §8: a command to a session no live connection claims gets the `no-route` frame, never an Event. */
export async function controlNoRoute(run: ControlRun, url: URL): Promise<string | undefined> {
  const skip = notAdvertised(run) ?? (run.opts.token ? undefined : NO_TOKEN);
  if (skip) return skip;
  const type = run.opts.control?.undeclared ?? CONTROL_DEFAULTS.undeclared;
  // this run's own session: nothing claims it
  return sendCommand(
    run,
    url,
    type,
    async ({ s, cmd, from, decision, seen }) => {
      const answer = asFrame(decision);
      // a control.rejected Event is the refusal entering the session: 'history' below names it
      if (!answer && seen) run.report('aep/live-control-no-route', 'miscorrelated', { ms: s.window, seen });
      else if (!answer) run.report('aep/live-control-no-route', 'none', { ms: s.window });
      else if (answer.type === 'control.accepted') run.report('aep/live-control-no-route', 'accepted');
      else if (answer.type === 'error' ? answer.code !== 'no-route' : answer.type !== 'control.rejected')
        run.report('aep/live-control-no-route', 'frame', { got: describe(decision) });
      await s.barrier();
      const entered = s.ws.frames
        .slice(from)
        .map(asFrame)
        .find((f) => f && f.cause === cmd.id && String(f.type).includes('.') && f.type !== 'control.accepted');
      if (entered) run.report('aep/live-control-no-route', 'history', { type: String(entered.type) });
      return undefined;
    },
    { session: run.session },
  );
}

/** A ping answered on `ws`: frames sent to it before the pong have arrived (at most 2 s without one, §3.5 #5). */
async function settled(run: ControlRun, ws: WsPeer): Promise<void> {
  const at = ws.frames.length;
  const t = nextCount();
  ws.send({ type: 'ping', t });
  await ws.next(at, (f) => asFrame(f)?.type === 'pong' && asFrame(f)?.t === t, Math.min(run.opts.timeoutMs, 2000));
}

/** AEP-0004 §4 #5: a command to a session two live connections claim is refused `ambiguous` and reaches neither. */
export async function controlAmbiguous(run: ControlRun, url: URL): Promise<string | undefined> {
  const skip = notAdvertised(run) ?? (run.opts.token ? undefined : NO_TOKEN);
  if (skip) return skip;
  const type = run.opts.control?.undeclared ?? CONTROL_DEFAULTS.undeclared;
  const session = `${run.session}.ambiguous`;
  const s = await Sender.open(run, url, session);
  if (typeof s === 'string') return s;
  const claimants: WsPeer[] = [];
  try {
    for (const i of [1, 2]) {
      const c = await WsPeer.open(url, run.opts);
      claimants.push(c);
      const identity = { agent: 'agent-conformance', instance: `${run.session}/claimant-${i}` };
      c.send({ ...HELLO, role: 'emitter', identity, capabilities: { control: { accepts: [type] } } });
      if (!asFrame(await c.next(0, (f) => asFrame(f)?.type === 'hello', run.opts.timeoutMs)))
        throw new LiveTimeout('the hello answer');
      // session identity is emitter-scoped (AEP-0001 §5.2): two sources, one session name, two claims
      const claim = {
        aep: '0.1',
        id: `${session}-claim-${i}`,
        type: 'progress.status',
        time: new Date().toISOString(),
        source: `aep://agent-conformance/agent/live/claimant-${i}/session/${session}`,
        agent: 'agent-conformance',
        session,
        seq: 0,
        data: { phase: 'claim' },
      };
      c.send(claim);
      if ((await s.next(0, (f) => asFrame(f)?.id === claim.id, run.opts.timeoutMs)) === undefined)
        return `an Event a claimant of ${JSON.stringify(session)} sent was not delivered, so its claim is not known to hold`;
    }
    const cmd = s.command(type);
    const from = s.ws.frames.length;
    s.ws.send(cmd);
    const id = String(cmd.id);
    const came = await s.next(from, (f) => decisionOf(id)(f) || idAsId(id)(f));
    const d = decisionOf(id)(came) ? asFrame(came) : undefined;
    unauthorized(run, type, d);
    const seen = d ? undefined : miscorrelated(s, from, id);
    if (!d && seen) run.report('aep/live-control-ambiguous', 'miscorrelated', { ms: s.window, seen });
    else if (!d) run.report('aep/live-control-ambiguous', 'none', { ms: s.window });
    else if (d.type !== 'error' || d.code !== 'ambiguous')
      run.report('aep/live-control-ambiguous', 'frame', { got: describe(d) });
    for (const c of claimants) await settled(run, c);
    if (claimants.some((c) => c.frames.some((f) => asFrame(f)?.id === cmd.id)))
      run.report('aep/live-control-ambiguous', 'delivered');
    return undefined;
  } finally {
    for (const c of claimants) c.close();
    s.close();
  }
}

/** AEP-0004 §3, §7: one ack decision for a declared command type, within the window, never `unsupported`. */
export async function controlAck(run: ControlRun, url: URL): Promise<string | undefined> {
  const skip = needsTarget(run);
  if (skip) return skip;
  const type = run.opts.control?.accepts ?? CONTROL_DEFAULTS.accepts;
  return sendCommand(run, url, type, async ({ s, id, from, decision, seen }) => {
    const d = asFrame(decision);
    if (!d)
      return void run.report('aep/live-control-ack', 'window', {
        type,
        ms: s.window,
        claim: `${seen ? `; ${seen}` : ''}${await claimOf(run, s)}`,
      });
    const reason = asFrame(d.data)?.reason;
    // a type the target does not declare is nacked "unsupported" as AEP-0004 §4 #2 requires: the probe was wrong
    const nacked =
      (d.type === 'error' && d.code === 'unsupported') || (d.type === 'control.rejected' && reason === 'unsupported');
    if (nacked && s.declared && !s.declared.accepts.includes(type))
      return `the target's ${s.declared.by} declares control.accepts ${JSON.stringify(s.declared.accepts)}, which does not list ${type}, so its "unsupported" nack is the one AEP-0004 §4 #2 requires (pass --control-accepts with a declared type)`;
    if (d.type === 'error') {
      if (d.code === 'no-route') run.report('aep/live-control-ack', 'noRoute', { session: s.session });
      else if (d.code === 'unsupported') run.report('aep/live-control-ack', 'unsupported', { type, by: 'the relay' });
      return undefined;
    }
    if (d.type === 'control.rejected' && reason === 'unsupported')
      run.report('aep/live-control-ack', 'unsupported', { type, by: 'the target' });
    else if (d.type === 'control.rejected' && !loadAepRegistry().nackReasons.reasons.includes(String(reason)))
      run.report('aep/live-control-ack', 'reason', { type, reason: String(reason) });
    await s.barrier();
    const n = s.texts(from, isAckEvent(id)).length;
    if (n > 1) run.report('aep/live-control-ack', 'twice', { type, n });
    // deciding a command (an unsupported nack is no decision as a control-capable party) makes the target one
    if (ACKS.has(String(d.type)) && reason !== 'unsupported') await declaredAccepts(run, s, type, decision);
    return undefined;
  });
}

/**
 * AEP-0004 §7 (AEP-0001 §10 #7): the target that decided a `type` command declared `control.accepts` at hello, as its
 * roster entry relays it (AEP-0003 §4.1 #4); only when the endpoint advertises the roster (§4.1 #1: otherwise silence).
 */
async function declaredAccepts(run: ControlRun, s: Sender, type: string, decision: unknown): Promise<void> {
  const claims = await rosterClaims(run, s);
  if (!claims?.length || claims.some((e) => Array.isArray(asFrame(e?.control)?.accepts))) return;
  const text = JSON.stringify(claims[0]!.control);
  const control =
    text === undefined ? 'no control member' : `control ${text.length > 60 ? `${text.slice(0, 60)}...` : text}`;
  run.report('aep/live-control-declared', 'undeclared', {
    type,
    got: describe(decision),
    control,
  });
}

/**
 * AEP-0004 §2 #3, §3: a retransmit (same source and id) gets the recorded ack again, compared at the floor (a relay may
 * re-serialize and add extension attributes, AEP-0001 §4.2). The answer awaited is one that arrives after the retry on
 * the path the first ack came by (this socket, or the SSE stream for an endpoint that fans acks out only there): a late
 * copy of the first ack on the other path is at-least-once redelivery (AEP-0001 §7 #4), not the retry's answer.
 */
export async function controlDedupe(run: ControlRun, url: URL): Promise<string | undefined> {
  const skip = needsTarget(run);
  if (skip) return skip;
  const type = run.opts.control?.accepts ?? CONTROL_DEFAULTS.accepts;
  // a late first ack is control-ack's finding; here it only has to come
  const waitMs = (s: Sender) => Math.max(s.window, run.opts.timeoutMs);
  return sendCommand(
    run,
    url,
    type,
    async ({ s, cmd, id, decision: first }) => {
      if (!isAckEvent(id)(first))
        return `the first delivery got ${describe(first)}, not an ack Event from the target, so there is no recorded ack to re-emit`;
      const firstAt = s.ws.frames.indexOf(first);
      const recorded = canonicalText(s.ws.texts[firstAt]!);
      const carried = s.ws.carried.has(firstAt);
      // the copies of the first ack this socket carries have arrived before the retry goes out
      await s.barrier();
      const at = s.ws.frames.length;
      s.ws.send(cmd);
      const fresh = (i: number) => canonicalText(s.ws.texts[i]!) !== recorded;
      const answer = (f: unknown) => {
        if (!isAckEvent(id)(f)) return false;
        const i = s.ws.frames.indexOf(f, at);
        return fresh(i) || s.ws.carried.has(i) === carried;
      };
      const again = await s.next(at, answer);
      if (again === undefined) return void run.report('aep/live-control-dedupe', 'unanswered', { id, ms: s.window });
      await s.barrier();
      const other = s.texts(at, isAckEvent(id)).filter((t) => canonicalText(t) !== recorded);
      if (other.length) {
        const o = asFrame(JSON.parse(other[0]!))!;
        const was = asFrame(first)!;
        run.report('aep/live-control-dedupe', 'fresh', {
          id,
          what:
            o.id === was.id
              ? `the same ack id ${JSON.stringify(String(o.id))} with other content`
              : `a new ack Event ${JSON.stringify(String(o.id))}`,
        });
      }
      return undefined;
    },
    { waitMs },
  );
}

/** AEP-0004 §4 #2, AEP-0003 §4 #5: an undeclared command type is nacked `unsupported` (by the target or the relay). */
export async function controlUnsupported(run: ControlRun, url: URL): Promise<string | undefined> {
  const skip = needsTarget(run);
  if (skip) return skip;
  const type = run.opts.control?.undeclared ?? CONTROL_DEFAULTS.undeclared;
  return sendCommand(run, url, type, ({ s, decision, seen }) => {
    const d = asFrame(decision);
    const ok =
      (d?.type === 'control.rejected' && asFrame(d.data)?.reason === 'unsupported') ||
      (d?.type === 'error' && d.code === 'unsupported');
    const got = d || !seen ? describe(d) : `nothing linked to it by cause (${seen})`;
    if (!ok) run.report('aep/live-control-unsupported', 'got', { type, got, ms: s.window });
    return undefined;
  });
}

/** AEP-0004 §5-§7 (opt-in, destructive): a cancel of the named run is accepted and one cause-linked run.cancelled follows. */
export async function controlCancel(run: ControlRun, url: URL): Promise<string | undefined> {
  const skip =
    needsTarget(run) ??
    (run.opts.control?.cancelRun ? undefined : 'no --control-cancel names a run to cancel (destructive, opt-in)');
  if (skip) return skip;
  const target = run.opts.control!.cancelRun!;
  const over = { run: target };
  return sendCommand(
    run,
    url,
    'control.cancel',
    async ({ s, id, from, decision }) => {
      const d = asFrame(decision);
      // the target MAY refuse (AEP-0004 §2 #4; `refused` is a non-error outcome, §3): then there is no outcome to check
      if (d?.type === 'control.rejected' || d?.type === 'error')
        return `the control.cancel was declined (${describe(d)}), which a target or relay may do, so no run.cancelled is owed`;
      if (d?.type !== 'control.accepted')
        return void run.report('aep/live-control-cancel', 'notAccepted', { run: target, got: describe(d) });
      s.ids.push(String(d.id));
      // the outcome may come later than the ack (AEP-0004 §1): the longer of the window and --timeout
      const ms = Math.max(s.window, run.opts.timeoutMs);
      const outcome = (f: unknown) => {
        const o = asFrame(f);
        return !!o && o.type === 'run.cancelled' && (o.cause === id || o.cause === d.id);
      };
      if ((await s.next(from, outcome, ms)) === undefined)
        return void run.report('aep/live-control-cancel', 'noOutcome', { run: target, ms });
      await s.barrier();
      const n = s.texts(from, outcome).length;
      if (n > 1) run.report('aep/live-control-cancel', 'twice', { n });
      return undefined;
    },
    { over },
  );
}
