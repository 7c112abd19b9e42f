import type { MessageTemplates } from '../../core/message.ts';
import { defineStreamRule, type FactRule, type StreamModel } from '../../core/engine.ts';
import { type Mark, markOf } from '../../core/mark.ts';
import type { AhpMessage } from '../message.ts';
import { CapLog } from '../../core/caps.ts';
import { StateBudget } from '../../core/state-budget.ts';
import { EventBudget, type AhpCapLog } from './budget.ts';
import { ChangeLineage, type ChangeFacts } from './changes.ts';
import { Configuration, type ConfigFacts } from './config.ts';
import { Correlation, idKey, type ResponseFacts } from './correlation.ts';
import { Decisions, type DecisionFacts } from './decisions.ts';
import { Discovery, type AdvertisementFacts, type ManifestFacts } from './discovery.ts';
import { EditContext, type EffectsFacts } from './edit-context.ts';
import { Elicitation, type ElicitationFacts } from './elicitation.ts';
import { EventRows } from './event-rows.ts';
import { EventIdentity, type IdentityFacts } from './identity.ts';
import { EVENT_U32 } from './identity-rows.ts';
import { Lineage, type LineageFacts } from './lineage.ts';
import { Observations, type ObservationFacts } from './observations.ts';
import { Occurrences, type OccurrenceFacts } from './occurrences.ts';
import type { AhpStreamOptions } from './options.ts';
import { MessageScope } from './scope.ts';
import { isObj } from '../../core/value.ts';

/** Facts about the event of an intercept request or observe notification, by analyzer. */
export type EventFacts = IdentityFacts &
  LineageFacts &
  ChangeFacts &
  ConfigFacts &
  ElicitationFacts &
  DecisionFacts &
  OccurrenceFacts &
  ObservationFacts;

/** Facts about one message, computed once against the state before it. */
export interface AhpFacts {
  msg: AhpMessage;
  event?: EventFacts;
  response?: ResponseFacts;
  /**
   * A matched intercept success whose request has usable capabilities: its effects applied in the request's host
   * context.
   */
  effects?: EffectsFacts;
  /** A new intercept request whose advertisement claims more than it may (discovery.ts). */
  advertisement?: AdvertisementFacts;
  /** A capabilities manifest of a response (discovery.ts). */
  manifest?: ManifestFacts;
}

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
  readonly caps: AhpCapLog;
  readonly memory: StateBudget;
}

/** An AHP stream rule: a stateless verdict over {@link AhpFacts} and the run's {@link AhpStreamState}. */
export type AhpStreamRule = FactRule<AhpFacts, AhpStreamState>;

/** Define an AHP stream rule; keeps the literal type of `id` (for `AhpStreamRuleId`). */
export function defineAhpStreamRule<const Id extends string>(
  rule: AhpStreamRule & { id: Id; messages: MessageTemplates },
): AhpStreamRule & { id: Id; messages: MessageTemplates } {
  return defineStreamRule<AhpFacts, AhpStreamState, Id>(rule);
}

/** The facts a stream rule can be gated `on`, one bit each (see {@link AhpStreamModel.presence}). */
const FACT_BITS = {
  response: 1,
  effects: 2,
  reuse: 4,
  cycle: 8,
  configAfterDenied: 16,
  changeAfterMismatch: 32,
  pair: 64,
  content: 128,
  mode: 256,
  deniedCallRan: 512,
  failedCallRan: 1024,
  callMismatch: 2048,
  parentIsCall: 4096,
  changeAfterDenied: 8192,
  interceptAfterDenial: 16384,
  advertisement: 32768,
  manifest: 65536,
  occurrence: 131072,
  leak: 262144,
} as const;

/** The AHP stream model of one run: only messages whose JSON-RPC shape is valid reach it. */
export class AhpStreamModel implements StreamModel<AhpMessage, AhpFacts, AhpStreamState> {
  readonly state: AhpStreamState;
  readonly factBits = FACT_BITS;

  presence(f: AhpFacts): number {
    const e = f.event;
    return (
      (f.response !== undefined ? FACT_BITS.response : 0) |
      (f.effects !== undefined ? FACT_BITS.effects : 0) |
      (f.advertisement !== undefined ? FACT_BITS.advertisement : 0) |
      (f.manifest !== undefined ? FACT_BITS.manifest : 0) |
      (e === undefined
        ? 0
        : (e.reuse !== undefined ? FACT_BITS.reuse : 0) |
          (e.cycle !== undefined ? FACT_BITS.cycle : 0) |
          (e.configAfterDenied !== undefined ? FACT_BITS.configAfterDenied : 0) |
          (e.changeAfterMismatch !== undefined ? FACT_BITS.changeAfterMismatch : 0) |
          (e.pair !== undefined ? FACT_BITS.pair : 0) |
          (e.content !== undefined ? FACT_BITS.content : 0) |
          (e.mode !== undefined ? FACT_BITS.mode : 0) |
          (e.deniedCallRan !== undefined ? FACT_BITS.deniedCallRan : 0) |
          (e.failedCallRan !== undefined ? FACT_BITS.failedCallRan : 0) |
          (e.callMismatch !== undefined ? FACT_BITS.callMismatch : 0) |
          (e.parentIsCall !== undefined ? FACT_BITS.parentIsCall : 0) |
          (e.changeAfterDenied !== undefined ? FACT_BITS.changeAfterDenied : 0) |
          (e.interceptAfterDenial !== undefined ? FACT_BITS.interceptAfterDenial : 0) |
          (e.occurrence !== undefined ? FACT_BITS.occurrence : 0) |
          (e.leak !== undefined ? FACT_BITS.leak : 0))
    );
  }

  constructor(opts: AhpStreamOptions) {
    const caps: AhpCapLog = new CapLog();
    const budget = new EventBudget(opts, caps);
    const rows = new EventRows(budget, EVENT_U32.count);
    const identity = new EventIdentity(rows);
    const correlation = new Correlation(budget);
    const lineage = new Lineage(identity, budget);
    const elicitation = new Elicitation(identity);
    const decisions = new Decisions(identity, budget);
    // --max-events: answered ids are forgotten before events; unresolved parents only count
    budget.register(correlation);
    budget.register(rows);
    budget.register(lineage);
    const occurrences = new Occurrences(budget);
    const observations = new Observations(budget);
    // --max-state-mb: answered ids, then checked forms and remembered requests, then tool calls, boundary and
    // discarded-edit records, then event rows
    const memory = new StateBudget(opts.maxStateMb);
    memory.register(correlation);
    memory.register(elicitation);
    memory.register(decisions);
    memory.register(occurrences);
    memory.register(observations);
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
      caps,
      memory,
    };
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
    } = this.state;
    // every member made here, absent ones undefined: one object shape, no property array grown after it
    const facts: AhpFacts = {
      msg,
      event: undefined,
      response: undefined,
      effects: undefined,
      advertisement: undefined,
      manifest: undefined,
    };
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
      // every analyzer's member made here: one object shape for the rules' reads
      const e: EventFacts = {
        first: false,
        reuse: undefined,
        cycle: undefined,
        configAfterDenied: undefined,
        changeAfterMismatch: undefined,
        pair: undefined,
        content: undefined,
        mode: undefined,
        deniedCallRan: undefined,
        failedCallRan: undefined,
        callMismatch: undefined,
        parentIsCall: undefined,
        changeAfterDenied: undefined,
        interceptAfterDenial: undefined,
        occurrence: undefined,
        leak: undefined,
      };
      scope = new MessageScope(msg, ev, at, this.state.rows);
      identity.observe(scope, e);
      if (e.first) {
        occurrences.firstOccurrence(ev, at, e);
        lineage.firstOccurrence(scope, e);
        if (scope.parentKey !== undefined) {
          config.firstOccurrence(scope, e);
          changes.firstOccurrence(scope, e);
        }
      }
      decisions.observeEvent(scope, e);
      elicitation.observeEvent(scope, e);
      if (msg.kind === 'observe-notification') observations.observed(ev, scope.key, e);
      facts.event = e;
    }
    if (msg.kind === 'intercept-request' || msg.kind === 'capabilities-request') {
      const rec = correlation.request(msg, at, scope?.key);
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
          observations.response(
            result.effects,
            fx.outcome.accepted,
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
          elicitation.readManifest(result.manifest, at);
          facts.manifest = discovery.readManifest(result.manifest, at);
        }
      } else if (msg.kind === 'error-response' && link.status === 'matched') {
        // any JSON-RPC error is an operational failure (base/errors.md)
        if (link.request.method === 'hooks/intercept') decisions.failedResponse(link.request.eventKey, at);
      } else if (
        result &&
        isObj(result.manifest) &&
        (link.status === 'unmatched' || link.status === 'uncorrelatable' || link.status === 'untracked') &&
        idKey(msg) !== undefined
      ) {
        elicitation.readManifest(result.manifest, at);
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
