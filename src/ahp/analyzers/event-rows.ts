/**
 * The AHP event row store: one compact row per event `(source, id)` held, with its flags word, place and the columns
 * its analyzers declared, bits ({@link EventRows.claim}) and attached tables ({@link EventRows.attach}). Rows are
 * forgotten oldest first (`--max-events`, `--max-state-mb`) with their attached entries and {@link EventRows.onForget}
 * listeners.
 */
import type { Hash64 } from '../../core/canonical.ts';
import { KeyScreen } from '../../core/key-screen.ts';
import type { Mark } from '../../core/mark.ts';
import type { StateHolder } from '../../core/state-budget.ts';
import { CompactTable } from '../../core/table.ts';
import type { BudgetHolder, EventBudget } from './budget.ts';

/**
 * Estimated bytes of one event's state on any transport: an event row with its wide row (an input that cannot be read
 * back) is about this much. One figure for every input, so the memory budget forgets at the same event whether a file
 * or a pipe is read (test/invariants/); attached tables of the few events that have a row there are not counted.
 */
const EVENT_BYTES = 147;

/** The u32 column of every row: its flags word ({@link EventRows.claim}); analyzers' columns follow it. */
export const FLAGS = 0;

/** A table keyed by event, whose entry goes when the row goes: when the row's flags hold one of `bits`. */
interface Attached {
  table: CompactTable;
  bits: number;
  /** The table is `fifo` and holds an entry for every row with `bits`, in row order: it forgets its oldest. */
  inOrder: boolean;
}

/** The event rows of one run (see the module comment). */
export class EventRows implements BudgetHolder, StateHolder {
  private readonly rows: CompactTable;
  /** Most events are a first occurrence: the screen answers them without the table's random reads. */
  private readonly seen = new KeyScreen();
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
    this.rows = new CompactTable({ u32: 1 + u32, f64: 1, fifo: true, load: 2 });
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

  /** Rows allocated: the high-water mark of events held at once (rounded up to whole chunks of rows). */
  get allocated(): number {
    return this.rows.allocated;
  }

  /** The memory budget's measure: {@link EVENT_BYTES} per event, the same whatever the transport. */
  bytes(): number {
    return this.rows.size * EVENT_BYTES;
  }

  forgetOldest(): boolean {
    const r = this.rows;
    const s = r.oldest();
    if (s === undefined) return false;
    const k = r.keyAt(s);
    const flags = r.getU(s, FLAGS);
    r.deleteSlot(s);
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

  /** The row of `key`, or undefined. */
  slot(key: Hash64): number | undefined {
    return this.seen.mayHold(key) ? this.rows.slot(key) : undefined;
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
    return this.rows.keyAt(s);
  }

  /** Where row `s`'s first occurrence was, as budget.ts `EventBudget.pos`. */
  pos(s: number): number {
    return this.rows.getF(s, 0);
  }

  markAt(s: number): Mark {
    return this.budget.markAt(this.rows.getF(s, 0));
  }

  flags(s: number): number {
    return this.rows.getU(s, FLAGS);
  }

  has(s: number, bits: number): boolean {
    return (this.rows.getU(s, FLAGS) & bits) !== 0;
  }

  set(s: number, bits: number): void {
    this.rows.setU(s, FLAGS, (this.rows.getU(s, FLAGS) | bits) >>> 0);
  }

  clear(s: number, bits: number): void {
    this.rows.setU(s, FLAGS, (this.rows.getU(s, FLAGS) & ~bits) >>> 0);
  }

  /** Column `col` of row `s` (an analyzer's own column: 1 and up). */
  getU(s: number, col: number): number {
    return this.rows.getU(s, col);
  }

  setU(s: number, col: number, v: number): void {
    this.rows.setU(s, col, v);
  }
}
