/**
 * The session-order analyzer: `session.start` "SHOULD be the first AHP event for the session" (server/lifecycle-observation.md
 * §session.start), read from `time`, the time the harness created each event (base/events.md §Common event fields), never
 * from arrival order (observation delivery has no session-wide order, observation-disposition.md). One row per
 * `(source, session.id)` over first occurrences, at most `--max-events`.
 */
import type { Hash64 } from '../../core/canonical.ts';
import type { Mark } from '../../core/mark.ts';
import { isObj } from '../../core/value.ts';
import type { EventBudget } from './budget.ts';
import { RowHolder } from './row-holder.ts';
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
/** The value of the `n` decimal digits of `s` at `i`, NaN when one is not a digit. */
function digits(s: string, i: number, n: number): number {
  let v = 0;
  for (let k = i; k < i + n; k++) {
    const c = s.charCodeAt(k) - 48;
    if (c < 0 || c > 9) return NaN;
    v = v * 10 + c;
  }
  return v;
}

/** Days from 1970-01-01 to the proleptic Gregorian `y`-`m`-`d` (a day past the month's end rolls over, as Date.UTC). */
function civilDays(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const doy = Math.floor((153 * (m > 2 ? m - 3 : m + 9) + 2) / 5) + d - 1;
  return era * 146097 + yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy - 719468;
}

/**
 * Milliseconds since the epoch of an RFC 3339 `time` (base/events.md), NaN when it is not one (then the event is not
 * judged): read by hand, once per first occurrence, with Date.parse's ranges (day 1-31 rolling over, `24:00:00`, no
 * leap second) and the fraction kept past the millisecond; test/ahp-stream/session-order.test.ts holds it to
 * Date.parse.
 */
export function timeMs(v: unknown): number {
  if (typeof v !== 'string' || v.length < 20) return NaN;
  const t = v.charCodeAt(10);
  if (v[4] !== '-' || v[7] !== '-' || (t !== 84 && t !== 116) || v[13] !== ':' || v[16] !== ':') return NaN;
  const y = digits(v, 0, 4);
  const mo = digits(v, 5, 2);
  const d = digits(v, 8, 2);
  const h = digits(v, 11, 2);
  const mi = digits(v, 14, 2);
  const sec = digits(v, 17, 2);
  if (!(mo >= 1 && mo <= 12 && d >= 1 && d <= 31 && mi <= 59 && sec <= 59)) return NaN;
  if (!(h <= 23 || (h === 24 && mi === 0 && sec === 0))) return NaN;
  let i = 19;
  if (v[i] === '.') {
    do i++;
    while (i < v.length && v.charCodeAt(i) >= 48 && v.charCodeAt(i) <= 57);
    if (i === 20) return NaN;
  }
  let offset = 0;
  const z = v[i];
  if (z === 'Z' || z === 'z') {
    if (i + 1 !== v.length) return NaN;
  } else if ((z === '+' || z === '-') && i + 6 === v.length && v[i + 3] === ':') {
    const oh = digits(v, i + 1, 2);
    const om = digits(v, i + 4, 2);
    if (!(oh <= 23 && om <= 59)) return NaN;
    offset = (z === '+' ? 1 : -1) * (oh * 60 + om) * 60000;
  } else return NaN;
  const whole = civilDays(y, mo, d) * 86400000 + h * 3600000 + mi * 60000 + sec * 1000 - offset;
  return i > 19 ? whole + Number(`0${v.slice(19, i)}`) * 1000 : whole;
}

/** The session-order analyzer */
export class SessionOrder extends RowHolder {
  /** The last key of each session id, with its source (most streams hold few sessions; at most 4096 kept). */
  private readonly keys = new Map<string, { source: string; key: Hash64 }>();

  constructor(budget: EventBudget) {
    super(budget, COL.count, ROW_BYTES);
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
    const source = ev.source as string;
    let memo = this.keys.get(session);
    if (memo === undefined || memo.source !== source) {
      if (this.keys.size >= 4096) this.keys.clear();
      memo = { source, key: scope.idKey(session) };
      this.keys.set(session, memo);
    }
    const key = memo.key;
    const s = table.slot(key);
    const pos = this.budget.pos(at);
    if (s === undefined) {
      const n = this.addRow(key, at);
      if (n === undefined) return;
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
