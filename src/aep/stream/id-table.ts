/**
 * The identity memory of the stream rules: for each `(source, id)` seen, a 64-bit content
 * digest and where the event was (AEP-0001 §7.4: dedupe on `(source, id)`).
 *
 * Compact by construction: a `(source, id)` key is kept as a 64-bit hash, never as strings,
 * in open-addressing tables over typed arrays (24 bytes a slot, at most 3/4 full), so the
 * default cap of 5 million ids costs about 200 MB at most, not gigabytes of Map entries.
 * Keys are cut from SHA-256: a crafted stream cannot aim for false matches, and an accidental
 * one among 5 million ids has odds of about 1 in 10^6. The content is kept as one of:
 * - `digest`: 64 bits of the SHA-256 of the canonical event (inputs that cannot be read again);
 * - `line`: where the line is in a regular file and its FNV-1a fingerprint; the tracker reads
 *   the line back when its `(source, id)` repeats and compares exactly. Packed into the same 24
 *   bytes: offset low 32 bits in one column, offset high 15 bits and a 16-bit file index beside
 *   the entry-kind bit in the file column (so lines at offsets up to 2^47 of the first 65,536
 *   inputs; the tracker keeps digests for anything beyond).
 *
 * Bounded by `maxIds`, with generations: new entries go to the young table; when it holds
 * `maxIds / 2` entries it becomes the old table and the previous old table is forgotten. So
 * at most `maxIds` entries are held, the most recent `maxIds / 2` at least, and forgetting
 * happens oldest first, half a cap at a time (no per-entry deletion, hence no tombstones).
 */

/** A 64-bit hash as two 32-bit halves. */
export interface Hash64 {
  hi: number;
  lo: number;
}

/** Hash64 from the first 8 bytes of a digest. */
export function hash64(digest: Uint8Array): Hash64 {
  return {
    hi: ((digest[0] << 24) | (digest[1] << 16) | (digest[2] << 8) | digest[3]) >>> 0,
    lo: ((digest[4] << 24) | (digest[5] << 16) | (digest[6] << 8) | digest[7]) >>> 0,
  };
}

/** What the table remembers about the first event of a `(source, id)`. */
export type IdEntry = {
  /** 1-based line. */
  line: number;
  /** Index of the input (see {@link AepIdTable.fileIndex}); below {@link MAX_LINE_FILES} for `line` entries. */
  file: number;
} & (
  | { kind: 'digest'; content: Hash64 }
  | {
      kind: 'line';
      /** FNV-1a of the line's text (tells that the line read back is still the one read). */
      fnv: number;
      /** Byte offset of the line start, below {@link MAX_LINE_OFFSET}. */
      byteOffset: number;
    }
);

/** `line` entries: input indexes below this (16 bits). */
export const MAX_LINE_FILES = 0x10000;
/** `line` entries: byte offsets below this (47 bits). */
export const MAX_LINE_OFFSET = 2 ** 47;
const LINE_KIND = 0x80000000;
const TWO32 = 2 ** 32;

function unpack(ch: number, cl: number, line: number, f: number): IdEntry {
  if (!(f & LINE_KIND)) return { kind: 'digest', content: { hi: ch, lo: cl }, line, file: f };
  return { kind: 'line', fnv: ch, byteOffset: ((f >>> 16) & 0x7fff) * TWO32 + cl, line, file: f & 0xffff };
}

const MIN_CAPACITY = 256;

/** One open-addressing hash table (linear probing; a slot is empty when its line is 0). */
class Shard {
  size = 0;
  private cap: number;
  private kh: Uint32Array;
  private kl: Uint32Array;
  private ch: Uint32Array;
  private cl: Uint32Array;
  private line: Uint32Array;
  private file: Uint32Array;

  constructor(capacity = MIN_CAPACITY) {
    this.cap = capacity;
    this.kh = new Uint32Array(capacity);
    this.kl = new Uint32Array(capacity);
    this.ch = new Uint32Array(capacity);
    this.cl = new Uint32Array(capacity);
    this.line = new Uint32Array(capacity);
    this.file = new Uint32Array(capacity);
  }

  private slot(key: Hash64): number {
    const mask = this.cap - 1;
    let i = key.lo & mask;
    while (this.line[i] !== 0 && (this.kh[i] !== key.hi || this.kl[i] !== key.lo)) i = (i + 1) & mask;
    return i;
  }

  get(key: Hash64): IdEntry | undefined {
    const i = this.slot(key);
    if (this.line[i] === 0) return undefined;
    return unpack(this.ch[i], this.cl[i], this.line[i], this.file[i]);
  }

  /** Insert a key known to be absent. */
  add(key: Hash64, e: IdEntry): void {
    if ((this.size + 1) * 4 > this.cap * 3) this.grow();
    const i = this.slot(key);
    this.kh[i] = key.hi;
    this.kl[i] = key.lo;
    if (e.kind === 'digest') {
      this.ch[i] = e.content.hi;
      this.cl[i] = e.content.lo;
      this.file[i] = e.file & 0x7fffffff;
    } else {
      this.ch[i] = e.fnv;
      this.cl[i] = e.byteOffset % TWO32;
      this.file[i] = (LINE_KIND | (Math.floor(e.byteOffset / TWO32) << 16) | e.file) >>> 0;
    }
    this.line[i] = Math.max(1, Math.min(e.line, 0xffffffff));
    this.size++;
  }

  private grow(): void {
    const old = { kh: this.kh, kl: this.kl, ch: this.ch, cl: this.cl, line: this.line, file: this.file, cap: this.cap };
    const next = new Shard(this.cap * 2);
    for (let i = 0; i < old.cap; i++) {
      if (old.line[i] === 0) continue;
      next.add({ hi: old.kh[i], lo: old.kl[i] }, unpack(old.ch[i], old.cl[i], old.line[i], old.file[i]));
    }
    Object.assign(this, { cap: next.cap, kh: next.kh, kl: next.kl, ch: next.ch, cl: next.cl, line: next.line, file: next.file });
  }
}

/** Shards per generation, chosen by the top bits of a key. */
const SHARD_BITS = 6;

/**
 * One generation: {@link SHARD_BITS}-bit sharded tables. Sharding keeps growth incremental: a
 * shard doubles on its own, so rehashing never holds two copies of the whole generation (at a
 * million ids a single table would briefly hold 72 MB instead of 48 MB).
 */
class Generation {
  size = 0;
  private readonly shards: (Shard | undefined)[] = new Array(1 << SHARD_BITS);

  get(key: Hash64): IdEntry | undefined {
    return this.shards[key.hi >>> (32 - SHARD_BITS)]?.get(key);
  }

  /** Insert a key known to be absent. */
  add(key: Hash64, e: IdEntry): void {
    (this.shards[key.hi >>> (32 - SHARD_BITS)] ??= new Shard()).add(key, e);
    this.size++;
  }
}

/** The `(source, id)` -> first-occurrence memory, capped at `maxIds` entries. */
export class AepIdTable {
  private young = new Generation();
  private old: Generation | undefined;
  private readonly genCap: number;
  private readonly keepOld: boolean;
  private readonly files: string[] = [];
  private readonly fileIds = new Map<string, number>();

  constructor(readonly maxIds: number) {
    this.genCap = Math.max(1, Math.floor(maxIds / 2));
    this.keepOld = this.genCap * 2 <= maxIds;
  }

  /** Entries held now (at most `maxIds`). */
  get size(): number {
    return this.young.size + (this.old?.size ?? 0);
  }

  /** A small integer for an input name (inputs are few; names are stored once). */
  fileIndex(name: string): number {
    let i = this.fileIds.get(name);
    if (i === undefined) {
      i = this.files.length;
      this.files.push(name);
      this.fileIds.set(name, i);
    }
    return i;
  }

  /** The input name of a file index. */
  fileName(i: number): string {
    return this.files[i] ?? '';
  }

  /** The first occurrence of `key`, if still remembered. */
  get(key: Hash64): IdEntry | undefined {
    return this.young.get(key) ?? this.old?.get(key);
  }

  /**
   * Remember the first occurrence of an absent `key`. Returns true when this forgot older
   * entries (the cap was reached).
   */
  add(key: Hash64, e: IdEntry): boolean {
    let forgot = false;
    if (this.young.size >= this.genCap) {
      forgot = (this.keepOld ? this.old?.size ?? 0 : this.young.size) > 0;
      this.old = this.keepOld ? this.young : undefined;
      this.young = new Generation();
    }
    this.young.add(key, e);
    return forgot;
  }
}
