/**
 * Stream-state caps and the per-event memo shared by the AEP and AHP stream trackers and their
 * `state-cap` rules. DESIGN.md §Principles (bounded stream state): exceeding a cap is a
 * finding, never a crash.
 */
import type { Location } from './finding.ts';
import type { RuleContext } from './rule.ts';

/** A cap first exceeded at `at`; `cap` names it (e.g. `maxOpen`), `limit` is its value. */
export interface CapNoticeOf<C extends string> {
  cap: C;
  limit: number;
  at: Location;
}

/** How to describe one cap: its command-line flag and what exceeding it costs. */
export interface CapDescription {
  flag: string;
  effect: string;
}

/**
 * Report each notice once, at the event where the cap was first exceeded, naming the flag, the
 * limit and what later verdicts lose.
 */
export function reportCapNotices<C extends string>(notices: readonly CapNoticeOf<C>[], what: Readonly<Record<C, CapDescription>>, ctx: RuleContext): void {
  for (const n of notices) {
    const w = what[n.cap];
    ctx.report({
      at: n.at,
      message: `State cap ${w.flag}=${n.limit} reached: ${w.effect}; raise ${w.flag} for a complete check.`,
      data: { cap: n.cap, limit: n.limit },
    });
  }
}

/** A cap first exceeded, as a tracker notes it: `at` is where (the tracker's own mark type). */
export interface TrackerCapNotice<C extends string, M> {
  cap: C;
  limit: number;
  at: M;
}

/**
 * What both protocol stream trackers share: the facts of an event are computed once however
 * many stream rules ask for them ({@link observe}), and each cap is noted once per run
 * ({@link noteCap}) until the protocol's `state-cap` rule takes the notices
 * ({@link takeNotices}). Subclasses implement {@link compute} against the state before the
 * event, and update the state there.
 */
export abstract class StreamTrackerBase<E extends object, O, C extends string, M> {
  private lastEv: E | undefined;
  private lastObs: O | undefined;
  private notices: TrackerCapNotice<C, M>[] = [];
  private readonly capsHit = new Set<C>();

  /** Facts about `ev`; computed on the first call for an event, then returned as is. */
  observe(ev: E): O {
    if (this.lastEv === ev && this.lastObs) return this.lastObs;
    const obs = this.compute(ev);
    this.lastEv = ev;
    this.lastObs = obs;
    return obs;
  }

  /** Caps exceeded since the last call (each cap at most once per run). */
  takeNotices(): TrackerCapNotice<C, M>[] {
    const n = this.notices;
    this.notices = [];
    return n;
  }

  /** Note that `cap` (value `limit`) was exceeded at `at`, unless it was noted before in this run. */
  protected noteCap(cap: C, limit: number, at: () => M): void {
    if (this.capsHit.has(cap)) return;
    this.capsHit.add(cap);
    this.notices.push({ cap, limit, at: at() });
  }

  /** The facts of `ev` against the state before it; updates the state. */
  protected abstract compute(ev: E): O;
}

/**
 * The body of a protocol's `state-cap` rule: on every event and at the end of input, report
 * the notices `tracker` collected ({@link reportCapNotices}), located with `locate`.
 */
export function capNoticeRule<C extends string, M>(
  tracker: { takeNotices(): TrackerCapNotice<C, M>[] },
  what: Readonly<Record<C, CapDescription>>,
  locate: (at: M) => Location,
): { onEvent(obs: unknown, ctx: RuleContext): void; onEnd(t: unknown, ctx: RuleContext): void } {
  const flush = (ctx: RuleContext) => reportCapNotices(tracker.takeNotices().map((n) => ({ cap: n.cap, limit: n.limit, at: locate(n.at) })), what, ctx);
  return {
    onEvent(_obs, ctx) {
      flush(ctx);
    },
    onEnd(_t, ctx) {
      flush(ctx);
    },
  };
}

/**
 * The cap notices of one run, shared by the analyzers of a protocol: an analyzer notes a cap
 * when it is exceeded ({@link note}: once per cap per run), and the protocol's `state-cap` rule
 * takes the notices after each event and at the end ({@link take}).
 */
export class CapLog<C extends string, M> {
  private notices: TrackerCapNotice<C, M>[] = [];
  private readonly hit = new Set<C>();

  /** Note that `cap` (value `limit`) was exceeded at `at()`, unless it was noted before in this run. */
  note(cap: C, limit: number, at: () => M): void {
    if (this.hit.has(cap)) return;
    this.hit.add(cap);
    this.notices.push({ cap, limit, at: at() });
  }

  /** Caps exceeded since the last call. */
  take(): TrackerCapNotice<C, M>[] {
    const n = this.notices;
    if (n.length) this.notices = [];
    return n;
  }
}
