/**
 * Reporting of stream-state caps, shared by the AEP and AHP `state-cap` rules.
 * DESIGN.md §Principles (bounded stream state): exceeding a cap is a finding, never a crash.
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
