/**
 * The rule engine of both protocols. Per event: selected per-event rules, then the StreamModel's analyzers (each
 * computes its facts from its state before the event), then selected stream rules over those facts; `onEnd` at end of
 * input. Rules hold no state: analyzers own it (and its caps) and always run, so one rule alone reports as among all.
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

/** A stateless cross-event rule: a verdict over one event's facts (`onEvent`) or the state at the end (`onEnd`). */
export interface FactRule<F, S, M extends MessageTemplates = MessageTemplates> extends RuleMeta {
  /** Facts that call for a verdict: `onEvent` runs only when one is set; leave out to see every event. */
  on?: readonly string[];
  onEvent?(facts: F, ctx: RuleContext<M>, state: S): void;
  /** End of input (`ctx.report` needs `at`, or reports without a line). */
  onEnd?(state: S, ctx: RuleContext<M>): void;
}

/** Define a stream rule, keeping the literal types of `id` and its templates (typed `ctx.report`). */
export function defineStreamRule<F, S, const Id extends string, const M extends MessageTemplates>(
  rule: FactRule<F, S, M> & { id: Id; messages: M },
): FactRule<F, S, M> & { id: Id; messages: M } {
  return rule;
}

/** Define a per-event rule; keeps the literal type of `id` and of its templates (see {@link defineStreamRule}). */
export function defineEventRule<E extends ParsedEvent, const Id extends string, const M extends MessageTemplates>(
  rule: EventRule<E, M> & { id: Id; messages: M },
): EventRule<E, M> & { id: Id; messages: M } {
  return rule;
}

/** One run's analyzers: `observe` returns an event's facts (`undefined`: stream rules do not see it). */
export interface StreamModel<E, F, S> {
  readonly state: S;
  observe(event: E): F | undefined;
  /** Bit of each gateable fact, with `presence`: gating is then one mask test per rule. */
  readonly factBits?: Readonly<Record<string, number>>;
  presence?(facts: F): number;
}

/** Rules that run: `undefined` all, else the ids in the set (framing and parse findings always appear). */
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

/** Facts masks whose rule lists are kept (real streams show a few dozen; the rest are filtered each time). */
const MAX_MASKS = 1024;

/** A selected stream rule with its context and gate: `on` fact names (no `presence`) or the mask `bits` of them. */
interface StreamEntry<F, S> {
  rule: FactRule<F, S>;
  /** `rule.onEvent`: rules are objects of many shapes, entries of one (a monomorphic load a call). */
  onEvent: FactRule<F, S>['onEvent'];
  ctx: RuleContext;
  on: readonly string[] | undefined;
  bits: number;
}

/** A selected per-event rule with its context. */
export interface EventEntry<E extends ParsedEvent> {
  rule: EventRule<E>;
  /** `rule.check` (as {@link StreamEntry.onEvent}). */
  check: EventRule<E>['check'];
  ctx: RuleContext;
}

/** Runs a protocol's rules in declared order; a rule that throws becomes a RuleCrashError for `onCrash`. */
export class Engine<E extends ParsedEvent, F, S> {
  private readonly eventRules: EventEntry<E>[];
  /** {@link eventRulesFor} of every type a selected rule names, and the list of the rules that name none. */
  private readonly byType = new Map<string, readonly EventEntry<E>[]>();
  private readonly untyped: readonly EventEntry<E>[];
  private readonly streamRules: StreamEntry<F, S>[];
  private readonly onEventRules: StreamEntry<F, S>[];
  private readonly byMask = new Map<number, readonly StreamEntry<F, S>[]>();
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
    this.eventRules = eventRules
      .filter((r) => isSelected(selection, r.id))
      .map((rule) => ({ rule, check: rule.check, ctx: bind(rule) }));
    for (const { rule } of this.eventRules)
      for (const t of rule.types ?? []) if (!this.byType.has(t)) this.byType.set(t, this.eventRulesFor(t));
    this.untyped = this.eventRules.filter((r) => r.rule.types === undefined);
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
        onEvent: rule.onEvent,
        ctx: bind(rule),
        on: factBits ? undefined : rule.on,
        bits: factBits ? bitsOf(rule) : 0,
      }));
    this.onEventRules = this.streamRules.filter((r) => r.rule.onEvent);
  }

  /** The run's analyzers (read-only use: tests and diagnostics). */
  get state(): S {
    return this.model.state;
  }

  /** The selected per-event rules that judge events of `type` (a rule's `types`), in declared order; keep the list. */
  eventRulesFor(type: string): readonly EventEntry<E>[] {
    return this.eventRules.filter((r) => r.rule.types === undefined || r.rule.types.includes(type));
  }

  /** {@link eventRulesFor} `type` from lists made once; a type no selected rule names gets the untyped rules. */
  eventRulesOf(type: unknown): readonly EventEntry<E>[] {
    return (typeof type === 'string' ? this.byType.get(type) : undefined) ?? this.untyped;
  }

  /** Run the selected per-event rules on `event`, or `rules` (its {@link eventRulesFor}). */
  checkEvent(event: E, rules: readonly EventEntry<E>[] = this.eventRules): void {
    if (rules.length === 0) return;
    this.current = event;
    try {
      for (let k = 0; k < rules.length; k++) {
        const entry = rules[k]!;
        try {
          entry.check.call(entry.rule, event, entry.ctx);
        } catch (e) {
          this.onCrash(new RuleCrashError(entry.rule.id, `${event.source}:${event.line}`, e, event));
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
      const rules = this.model.presence ? this.rulesFor(this.model.presence(facts)) : this.onEventRules;
      for (let k = 0; k < rules.length; k++) {
        const entry = rules[k]!;
        const on = entry.on;
        if (on !== undefined) {
          let i = 0;
          while (i < on.length && present[on[i]!] === undefined) i++;
          if (i === on.length) continue;
        }
        try {
          entry.onEvent!.call(entry.rule, facts, entry.ctx, this.model.state);
        } catch (e) {
          this.onCrash(new RuleCrashError(entry.rule.id, `${event.source}:${event.line}`, e, event));
        }
      }
    } finally {
      this.current = undefined;
    }
  }

  /** The rules with `onEvent` that a facts mask wakes, in declared order (one list per mask, made once). */
  private rulesFor(mask: number): readonly StreamEntry<F, S>[] {
    let list = this.byMask.get(mask);
    if (list === undefined) {
      list = this.onEventRules.filter((r) => r.bits === 0 || (mask & r.bits) !== 0);
      if (this.byMask.size < MAX_MASKS) this.byMask.set(mask, list);
    }
    return list;
  }

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
