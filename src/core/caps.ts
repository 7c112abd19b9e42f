/** Stream-state caps: what analyzers note (CapLog) and how `state-cap` rules word it. */
import type { Location } from './finding.ts';
import { markLocation, type Mark } from './mark.ts';

/** A cap first exceeded at `at`; `cap` names it (e.g. `maxOpen`), `limit` is its value. */
export interface CapNoticeOf<C extends string> {
  cap: C;
  limit: number;
  at: Location;
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

  /** True once any cap was exceeded (state was forgotten or refused: an absence proves less). */
  get anyHit(): boolean {
    return this.hit.size > 0;
  }

  take(): TrackerCapNotice<C, M>[] {
    const n = this.notices;
    if (n.length) this.notices = [];
    return n;
  }
}

const NO_REPORTS: readonly never[] = [];

/**
 * The findings of each cap noted since the last call, at the event where it was first exceeded: the template key is the
 * cap's name, so a `state-cap` rule without a template for a cap does not compile.
 */
export function capReports<C extends string>(
  caps: CapLog<C, Mark>,
): readonly { at: Location; messageId: C; args: { cap: C; limit: number } }[] {
  const taken = caps.take();
  // asked at every event, and almost always with nothing noted: no new list then
  if (taken.length === 0) return NO_REPORTS;
  return taken.map((n) => ({ at: markLocation(n.at), messageId: n.cap, args: { cap: n.cap, limit: n.limit } }));
}
