/** A `fifo` table whose oldest half goes to sorted runs in unlinked scratch files past `memRows` (spill-base.ts). */

import type { Hash64 } from './canonical.ts';
import { type SpillSpec, SpillingTable } from './spill-base.ts';
import { BLOCK_ROWS, dropRun, findRecord, HEAD, readColumns, type Run, TWO32, writeAll } from './spill-runs.ts';
import { CompactTable } from './table.ts';

export type { SpillSpec } from './spill-base.ts';

/** Rows a table holds in memory before its oldest half spills (a few MB of rows). */
export const DEFAULT_SPILL_ROWS = 1 << 16;
/** What {@link SpillTable.slot} gives for a spilled row: valid (read and written through) until the next `slot` or `add`. */
export const SPILLED = -1;

/** A `fifo` key -> row table that spills its oldest rows to scratch files (see the module comment). */
export class SpillTable extends SpillingTable {
  /** The spilled row the last `slot` found: its file, byte position and arrival number (`hitFd` -1: none). */
  private hitFd = -1;
  private hitPos = 0;
  private hitOrd = 0;
  private readonly f64 = new Float64Array(1);
  private readonly f64Words = new Uint32Array(this.f64.buffer);

  constructor(spec: SpillSpec) {
    super(new CompactTable({ u32: spec.u32, f64: spec.f64, fifo: true, load: spec.load }), spec, DEFAULT_SPILL_ROWS);
    // written twice: see SpillingTable's constructor
    this.hitFd = this.hitPos = this.hitOrd = 1;
    this.hitFd = -1;
    this.hitPos = this.hitOrd = 0;
  }

  get size(): number {
    return this.mem.size + this.spilledEnd - this.floor;
  }

  /** Bytes the spilled rows leave in memory (Bloom filters and sparse indexes). */
  spilledBytes(): number {
    return this.runBytes();
  }

  /** The row of `key` in memory, {@link SPILLED} when it was spilled, `undefined` when not held. */
  slot(key: Hash64): number | undefined {
    const s = this.mem.slot(key);
    if (s !== undefined || this.runs.length === 0) return s;
    const { hi, lo } = key;
    for (let i = this.runs.length - 1; i >= 0; i--) if (this.find(this.runs[i]!, hi, lo)) return SPILLED;
    return undefined;
  }

  /** A zeroed row for `key`, known not held; at the cap the oldest entries go first (`forgot`). */
  add(key: Hash64): number {
    this.forgot = 0;
    this.hitFd = -1;
    if (this.size >= this.limit) for (let n = 0; n < this.batch && this.forgetOldest(); n++) this.forgot++;
    if (this.mem.size >= this.memRows) this.spill();
    return this.mem.add(key);
  }

  /** Forget the oldest entry held; false when none is held. */
  forgetOldest(): boolean {
    if (this.runs.length === 0) {
      if (!this.mem.forgetOldest()) return false;
      this.floor = ++this.spilledEnd;
      return true;
    }
    this.floor++;
    while (this.runs.length > 0 && this.floor >= this.runs[0]!.end) dropRun(this.fds, this.runs.shift()!);
    if (this.runs.length === 0) this.floor = this.spilledEnd;
    return true;
  }

  /** The key of the oldest entry held (`keyLog` tables once they spilled), `undefined` when none is held. */
  oldestKey(): Hash64 | undefined {
    if (this.runs.length === 0) {
      const s = this.mem.oldest();
      return s === undefined ? undefined : this.mem.keyAt(s);
    }
    if (!this.log) throw new Error('SpillTable: oldestKey needs keyLog');
    return this.log.keyAt(this.floor, this.spilledEnd);
  }

  /** The key of the row in memory at slot `s`. */
  keyAt(s: number): Hash64 {
    return this.mem.keyAt(s);
  }

  /** Forget `key` (no-op when not held); as in a `fifo` CompactTable, it throws unless `key` is the oldest entry. */
  delete(key: Hash64): void {
    const s = this.slot(key);
    if (s === undefined) return;
    const oldest = s === SPILLED ? this.hitOrd === this.floor : this.runs.length === 0 && s === this.mem.oldest();
    if (!oldest) throw new Error('SpillTable: a fifo table forgets its oldest entry only');
    this.forgetOldest();
  }

  setU(s: number, col: number, v: number): void {
    if (s >= 0) {
      this.mem.setU(s, col, v);
      return;
    }
    this.hitU[col] = v;
    writeAll(this.hitFdOrThrow(), this.hitU.subarray(col, col + 1), 1, this.hitPos + (HEAD + col) * 4);
  }

  setF(s: number, col: number, v: number): void {
    if (s >= 0) {
      this.mem.setF(s, col, v);
      return;
    }
    this.hitF[col] = v;
    this.f64[0] = v;
    writeAll(this.hitFdOrThrow(), this.f64Words, 2, this.hitPos + (HEAD + this.nu + 2 * col) * 4);
  }

  /** Release the scratch files (the table reads as empty after). */
  close(): void {
    while (this.runs.length > 0) dropRun(this.fds, this.runs.pop()!);
    this.floor = this.spilledEnd;
    this.log?.close();
  }

  private hitFdOrThrow(): number {
    if (this.hitFd < 0) throw new Error('SpillTable: a spilled row is written after another lookup');
    return this.hitFd;
  }

  /** True (the row in `hitU` / `hitF`) when `run` holds the key, not forgotten. */
  private find(r: Run, hi: number, lo: number): boolean {
    const w = this.words;
    const row = findRecord(r, w, hi, lo, this.block);
    if (row < 0) return false;
    const k = this.block;
    const o = (row % BLOCK_ROWS) * w;
    const ord = k[o + 2]! * TWO32 + k[o + 3]!;
    if (ord < this.floor) return false;
    readColumns(k, o, this.hitU, this.hitF);
    this.hitOrd = ord;
    this.hitFd = r.fd;
    this.hitPos = row * w * 4;
    return true;
  }

  private spill(): void {
    if (this.spillOldestHalf() === 0) return;
    this.mergeAndFit((ord) => ord >= this.floor);
  }
}
