/**
 * The rule engine shared by both protocols: per-event rules, stream analyzers and the stream
 * rules that read their facts, run in a fixed order, with an optional rule selection.
 *
 * Data flow for one event (docs/architecture.md §Data flow):
 * 1. every selected per-event rule (`check(event, ctx)`), when the protocol says the event's
 *    own checks apply;
 * 2. the protocol's {@link StreamModel}: its analyzers run in a fixed order, each computing the
 *    facts of its own concern against its state *before* the event and then updating that
 *    state; together they fill one typed facts object `F`;
 * 3. every selected stream rule (`onEvent(facts, ctx, state)`): a verdict over those facts.
 * At the end of input every selected stream rule's `onEnd(state, ctx)` runs.
 *
 * Rules hold no state of their own: what a verdict needs across events lives in the analyzer
 * that owns that concern (and its cap), so running one rule alone gives the same findings as
 * running it among all the others. Analyzers always run, whatever the selection.
 */
import type { FindingSink } from './finding.ts';
import type { MessageTemplates } from './message.ts';
import {
  makeFinding,
  RuleCrashError,
  type EventRule,
  type ParsedEvent,
  type ReportInput,
  type RuleContext,
  type RuleMeta,
} from './rule.ts';

/**
 * A stateless cross-event rule: a verdict over the facts the analyzers computed for one event
 * (`onEvent`), or over their state at the end of input (`onEnd`). `S` is the protocol's typed
 * record of analyzers, `F` its per-event facts.
 */
export interface FactRule<F, S> extends RuleMeta {
  /**
   * The facts (names of members of `F`) that call for a verdict: when given, `onEvent` runs
   * only for an event where one of them is set (not `undefined`), so the engine skips the call
   * for every other event; a rule that must see every event leaves it out.
   */
  on?: readonly string[];
  onEvent?(facts: F, ctx: RuleContext, state: S): void;
  /** End of input (`ctx.report` needs `at`, or reports without a line). */
  onEnd?(state: S, ctx: RuleContext): void;
}

/** Define a stream rule; keeps the literal type of `id` (so a protocol can derive its `RuleId` union). */
export function defineStreamRule<F, S, const Id extends string>(
  rule: FactRule<F, S> & { id: Id; messages: MessageTemplates },
): FactRule<F, S> & { id: Id; messages: MessageTemplates } {
  return rule;
}

/** Define a per-event rule; keeps the literal type of `id`. */
export function defineEventRule<E extends ParsedEvent, const Id extends string>(
  rule: EventRule<E> & { id: Id; messages: MessageTemplates },
): EventRule<E> & { id: Id; messages: MessageTemplates } {
  return rule;
}

/**
 * One run's stream analyzers, as a protocol assembles them: `state` is the typed record of its
 * analyzers (read by rules, e.g. at the end of input), `observe` runs them in their fixed order
 * on one event and returns that event's facts, or `undefined` when stream rules must not see the
 * event at all.
 */
export interface StreamModel<E, F, S> {
  readonly state: S;
  observe(event: E): F | undefined;
  /**
   * The bit of each fact a stream rule may be gated `on`, with {@link presence}: the engine then
   * gates by one mask test per rule. Without them it reads the named members.
   */
  readonly factBits?: Readonly<Record<string, number>>;
  /** The {@link factBits} of the facts set in `facts`. */
  presence?(facts: F): number;
}

/**
 * Which rules run: `undefined` runs every rule; otherwise only the rules whose ids are in the
 * set (framing and parse findings are not rules of the runner and always appear).
 */
export type RuleSelection = ReadonlySet<string> | undefined;

/** True when `id` is selected by `selection`. */
export function isSelected(selection: RuleSelection, id: string): boolean {
  return selection === undefined || selection.has(id);
}

/** True for the reader's and parser's own findings (`jsonl/*`, `json/*`), which every selection keeps. */
export function isFramingRule(id: string): boolean {
  return id.startsWith('jsonl/') || id.startsWith('json/');
}

/** `sink` restricted to the findings `selection` reports: the selected rules' and framing. */
export function selectedSink(sink: FindingSink, selection: RuleSelection): FindingSink {
  return selection === undefined ? sink : (f) => void ((isFramingRule(f.ruleId) || selection.has(f.ruleId)) && sink(f));
}

/**
 * Runs one protocol's rules over a stream: per-event rules, then the stream model, then stream
 * rules, in their declared order. A rule that throws becomes a {@link RuleCrashError} naming the
 * rule and the line, handed to `onCrash` (the run reports it and goes on with the next rule);
 * without `onCrash` it is thrown.
 */
export class Engine<E extends ParsedEvent, F, S> {
  private readonly eventRules: { rule: EventRule<E>; ctx: RuleContext }[];
  private readonly streamRules: {
    rule: FactRule<F, S>;
    ctx: RuleContext;
    on: readonly string[] | undefined;
    bits: number;
  }[];
  private current: E | undefined;

  constructor(
    eventRules: readonly EventRule<E>[],
    streamRules: readonly FactRule<F, S>[],
    private readonly model: StreamModel<E, F, S>,
    sink: FindingSink,
    selection?: RuleSelection,
    private readonly onCrash: (e: RuleCrashError) => void = (e) => {
      throw e;
    },
  ) {
    // one context per rule for the whole run, bound to the current event (a closure per rule
    // per event showed in profiles)
    const bind = (rule: RuleMeta): RuleContext => ({
      report: (r: ReportInput) => sink(makeFinding(rule, r, this.current)),
    });
    this.eventRules = eventRules.filter((r) => isSelected(selection, r.id)).map((rule) => ({ rule, ctx: bind(rule) }));
    const factBits = model.presence ? model.factBits : undefined;
    const bitsOf = (rule: FactRule<F, S>): number => {
      let bits = 0;
      for (const name of rule.on ?? []) {
        const b = factBits?.[name];
        if (factBits && b === undefined)
          throw new TypeError(`${rule.id}: \`on\` names ${JSON.stringify(name)}, which is not a fact of this protocol`);
        bits |= b ?? 0;
      }
      return bits;
    };
    this.streamRules = streamRules
      .filter((r) => isSelected(selection, r.id) && (r.onEvent || r.onEnd))
      .map((rule) => ({
        rule,
        ctx: bind(rule),
        on: factBits ? undefined : rule.on,
        bits: factBits ? bitsOf(rule) : 0,
      }));
  }

  /** The run's analyzers (read-only use: tests and diagnostics). */
  get state(): S {
    return this.model.state;
  }

  /** Run the selected per-event rules on `event`, in order. */
  checkEvent(event: E): void {
    if (this.eventRules.length === 0) return;
    this.current = event;
    try {
      for (const { rule, ctx } of this.eventRules) {
        try {
          rule.check(event, ctx);
        } catch (e) {
          this.onCrash(new RuleCrashError(rule.id, `${event.source}:${event.line}`, e, event));
        }
      }
    } finally {
      this.current = undefined;
    }
  }

  /** Run the analyzers on `event`, then the selected stream rules on its facts. */
  streamEvent(event: E): void {
    this.current = event;
    try {
      let facts: F | undefined;
      try {
        facts = this.model.observe(event);
      } catch (e) {
        // the facts of this event are lost: no stream rule can judge it
        this.onCrash(new RuleCrashError('(stream analyzers)', `${event.source}:${event.line}`, e, event));
        return;
      }
      if (facts === undefined) return;
      const present = facts as Record<string, unknown>;
      const mask = this.model.presence ? this.model.presence(facts) : 0;
      for (const { rule, ctx, on, bits } of this.streamRules) {
        if (!rule.onEvent) continue;
        if (bits !== 0 && (mask & bits) === 0) continue;
        if (on !== undefined) {
          let i = 0;
          while (i < on.length && present[on[i]!] === undefined) i++;
          if (i === on.length) continue;
        }
        try {
          rule.onEvent(facts, ctx, this.model.state);
        } catch (e) {
          this.onCrash(new RuleCrashError(rule.id, `${event.source}:${event.line}`, e, event));
        }
      }
    } finally {
      this.current = undefined;
    }
  }

  /** End of input: every selected stream rule's `onEnd`. */
  end(): void {
    for (const { rule, ctx } of this.streamRules) {
      if (!rule.onEnd) continue;
      try {
        rule.onEnd(this.model.state, ctx);
      } catch (e) {
        this.onCrash(new RuleCrashError(rule.id, 'end of input', e));
      }
    }
  }
}
