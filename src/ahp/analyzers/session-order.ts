/**
 * The session-order analyzer: `session.start` "SHOULD be the first AHP event for the session" (server/lifecycle-observation.md
 * §session.start), read from `time`, the time the harness created each event (base/events.md §Common event fields), never
 * from arrival order (observation delivery has no session-wide order, observation-disposition.md). One row per
 * `(source, session.id)` over first occurrences, at most `--max-events`.
 */
import type { Mark } from '../../core/mark.ts';
import { SpillTable } from '../../core/spill-table.ts';
import { isObj } from '../../core/value.ts';
import type { StateHolder } from '../../core/state-budget.ts';
import type { EventBudget } from './budget.ts';
import { spillRowsOf } from './options.ts';
import type { MessageScope } from './scope.ts';

/** An event of a session created before that session's `session.start`. */
export interface SessionOrderFacts {
  startNotFirst?: {
    /** `start`: this is the `session.start`, created after `prior`; `event`: this event was created before the `session.start` at `prior`. */
    kind: 'start' | 'event';
    prior: Mark;
  };
}

/** The f64 columns of a row: the earliest event's time and place, and the earliest `session.start`'s (NaN: none). */
const COL = { firstTime: 0, firstPos: 1, startTime: 2, startPos: 3, count: 4 } as const;
/** Bytes a row counts in `--max-state-mb`. */
const ROW_BYTES = 200;
/** RFC 3339 date-time (base/events.md: `time` is an RFC 3339 string); the fraction is kept apart from Date.parse. */
const RFC3339 = /^(\d{4}-\d{2}-\d{2})[Tt](\d{2}:\d{2}:\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** Milliseconds since the epoch of an RFC 3339 `time`, NaN when it is not one (then the event is not judged). */
export function timeMs(v: unknown): number {
  if (typeof v !== 'string') return NaN;
  const m = RFC3339.exec(v);
  if (!m) return NaN;
  const zone = m[4] === 'z' || m[4] === 'Z' ? 'Z' : m[4];
  const whole = Date.parse(`${m[1]}T${m[2]}${zone}`);
  return m[3] ? whole + Number(`0${m[3]}`) * 1000 : whole;
}

/** The session-order analyzer */
export class SessionOrder implements StateHolder {
  private readonly rows: SpillTable;

  constructor(private readonly budget: EventBudget) {
    this.rows = new SpillTable({ u32: 0, f64: COL.count, load: 2, memRows: spillRowsOf(budget.opts) });
  }

  /** How many entries it holds. */
  held(): number {
    return this.rows.size;
  }

  /** Estimated bytes (`--max-state-mb`): {@link ROW_BYTES} a row. */
  bytes(): number {
    return this.rows.size * ROW_BYTES;
  }

  /** Forget the oldest session: a later event of it is then not judged, never misjudged. */
  forgetOldest(): boolean {
    return this.rows.forgetOldest();
  }

  /** Facts of the first occurrence of the event of `scope` (at `at`) into `facts`. */
  firstOccurrence(scope: Pick<MessageScope, 'ev' | 'idKey'>, at: Mark, facts: SessionOrderFacts): void {
    const ev = scope.ev;
    const session = isObj(ev.session) ? ev.session.id : undefined;
    if (typeof session !== 'string') return;
    const t = timeMs(ev.time);
    if (Number.isNaN(t)) return;
    const start = ev.type === 'session.start';
    const table = this.rows;
    // another source is another clock, and a session id is not unique across harnesses: keyed by both
    const key = scope.idKey(session);
    const s = table.slot(key);
    const pos = this.budget.pos(at);
    if (s === undefined) {
      const max = this.budget.opts.maxEvents;
      if (max <= 0) return;
      if (table.size >= max) {
        this.budget.noteCap('maxEvents', max, at);
        table.forgetOldest();
      }
      const n = table.add(key);
      table.setF(n, COL.firstTime, t);
      table.setF(n, COL.firstPos, pos);
      table.setF(n, COL.startTime, start ? t : NaN);
      table.setF(n, COL.startPos, start ? pos : NaN);
      return;
    }
    const first = table.getF(s, COL.firstTime);
    const startTime = table.getF(s, COL.startTime);
    // strictly earlier only: equal times (or times equal to the millisecond's precision here) decide nothing
    if (start && first < t) facts.startNotFirst = { kind: 'start', prior: this.markAt(s, COL.firstPos) };
    else if (!start && t < startTime) facts.startNotFirst = { kind: 'event', prior: this.markAt(s, COL.startPos) };
    if (start && !(startTime <= t)) {
      table.setF(s, COL.startTime, t);
      table.setF(s, COL.startPos, pos);
    }
    if (t < first) {
      table.setF(s, COL.firstTime, t);
      table.setF(s, COL.firstPos, pos);
    }
  }

  private markAt(s: number, col: number): Mark {
    return this.budget.markAt(this.rows.getF(s, col));
  }
}
