/** The sorted runs of a SpillTable (src/core/spill-table.ts): scratch files, records, Bloom filters, sparse indexes. */
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
/** Records a merge reads or writes at a time. */
export const MERGE_ROWS = 2048;
/** Words of a record before its columns: the key's `hi`, `lo`, the row's arrival number's high and low word. */
export const HEAD = 4;
/** 2^32: a record's arrival number is two words. */
export const TWO32 = 2 ** 32;

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

/** Key order: `hi`, then `lo` (both unsigned). */
export function cmp(ahi: number, alo: number, bhi: number, blo: number): number {
  return ahi !== bhi ? ahi - bhi : alo - blo;
}

/** Bit `i` of the {@link BLOOM_PROBES} a key sets in a filter of `bits` bits (double hashing of its two words). */
export function bloomProbe(bits: number, hi: number, lo: number, i: number): number {
  return Math.floor((((lo + Math.imul(i, hi | 1)) >>> 0) * bits) / TWO32);
}

/** A new run's Bloom filter and index, filled as its records are written in key order. */
export class RunBuilder {
  readonly bloom: Int32Array;
  readonly firsts: Uint32Array;
  rows = 0;
  private readonly bits: number;

  constructor(maxRows: number) {
    this.bloom = new Int32Array(Math.ceil(Math.max(1, maxRows * BLOOM_BITS) / 32));
    this.bits = this.bloom.length * 32;
    this.firsts = new Uint32Array(2 * Math.ceil(maxRows / BLOCK_ROWS));
  }

  note(hi: number, lo: number): void {
    for (let i = 0; i < BLOOM_PROBES; i++) {
      const b = bloomProbe(this.bits, hi, lo, i);
      this.bloom[b >>> 5]! |= 1 << (b & 31);
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

/** Sequential reads of a run's records, {@link MERGE_ROWS} at a time. */
export class RunCursor {
  private readonly buf: Uint32Array;
  private have = 0;
  private at = 0;
  private next = 0;

  constructor(
    private readonly run: Run,
    private readonly words: number,
  ) {
    this.buf = new Uint32Array(MERGE_ROWS * words);
  }

  head(): number {
    if (this.at === this.have) {
      const n = Math.min(MERGE_ROWS, this.run.rows - this.next);
      if (n <= 0) return -1;
      readAll(this.run.fd, this.buf, n * this.words, this.next * this.words * 4);
      this.next += n;
      this.have = n;
      this.at = 0;
    }
    return this.at * this.words;
  }

  get data(): Uint32Array {
    return this.buf;
  }

  advance(): void {
    this.at++;
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

  /** Write keys `his[i]`, `los[i]` at arrival numbers `first + i`; false on a file error. */
  append(his: Uint32Array, los: Uint32Array, first: number): boolean {
    if (this.fd < 0) {
      this.fd = scratchFile() ?? -1;
      if (this.fd < 0) return false;
      this.fds.push(this.fd);
    }
    const words = new Uint32Array(2 * his.length);
    for (let i = 0; i < his.length; i++) {
      words[2 * i] = his[i]!;
      words[2 * i + 1] = los[i]!;
    }
    try {
      writeAll(this.fd, words, words.length, first * 8);
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

/**
 * The record of key (`hi`, `lo`) in run `r` of `words`-word records: its row number in the run, its block read into
 * `block` (the record at `(row % BLOCK_ROWS) * words`); -1 when the run does not hold the key.
 */
export function findRecord(r: Run, words: number, hi: number, lo: number, block: Uint32Array): number {
  if (r.rows === 0) return -1;
  const bits = r.bloom.length * 32;
  for (let i = 0; i < BLOOM_PROBES; i++) {
    const b = bloomProbe(bits, hi, lo, i);
    if ((r.bloom[b >>> 5]! & (1 << (b & 31))) === 0) return -1;
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

/**
 * Merge `inputs` (sorted runs, oldest first) into a new run in scratch file `fd`, keeping the records whose arrival
 * number `keep` accepts; throws on a file error (the caller closes `fd`).
 */
export function mergeRuns(inputs: Run[], words: number, fd: number, keep: (ord: number) => boolean): Run {
  const cursors = inputs.map((r) => new RunCursor(r, words));
  const out = new Uint32Array(MERGE_ROWS * words);
  const b = new RunBuilder(inputs.reduce((n, r) => n + r.rows, 0));
  let held = 0;
  let pos = 0;
  for (;;) {
    let best: RunCursor | undefined;
    let bi = -1;
    for (const c of cursors) {
      const i = c.head();
      if (i < 0) continue;
      const d = c.data;
      if (best === undefined || cmp(d[i]!, d[i + 1]!, best.data[bi]!, best.data[bi + 1]!) < 0) {
        best = c;
        bi = i;
      }
    }
    if (best === undefined) break;
    const d = best.data;
    best.advance();
    if (!keep(d[bi + 2]! * TWO32 + d[bi + 3]!)) continue;
    for (let c = 0, o = held * words; c < words; c++) out[o + c] = d[bi + c]!;
    b.note(d[bi]!, d[bi + 1]!);
    if (++held === MERGE_ROWS) {
      writeAll(fd, out, held * words, pos);
      pos += held * words * 4;
      held = 0;
    }
  }
  writeAll(fd, out, held * words, pos);
  return b.run(fd, inputs[0]!.first, inputs.at(-1)!.end, inputs[0]!.level + 1);
}
