/**
 * Stream-state caps: the cap notices the analyzers of one run note ({@link CapLog}) and how the
 * protocols' `state-cap` rules word them. Exceeding a cap is a finding, never a crash
 * (docs/architecture.md §Bounded stream state).
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

/** The message of a `state-cap` rule: each protocol's rule holds it in its `messages`. */
export const CAP_MESSAGES = {
  capReached: 'State cap {flag}={limit} reached: {effect}; raise {flag} for a complete check.',
} as const;

/**
 * Report each notice once, at the event where the cap was first exceeded, naming the flag, the
 * limit and what later verdicts lose.
 */
export function reportCapNotices<C extends string>(
  notices: readonly CapNoticeOf<C>[],
  what: Readonly<Record<C, CapDescription>>,
  ctx: RuleContext,
): void {
  for (const n of notices) {
    const w = what[n.cap];
    ctx.report({
      at: n.at,
      messageId: 'capReached',
      args: { cap: n.cap, limit: n.limit, flag: w.flag, effect: w.effect },
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
