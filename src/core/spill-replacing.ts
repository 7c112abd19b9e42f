/** A spilling table whose rows are rewritten (`put`) and deleted: a replaced spilled row is marked dead. */

import type { Hash64 } from './canonical.ts';
import { type SpillSpec, SpillingTable } from './spill-base.ts';
import { BLOCK_ROWS, dropRun, findRecord, readColumns, TWO32 } from './spill-runs.ts';
import { SPILLED } from './spill-table.ts';
import { CompactTable } from './table.ts';

/** Rows in memory before the oldest half spills, by default: a quarter of a fifo table's (asked at completions only). */
export const DEFAULT_REPLACING_ROWS = 1 << 14;

/** A key -> row table whose rewritten rows become the newest, spilling its oldest rows (see the module comment). */
export class ReplacingSpillTable extends SpillingTable {
  /** Spilled rows at or past the floor not marked dead. */
  private spilledLive = 0;
  /** Dead marks of arrival numbers from `deadBase` (a multiple of 32) on, a bit each. */
  private dead = new Uint32Array(0);
  private deadBase = 0;
  /** The arrival number of the spilled row the last lookup found (-1: none). */
  private hitOrd = -1;

  constructor(spec: SpillSpec) {
    super(new CompactTable({ u32: spec.u32, f64: spec.f64, load: spec.load }), spec, DEFAULT_REPLACING_ROWS);
    // written twice: see SpillingTable's constructor
    this.spilledLive = this.deadBase = this.hitOrd = 1;
    this.dead = new Uint32Array(0);
    this.spilledLive = this.deadBase = 0;
    this.hitOrd = -1;
  }

  get size(): number {
    return this.mem.size + this.spilledLive;
  }

  /** Bytes the spilled rows leave in memory (Bloom filters, sparse indexes, dead marks). */
  spilledBytes(): number {
    return this.dead.byteLength + this.runBytes();
  }

  /** The row of `key` in memory, {@link SPILLED} when spilled (read only, until the next call), `undefined`: not held. */
  slot(key: Hash64): number | undefined {
    const s = this.mem.slot(key);
    if (s !== undefined) return s;
    return this.findSpilled(key) ? SPILLED : undefined;
  }

  /** A zeroed row for `key`, known not held; at the cap the oldest entries go first (`forgot`). */
  add(key: Hash64): number {
    this.forgot = 0;
    if (this.size >= this.limit) for (let n = 0; n < this.batch && this.forgetOldest(); n++) this.forgot++;
    if (this.mem.size >= this.memRows) this.spill();
    return this.mem.add(key);
  }

  /** Like {@link add}, for a key that may be held: its entry is replaced and becomes the newest. */
  put(key: Hash64): number {
    this.delete(key);
    return this.add(key);
  }

  /** Forget `key` (no-op when not held). */
  delete(key: Hash64): void {
    const s = this.mem.slot(key);
    if (s !== undefined) this.mem.deleteSlot(s);
    else if (this.findSpilled(key)) {
      const i = this.hitOrd - this.deadBase;
      this.dead[i >>> 5]! |= 1 << (i & 31);
      this.spilledLive--;
      this.hitOrd = -1;
      this.trim();
    }
  }

  /** Forget the oldest entry held (the live spilled row of least arrival number, else memory's oldest); false: none. */
  forgetOldest(): boolean {
    if (this.spilledLive === 0) return this.mem.forgetOldest();
    this.floor++; // trim left the floor on a live row
    this.spilledLive--;
    this.hitOrd = -1;
    this.trim();
    return true;
  }

  /** The key of the oldest entry held (`keyLog` tables once they spilled), `undefined` when none is held. */
  oldestKey(): Hash64 | undefined {
    if (this.spilledLive === 0) {
      const s = this.mem.oldest();
      return s === undefined ? undefined : this.mem.keyAt(s);
    }
    if (!this.log) throw new Error('ReplacingSpillTable: oldestKey needs keyLog');
    return this.log.keyAt(this.floor, this.spilledEnd);
  }

  setU(s: number, col: number, v: number): void {
    if (s < 0) throw new Error('ReplacingSpillTable: a spilled row is rewritten by put');
    this.mem.setU(s, col, v);
  }

  setF(s: number, col: number, v: number): void {
    if (s < 0) throw new Error('ReplacingSpillTable: a spilled row is rewritten by put');
    this.mem.setF(s, col, v);
  }

  /** Release the scratch files (the spilled rows read as absent after). */
  close(): void {
    this.spilledLive = 0;
    this.trim();
    this.log?.close();
  }

  private isDead(ord: number): boolean {
    const i = ord - this.deadBase;
    return (this.dead[i >>> 5]! & (1 << (i & 31))) !== 0;
  }

  /** Move the floor past dead rows, and drop the runs wholly below it (all of them once no spilled row is live). */
  private trim(): void {
    if (this.spilledLive === 0) this.floor = this.spilledEnd;
    else while (this.isDead(this.floor)) this.floor++;
    while (this.runs.length > 0 && this.floor >= this.runs[0]!.end) dropRun(this.fds, this.runs.shift()!);
  }

  /** True (the row in `hitU` / `hitF`, its arrival number in `hitOrd`) when a live spilled row holds `key`. */
  private findSpilled(key: Hash64): boolean {
    if (this.spilledLive === 0) return false;
    const { hi, lo } = key;
    const w = this.words;
    // the newest copy decides: an older one was replaced or deleted (dead) or forgotten (below the floor)
    for (let i = this.runs.length - 1; i >= 0; i--) {
      const row = findRecord(this.runs[i]!, w, hi, lo, this.block);
      if (row < 0) continue;
      const k = this.block;
      const o = (row % BLOCK_ROWS) * w;
      const ord = k[o + 2]! * TWO32 + k[o + 3]!;
      if (ord < this.floor || this.isDead(ord)) return false;
      readColumns(k, o, this.hitU, this.hitF);
      this.hitOrd = ord;
      return true;
    }
    return false;
  }

  private spill(): void {
    const n = this.spillOldestHalf();
    if (n === 0) return;
    this.spilledLive += n;
    // the dead marks from the floor's word on, the new rows' unmarked
    const from = Math.floor(this.floor / 32);
    const dead = new Uint32Array(Math.ceil(this.spilledEnd / 32) - from);
    const keep = this.dead.subarray(from - this.deadBase / 32);
    dead.set(keep.subarray(0, Math.min(keep.length, dead.length)));
    this.dead = dead;
    this.deadBase = from * 32;
    this.mergeAndFit((ord) => ord >= this.floor && !this.isDead(ord));
  }
}
