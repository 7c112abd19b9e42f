/**
 * AHP event rows: one compact row per event `(source, id)` (flags, place, analyzers' columns, bits, attached tables),
 * forgotten oldest first with what is attached. Past `spillRows` the oldest half spills (src/core/spill-table.ts); a
 * spilled row is a handle (negative slot) valid until {@link EventRows.beginMessage}, written through.
 */
import type { Hash64 } from '../../core/canonical.ts';
import { KeyScreen } from '../../core/key-screen.ts';
import type { Mark } from '../../core/mark.ts';
import { SPILLED, SpillTable } from '../../core/spill-table.ts';
import type { StateHolder } from '../../core/state-budget.ts';
import type { CompactTable } from '../../core/table.ts';
import type { BudgetHolder, EventBudget } from './budget.ts';
import { spillRowsOf } from './options.ts';

/**
 * Estimated bytes of one event's state on any transport: an event row with its wide row (an input that cannot be read
 * back) is about this much. One figure for every input, so the memory budget forgets at the same event whether a file
 * or a pipe is read (test/invariants/); attached tables of the few events that have a row there are not counted.
 */
const EVENT_BYTES = 147;

/** The u32 column of every row: its flags word ({@link EventRows.claim}); analyzers' columns follow it. */
export const FLAGS = 0;

/** Bytes the key screen grows to at most once rows spill (the runs' Bloom filters answer past it). */
const SPILL_SCREEN_BYTES = 2 * 1024 * 1024;

/** A table keyed by event, whose entry goes when the row goes: when the row's flags hold one of `bits`. */
interface Attached {
  table: CompactTable;
  bits: number;
  /** The table is `fifo` and holds an entry for every row with `bits`, in row order: it forgets its oldest. */
  inOrder: boolean;
}

/** The event rows of one run (see the module comment). */
export class EventRows implements BudgetHolder, StateHolder {
  private readonly rows: SpillTable;
  /** Most events are a first occurrence: the screen answers them without the table's random reads. */
  private readonly seen: KeyScreen;
  /** Columns of a row: {@link FLAGS}, then the analyzers'. */
  private readonly cols: number;
  /** Handles of spilled rows (handle `h` is slot `-1 - h`; 0 is {@link peek}'s): key words, columns, position. */
  private readonly hk: number[] = [];
  private readonly hu: number[] = [];
  private readonly hf: number[] = [];
  private handles = 1;
  private readonly attached: Attached[] = [];
  private readonly listeners: ((key: Hash64) => void)[] = [];
  private nextBit = 0;
  /** Rows forgotten so far: a row looked up before it changed may be gone (scope.ts `parentSlot`). */
  forgotten = 0;

  /** `u32`: the columns analyzers declared, after {@link FLAGS}. */
  constructor(
    readonly budget: EventBudget,
    u32: number,
  ) {
    const memRows = spillRowsOf(budget.opts);
    this.cols = 1 + u32;
    this.rows = new SpillTable({ u32: this.cols, f64: 1, load: 2, memRows, keyLog: true });
    this.seen = new KeyScreen(memRows === Infinity ? Infinity : SPILL_SCREEN_BYTES);
  }

  /** A new message: the handles of spilled rows given so far are no longer valid. */
  beginMessage(): void {
    this.handles = 1;
  }

  /** Claim `width` bits of the flags word for one analyzer's use: their shift (claimed once, when the run is made). */
  claim(width = 1): number {
    const shift = this.nextBit;
    if (shift + width > 32) throw new Error('event rows: the flags word is full');
    this.nextBit += width;
    return shift;
  }

  /** A table keyed by event whose entry goes with a row whose flags hold one of `bits` (see {@link Attached}). */
  attach(table: CompactTable, bits: number, inOrder = false): CompactTable {
    this.attached.push({ table, bits, inOrder });
    return table;
  }

  /** Call `f` with the key of each row forgotten (analyzers that keep more of an event drop it). */
  onForget(f: (key: Hash64) => void): void {
    this.listeners.push(f);
  }

  held(): number {
    return this.rows.size;
  }

  /** The memory budget's measure: {@link EVENT_BYTES} per event, the same whatever the transport. */
  bytes(): number {
    return this.rows.size * EVENT_BYTES;
  }

  forgetOldest(): boolean {
    const r = this.rows;
    const k = r.oldestKey();
    if (k === undefined) return false;
    const flags = r.getU(r.slot(k)!, FLAGS);
    r.forgetOldest();
    this.forgotten++;
    for (let i = 0; i < this.attached.length; i++) {
      const a = this.attached[i]!;
      if ((flags & a.bits) === 0) continue;
      if (a.inOrder) a.table.forgetOldest();
      else a.table.delete(k);
    }
    for (let i = 0; i < this.listeners.length; i++) this.listeners[i]!(k);
    return true;
  }

  /** The row of `key`, or undefined; a spilled row's handle is valid until {@link beginMessage}. */
  slot(key: Hash64): number | undefined {
    if (!this.seen.mayHold(key)) return undefined;
    const s = this.rows.slot(key);
    return s === SPILLED ? this.handle(key, false) : s;
  }

  /** As {@link slot}, for a row read at once: a spilled row's handle is valid until the next `peek` only. */
  peek(key: Hash64): number | undefined {
    if (!this.seen.mayHold(key)) return undefined;
    const s = this.rows.slot(key);
    return s === SPILLED ? this.handle(key, true) : s;
  }

  /** A handle of the spilled row `key` just found (the one given this message, if any; `scratch`: {@link peek}'s). */
  private handle(key: Hash64, scratch: boolean): number {
    const { hk, hu, hf, cols } = this;
    let h = 0;
    if (!scratch) {
      for (h = 1; h < this.handles; h++) if (hk[2 * h] === key.hi && hk[2 * h + 1] === key.lo) return -1 - h;
      h = this.handles++;
    }
    hk[2 * h] = key.hi;
    hk[2 * h + 1] = key.lo;
    for (let c = 0; c < cols; c++) hu[h * cols + c] = this.rows.getU(SPILLED, c);
    hf[h] = this.rows.getF(SPILLED, 0);
    return -1 - h;
  }

  /** A new row for `key` (not held) at `at`, once the budget made room (undefined: it could not). */
  add(key: Hash64, at: Mark): number | undefined {
    if (!this.budget.makeRoom(at)) return undefined;
    const r = this.rows;
    this.seen.add(key, r.size);
    const s = r.add(key);
    r.setF(s, 0, this.budget.pos(at));
    return s;
  }

  keyAt(s: number): Hash64 {
    if (s >= 0) return this.rows.keyAt(s);
    const h = -1 - s;
    return { hi: this.hk[2 * h]!, lo: this.hk[2 * h + 1]! };
  }

  /** Where row `s`'s first occurrence was, as budget.ts `EventBudget.pos`. */
  pos(s: number): number {
    return s >= 0 ? this.rows.getF(s, 0) : this.hf[-1 - s]!;
  }

  markAt(s: number): Mark {
    return this.budget.markAt(this.pos(s));
  }

  flags(s: number): number {
    return this.getU(s, FLAGS);
  }

  has(s: number, bits: number): boolean {
    return (this.getU(s, FLAGS) & bits) !== 0;
  }

  set(s: number, bits: number): void {
    this.setU(s, FLAGS, (this.getU(s, FLAGS) | bits) >>> 0);
  }

  clear(s: number, bits: number): void {
    this.setU(s, FLAGS, (this.getU(s, FLAGS) & ~bits) >>> 0);
  }

  /** Column `col` of row `s` (an analyzer's own column: 1 and up). */
  getU(s: number, col: number): number {
    return s >= 0 ? this.rows.getU(s, col) : this.hu[(-1 - s) * this.cols + col]!;
  }

  /** Set column `col` of row `s`; a spilled row's is written through (unless it was forgotten since). */
  setU(s: number, col: number, v: number): void {
    if (s >= 0) {
      this.rows.setU(s, col, v);
      return;
    }
    const h = -1 - s;
    this.hu[h * this.cols + col] = v;
    if (this.rows.slot(this.keyAt(s)) === SPILLED) this.rows.setU(SPILLED, col, v);
  }
}
