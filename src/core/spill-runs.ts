/** The sorted runs of a SpillTable (src/core/spill-table.ts): scratch files, records, Bloom filters, sparse indexes. */
import { closeSync, openSync, readSync, unlinkSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Hash64 } from './canonical.ts';
import type { CompactTable } from './table.ts';

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
const FAN_IN = 4;
/** Most rows one spill sorts (its sort key packs the row's index in 21 bits). */
export const MAX_SPILL = 1 << 21;

const f64 = new Float64Array(1);
const f64Words = new Uint32Array(f64.buffer);

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

/** Merge sorted runs `inputs` (oldest first) into a run in `fd`, keeping records `keep` accepts; throws on an error. */
function mergeRuns(inputs: Run[], words: number, fd: number, keep: (ord: number) => boolean): Run {
  const cursors = inputs.map((r) => new RunCursor(r, words));
  const n = cursors.length;
  // each cursor's head record (offset into its buffer, -1: done) and key: only the cursor taken reads again
  const at = new Int32Array(n);
  const his = new Uint32Array(n);
  const los = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    at[i] = cursors[i]!.head();
    if (at[i]! >= 0) {
      his[i] = cursors[i]!.data[at[i]!]!;
      los[i] = cursors[i]!.data[at[i]! + 1]!;
    }
  }
  const out = new Uint32Array(MERGE_ROWS * words);
  const b = new RunBuilder(inputs.reduce((sum, r) => sum + r.rows, 0));
  let held = 0;
  let pos = 0;
  for (;;) {
    let c = -1;
    for (let i = 0; i < n; i++) {
      if (at[i]! < 0) continue;
      if (c < 0 || cmp(his[i]!, los[i]!, his[c]!, los[c]!) < 0) c = i;
    }
    if (c < 0) break;
    const cursor = cursors[c]!;
    const d = cursor.data;
    const o = at[c]!;
    if (keep(d[o + 2]! * TWO32 + d[o + 3]!)) {
      for (let w = 0, t = held * words; w < words; w++) out[t + w] = d[o + w]!;
      b.note(his[c]!, los[c]!);
      if (++held === MERGE_ROWS) {
        writeAll(fd, out, held * words, pos);
        pos += held * words * 4;
        held = 0;
      }
    }
    cursor.advance();
    const next = cursor.head();
    at[c] = next;
    if (next >= 0) {
      his[c] = cursor.data[next]!;
      los[c] = cursor.data[next + 1]!;
    }
  }
  writeAll(fd, out, held * words, pos);
  return b.run(fd, inputs[0]!.first, inputs.at(-1)!.end, inputs[0]!.level + 1);
}

/** Merge the newest `runs` while FAN_IN share a level (records `keep` refuses dropped); false on a file error. */
export function mergeLevels(runs: Run[], words: number, fds: number[], keep: (ord: number) => boolean): boolean {
  // a run merges with its FAN_IN - 1 elders of its level: each row is rewritten once a level, log4 of the spills
  while (runs.length >= FAN_IN && runs.at(-FAN_IN)!.level === runs.at(-1)!.level) {
    const inputs = runs.slice(-FAN_IN);
    const fd = scratchFile();
    if (fd === undefined) return false;
    let run: Run;
    try {
      run = mergeRuns(inputs, words, fd, keep);
    } catch {
      closeQuietly(fd);
      return false;
    }
    fds.push(fd);
    runs.splice(-FAN_IN, FAN_IN, run);
    for (const r of inputs) dropRun(fds, r);
  }
  return true;
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

/** Move `mem`'s oldest rows `slots` (arrival numbers from `first`) to a sorted run; undefined: no file, rows kept. */
export function spillRows(
  mem: CompactTable,
  nu: number,
  nf: number,
  slots: Uint32Array,
  first: number,
  fds: number[],
  log?: KeyLog,
): Run | undefined {
  const fd = scratchFile();
  if (fd === undefined) return undefined;
  const n = slots.length;
  const his = new Uint32Array(n);
  const los = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    his[i] = mem.keyHi(slots[i]!);
    los[i] = mem.keyLo(slots[i]!);
  }
  if (log && !log.append(his, los, first)) {
    closeQuietly(fd);
    return undefined;
  }
  const order = new Float64Array(n);
  for (let i = 0; i < n; i++) order[i] = his[i]! * MAX_SPILL + i;
  order.sort();
  const idx = new Uint32Array(n);
  for (let j = 0; j < n; j++) idx[j] = order[j]! % MAX_SPILL;
  // equal `hi` words (rare) are put in `lo` order
  for (let j = 1; j < n; j++) {
    const v = idx[j]!;
    let i = j - 1;
    while (i >= 0 && his[idx[i]!] === his[v] && los[idx[i]!]! > los[v]!) idx[i + 1] = idx[i--]!;
    idx[i + 1] = v;
  }
  const w = HEAD + nu + 2 * nf;
  const out = new Uint32Array(n * w);
  const b = new RunBuilder(n);
  for (let j = 0; j < n; j++) {
    const i = idx[j]!;
    const s = slots[i]!;
    const o = j * w;
    const ord = first + i;
    out[o] = his[i]!;
    out[o + 1] = los[i]!;
    out[o + 2] = Math.floor(ord / TWO32);
    out[o + 3] = ord >>> 0;
    for (let c = 0; c < nu; c++) out[o + HEAD + c] = mem.getU(s, c);
    for (let c = 0; c < nf; c++) {
      f64[0] = mem.getF(s, c);
      out[o + HEAD + nu + 2 * c] = f64Words[0]!;
      out[o + HEAD + nu + 2 * c + 1] = f64Words[1]!;
    }
    b.note(his[i]!, los[i]!);
  }
  try {
    writeAll(fd, out, n * w, 0);
  } catch {
    closeQuietly(fd);
    return undefined;
  }
  fds.push(fd);
  for (let i = 0; i < n; i++) mem.forgetOldest();
  return b.run(fd, first, first + n, 0);
}
