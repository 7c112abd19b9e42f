/**
 * The AEP stream model: the analyzers in fixed order filling one AepFacts per event. A redelivery, or an emitter's event
 * colliding under an earlier `(source, id)`, stops after identity (AEP-0001 §7.4: a consumer dedupes it); a refused event
 * with a trustworthy `(source, id)` reaches identity only.
 */
import { StateBudget } from '../../core/state-budget.ts';
import { CapLog } from '../../core/caps.ts';
import type { FactRule, StreamModel } from '../../core/engine.ts';
import { markOf, type Mark } from '../../core/mark.ts';
import { attr, scopeOf, type AepEvent, type AepScope } from '../event.ts';
import { OpenBudget, type AepCapLog } from './budget.ts';
import { AssessmentAnalyzer, type AssessmentFacts } from './assessment.ts';
import { AttentionAnalyzer, type AttentionFacts } from './attention.ts';
import { ControlAnalyzer, type ControlFacts } from './control.ts';
import { FormValuesAnalyzer, type FormFacts } from './form-values.ts';
import { IdentityAnalyzer } from './identity.ts';
import type { IdentityFacts } from './identity-facts.ts';
import { LifecycleAnalyzer, type LifecycleFacts } from './lifecycle.ts';
import { CompletionMarks } from './markers.ts';
import type { AepStreamOptions } from './options.ts';
import { OrderingAnalyzer, type OrderFacts } from './ordering.ts';
import { StreamAnalyzer, type StreamFacts } from './streams.ts';
import { UnitAnalyzer, type UnitFacts } from './units.ts';

/** Facts every analyzer after identity shares: the event's scope class (AEP-0001 §5.2) and its mark, decided once. */
export interface EventKeys {
  scope: AepScope;
  at: Mark;
}

/** One event's facts, a part per analyzer; a redelivery's carry only `ev` and `redelivery`. */
export type AepFacts = { ev: AepEvent } & Partial<EventKeys> &
  IdentityFacts &
  LifecycleFacts &
  OrderFacts &
  AttentionFacts &
  UnitFacts &
  FormFacts &
  ControlFacts &
  AssessmentFacts &
  StreamFacts & {
    /**
     * The last line of the stream before this event that gave no event (framing): verdicts that an event is absent are
     * then not given (README §Decisions on unreadable lines).
     */
    unreadable?: Mark;
  };

/** The facts a stream rule can be gated `on`, one bit each (see {@link AepStreamModel.presence}). */
const FACT_BITS = {
  redelivery: 1,
  collision: 2,
  unverifiable: 4,
  runTerminal: 8,
  sessionEnded: 16,
  order: 32,
  endedWithOpen: 64,
  attention: 128,
  form: 256,
  ack: 512,
  endorsesInvalid: 1024,
  secondTarget: 2048,
  outcome: 4096,
  rejectedMatched: 8192,
  overdue: 16384,
  assessedElsewhere: 32768,
  splitLeak: 65536,
  finishedCause: 131072,
  messageCause: 262144,
  answeredLate: 524288,
  unitTerminal: 1048576,
  streamReused: 2097152,
  respondIssues: 4194304,
  splitHome: 8388608,
  splitPii: 16777216,
  timeoutAnswered: 33554432,
  earlyAck: 67108864,
} as const satisfies Partial<Record<keyof AepFacts, number>>;

/** Every member present from the start, so all facts share one shape and presence() and the rules stay monomorphic. */
class FactsRecord implements AepFacts {
  scope: AepScope | undefined = undefined;
  private mark: Mark | undefined = undefined;
  redelivery: Mark | undefined = undefined;
  downleveledFrom: AepFacts['downleveledFrom'] = undefined;
  downleveledTo: AepFacts['downleveledTo'] = undefined;
  extensionsAdded: AepFacts['extensionsAdded'] = undefined;
  extensionsOnFirst: AepFacts['extensionsOnFirst'] = undefined;
  collision: Mark | undefined = undefined;
  unverifiable: Mark | undefined = undefined;
  unverifiableWhy: AepFacts['unverifiableWhy'] = undefined;
  withheldCopy: AepFacts['withheldCopy'] = undefined;
  session: AepFacts['session'] = undefined;
  seq: bigint | undefined = undefined;
  epoch: bigint | undefined = undefined;
  seqC: AepFacts['seqC'] = undefined;
  epochC: AepFacts['epochC'] = undefined;
  runTerminal: AepFacts['runTerminal'] = undefined;
  sessionEnded: Mark | undefined = undefined;
  endsSession: boolean | undefined = undefined;
  order: AepFacts['order'] = undefined;
  endedWithOpen: AepFacts['endedWithOpen'] = undefined;
  requested: AepFacts['requested'] = undefined;
  attention: AepFacts['attention'] = undefined;
  unitTerminal: AepFacts['unitTerminal'] = undefined;
  streamReused: AepFacts['streamReused'] = undefined;
  form: AepFacts['form'] = undefined;
  ack: AepFacts['ack'] = undefined;
  endorsesInvalid: Mark | undefined = undefined;
  respondIssues: AepFacts['respondIssues'] = undefined;
  secondTarget: AepFacts['secondTarget'] = undefined;
  outcome: AepFacts['outcome'] = undefined;
  rejectedMatched: AepFacts['rejectedMatched'] = undefined;
  earlyAck: AepFacts['earlyAck'] = undefined;
  overdue: AepFacts['overdue'] = undefined;
  assessedElsewhere: AepFacts['assessedElsewhere'] = undefined;
  answeredLate: AepFacts['answeredLate'] = undefined;
  timeoutAnswered: AepFacts['timeoutAnswered'] = undefined;
  splitLeak: AepFacts['splitLeak'] = undefined;
  splitHome: AepFacts['splitHome'] = undefined;
  splitPii: AepFacts['splitPii'] = undefined;
  finishedCause: AepFacts['finishedCause'] = undefined;
  messageCause: AepFacts['messageCause'] = undefined;

  constructor(
    readonly ev: AepEvent,
    readonly unreadable: Mark | undefined,
  ) {}

  /** The event's mark once the analyzers after identity run, made on first read (most events' is never read). */
  get at(): Mark | undefined {
    return this.scope === undefined ? undefined : (this.mark ??= markOf(this.ev));
  }
}

/** The analyzers of one run, as stream rules read them (end of input, `aep/state-cap`, `aep/ack-window`). */
export interface AepStreamState {
  readonly options: Readonly<AepStreamOptions>;
  readonly caps: AepCapLog;
  readonly budget: OpenBudget;
  /** Input names and compact marks of completed work (run, request and other unit terminals, acks). */
  readonly marks: CompletionMarks;
  readonly identity: IdentityAnalyzer;
  readonly lifecycle: LifecycleAnalyzer;
  readonly ordering: OrderingAnalyzer;
  readonly attention: AttentionAnalyzer;
  /** Tool calls, steps, subagents, plan items, retrievals and streams: their terminals. */
  readonly units: UnitAnalyzer;
  readonly forms: FormValuesAnalyzer;
  readonly control: ControlAnalyzer;
  readonly assessment: AssessmentAnalyzer;
  /** AEP-0007 streams (`--profile aep-0007`). */
  readonly streams: StreamAnalyzer;
  readonly memory: StateBudget;
  /** The last line of the stream that gave no event (framing), if any: {@link AepFacts.unreadable}. */
  unreadable: Mark | undefined;
}

/** Sizes of the stream state held now (tests and diagnostics). */
export interface AepStreamStats {
  /** Open work counted against `maxOpen`: open runs, open attention requests, commands awaiting their ack. */
  open: number;
  /** `(source, session)` records held in full (live sessions, and ended ones with open work). */
  sessions: number;
  /** Ended sessions kept as compact entries (their `session.ended` and ordering mark). */
  endedSessions: number;
  markers: number;
  ids: number;
}

/** The sizes of `state` now. On a stream whose sessions all ended and whose work all completed, `open` and `sessions` are 0. */
export function aepStreamStats(state: AepStreamState): AepStreamStats {
  return {
    open: state.budget.open,
    sessions: state.lifecycle.size,
    endedSessions: state.lifecycle.endedSize,
    markers: state.marks.size,
    ids: state.identity.size,
  };
}

/** The AEP stream analyzers of one run. */
export class AepStreamModel implements StreamModel<AepEvent, AepFacts, AepStreamState> {
  readonly state: AepStreamState;

  constructor(options: AepStreamOptions) {
    const caps: AepCapLog = new CapLog();
    const identity = new IdentityAnalyzer(options.maxIds, caps, options.profile, options.spillRows);
    const budget = new OpenBudget(options.maxOpen, caps);
    const marks = new CompletionMarks(options.maxIds, identity.names, caps, options.spillRows);
    const lifecycle = new LifecycleAnalyzer(
      options.maxSessions,
      options.maxIds,
      caps,
      budget,
      marks,
      identity.names,
      options.spillRows,
    );
    const control = new ControlAnalyzer(
      options.ackWindowMs,
      lifecycle,
      budget,
      marks,
      identity.idTable,
      options.spillRows,
    );
    const assessment = new AssessmentAnalyzer(identity.names, options.spillRows);
    // --max-state-mb: what completed commands and assessable events leave (first targets, expected outcomes, held
    // respond issues, assessed events), then completion marks, then ended sessions, then (source, id) digests are forgotten
    const memory = new StateBudget(options.maxStateMb);
    memory.register(control);
    memory.register(control.held);
    memory.register(assessment);
    memory.register(marks);
    memory.register(lifecycle);
    memory.register(identity.idTable);
    memory.register(budget);
    const streams = new StreamAnalyzer(options.maxOpen, caps);
    memory.register(streams);
    this.state = {
      memory,
      options,
      caps,
      budget,
      marks,
      identity,
      lifecycle,
      ordering: new OrderingAnalyzer(),
      attention: new AttentionAnalyzer(lifecycle, budget, marks, identity.idTable, caps),
      units: new UnitAnalyzer(marks),
      forms: new FormValuesAnalyzer(),
      control,
      assessment,
      streams,
      unreadable: undefined,
    };
  }

  /** A line of the stream at `at` gave no event (framing): it may have held any event a later verdict needs. */
  unreadableLine(at: Mark): void {
    this.state.unreadable = at;
  }

  /** The bits of the facts AEP stream rules are gated `on` (src/core/engine.ts). */
  readonly factBits = FACT_BITS;

  /** The {@link FACT_BITS} of the facts set in `f` (one read of each: every facts object has one shape). */
  presence(f: AepFacts): number {
    return (
      (f.redelivery !== undefined ? FACT_BITS.redelivery : 0) |
      (f.collision !== undefined ? FACT_BITS.collision : 0) |
      (f.unverifiable !== undefined ? FACT_BITS.unverifiable : 0) |
      (f.runTerminal !== undefined ? FACT_BITS.runTerminal : 0) |
      (f.sessionEnded !== undefined ? FACT_BITS.sessionEnded : 0) |
      (f.order !== undefined ? FACT_BITS.order : 0) |
      (f.endedWithOpen !== undefined ? FACT_BITS.endedWithOpen : 0) |
      (f.attention !== undefined ? FACT_BITS.attention : 0) |
      (f.form !== undefined ? FACT_BITS.form : 0) |
      (f.ack !== undefined ? FACT_BITS.ack : 0) |
      (f.endorsesInvalid !== undefined ? FACT_BITS.endorsesInvalid : 0) |
      (f.secondTarget !== undefined ? FACT_BITS.secondTarget : 0) |
      (f.outcome !== undefined ? FACT_BITS.outcome : 0) |
      (f.rejectedMatched !== undefined ? FACT_BITS.rejectedMatched : 0) |
      (f.overdue !== undefined ? FACT_BITS.overdue : 0) |
      (f.assessedElsewhere !== undefined ? FACT_BITS.assessedElsewhere : 0) |
      (f.answeredLate !== undefined ? FACT_BITS.answeredLate : 0) |
      (f.timeoutAnswered !== undefined ? FACT_BITS.timeoutAnswered : 0) |
      (f.unitTerminal !== undefined ? FACT_BITS.unitTerminal : 0) |
      (f.streamReused !== undefined ? FACT_BITS.streamReused : 0) |
      (f.splitLeak !== undefined ? FACT_BITS.splitLeak : 0) |
      (f.splitHome !== undefined ? FACT_BITS.splitHome : 0) |
      (f.splitPii !== undefined ? FACT_BITS.splitPii : 0) |
      (f.finishedCause !== undefined ? FACT_BITS.finishedCause : 0) |
      (f.messageCause !== undefined ? FACT_BITS.messageCause : 0) |
      (f.respondIssues !== undefined ? FACT_BITS.respondIssues : 0) |
      (f.earlyAck !== undefined ? FACT_BITS.earlyAck : 0)
    );
  }

  observe(ev: AepEvent): AepFacts {
    const s = this.state;
    const facts: AepFacts = new FactsRecord(ev, s.unreadable);
    // a redelivery (or a redacted copy counted as one), or an event the schema stage refused: nothing else runs
    // the event's emitter session, found once for identity's key and for lifecycle
    const session = attr(ev, 'session');
    const known = session === undefined ? undefined : s.lifecycle.peek(attr(ev, 'source')!, session);
    const copy = s.identity.observe(ev, facts, known);
    const scope = ev.info?.scope ?? scopeOf(ev.type);
    // an emitter's event under an earlier (source, id) with other content, or one that cannot be compared: a consumer
    // deduplicating on (source, id) drops it (AEP-0001 §7.4), so it moves no state (no position, terminal, request or
    // ack decision of it blames the next event). Not a command: each target dedupes what is routed to it (AEP-0004 §2.3).
    const dropped = !copy && scope !== 'foreign' && (facts.collision !== undefined || facts.unverifiable !== undefined);
    if (copy || ev.rejected || dropped) {
      if (ev.rejected) s.attention.refused(ev);
      else if (dropped && known) s.control.ackCopy(ev, facts, known);
      // a copy not checked as a second event (a redelivery, or one whose content cannot be compared) repeats the command
      if ((facts.redelivery !== undefined || facts.unverifiable !== undefined) && !ev.rejected) s.control.retried(ev);
      return facts;
    }
    const f = facts as AepFacts & EventKeys;
    f.scope = scope;
    s.lifecycle.observe(ev, f, known);
    s.ordering.observe(ev, f);
    s.attention.observe(ev, f);
    s.units.observe(ev, f);
    s.forms.observe(ev, f);
    s.control.observe(ev, f);
    s.assessment.observe(ev, f);
    if (ev.subprofile || s.streams.size > 0) s.streams.observe(ev, f);
    s.lifecycle.settle(ev, f);
    if (s.memory.settle() > 0) s.caps.note('maxStateMb', s.memory.mb, () => f.at);
    return facts;
  }
}

/** An AEP stream rule: a verdict over {@link AepFacts} and the {@link AepStreamState} of the run. */
export type AepStreamRule = FactRule<AepFacts, AepStreamState>;
