/**
 * Compact memory of the AEP stream state: for a 64-bit key (cut from SHA-256, see
 * canonical.ts) a fixed row of small numbers, in open-addressing tables over typed arrays. The
 * tracker keeps here the identity of every event (id-table.ts builds on this table), and what
 * the rules still need after state is released: ended sessions (their `session.ended` and
 * ordering high-water mark), run terminals, attention request terminals and ack decisions. No
 * strings and no objects are held per entry.
 *
 * Memory per entry: 8 bytes of key, 4 bytes per `u32` column, 8 bytes per `f64` column and one
 * occupancy byte, over slots at most 3/4 full (e.g. a marker with 3 `u32` and 1 `f64` columns
 * is 29 bytes a slot, about 39 bytes an entry).
 *
 * Growth is incremental: a generation is {@link SHARDS} tables chosen by the top bits of the
 * key, each doubling on its own, so rehashing never holds two copies of a whole generation.
 *
 * Bounded: new entries go to the young generation; when it holds `cap / 2` entries it becomes
 * the old one and the previous old one is forgotten. So at most `cap` entries are held, the
 * most recent `cap / 2` at least, and forgetting is oldest first, half a cap at a time (no
 * per-entry deletion, hence no tombstones). {@link MarkerTable.put} says when it forgot
 * entries, so the caller can report the cap.
 */
import type { Hash64 } from './id-table.ts';

const MIN_CAPACITY = 64;
const SHARD_BITS = 6;
/** Tables per generation. */
export const SHARDS = 1 << SHARD_BITS;

/** One open-addressing table (linear probing; `used[i]` marks an occupied slot). */
class Shard {
  size = 0;
  cap: number;
  used: Uint8Array;
  kh: Uint32Array;
  kl: Uint32Array;
  u: Uint32Array[];
  f: Float64Array[];

  constructor(
    private readonly nu: number,
    private readonly nf: number,
    capacity = MIN_CAPACITY,
  ) {
    this.cap = capacity;
    this.used = new Uint8Array(capacity);
    this.kh = new Uint32Array(capacity);
    this.kl = new Uint32Array(capacity);
    this.u = Array.from({ length: nu }, () => new Uint32Array(capacity));
    this.f = Array.from({ length: nf }, () => new Float64Array(capacity));
  }

  slot(key: Hash64): number {
    const mask = this.cap - 1;
    let i = key.lo & mask;
    while (this.used[i] !== 0 && (this.kh[i] !== key.hi || this.kl[i] !== key.lo)) i = (i + 1) & mask;
    return i;
  }

  read(i: number): MarkerRow {
    return { u: this.u.map((c) => c[i]), f: this.f.map((c) => c[i]) };
  }

  /** Insert or overwrite. Returns true when the key was new. */
  write(key: Hash64, row: MarkerRow): boolean {
    let i = this.slot(key);
    const fresh = this.used[i] === 0;
    if (fresh && (this.size + 1) * 4 > this.cap * 3) {
      this.grow();
      i = this.slot(key);
    }
    this.used[i] = 1;
    this.kh[i] = key.hi;
    this.kl[i] = key.lo;
    for (let c = 0; c < this.nu; c++) this.u[c][i] = row.u[c] ?? 0;
    for (let c = 0; c < this.nf; c++) this.f[c][i] = row.f[c] ?? 0;
    if (fresh) this.size++;
    return fresh;
  }

  private grow(): void {
    const next = new Shard(this.nu, this.nf, this.cap * 2);
    for (let i = 0; i < this.cap; i++) if (this.used[i]) next.write({ hi: this.kh[i], lo: this.kl[i] }, this.read(i));
    this.cap = next.cap;
    this.used = next.used;
    this.kh = next.kh;
    this.kl = next.kl;
    this.u = next.u;
    this.f = next.f;
  }
}

/** One generation: {@link SHARDS} shards, created on first use. */
class Generation {
  size = 0;
  private readonly shards: (Shard | undefined)[] = new Array(SHARDS);

  constructor(
    private readonly nu: number,
    private readonly nf: number,
  ) {}

  get(key: Hash64): MarkerRow | undefined {
    const s = this.shards[key.hi >>> (32 - SHARD_BITS)];
    if (!s) return undefined;
    const i = s.slot(key);
    return s.used[i] ? s.read(i) : undefined;
  }

  has(key: Hash64): boolean {
    const s = this.shards[key.hi >>> (32 - SHARD_BITS)];
    return s !== undefined && s.used[s.slot(key)] !== 0;
  }

  write(key: Hash64, row: MarkerRow): void {
    if ((this.shards[key.hi >>> (32 - SHARD_BITS)] ??= new Shard(this.nu, this.nf)).write(key, row)) this.size++;
  }
}

/** One entry's values: `u` the 32-bit unsigned columns, `f` the float64 columns. */
export interface MarkerRow {
  u: number[];
  f: number[];
}

/** A capped 64-bit-key -> fixed-row table (see the module comment). */
export class MarkerTable {
  private young: Generation;
  private old: Generation | undefined;
  private readonly genCap: number;
  /** False when `cap` is 1: one generation only, so the cap holds. */
  private readonly keepOld: boolean;

  /** `nu` unsigned 32-bit columns and `nf` float64 columns per entry; at most `cap` entries. */
  constructor(
    private readonly nu: number,
    private readonly nf: number,
    cap: number,
  ) {
    this.genCap = Math.max(1, Math.floor(cap / 2));
    this.keepOld = this.genCap * 2 <= cap;
    this.young = new Generation(nu, nf);
  }

  /** Entries held now (an entry rewritten after its generation aged may count twice). */
  get size(): number {
    return this.young.size + (this.old?.size ?? 0);
  }

  /** The row of `key`, if remembered (the young generation's row wins). */
  get(key: Hash64): MarkerRow | undefined {
    if (this.size === 0) return undefined;
    return this.young.get(key) ?? this.old?.get(key);
  }

  /** Remember (or overwrite) `key`. Returns true when older entries were forgotten to make room. */
  put(key: Hash64, row: MarkerRow): boolean {
    let forgot = false;
    if (this.young.size >= this.genCap && !this.young.has(key)) {
      forgot = (this.keepOld ? this.old?.size ?? 0 : this.young.size) > 0;
      this.old = this.keepOld ? this.young : undefined;
      this.young = new Generation(this.nu, this.nf);
    }
    this.young.write(key, row);
    return forgot;
  }
}
