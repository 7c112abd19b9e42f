/**
 * The decisions analyzer: a valid `deny` or a fail-closed `hook.failure` refuses the operation (AHP-DEC-002;
 * base/failure.md §Failure policy): the call does not run, the event is not intercepted again, a denied proposal has no
 * after event (task-workspace-lineage.md). State: bits of the event rows, one compact row per `tool.before` call, and
 * one more for a call seen with a `session.id` (spilling past `spillRows`).
 */
import type { Hash64 } from '../../core/canonical.ts';
import type { Mark } from '../../core/mark.ts';
import { SpillTable } from '../../core/spill-table.ts';
import { CompactTable } from '../../core/table.ts';
import { isObj, type Obj } from '../../core/value.ts';
import type { StateHolder } from '../../core/state-budget.ts';
import type { EventBudget } from './budget.ts';
import type { EventRows } from './event-rows.ts';
import { spillRowsOf } from './options.ts';
import type { EventIdentity, IdentityFacts } from './identity.ts';
import type { MessageScope } from './scope.ts';

/** The before each after type must not follow when that before was denied. */
const DENIED_AFTERS: ReadonlyMap<unknown, 'task.change.before' | 'workspace.change.before'> = new Map([
  ['task.change.after', 'task.change.before'],
  ['workspace.change.after', 'workspace.change.before'],
] as const);

/** Bytes a call row counts for the memory budget: key and two words, bucket link and head, chunk share. */
const CALL_BYTES = 40;
/** The calls table's columns: the before's key, then its `session.id` print and whether it has one. */
const CALL_U32 = { hi: 0, lo: 1, session: 2, hasSession: 3, width: 4 } as const;

/** The `session.id` print of the event of `scope` (identity-rows.ts `controlPrintInto`), if it has one. */
const sessionOf = (scope: MessageScope): number | undefined => scope.sessionPrint();

/** Words xored into the key of a call under its session, so it never meets a `(source, call id)` key of the table. */
const SESSION_CALL_HI = 0x2c1b3c6d;
const SESSION_CALL_LO = 0x297a2d39;

/**
 * The key of the call `call` under the `session.id` of the event of `scope`, or undefined when it names none: no
 * sentence makes a call id unique across sessions, so each session's call is its own (as in occurrences.ts).
 */
function sessionCallKey(scope: MessageScope, call: string): Hash64 | undefined {
  const session = scope.ev.session;
  const id = isObj(session) ? session.id : undefined;
  if (typeof id !== 'string') return undefined;
  const k = scope.idKey(`${id.length}:${id}${call}`);
  return { hi: (k.hi ^ SESSION_CALL_HI) >>> 0, lo: (k.lo ^ SESSION_CALL_LO) >>> 0 };
}

/** The columns of a refusal row. */
const DENIED_POS = 0;
const FAILED_POS = 1;
/** Columns without a bit of their own (the flags word is full): position + 1, 0 for none. */
const FAILURE_POS = 2;
const LATE_POS = 3;

/** How a call of a refused operation shows that it ran. */
export type RanAs = 'progress' | 'executed' | 'ok';

/** A refused call that ran: its before, the refusal, how it ran and (in a `tool.batch.after`) its `calls` index. */
export interface CallRan {
  before: Mark;
  at: Mark;
  ran: RanAs;
  entry?: number;
  /** `at` is a deny that came after a `hook.failure` naming the event: ignored if that failure was this backend's. */
  late?: true;
}

/** Decision facts of the first occurrence of an event. */
export interface DecisionFacts {
  /** Calls of a `tool.after`, `tool.progress` or `tool.batch.after` showing that a denied call ran. */
  deniedCallRan?: CallRan[];
  /** Calls that ran after an operational failure whose failure policy the stream does not show. */
  failedCallRan?: CallRan[];
  /** A `tool.after` or `tool.progress` naming a `tool.before` of another call as its parent. */
  callMismatch?: { before: Mark };
  /** A `parentEventId` that names a call id (`own`: the event's own), not an event. */
  parentIsCall?: { call?: Mark; own: boolean };
  /** A task or workspace after event whose before it parents to was denied. */
  changeAfterDenied?: { before: Mark; beforeType: string; deniedAt: Mark };
  /** An intercept request of an event whose interception was already refused. */
  interceptAfterDenial?: { prior: Mark; deniedAt: Mark };
  /** The first intercept request of an event observed before (where the observation was). */
  observedFirst?: Mark;
}

/** The `call.id` of `ev` when a non-empty string. */
function callIdOf(ev: Obj): string | undefined {
  const call = ev.call;
  return isObj(call) && typeof call.id === 'string' && call.id !== '' ? call.id : undefined;
}

/** How `ev` (a tool.after, tool.progress or `tool.batch.after` entry) shows its call ran, or undefined. */
function ranAs(ev: Obj, entry: boolean): RanAs | undefined {
  if (ev.type === 'tool.progress') return 'progress';
  if (!entry && ev.type !== 'tool.after') return undefined;
  if (isObj(ev.execution) && ev.execution.status === 'executed') return 'executed';
  return ev.outcome === 'ok' ? 'ok' : undefined;
}

/** The decisions analyzer */
export class Decisions implements StateHolder {
  /** `tool.before` calls by `(source, call.id)`: the before's event key (hi, lo); oldest first. */
  private readonly calls: SpillTable;
  private readonly rows: EventRows;
  /** Row bits: the event was denied, met an operational failure, has a row in {@link refusals}. */
  private readonly denied: number;
  private readonly failed: number;
  private readonly refused: number;

  /** Where the denial and the operational failure were (budget.ts `EventBudget.pos`), by event. */
  private readonly refusals: CompactTable;

  constructor(
    private readonly identity: EventIdentity,
    private readonly budget: EventBudget,
  ) {
    this.calls = new SpillTable({ u32: CALL_U32.width, f64: 0, load: 2, memRows: spillRowsOf(budget.opts) });
    const rows = (this.rows = identity.rows);
    this.denied = 1 << rows.claim();
    this.failed = 1 << rows.claim();
    this.refused = 1 << rows.claim();
    this.refusals = rows.attach(new CompactTable({ u32: 0, f64: 4 }), this.refused);
  }

  /** Where the event of row `s` was denied (the first denial), or undefined. */
  deniedAt(s: number): Mark | undefined {
    return this.refusalAt(s, this.denied, DENIED_POS);
  }

  /**
   * Where the event `key` was observed while no intercept request of it had come, or undefined: read before the
   * identity analyzer takes the message (observation-disposition.md: observations follow the resolved pipeline).
   */
  observedOnly(key: Hash64): Mark | undefined {
    const r = this.rows;
    const s = r.slot(key);
    const { observed, intercepted } = this.identity;
    return s !== undefined && r.has(s, observed) && !r.has(s, intercepted) ? r.markAt(s) : undefined;
  }

  /** Where an intercept request of the event of row `s` met an operational failure not explained since, or undefined. */
  failedAt(s: number): Mark | undefined {
    return this.refusalAt(s, this.failed, FAILED_POS);
  }

  private refusalAt(s: number, bit: number, col: number): Mark | undefined {
    if (!this.rows.has(s, bit)) return undefined;
    return this.budget.markAt(this.refusals.getF(this.refusals.slot(this.rows.keyAt(s))!, col));
  }

  /** Record `at` in column `col` of row `s` under `bit`, unless one is recorded (the first wins). */
  private refuse(s: number, bit: number, col: number, at: Mark): void {
    const r = this.rows;
    if (r.has(s, bit)) return;
    const k = r.keyAt(s);
    const x = r.has(s, this.refused) ? this.refusals.slot(k)! : this.refusals.add(k);
    r.set(s, bit | this.refused);
    this.refusals.setF(x, col, this.budget.pos(at));
  }

  /** Record `at` in the bitless column `col` of row `s`, unless one is recorded (the first wins). */
  private note(s: number, col: number, at: Mark): void {
    const r = this.rows;
    const k = r.keyAt(s);
    const x = r.has(s, this.refused) ? this.refusals.slot(k)! : this.refusals.add(k);
    r.set(s, this.refused);
    if (this.refusals.getF(x, col) === 0) this.refusals.setF(x, col, this.budget.pos(at) + 1);
  }

  /** What {@link note} recorded in column `col` of row `s`, or undefined. */
  private noted(s: number, col: number): Mark | undefined {
    if (!this.rows.has(s, this.refused)) return undefined;
    const v = this.refusals.getF(this.refusals.slot(this.rows.keyAt(s))!, col);
    return v === 0 ? undefined : this.budget.markAt(v - 1);
  }

  bytes(): number {
    return this.calls.size * CALL_BYTES;
  }

  forgetOldest(): boolean {
    return this.calls.forgetOldest();
  }

  /** Facts of the event of `scope` into `facts`, then its state. */
  observeEvent(scope: MessageScope, facts: DecisionFacts & Pick<IdentityFacts, 'reuse'>): void {
    const { ev, slot: s, key } = scope;
    if (!scope.first) {
      // an id reused by another event (ahp/event-id-reuse) does not send the refused event again
      const other = facts.reuse !== undefined && facts.reuse.kind !== 'unverifiable';
      if (scope.msg.kind === 'intercept-request' && s !== undefined && !other) {
        const deniedAt = this.deniedAt(s);
        if (deniedAt) facts.interceptAfterDenial = { prior: this.rows.markAt(s), deniedAt };
      }
      return;
    }
    const type = ev.type;
    if (type === 'tool.before') {
      const call = callIdOf(ev);
      if (call === undefined) return;
      const own = sessionCallKey(scope, call);
      if (own !== undefined) this.addCall(own, key, undefined);
      this.addCall(scope.idKey(call), key, sessionOf(scope));
      return;
    }
    if (ev.parentEventId !== undefined && ev.parentEventId !== ev.id) this.parented(scope, facts);
    if (type === 'tool.after' || type === 'tool.progress') this.toolResult(scope, facts);
    else if (type === 'tool.batch.after' && Array.isArray(ev.calls)) this.batchResult(scope, ev.calls, facts);
    else if (type === 'hook.failure' && isObj(ev.failure)) {
      // a fail-closed operational failure denies the operation; fail-open continues (base/failure.md §Failure policy)
      const ps = scope.parentSlot();
      if (ps === undefined) return;
      this.note(ps, FAILURE_POS, scope.at);
      if (ev.failure.policy === 'fail-closed') this.refuse(ps, this.denied, DENIED_POS, scope.at);
      else if (ev.failure.policy === 'fail-open') this.rows.clear(ps, this.failed);
    }
  }

  /**
   * A `hook.failure` named the event `eventKey` before now: the harness settled its interception by failure policy and
   * ignores any later response (base/failure.md §Deadlines), unless that failure was another backend's (not told).
   */
  settledByFailure(eventKey: Hash64 | undefined): boolean {
    const s = eventKey === undefined ? undefined : this.rows.slot(eventKey);
    return s !== undefined && this.noted(s, FAILURE_POS) !== undefined;
  }

  /**
   * An accepted intercept response (at `at`) with `effects` to the event `eventKey`: a deny refuses the operation; after
   * a `hook.failure` naming the event it is only a late deny (see {@link settledByFailure}).
   */
  acceptedResponse(effects: readonly unknown[], eventKey: Hash64 | undefined, at: Mark): void {
    if (eventKey === undefined || !effects.some((e) => isObj(e) && e.type === 'deny')) return;
    const s = this.rows.slot(eventKey);
    if (s === undefined) return;
    if (this.noted(s, FAILURE_POS)) this.note(s, LATE_POS, at);
    else this.refuse(s, this.denied, DENIED_POS, at);
  }

  /** An error response, or a response whose result is rejected, (at `at`) to an intercept of the event `eventKey`. */
  failedResponse(eventKey: Hash64 | undefined, at: Mark): void {
    if (eventKey === undefined) return;
    const s = this.rows.slot(eventKey);
    // after a hook.failure the interception is settled: a late failure changes nothing
    if (s !== undefined && !this.noted(s, FAILURE_POS)) this.refuse(s, this.failed, FAILED_POS, at);
  }

  private addCall(callKey: Hash64, beforeKey: Hash64, session: number | undefined): void {
    const c = this.calls;
    if (c.slot(callKey) !== undefined) return;
    if (c.size >= this.budget.opts.maxEvents) c.forgetOldest();
    const x = c.add(callKey);
    c.setU(x, CALL_U32.hi, beforeKey.hi);
    c.setU(x, CALL_U32.lo, beforeKey.lo);
    c.setU(x, CALL_U32.session, session ?? 0);
    c.setU(x, CALL_U32.hasSession, session === undefined ? 0 : 1);
  }

  /**
   * The row of the `tool.before` event held for the call `callKey` (`(source, call id)`), or undefined; with `scope` and
   * `call`, the before of that call in the event's session first, and never a before of another session: no sentence
   * makes a call id unique across sessions (a call there is another call).
   */
  private beforeOfCall(callKey: Hash64 | undefined, scope?: MessageScope, call?: string): number | undefined {
    if (callKey === undefined || this.calls.size === 0) return undefined;
    const c = this.calls;
    const own = scope && call !== undefined ? sessionCallKey(scope, call) : undefined;
    const y = own === undefined ? undefined : c.slot(own);
    if (y !== undefined) return this.rows.slot({ hi: c.getU(y, CALL_U32.hi), lo: c.getU(y, CALL_U32.lo) });
    const x = c.slot(callKey);
    if (x === undefined) return undefined;
    const session = scope && c.getU(x, CALL_U32.hasSession) ? sessionOf(scope) : undefined;
    if (session !== undefined && session !== c.getU(x, CALL_U32.session)) return undefined;
    return this.rows.slot({ hi: c.getU(x, CALL_U32.hi), lo: c.getU(x, CALL_U32.lo) });
  }

  /** Facts of an event naming a parent: a denied before of an after, a parent that is a call id. */
  private parented(scope: MessageScope, facts: DecisionFacts): void {
    const ev = scope.ev;
    const ps = scope.parentSlot();
    if (ps === undefined) {
      // no event of that id is held: a call id there is a call, never an event (task-workspace-lineage.md §Lineage)
      const parent = ev.parentEventId;
      if (typeof parent !== 'string') return;
      if (parent === callIdOf(ev)) facts.parentIsCall = { own: true };
      else {
        const bs = this.beforeOfCall(scope.parentKey);
        if (bs !== undefined) facts.parentIsCall = { call: this.rows.markAt(bs), own: false };
      }
      return;
    }
    const beforeType = DENIED_AFTERS.get(ev.type);
    if (beforeType !== undefined && this.identity.isType(ps, beforeType)) {
      const deniedAt = this.deniedAt(ps);
      if (deniedAt) facts.changeAfterDenied = { before: this.rows.markAt(ps), beforeType, deniedAt };
    }
  }

  /** Facts of a `tool.after` or `tool.progress`: its before's call id, whether its call was refused and ran. */
  private toolResult(scope: MessageScope, facts: DecisionFacts): void {
    const ev = scope.ev;
    const ps = ev.parentEventId === undefined ? undefined : scope.parentSlot();
    let bs: number | undefined;
    if (ps !== undefined && this.identity.isType(ps, 'tool.before')) {
      bs = ps;
      if (this.identity.differs(ps, scope, ['call.id']).length) facts.callMismatch = { before: this.rows.markAt(ps) };
    } else {
      const call = callIdOf(ev);
      bs = this.beforeOfCall(call === undefined ? undefined : scope.idKey(call), scope, call);
    }
    this.ran(bs, ev, facts);
  }

  /** Facts of the `calls` of a `tool.batch.after`, each resolved call found by its call id (execution-payloads.md). */
  private batchResult(scope: MessageScope, calls: readonly unknown[], facts: DecisionFacts): void {
    for (let i = 0; i < calls.length; i++) {
      const c = calls[i];
      const call = isObj(c) ? callIdOf(c) : undefined;
      if (call !== undefined) this.ran(this.beforeOfCall(scope.idKey(call), scope, call), c as Obj, facts, i);
    }
  }

  /** A refusal of the before of row `bs` that the call `ev` shows ran, into `facts`. */
  private ran(bs: number | undefined, ev: Obj, facts: DecisionFacts, entry?: number): void {
    if (bs === undefined) return;
    const ran = ranAs(ev, entry !== undefined);
    if (ran === undefined) return;
    const deniedAt = this.deniedAt(bs);
    const failedAt = deniedAt ? undefined : this.failedAt(bs);
    const lateAt = deniedAt || failedAt ? undefined : this.noted(bs, LATE_POS);
    const at = deniedAt ?? failedAt ?? lateAt;
    if (at === undefined) return;
    const hit: CallRan = { before: this.rows.markAt(bs), at, ran, entry, ...(lateAt ? { late: true as const } : {}) };
    if (deniedAt) (facts.deniedCallRan ??= []).push(hit);
    else (facts.failedCallRan ??= []).push(hit);
  }
}
