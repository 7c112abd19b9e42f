/**
 * The sorted runs of the spilling tables (spill-base.ts): scratch files, records, Bloom filters, sparse indexes and the
 * spills' scratch arrays. spill-write.ts writes a run, spill-merge.ts merges runs.
 */
import { closeSync, openSync, readSync, unlinkSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Hash64 } from './canonical.ts';

/** Rows a block of the sparse index (one positioned read a hit). */
export const BLOCK_ROWS = 128;
/** Bloom filter bits a spilled row. */
export const BLOOM_BITS = 10;
/** Bloom filter probes a key (with {@link BLOOM_BITS}: false positives about 1%). */
export const BLOOM_PROBES = 7;
/** Words of a record before its columns: the key's `hi`, `lo`, the row's arrival number's high and low word. */
export const HEAD = 4;
/** 2^32: a record's arrival number is two words. */
export const TWO32 = 2 ** 32;
/** Most rows one spill sorts (its sort key packs the row's index in 21 bits). */
export const MAX_SPILL = 1 << 21;

/** One f64 and its two words, for copying f64 columns into records and out. */
export const f64 = new Float64Array(1);
export const f64Words = new Uint32Array(f64.buffer);

/** One sorted run in its scratch file. */
export interface Run {
  fd: number;
  rows: number;
  /** Arrival numbers of its rows: from `first` to before `end`. */
  first: number;
  end: number;
  /** Merges behind it (0: a spill). */
  level: number;
  bloom: Int32Array;
  /** Keys (`hi`, `lo`) of each block's first row. */
  firsts: Uint32Array;
}

/** Close `fd`, ignoring one already closed. */
export function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // already closed: nothing to release
  }
}

/** Closes the scratch files (`fds`) of a table collected without `close`. */
export const unclosed = new FinalizationRegistry<number[]>((fds) => {
  for (const fd of fds) closeQuietly(fd);
});

/** An unlinked scratch file's descriptor; `undefined` when none can be made. */
export function scratchFile(): number | undefined {
  let fd: number | undefined;
  try {
    const dir = (createRequire(import.meta.url)('node:os') as typeof import('node:os')).tmpdir();
    const path = join(dir, `agent-conformance-${process.pid}-${Math.random().toString(36).slice(2)}.spill`);
    fd = openSync(path, 'wx+', 0o600);
    unlinkSync(path);
    return fd;
  } catch {
    // a file that cannot be unlinked would outlive the run: memory instead
    if (fd !== undefined) closeQuietly(fd);
    return undefined;
  }
}

/** Write the first `words` words of `a` at byte `pos` (short writes continued). */
export function writeAll(fd: number, a: Uint32Array, words: number, pos: number): void {
  for (let off = 0; off < words * 4; ) off += writeSync(fd, a, off, words * 4 - off, pos + off);
}

/** Read `words` words at byte `pos` into `a`; throws at an early end. */
export function readAll(fd: number, a: Uint32Array, words: number, pos: number): void {
  for (let off = 0; off < words * 4; ) {
    const n = readSync(fd, a, off, words * 4 - off, pos + off);
    if (n <= 0) throw new Error('SpillTable: a scratch file ended early');
    off += n;
  }
}

/** Close run `r`'s scratch file and take it from `fds`. */
export function dropRun(fds: number[], r: Run): void {
  closeQuietly(r.fd);
  fds.splice(fds.indexOf(r.fd), 1);
}

/** Key order: `hi`, then `lo` (both unsigned). */
export function cmp(ahi: number, alo: number, bhi: number, blo: number): number {
  return ahi !== bhi ? ahi - bhi : alo - blo;
}

/** Words of a filter for `rows` rows (at most `maxWords`), a multiple of a power of two: it halves down to ~128 words. */
export function bloomWords(rows: number, maxWords = Infinity): number {
  const want = Math.max(2, Math.min(Math.ceil((rows * BLOOM_BITS) / 32), maxWords));
  let unit = 2;
  while (unit * 128 < want) unit *= 2;
  return Math.ceil(want / unit) * unit;
}

/**
 * Filter `b` (even length) at half its bits: a probe's bit floor(x * bits / 2^32) halves exactly in floating point too,
 * so bit `j` of the result is bit `2j` or `2j + 1` of `b`. More false positives, never a false negative.
 */
export function halveBloom(b: Int32Array): Int32Array {
  const h = new Int32Array(b.length / 2);
  for (let w = 0; w < h.length; w++) h[w] = pairBits(b[2 * w]!) | (pairBits(b[2 * w + 1]!) << 16);
  return h;
}

/** Bit `k` (k < 16) of the result: bit `2k` or `2k + 1` of `x`. */
function pairBits(x: number): number {
  let y = (x | (x >>> 1)) & 0x55555555;
  y = (y | (y >>> 1)) & 0x33333333;
  y = (y | (y >>> 2)) & 0x0f0f0f0f;
  y = (y | (y >>> 4)) & 0x00ff00ff;
  return (y | (y >>> 8)) & 0xffff;
}

/** A new run's Bloom filter and index, filled as its records are written in key order. */
export class RunBuilder {
  readonly bloom: Int32Array;
  readonly firsts: Uint32Array;
  rows = 0;
  private readonly bits: number;

  /** `maxWords`: the filter's words at the most (the table's filter budget). */
  constructor(maxRows: number, maxWords = Infinity) {
    this.bloom = new Int32Array(bloomWords(maxRows, maxWords));
    this.bits = this.bloom.length * 32;
    this.firsts = new Uint32Array(2 * Math.ceil(maxRows / BLOCK_ROWS));
  }

  note(hi: number, lo: number): void {
    const bloom = this.bloom;
    const scale = this.bits / TWO32;
    const step = (hi | 1) >>> 0;
    for (let i = 0, x = lo >>> 0; i < BLOOM_PROBES; i++, x = (x + step) >>> 0) {
      const b = Math.floor(x * scale);
      bloom[b >>> 5]! |= 1 << (b & 31);
    }
    if (this.rows % BLOCK_ROWS === 0) {
      const o = (this.rows / BLOCK_ROWS) * 2;
      this.firsts[o] = hi;
      this.firsts[o + 1] = lo;
    }
    this.rows++;
  }

  run(fd: number, first: number, end: number, level: number): Run {
    const blocks = Math.ceil(this.rows / BLOCK_ROWS);
    return { fd, rows: this.rows, first, end, level, bloom: this.bloom, firsts: this.firsts.slice(0, 2 * blocks) };
  }
}

const LOG_READ = 512;

/** A table's spilled keys in arrival order, in a scratch file at 8 bytes an arrival number, read ahead. */
export class KeyLog {
  private fd = -1;
  private readonly buf = new Uint32Array(2 * LOG_READ);
  /** Arrival number of `buf`'s first key and how many it holds (-1: none read). */
  private at = -1;
  private have = 0;

  /** `fds`: the table's open files (the log's is added). */
  constructor(private readonly fds: number[]) {}

  /** Write keys `his[i]`, `los[i]` (`i` below `n`) at arrival numbers `first + i`; false on a file error. */
  append(his: Uint32Array, los: Uint32Array, n: number, first: number): boolean {
    if (this.fd < 0) {
      this.fd = scratchFile() ?? -1;
      if (this.fd < 0) return false;
      this.fds.push(this.fd);
    }
    const words = scratchU32(SCRATCH.log, 2 * n);
    for (let i = 0; i < n; i++) {
      words[2 * i] = his[i]!;
      words[2 * i + 1] = los[i]!;
    }
    try {
      writeAll(this.fd, words, 2 * n, first * 8);
    } catch {
      return false;
    }
    return true;
  }

  /** The key of arrival number `o` (below `end`, the first not logged). */
  keyAt(o: number, end: number): Hash64 {
    if (this.at < 0 || o < this.at || o >= this.at + this.have) {
      this.have = Math.min(LOG_READ, end - o);
      readAll(this.fd, this.buf, 2 * this.have, o * 8);
      this.at = o;
    }
    const i = (o - this.at) * 2;
    return { hi: this.buf[i]!, lo: this.buf[i + 1]! };
  }

  close(): void {
    if (this.fd < 0) return;
    closeQuietly(this.fd);
    this.fds.splice(this.fds.indexOf(this.fd), 1);
    this.fd = -1;
    this.at = -1;
  }
}

/** The row of key (`hi`, `lo`) in run `r` (-1: none), its block of `words`-word records read into `block`. */
export function findRecord(r: Run, words: number, hi: number, lo: number, block: Uint32Array): number {
  if (r.rows === 0) return -1;
  const bloom = r.bloom;
  const scale = (bloom.length * 32) / TWO32;
  const step = (hi | 1) >>> 0;
  for (let i = 0, x = lo >>> 0; i < BLOOM_PROBES; i++, x = (x + step) >>> 0) {
    const b = Math.floor(x * scale);
    if ((bloom[b >>> 5]! & (1 << (b & 31))) === 0) return -1;
  }
  const f = r.firsts;
  if (cmp(hi, lo, f[0]!, f[1]!) < 0) return -1;
  let a = 0;
  let z = f.length / 2 - 1;
  while (a < z) {
    const m = (a + z + 1) >>> 1;
    if (cmp(hi, lo, f[2 * m]!, f[2 * m + 1]!) < 0) z = m - 1;
    else a = m;
  }
  const rows = Math.min(BLOCK_ROWS, r.rows - a * BLOCK_ROWS);
  readAll(r.fd, block, rows * words, a * BLOCK_ROWS * words * 4);
  let x = 0;
  let y = rows - 1;
  while (x <= y) {
    const m = (x + y) >>> 1;
    const c = cmp(hi, lo, block[m * words]!, block[m * words + 1]!);
    if (c < 0) y = m - 1;
    else if (c > 0) x = m + 1;
    else return a * BLOCK_ROWS + m;
  }
  return -1;
}

/** Copy the columns of the record at word `o` of `k` into `u` (its u32 columns) and `f` (its f64 columns). */
export function readColumns(k: Uint32Array, o: number, u: Uint32Array, f: Float64Array): void {
  const nu = u.length;
  for (let c = 0; c < nu; c++) u[c] = k[o + HEAD + c]!;
  for (let c = 0; c < f.length; c++) {
    f64Words[0] = k[o + HEAD + nu + 2 * c]!;
    f64Words[1] = k[o + HEAD + nu + 2 * c + 1]!;
    f[c] = f64[0]!;
  }
}

/**
 * Grow-only scratch arrays of the spills: one table spills at a time (it is all synchronous), so the same few arrays
 * serve every spill of the run instead of a fresh set of megabyte arrays each time (garbage the allocator keeps).
 * Past {@link SCRATCH_KEPT_WORDS} an array is not kept: a process that embeds the library keeps these after its run.
 */
const scratch = { u: [] as Uint32Array[], order: new Float64Array(0) };
const SCRATCH_KEPT_WORDS = 1 << 20;

/** Scratch array `i` with room for `n` words (its contents are left over from earlier spills). */
export function scratchU32(i: number, n: number): Uint32Array {
  const a = scratch.u[i];
  if (a !== undefined && a.length >= n) return a;
  const grown = new Uint32Array(n);
  if (n <= SCRATCH_KEPT_WORDS) scratch.u[i] = grown;
  return grown;
}

/** A scratch f64 array of exactly `n` (a view of a kept one when it fits). */
export function scratchF64(n: number): Float64Array {
  if (scratch.order.length < n && n <= SCRATCH_KEPT_WORDS) scratch.order = new Float64Array(n);
  return scratch.order.length >= n ? scratch.order.subarray(0, n) : new Float64Array(n);
}

/** The scratch slots: the tables' `slots`, spillRows' keys, order and records, KeyLog's keys, a merge's cursors and output. */
export const SCRATCH = { slots: 0, his: 1, los: 2, idx: 3, out: 4, log: 5, merge: 6 } as const;
