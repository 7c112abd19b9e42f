/**
 * CompactTable: the memory-capped tables of both protocols' analyzers: a 64-bit key (Hash64) -> a row of u32 / f64
 * columns, all in typed arrays. Rows in chunks (growth never copies; slots stay valid), the index in SHARDS
 * linear-probing tables (≤ 3/4 full, deletion shifts back). With `cap`: `oldest` forgets one per new entry, `half` (AEP
 * `--max-ids`) the oldest half.
 */
import type { Hash64 } from './canonical.ts';

export type { Hash64 } from './canonical.ts';

const CHUNK_BITS = 10;
/** Rows per chunk of row storage. */
export const CHUNK_ROWS = 1 << CHUNK_BITS;
const CHUNK_MASK = CHUNK_ROWS - 1;
const SHARD_BITS = 6;
/** Index tables (shards), chosen by the top {@link SHARD_BITS} bits of a key's `hi` word. */
export const SHARDS = 1 << SHARD_BITS;
const MIN_SHARD = 16;
/** Internal u32 columns ahead of the caller's: previous and next row in insertion order (+1; 0: none). */
const PREV = 0;
const NEXT = 1;
const INTERNAL_U32 = 2;

/** The shape of a table: column counts and the cap (see the module comment). */
export interface TableSpec {
  /** Unsigned 32-bit columns per row (the caller names them, e.g. `EVENT_U32.line`). */
  u32: number;
  f64: number;
  /** Most entries held (omitted: the caller bounds the table). */
  cap?: number;
  /** How many go at the cap (default `'oldest'`: one). */
  forget?: 'oldest' | 'half';
}

/** One index shard: row + 1 per slot (0: empty), and the key's `lo` word beside it (a probe reads no row to skip). */
interface Shard {
  rows: Uint32Array;
  los: Uint32Array;
  size: number;
}

/** A 64-bit-key -> fixed-row table (see the module comment). */
export class CompactTable {
  private readonly nu: number;
  private readonly nf: number;
  private readonly u: Uint32Array[] = [];
  private readonly f: Float64Array[] = [];
  private readonly kl: Uint32Array[] = [];
  private readonly kh: Uint32Array[] = [];
  private readonly shards: (Shard | undefined)[] = new Array(SHARDS);
  private count = 0;
  /** Rows ever handed out (the next fresh row). */
  private top = 0;
  /** First free row + 1 (freed rows chain through their NEXT column). */
  private freeHead = 0;
  /** Oldest and newest row + 1 (0: empty). */
  private head = 0;
  private tail = 0;
  private readonly limit: number;
  private readonly batch: number;
  forgot = 0;

  constructor(spec: TableSpec) {
    this.nu = INTERNAL_U32 + spec.u32;
    this.nf = spec.f64;
    const cap = spec.cap ?? Infinity;
    if (spec.forget === 'half' && cap !== Infinity) {
      const half = Math.max(1, Math.floor(cap / 2));
      this.batch = half;
      this.limit = half * 2 <= cap ? half * 2 : half;
    } else {
      this.batch = 1;
      this.limit = Math.max(1, cap);
    }
  }

  get size(): number {
    return this.count;
  }

  /**
   * Bytes the entries take now, the index at its fullest: the run's memory measure (src/core/state-budget.ts). The
   * index is counted at 4 bytes a slot, as before its slots also held the key's low word (8 bytes), so the budget
   * forgets at the same events as it did.
   */
  bytes(): number {
    return this.count * (16 + 4 * (this.nu - INTERNAL_U32) + 8 * this.nf + 11);
  }

  /** Rows allocated (the high-water mark of entries held at once, rounded up to whole chunks). */
  get allocated(): number {
    return this.u.length * CHUNK_ROWS;
  }

  slot(key: Hash64): number | undefined {
    const sh = this.shards[key.hi >>> (32 - SHARD_BITS)];
    if (sh === undefined) return undefined;
    const idx = sh.rows;
    const los = sh.los;
    const lo = key.lo;
    const mask = idx.length - 1;
    for (let i = lo & mask; ; i = (i + 1) & mask) {
      const r = idx[i]!;
      if (r === 0) return undefined;
      if (los[i] !== lo) continue;
      const s = r - 1;
      if (this.kh[s >>> CHUNK_BITS]![s & CHUNK_MASK] === key.hi) return s;
    }
  }

  /** A zeroed row for `key`, known not held (else `put`); at the cap the oldest entries go first (`forgot`). */
  add(key: Hash64): number {
    this.forgot = 0;
    if (this.count >= this.limit) {
      for (let n = 0; n < this.batch && this.head !== 0; n++) {
        this.remove(this.head - 1);
        this.forgot++;
      }
    }
    const s = this.allocRow();
    const c = this.u[s >>> CHUNK_BITS]!;
    const o = (s & CHUNK_MASK) * this.nu;
    this.kh[s >>> CHUNK_BITS]![s & CHUNK_MASK] = key.hi;
    this.kl[s >>> CHUNK_BITS]![s & CHUNK_MASK] = key.lo;
    c[o + PREV] = this.tail;
    c[o + NEXT] = 0;
    if (this.tail !== 0) this.setLink(this.tail - 1, NEXT, s + 1);
    else this.head = s + 1;
    this.tail = s + 1;
    this.insertIndex(key.hi, key.lo, s);
    this.count++;
    return s;
  }

  /** Like {@link add}, for a key that may be held: its entry is replaced and becomes the newest. */
  put(key: Hash64): number {
    this.delete(key);
    return this.add(key);
  }

  /** Forget `key` (no-op when not held). */
  delete(key: Hash64): void {
    const s = this.slot(key);
    if (s !== undefined) this.remove(s);
  }

  deleteSlot(s: number): void {
    this.remove(s);
  }

  /** Forget the oldest entry held (a memory budget's step); false when none is held. */
  forgetOldest(): boolean {
    const s = this.oldest();
    if (s === undefined) return false;
    this.remove(s);
    return true;
  }

  oldest(): number | undefined {
    return this.head === 0 ? undefined : this.head - 1;
  }

  /** The key of row `s` (allocates the pair; for the rare paths that need it). */
  keyAt(s: number): Hash64 {
    return { hi: this.kh[s >>> CHUNK_BITS]![s & CHUNK_MASK]!, lo: this.kl[s >>> CHUNK_BITS]![s & CHUNK_MASK]! };
  }

  getU(s: number, col: number): number {
    return this.u[s >>> CHUNK_BITS]![(s & CHUNK_MASK) * this.nu + INTERNAL_U32 + col]!;
  }

  setU(s: number, col: number, v: number): void {
    this.u[s >>> CHUNK_BITS]![(s & CHUNK_MASK) * this.nu + INTERNAL_U32 + col] = v;
  }

  getF(s: number, col: number): number {
    return this.f[s >>> CHUNK_BITS]![(s & CHUNK_MASK) * this.nf + col]!;
  }

  setF(s: number, col: number, v: number): void {
    this.f[s >>> CHUNK_BITS]![(s & CHUNK_MASK) * this.nf + col] = v;
  }

  private setLink(s: number, which: number, v: number): void {
    this.u[s >>> CHUNK_BITS]![(s & CHUNK_MASK) * this.nu + which] = v;
  }

  private allocRow(): number {
    if (this.freeHead !== 0) {
      const s = this.freeHead - 1;
      const c = this.u[s >>> CHUNK_BITS]!;
      const o = (s & CHUNK_MASK) * this.nu;
      this.freeHead = c[o + NEXT]!;
      c.fill(0, o + INTERNAL_U32, o + this.nu);
      if (this.nf) this.f[s >>> CHUNK_BITS]!.fill(0, (s & CHUNK_MASK) * this.nf, (s & CHUNK_MASK) * this.nf + this.nf);
      return s;
    }
    const s = this.top++;
    if ((s & CHUNK_MASK) === 0) {
      this.u.push(new Uint32Array(CHUNK_ROWS * this.nu));
      this.f.push(new Float64Array(CHUNK_ROWS * this.nf));
      this.kl.push(new Uint32Array(CHUNK_ROWS));
      this.kh.push(new Uint32Array(CHUNK_ROWS));
    }
    return s;
  }

  /** Unlink row `s` from the order, the index and give it back to the free rows. */
  private remove(s: number): void {
    const c = this.u[s >>> CHUNK_BITS]!;
    const o = (s & CHUNK_MASK) * this.nu;
    const prev = c[o + PREV]!;
    const next = c[o + NEXT]!;
    if (prev !== 0) this.setLink(prev - 1, NEXT, next);
    else this.head = next;
    if (next !== 0) this.setLink(next - 1, PREV, prev);
    else this.tail = prev;
    this.removeIndex(this.kh[s >>> CHUNK_BITS]![s & CHUNK_MASK]!, this.kl[s >>> CHUNK_BITS]![s & CHUNK_MASK]!, s);
    c[o + NEXT] = this.freeHead;
    this.freeHead = s + 1;
    this.count--;
  }

  private insertIndex(hi: number, lo: number, s: number): void {
    const n = hi >>> (32 - SHARD_BITS);
    let sh = this.shards[n];
    if (sh === undefined)
      sh = this.shards[n] = { rows: new Uint32Array(MIN_SHARD), los: new Uint32Array(MIN_SHARD), size: 0 };
    else if ((sh.size + 1) * 4 > sh.rows.length * 3) this.growShard(sh);
    const idx = sh.rows;
    const mask = idx.length - 1;
    let i = lo & mask;
    while (idx[i] !== 0) i = (i + 1) & mask;
    idx[i] = s + 1;
    sh.los[i] = lo;
    sh.size++;
  }

  private growShard(sh: Shard): void {
    const old = sh.rows;
    const oldLos = sh.los;
    const idx = new Uint32Array(old.length * 2);
    const los = new Uint32Array(old.length * 2);
    const mask = idx.length - 1;
    for (let j = 0; j < old.length; j++) {
      const r = old[j]!;
      if (r === 0) continue;
      const lo = oldLos[j]!;
      let i = lo & mask;
      while (idx[i] !== 0) i = (i + 1) & mask;
      idx[i] = r;
      los[i] = lo;
    }
    sh.rows = idx;
    sh.los = los;
  }

  /** Take row `s` out of its shard, shifting the rest of its probe run back. */
  private removeIndex(hi: number, lo: number, s: number): void {
    const sh = this.shards[hi >>> (32 - SHARD_BITS)]!;
    const idx = sh.rows;
    const los = sh.los;
    const mask = idx.length - 1;
    let i = lo & mask;
    while (idx[i] !== s + 1) i = (i + 1) & mask;
    for (let j = (i + 1) & mask; idx[j] !== 0; j = (j + 1) & mask) {
      const home = los[j]! & mask;
      // move the entry at j into the hole at i unless its home lies cyclically in (i, j]
      if (i <= j ? home <= i || home > j : home <= i && home > j) {
        idx[i] = idx[j]!;
        los[i] = los[j]!;
        i = j;
      }
    }
    idx[i] = 0;
    sh.size--;
  }
}

/** A 53-bit number of `key` for small JS maps beside a table; two keys share it with odds 2^-53. */
export function keyNumber(key: Hash64): number {
  return key.hi * 0x200000 + (key.lo >>> 11);
}
