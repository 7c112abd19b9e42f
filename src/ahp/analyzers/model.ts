import type { MessageTemplates } from '../../core/message.ts';
import { defineStreamRule, type FactRule, type StreamModel } from '../../core/engine.ts';
import { type Mark, markOf } from '../../core/mark.ts';
import type { AhpMessage } from '../message.ts';
import { CapLog } from '../../core/caps.ts';
import { StateBudget } from '../../core/state-budget.ts';
import { EventBudget, type AhpCapLog } from './budget.ts';
import { ChangeLineage } from './changes.ts';
import { Configuration } from './config.ts';
import { Correlation, idKey } from './correlation.ts';
import { Decisions } from './decisions.ts';
import { Discovery, manifestFacts } from './discovery.ts';
import { EditContext } from './edit-context.ts';
import { Elicitation } from './elicitation.ts';
import { EventRows } from './event-rows.ts';
import { EventIdentity } from './identity.ts';
import { EVENT_U32 } from './identity-rows.ts';
import { Lineage } from './lineage.ts';
import { Observations } from './observations.ts';
import { Occurrences } from './occurrences.ts';
import type { AhpStreamOptions } from './options.ts';
import { MessageScope } from './scope.ts';
import { SessionOrder } from './session-order.ts';
import { CallOrder } from './call-order.ts';
import { clearEventFacts, emptyEventFacts, FACT_BITS, presenceOf, type AhpFacts } from './facts.ts';

export type { AhpFacts, EventFacts } from './facts.ts';
import { isObj } from '../../core/value.ts';

/** The analyzers of one run, as stream rules read them (read-only use). */
export interface AhpStreamState {
  readonly correlation: Correlation;
  /** The event rows the identity, lineage, elicitation and decisions analyzers extend. */
  readonly rows: EventRows;
  readonly identity: EventIdentity;
  readonly lineage: Lineage;
  readonly elicitation: Elicitation;
  readonly editContext: EditContext;
  readonly config: Configuration;
  readonly changes: ChangeLineage;
  readonly decisions: Decisions;
  readonly discovery: Discovery;
  readonly occurrences: Occurrences;
  readonly observations: Observations;
  readonly sessionOrder: SessionOrder;
  readonly callOrder: CallOrder;
  readonly caps: AhpCapLog;
  readonly memory: StateBudget;
  /** The last line of the stream so far that gave no message (framing): README §Decisions on unreadable lines. */
  unreadable: Mark | undefined;
}

/** An AHP stream rule: a stateless verdict over {@link AhpFacts} and the run's {@link AhpStreamState}. */
export type AhpStreamRule<M extends MessageTemplates = MessageTemplates> = FactRule<AhpFacts, AhpStreamState, M>;

/** Define an AHP stream rule; keeps the literal type of `id` (for `AhpStreamRuleId`) and of its templates. */
export function defineAhpStreamRule<const Id extends string, const M extends MessageTemplates>(
  rule: AhpStreamRule<M> & { id: Id; messages: M },
): AhpStreamRule<M> & { id: Id; messages: M } {
  return defineStreamRule<AhpFacts, AhpStreamState, Id, M>(rule);
}

/** The AHP stream model of one run: only messages whose JSON-RPC shape is valid reach it. */
export class AhpStreamModel implements StreamModel<AhpMessage, AhpFacts, AhpStreamState> {
  readonly state: AhpStreamState;
  readonly factBits = FACT_BITS;
  /** The facts, event facts and scope of the message observed, reused: rules read them before the next and keep none. */
  private readonly facts: AhpFacts = {
    msg: undefined as unknown as AhpMessage,
    event: undefined,
    response: undefined,
    effects: undefined,
    advertisement: undefined,
    manifest: undefined,
    idPending: undefined,
  };
  private readonly eventFacts = emptyEventFacts();
  private readonly scope: MessageScope;

  presence(f: AhpFacts): number {
    return presenceOf(f);
  }

  constructor(opts: AhpStreamOptions) {
    const caps: AhpCapLog = new CapLog();
    const budget = new EventBudget(opts, caps);
    const rows = new EventRows(budget, EVENT_U32.count);
    const identity = new EventIdentity(rows);
    const correlation = new Correlation(budget, (id) => identity.notifiedAt(id));
    const lineage = new Lineage(identity, budget);
    const elicitation = new Elicitation(identity);
    const decisions = new Decisions(identity, budget);
    // --max-events: answered ids are forgotten before events; unresolved parents only count
    budget.register(correlation);
    budget.register(rows);
    budget.register(lineage);
    const occurrences = new Occurrences(budget);
    const observations = new Observations(budget);
    const sessionOrder = new SessionOrder(budget);
    const callOrder = new CallOrder(budget);
    // --max-state-mb: answered ids, then checked forms and remembered requests, then tool calls, boundary and
    // discarded-edit records, then event rows
    const memory = new StateBudget(opts.maxStateMb);
    memory.register(correlation);
    memory.register(elicitation);
    memory.register(decisions);
    memory.register(occurrences);
    memory.register(observations);
    memory.register(sessionOrder);
    memory.register(callOrder);
    memory.register(rows);
    memory.register(lineage);
    this.state = {
      correlation,
      rows,
      identity,
      lineage,
      elicitation,
      editContext: new EditContext(identity, elicitation),
      config: new Configuration(identity, decisions),
      changes: new ChangeLineage(identity),
      decisions,
      discovery: new Discovery(),
      occurrences,
      observations,
      sessionOrder,
      callOrder,
      caps,
      memory,
      unreadable: undefined,
    };
    this.scope = new MessageScope(rows);
  }

  /** A line of the stream at `at` gave no message (framing): verdicts of absence after it are not verified. */
  unreadable(at: Mark): void {
    this.state.unreadable = at;
    this.state.correlation.unreadableLine(at);
  }

  /** A request of a method AHP does not define (never observed: ahp/method): its answer is then not unmatched. */
  otherRequest(msg: AhpMessage): void {
    if (typeof msg.value.method === 'string' && Object.hasOwn(msg.value, 'id'))
      this.state.correlation.otherRequest(msg, markOf(msg));
  }

  observe(msg: AhpMessage): AhpFacts {
    const {
      identity,
      lineage,
      config,
      changes,
      elicitation,
      correlation,
      editContext,
      decisions,
      discovery,
      occurrences,
      observations,
      sessionOrder,
      callOrder,
    } = this.state;
    // every member made once, absent ones undefined: one object shape, no property array grown after it
    identity.rows.beginMessage();
    const facts = this.facts;
    facts.msg = msg;
    facts.event = undefined;
    facts.response = undefined;
    facts.effects = undefined;
    facts.advertisement = undefined;
    facts.manifest = undefined;
    facts.idPending = undefined;
    const at = markOf(msg);
    const ev = msg.event;
    // the event's scope, when it has an identity (the request's record keeps its key)
    let scope: MessageScope | undefined;
    if (
      (msg.kind === 'intercept-request' || msg.kind === 'observe-notification') &&
      ev &&
      typeof ev.source === 'string' &&
      typeof ev.id === 'string' &&
      typeof ev.type === 'string'
    ) {
      const e = clearEventFacts(this.eventFacts);
      scope = this.scope.open(msg, ev, at);
      const observedAt = msg.kind === 'intercept-request' ? decisions.observedOnly(scope.key) : undefined;
      identity.observe(scope, e, msg.kind === 'intercept-request' && correlation.surelyAwaiting(msg));
      // an id reused by another event (ahp/event-id-reuse) is not this event's interception; an observation in another
      // input may be another backend's capture, whose order against this one no input shows
      if (
        observedAt &&
        observedAt.file === at.file &&
        !e.first &&
        (e.reuse === undefined || e.reuse.kind === 'unverifiable')
      )
        e.observedFirst = observedAt;
      if (e.first) {
        occurrences.firstOccurrence(scope, at, e);
        sessionOrder.firstOccurrence(scope, at, e);
        callOrder.firstOccurrence(scope, at, e);
        lineage.firstOccurrence(scope, e);
        if (scope.parentKey !== undefined) {
          config.firstOccurrence(scope, e);
          changes.firstOccurrence(scope, e);
        }
        if (e.lateChildren !== undefined) changes.lateParent(scope, e.lateChildren, e);
      }
      decisions.observeEvent(scope, e);
      elicitation.observeEvent(scope, e);
      const sc = scope;
      if (msg.kind === 'observe-notification') observations.observed(ev, sc.key, () => sc.body(), e);
      facts.event = e;
      // the manifest session.start carries is the harness's manifest too (execution-payloads.md; capability-auth.md)
      if (e.first && ev.type === 'session.start' && isObj(ev.manifest))
        facts.manifest = manifestFacts(ev.manifest, '/params/event/manifest');
    }
    if (msg.kind === 'observe-notification') correlation.notification(at);
    else if (msg.kind === 'intercept-request' || msg.kind === 'capabilities-request') {
      const rec = correlation.request(msg, at, scope?.key);
      facts.idPending = correlation.takeIdPending();
      if (rec?.method === 'hooks/intercept' && ev && typeof ev.type === 'string') {
        rec.host = editContext.hostContext(msg, ev, scope, rec);
        facts.advertisement = discovery.request(msg, ev.type);
      }
    }
    if (msg.kind === 'response' || msg.kind === 'error-response') {
      const r = correlation.response(msg, at);
      facts.response = r;
      const result = isObj(msg.value.result) ? msg.value.result : undefined;
      const link = r.link;
      if (result && link.status === 'matched') {
        const pend = link.request;
        if (!link.mismatch && pend.method === 'hooks/intercept' && pend.host && Array.isArray(result.effects)) {
          const fx = editContext.judge(result.effects, pend, pend.host);
          facts.effects = fx;
          // a valid response after a hook.failure of its event is late: the harness ignores it (base/failure.md §Deadlines)
          const late = fx.outcome.accepted && decisions.settledByFailure(pend.eventKey);
          observations.response(
            result.effects,
            late ? 'late' : fx.outcome.accepted ? 'accepted' : 'rejected',
            pend.eventKey,
            pend.host.event,
            pend.host.current,
            at,
          );
          if (fx.outcome.accepted) decisions.acceptedResponse(result.effects, pend.eventKey, at);
          else decisions.failedResponse(pend.eventKey, at);
        } else if (pend.method === 'hooks/intercept' && (link.mismatch || !Array.isArray(result.effects)))
          decisions.failedResponse(pend.eventKey, at);
        if (pend.method === 'hooks/capabilities' && isObj(result.manifest)) {
          elicitation.modes.readManifest(result.manifest, at);
          facts.manifest = discovery.readManifest(result.manifest, at);
        }
      } else if (msg.kind === 'error-response' && link.status === 'matched') {
        // any JSON-RPC error is an operational failure (base/errors.md)
        if (link.request.method === 'hooks/intercept') decisions.failedResponse(link.request.eventKey, at);
      } else if (
        result &&
        isObj(result.manifest) &&
        (link.status === 'unmatched' ||
          link.status === 'uncorrelatable' ||
          link.status === 'exchange' ||
          link.status === 'untracked' ||
          (link.status === 'unverifiable' && link.of === 'unmatched')) &&
        idKey(msg) !== undefined
      ) {
        elicitation.modes.readManifest(result.manifest, at);
        facts.manifest = discovery.readManifest(result.manifest, at);
      }
    }
    elicitation.endMessage();
    if (this.state.memory.settle() > 0) noteStateCap(this.state, at);
    return facts;
  }
}

/** `--max-state-mb` forgot state at `at` (apart from observe: its closure would cost a context on every message). */
function noteStateCap(state: AhpStreamState, at: Mark): void {
  state.caps.note('maxStateMb', state.memory.mb, () => at);
}
