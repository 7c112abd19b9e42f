/** Stream-state caps: what analyzers note (CapLog) and how `state-cap` rules word it. */
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

/** Report each notice once, where the cap was first exceeded: the flag, the limit and what later verdicts lose. */
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

/** One run's cap notices, shared by a protocol's analyzers: `note` once per cap, the `state-cap` rule `take`s them. */
export class CapLog<C extends string, M> {
  private notices: TrackerCapNotice<C, M>[] = [];
  private readonly hit = new Set<C>();

  note(cap: C, limit: number, at: () => M): void {
    if (this.hit.has(cap)) return;
    this.hit.add(cap);
    this.notices.push({ cap, limit, at: at() });
  }

  take(): TrackerCapNotice<C, M>[] {
    const n = this.notices;
    if (n.length) this.notices = [];
    return n;
  }
}
