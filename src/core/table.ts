/**
 * CompactTable: the memory-capped tables of both protocols' analyzers: a 64-bit key (Hash64) -> a row of u32 / f64
 * columns in typed arrays, in chunks (growth never copies), with a bucket-chain index. With `cap`: `oldest` forgets one
 * per new entry, `half` (AEP `--max-ids`) the oldest half. A `fifo` table only ever loses its oldest entry and keeps no
 * order links.
 */
import type { Hash64 } from './canonical.ts';

export type { Hash64 } from './canonical.ts';

const CHUNK_BITS = 10;
/** Rows per chunk of row storage. */
export const CHUNK_ROWS = 1 << CHUNK_BITS;
const CHUNK_MASK = CHUNK_ROWS - 1;
/** Bucket heads of a new table (a power of two). */
export const MIN_BUCKETS = 16;
/** The link chunks' words a row (none in `fifo` tables): previous and next row in insertion order (+1; 0: none). */
const PREV = 0;
const NEXT = 1;
const LINKS = 2;
/** Words per row of the key chunks: the key's `lo` and `hi`, and the next row + 1 in its bucket (0: none). */
const KEY_WORDS = 3;
const K_LO = 0;
const K_HI = 1;
const K_CHAIN = 2;

/** The shape of a table: column counts and the cap (see the module comment). */
export interface TableSpec {
  /** Unsigned 32-bit columns per row (the caller names them, e.g. `EVENT_U32.line`). */
  u32: number;
  f64: number;
  /** Most entries held (omitted: the caller bounds the table). */
  cap?: number;
  /** How many go at the cap (default `'oldest'`: one). */
  forget?: 'oldest' | 'half';
  /** Entries go only oldest first (the cap, {@link CompactTable.forgetOldest}); `put` and `delete` of others throw. */
  fifo?: boolean;
  /** Most keys a bucket on average before the index doubles (default 1); 2 halves the bucket heads. */
  load?: 1 | 2;
}

/** A 64-bit-key -> fixed-row table (see the module comment). */
export class CompactTable {
  private readonly nu: number;
  private readonly nf: number;
  private readonly fifo: boolean;
  /** `fifo`: chunks in row order (oldest first), emptied chunks to reuse, and the first live / next free row in the first / last. */
  private readonly ring: number[] = [];
  private readonly spare: number[] = [];
  private headOff = 0;
  private tailOff = CHUNK_ROWS;
  private readonly u: Uint32Array[] = [];
  private readonly f: Float64Array[] = [];
  /** Per chunk: {@link LINKS} words a row (not in a `fifo` table). */
  private readonly l: Uint32Array[] = [];
  /** Per chunk: {@link KEY_WORDS} words a row. */
  private readonly k: Uint32Array[] = [];
  /** Bucket heads: row + 1 of the first row whose key's `lo` falls in the bucket (0: none). */
  private heads = new Uint32Array(MIN_BUCKETS);
  private count = 0;
  /** Rows ever handed out (the next fresh row). */
  private top = 0;
  /** First free row + 1 (freed rows chain through their NEXT link). */
  private freeHead = 0;
  /** Oldest and newest row + 1 (0: empty). */
  private head = 0;
  private tail = 0;
  private readonly limit: number;
  private readonly batch: number;
  private readonly load: number;
  forgot = 0;

  constructor(spec: TableSpec) {
    this.fifo = spec.fifo === true;
    this.load = spec.load ?? 1;
    this.nu = spec.u32;
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
   * Bytes the entries take now: the run's memory measure (src/core/state-budget.ts). Per row its columns, key (8), order
   * links (8), chain link (4) and share of the bucket heads (4 bytes a bucket, 1 to 2 buckets a row: about 7). A `fifo`
   * table's rows are counted with the links they no longer have (8 bytes over), so the budget forgets where it did.
   */
  bytes(): number {
    return this.count * this.rowBytes;
  }

  /** The bytes {@link bytes} counts a row. */
  get rowBytes(): number {
    return 16 + 4 * this.nu + 8 * this.nf + 11;
  }

  /** Rows allocated (the high-water mark of entries held at once, rounded up to whole chunks). */
  get allocated(): number {
    return this.u.length * CHUNK_ROWS;
  }

  slot(key: Hash64): number | undefined {
    const lo = key.lo;
    const hi = key.hi;
    for (let r = this.heads[lo & (this.heads.length - 1)]!; r !== 0; ) {
      const s = r - 1;
      const k = this.k[s >>> CHUNK_BITS]!;
      const o = (s & CHUNK_MASK) * KEY_WORDS;
      if (k[o + K_LO] === lo && k[o + K_HI] === hi) return s;
      r = k[o + K_CHAIN]!;
    }
    return undefined;
  }

  /** A zeroed row for `key`, known not held (else `put`); at the cap the oldest entries go first (`forgot`). */
  add(key: Hash64): number {
    this.forgot = 0;
    if (this.count >= this.limit) {
      for (let n = 0; n < this.batch && this.count > 0; n++) {
        this.remove(this.oldest()!);
        this.forgot++;
      }
    }
    if (this.count >= this.heads.length * this.load) this.growIndex();
    const s = this.fifo ? this.ringRow() : this.allocRow();
    const k = this.k[s >>> CHUNK_BITS]!;
    const ko = (s & CHUNK_MASK) * KEY_WORDS;
    k[ko + K_LO] = key.lo;
    k[ko + K_HI] = key.hi;
    if (!this.fifo) {
      const c = this.l[s >>> CHUNK_BITS]!;
      const o = (s & CHUNK_MASK) * LINKS;
      c[o + PREV] = this.tail;
      c[o + NEXT] = 0;
      if (this.tail !== 0) this.setLink(this.tail - 1, NEXT, s + 1);
      else this.head = s + 1;
      this.tail = s + 1;
    }
    this.count++;
    const b = key.lo & (this.heads.length - 1);
    k[ko + K_CHAIN] = this.heads[b]!;
    this.heads[b] = s + 1;
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
    if (this.fifo) return this.count === 0 ? undefined : this.ring[0]! * CHUNK_ROWS + this.headOff;
    return this.head === 0 ? undefined : this.head - 1;
  }

  /** The row of the entry put next after row `s` (not in a `fifo` table); `undefined` after the newest. */
  newer(s: number): number | undefined {
    const n = this.l[s >>> CHUNK_BITS]![(s & CHUNK_MASK) * LINKS + NEXT]!;
    return n === 0 ? undefined : n - 1;
  }

  /** The rows of the `n` oldest entries (`n` at most {@link size}), oldest first, into `out`. */
  oldestSlots(out: Uint32Array, n: number): void {
    if (this.fifo) {
      for (let i = 0; i < n; i++) out[i] = this.fifoSlot(i);
      return;
    }
    for (let i = 0, s = this.oldest(); i < n; i++, s = this.newer(s!)) out[i] = s!;
  }

  /** The row of a `fifo` table's `i`-th oldest entry (`i` below {@link size}). */
  fifoSlot(i: number): number {
    const j = this.headOff + i;
    return this.ring[j >>> CHUNK_BITS]! * CHUNK_ROWS + (j & CHUNK_MASK);
  }

  /** The key's `hi` word of row `s` (with {@link keyLo}: the key without a pair allocated). */
  keyHi(s: number): number {
    return this.k[s >>> CHUNK_BITS]![(s & CHUNK_MASK) * KEY_WORDS + K_HI]!;
  }

  keyLo(s: number): number {
    return this.k[s >>> CHUNK_BITS]![(s & CHUNK_MASK) * KEY_WORDS + K_LO]!;
  }

  /** The key of row `s` (allocates the pair; for the rare paths that need it). */
  keyAt(s: number): Hash64 {
    const k = this.k[s >>> CHUNK_BITS]!;
    const o = (s & CHUNK_MASK) * KEY_WORDS;
    return { hi: k[o + K_HI]!, lo: k[o + K_LO]! };
  }

  getU(s: number, col: number): number {
    return this.u[s >>> CHUNK_BITS]![(s & CHUNK_MASK) * this.nu + col]!;
  }

  setU(s: number, col: number, v: number): void {
    this.u[s >>> CHUNK_BITS]![(s & CHUNK_MASK) * this.nu + col] = v;
  }

  getF(s: number, col: number): number {
    return this.f[s >>> CHUNK_BITS]![(s & CHUNK_MASK) * this.nf + col]!;
  }

  setF(s: number, col: number, v: number): void {
    this.f[s >>> CHUNK_BITS]![(s & CHUNK_MASK) * this.nf + col] = v;
  }

  private setLink(s: number, which: number, v: number): void {
    this.l[s >>> CHUNK_BITS]![(s & CHUNK_MASK) * LINKS + which] = v;
  }

  private allocRow(): number {
    if (this.freeHead !== 0) {
      const s = this.freeHead - 1;
      this.freeHead = this.l[s >>> CHUNK_BITS]![(s & CHUNK_MASK) * LINKS + NEXT]!;
      this.u[s >>> CHUNK_BITS]!.fill(0, (s & CHUNK_MASK) * this.nu, (s & CHUNK_MASK) * this.nu + this.nu);
      if (this.nf) this.f[s >>> CHUNK_BITS]!.fill(0, (s & CHUNK_MASK) * this.nf, (s & CHUNK_MASK) * this.nf + this.nf);
      return s;
    }
    const s = this.top++;
    if ((s & CHUNK_MASK) === 0) {
      this.u.push(new Uint32Array(CHUNK_ROWS * this.nu));
      this.f.push(new Float64Array(CHUNK_ROWS * this.nf));
      this.k.push(new Uint32Array(CHUNK_ROWS * KEY_WORDS));
      this.l.push(new Uint32Array(CHUNK_ROWS * LINKS));
    }
    return s;
  }

  /** A `fifo` table's next row: the next in the newest chunk, else the first of an emptied (zeroed) or a new chunk. */
  private ringRow(): number {
    if (this.tailOff === CHUNK_ROWS) {
      let p = this.spare.pop();
      if (p === undefined) {
        p = this.u.length;
        this.u.push(new Uint32Array(CHUNK_ROWS * this.nu));
        this.f.push(new Float64Array(CHUNK_ROWS * this.nf));
        this.k.push(new Uint32Array(CHUNK_ROWS * KEY_WORDS));
      } else {
        this.u[p]!.fill(0);
        this.f[p]!.fill(0);
      }
      this.ring.push(p);
      this.tailOff = 0;
    }
    return this.ring[this.ring.length - 1]! * CHUNK_ROWS + this.tailOff++;
  }

  /** Take the oldest row `s` of a `fifo` table out of the index and the ring (an emptied chunk waits for reuse). */
  private removeOldest(s: number): void {
    if (s !== this.oldest()) throw new Error('CompactTable: a fifo table forgets its oldest entry only');
    this.removeIndex(s);
    this.count--;
    if (this.count === 0) {
      this.spare.push(...this.ring);
      this.ring.length = 0;
      this.headOff = 0;
      this.tailOff = CHUNK_ROWS;
    } else if (++this.headOff === CHUNK_ROWS) {
      this.spare.push(this.ring.shift()!);
      this.headOff = 0;
    }
  }

  /** Unlink row `s` from the order, the index and give it back to the free rows. */
  private remove(s: number): void {
    if (this.fifo) {
      this.removeOldest(s);
      return;
    }
    const c = this.l[s >>> CHUNK_BITS]!;
    const o = (s & CHUNK_MASK) * LINKS;
    const prev = c[o + PREV]!;
    const next = c[o + NEXT]!;
    if (prev !== 0) this.setLink(prev - 1, NEXT, next);
    else this.head = next;
    if (next !== 0) this.setLink(next - 1, PREV, prev);
    else this.tail = prev;
    this.removeIndex(s);
    c[o + NEXT] = this.freeHead;
    this.freeHead = s + 1;
    this.count--;
  }

  /** Twice the buckets, the chains relinked in row order (rows stay put; a sequential walk, not a chase). */
  private growIndex(): void {
    const heads = new Uint32Array(this.heads.length * 2);
    const mask = heads.length - 1;
    if (this.fifo) {
      const last = this.ring.length - 1;
      for (let i = 0; i <= last; i++) {
        const p = this.ring[i]!;
        const k = this.k[p]!;
        for (let j = i === 0 ? this.headOff : 0, end = i === last ? this.tailOff : CHUNK_ROWS; j < end; j++) {
          const o = j * KEY_WORDS;
          const b = k[o + K_LO]! & mask;
          k[o + K_CHAIN] = heads[b]!;
          heads[b] = p * CHUNK_ROWS + j + 1;
        }
      }
    } else {
      // the index doubles only past the most entries ever held, so then no row is free: rows 0..top-1 are all held
      for (let s = 0; s < this.top; s++) {
        const k = this.k[s >>> CHUNK_BITS]!;
        const o = (s & CHUNK_MASK) * KEY_WORDS;
        const b = k[o + K_LO]! & mask;
        k[o + K_CHAIN] = heads[b]!;
        heads[b] = s + 1;
      }
    }
    this.heads = heads;
  }

  /** Unlink row `s` from its bucket's chain. */
  private removeIndex(s: number): void {
    const k = this.k[s >>> CHUNK_BITS]!;
    const o = (s & CHUNK_MASK) * KEY_WORDS;
    const next = k[o + K_CHAIN]!;
    const b = k[o + K_LO]! & (this.heads.length - 1);
    let r = this.heads[b]!;
    if (r === s + 1) {
      this.heads[b] = next;
      return;
    }
    for (;;) {
      const p = r - 1;
      const pk = this.k[p >>> CHUNK_BITS]!;
      const po = (p & CHUNK_MASK) * KEY_WORDS + K_CHAIN;
      r = pk[po]!;
      if (r === s + 1) {
        pk[po] = next;
        return;
      }
    }
  }
}

/** A 53-bit number of `key` for small JS maps beside a table; two keys share it with odds 2^-53. */
export function keyNumber(key: Hash64): number {
  return key.hi * 0x200000 + (key.lo >>> 11);
}
