/**
 * The call-order analyzer: "`tool.before` precedes invocation side effects and the permission stage"
 * (execution-payloads.md §Identity and native boundary duties), read from `time`, when the harness created each event
 * (base/events.md §Common event fields), never from arrival order (observation-disposition.md: no session-wide order).
 * One row per `(source, session.id, call.id)` over first occurrences, at most `--max-events`: the earliest `tool.before`
 * and the earliest permission-stage event (`tool.permission.request`, `tool.permission.resolved`).
 */
import type { Mark } from '../../core/mark.ts';
import { isObj } from '../../core/value.ts';
import type { EventBudget } from './budget.ts';
import { RowHolder } from './row-holder.ts';
import type { MessageScope } from './scope.ts';
import { timeMs } from './session-order.ts';

/** A permission-stage event of a call created before that call's `tool.before`. */
export interface CallOrderFacts {
  permissionFirst?: {
    /** `before`: this is the `tool.before`, created after `prior`; `permission`: this was created before the `tool.before` at `prior`. */
    kind: 'before' | 'permission';
    prior: Mark;
  };
}

/** The permission-stage event types (execution-payloads.md §Required event-specific payloads). */
const PERMISSION = new Set(['tool.permission.request', 'tool.permission.resolved']);
/** The f64 columns of a row: the earliest `tool.before`'s time and place, the earliest permission event's (NaN: none). */
const COL = { beforeTime: 0, beforePos: 1, permTime: 2, permPos: 3, count: 4 } as const;
/** Bytes a row counts in `--max-state-mb`. */
const ROW_BYTES = 200;

/** The call-order analyzer (a row a call, oldest forgotten first) */
export class CallOrder extends RowHolder {
  constructor(budget: EventBudget) {
    super(budget, COL.count, ROW_BYTES);
  }

  /** Facts of the first occurrence of the event of `scope` (at `at`) into `facts`. */
  firstOccurrence(scope: Pick<MessageScope, 'ev' | 'idKey'>, at: Mark, facts: CallOrderFacts): void {
    const ev = scope.ev;
    const before = ev.type === 'tool.before';
    if (!before && !PERMISSION.has(ev.type as string)) return;
    const call = isObj(ev.call) ? ev.call.id : undefined;
    if (typeof call !== 'string' || call === '') return;
    const t = timeMs(ev.time);
    if (Number.isNaN(t)) return;
    // a call id is not unique across sessions (decisions.ts): the session is part of the key
    const session = isObj(ev.session) && typeof ev.session.id === 'string' ? ev.session.id : '';
    const key = scope.idKey(`${call}\u0000${session}`);
    const table = this.rows;
    const pos = this.budget.pos(at);
    let s = table.slot(key);
    if (s === undefined) {
      s = this.addRow(key, at);
      if (s === undefined) return;
      for (const c of [COL.beforeTime, COL.beforePos, COL.permTime, COL.permPos]) table.setF(s, c, NaN);
    }
    const [tc, pc, otherT, otherP] = before
      ? [COL.beforeTime, COL.beforePos, COL.permTime, COL.permPos]
      : [COL.permTime, COL.permPos, COL.beforeTime, COL.beforePos];
    const other = table.getF(s, otherT);
    // strictly earlier only: equal times decide nothing
    if (before ? other < t : t < other)
      facts.permissionFirst = {
        kind: before ? 'before' : 'permission',
        prior: this.budget.markAt(table.getF(s, otherP)),
      };
    if (!(table.getF(s, tc) <= t)) {
      table.setF(s, tc, t);
      table.setF(s, pc, pos);
    }
  }
}
