/**
 * SpillTable: a `fifo` {@link CompactTable} whose memory stays flat in stream length. Past `memRows` rows in memory the
 * oldest half moves to a scratch file as a run sorted by key; `slot` asks memory first, then each run, newest first,
 * through the run's Bloom filter and sparse index (first key of every {@link BLOCK_ROWS} rows): a miss costs a few
 * in-memory probes, a hit one positioned read. Runs of equal size merge (a binary counter: at most log2 of the spills
 * plus one). Each run is its own file in os.tmpdir(), unlinked as soon as it is open (as src/report/spool.ts), so a
 * merge frees its inputs' space when it closes them. In memory a spilled row leaves its Bloom bits ({@link BLOOM_BITS})
 * and 1/{@link BLOCK_ROWS} of an index pair: 10 + 64/128 = 10.5 bits (1.31 bytes). The cap and the memory budget
 * forget oldest first, as in a `fifo` table: spilled rows are numbered in arrival order and those below `floor` read as
 * absent (a merge drops them). If a scratch file cannot be made or written, the table keeps its rows in memory.
 */
import { closeSync, openSync, readSync, unlinkSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Hash64 } from './canonical.ts';
import { CompactTable, type TableSpec } from './table.ts';

/** Rows a table holds in memory before its oldest half spills (a few MB of rows). */
export const DEFAULT_SPILL_ROWS = 1 << 16;
/** What {@link SpillTable.slot} gives for a spilled row: valid (read and written through) until the next `slot` or `add`. */
export const SPILLED = -1;
/** Rows a block of the sparse index (one positioned read a hit). */
export const BLOCK_ROWS = 128;
/** Bloom filter bits a spilled row, and probes a key (false positives about 1%). */
export const BLOOM_BITS = 10;
const BLOOM_PROBES = 7;
/** Most rows one spill sorts (its sort key packs the row's index in 21 bits). */
const MAX_SPILL = 1 << 21;
/** Records a merge reads or writes at a time. */
const MERGE_ROWS = 2048;
/** Words of a record before its columns: the key's `hi`, `lo`, the row's arrival number's high and low word. */
const HEAD = 4;
const TWO32 = 2 ** 32;

/** One sorted run in its scratch file. */
interface Run {
  fd: number;
  rows: number;
  /** Arrival numbers of its rows: from `first` to before `end`. */
  first: number;
  end: number;
  bloom: Int32Array;
  /** Keys (`hi`, `lo`) of each block's first row. */
  firsts: Uint32Array;
}

/** The shape of a spilling table: a {@link TableSpec} without `fifo` (always), and the rows kept in memory. */
export interface SpillSpec extends Omit<TableSpec, 'fifo'> {
  /** Rows in memory before the oldest half spills (default {@link DEFAULT_SPILL_ROWS}; `Infinity`: never). */
  memRows?: number;
}

const open = new FinalizationRegistry<number[]>((fds) => {
  for (const fd of fds) closeQuietly(fd);
});

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // already closed: nothing to release
  }
}

/** An unlinked scratch file's descriptor; `undefined` when none can be made. */
function scratchFile(): number | undefined {
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

function writeAll(fd: number, a: Uint32Array, words: number, pos: number): void {
  for (let off = 0; off < words * 4; ) off += writeSync(fd, a, off, words * 4 - off, pos + off);
}

function readAll(fd: number, a: Uint32Array, words: number, pos: number): void {
  for (let off = 0; off < words * 4; ) {
    const n = readSync(fd, a, off, words * 4 - off, pos + off);
    if (n <= 0) throw new Error('SpillTable: a scratch file ended early');
    off += n;
  }
}

/** Key order: `hi`, then `lo` (both unsigned). */
function cmp(ahi: number, alo: number, bhi: number, blo: number): number {
  return ahi !== bhi ? ahi - bhi : alo - blo;
}

function bloomProbe(bits: number, hi: number, lo: number, i: number): number {
  return Math.floor((((lo + Math.imul(i, hi | 1)) >>> 0) * bits) / TWO32);
}

/** A new run's Bloom filter and index, filled as its records are written in key order. */
class RunBuilder {
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

  run(fd: number, first: number, end: number): Run {
    const blocks = Math.ceil(this.rows / BLOCK_ROWS);
    return { fd, rows: this.rows, first, end, bloom: this.bloom, firsts: this.firsts.slice(0, 2 * blocks) };
  }
}

/** Sequential reads of a run's records, {@link MERGE_ROWS} at a time. */
class RunCursor {
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

  /** Word offset in {@link data} of the current record, or -1 at the end. */
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

/** A `fifo` key -> row table that spills its oldest rows to scratch files (see the module comment). */
export class SpillTable {
  private readonly mem: CompactTable;
  private readonly runs: Run[] = [];
  private readonly fds: number[] = [];
  private readonly nu: number;
  private readonly nf: number;
  private readonly words: number;
  private memRows: number;
  private merging = true;
  /** Arrival number of the oldest row held, and of the oldest row in memory (rows below it are spilled). */
  private floor = 0;
  private spilledEnd = 0;
  private readonly limit: number;
  private readonly batch: number;
  /** The spilled row the last `slot` found: its columns, file and byte position (`hitFd` -1: none). */
  private readonly hitU: Uint32Array;
  private readonly hitF: Float64Array;
  private hitFd = -1;
  private hitPos = 0;
  private readonly block: Uint32Array;
  private readonly f64 = new Float64Array(1);
  private readonly f64Words = new Uint32Array(this.f64.buffer);
  /** Rows forgotten by the last {@link add} (the cap). */
  forgot = 0;

  constructor(spec: SpillSpec) {
    this.mem = new CompactTable({ u32: spec.u32, f64: spec.f64, fifo: true, load: spec.load });
    this.nu = spec.u32;
    this.nf = spec.f64;
    this.words = HEAD + spec.u32 + 2 * spec.f64;
    this.memRows = Math.max(2, spec.memRows ?? DEFAULT_SPILL_ROWS);
    const cap = spec.cap ?? Infinity;
    const half = Math.max(1, Math.floor(cap / 2));
    this.batch = spec.forget === 'half' && cap !== Infinity ? half : 1;
    this.limit = spec.forget === 'half' && cap !== Infinity ? (half * 2 <= cap ? half * 2 : half) : Math.max(1, cap);
    this.hitU = new Uint32Array(spec.u32);
    this.hitF = new Float64Array(spec.f64);
    this.block = new Uint32Array(BLOCK_ROWS * this.words);
    open.register(this, this.fds, this);
  }

  get size(): number {
    return this.mem.size + this.spilledEnd - this.floor;
  }

  /** Bytes of the rows held, in memory or spilled, as {@link CompactTable.bytes} counts them (the run's state measure). */
  bytes(): number {
    return this.size * this.mem.rowBytes;
  }

  /** Bytes the spilled rows leave in memory (Bloom filters and sparse indexes). */
  spilledBytes(): number {
    let n = 0;
    for (const r of this.runs) n += r.bloom.byteLength + r.firsts.byteLength;
    return n;
  }

  /** Spilled runs now. */
  get runCount(): number {
    return this.runs.length;
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
    while (this.runs.length > 0 && this.floor >= this.runs[0]!.end) this.drop(this.runs.shift()!);
    if (this.runs.length === 0) this.floor = this.spilledEnd;
    return true;
  }

  getU(s: number, col: number): number {
    return s >= 0 ? this.mem.getU(s, col) : this.hitU[col]!;
  }

  getF(s: number, col: number): number {
    return s >= 0 ? this.mem.getF(s, col) : this.hitF[col]!;
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
    while (this.runs.length > 0) this.drop(this.runs.pop()!);
    this.floor = this.spilledEnd;
  }

  private hitFdOrThrow(): number {
    if (this.hitFd < 0) throw new Error('SpillTable: a spilled row is written after another lookup');
    return this.hitFd;
  }

  private drop(r: Run): void {
    closeQuietly(r.fd);
    this.fds.splice(this.fds.indexOf(r.fd), 1);
  }

  /** True (the row in `hitU` / `hitF`) when `run` holds the key, not forgotten. */
  private find(r: Run, hi: number, lo: number): boolean {
    if (r.rows === 0) return false;
    const bits = r.bloom.length * 32;
    for (let i = 0; i < BLOOM_PROBES; i++) {
      const b = bloomProbe(bits, hi, lo, i);
      if ((r.bloom[b >>> 5]! & (1 << (b & 31))) === 0) return false;
    }
    const f = r.firsts;
    if (cmp(hi, lo, f[0]!, f[1]!) < 0) return false;
    let a = 0;
    let z = f.length / 2 - 1;
    while (a < z) {
      const m = (a + z + 1) >>> 1;
      if (cmp(hi, lo, f[2 * m]!, f[2 * m + 1]!) < 0) z = m - 1;
      else a = m;
    }
    const w = this.words;
    const rows = Math.min(BLOCK_ROWS, r.rows - a * BLOCK_ROWS);
    const base = a * BLOCK_ROWS * w * 4;
    readAll(r.fd, this.block, rows * w, base);
    const k = this.block;
    let x = 0;
    let y = rows - 1;
    while (x <= y) {
      const m = (x + y) >>> 1;
      const c = cmp(hi, lo, k[m * w]!, k[m * w + 1]!);
      if (c < 0) y = m - 1;
      else if (c > 0) x = m + 1;
      else {
        const o = m * w;
        if (k[o + 2]! * TWO32 + k[o + 3]! < this.floor) return false;
        for (let c = 0; c < this.nu; c++) this.hitU[c] = k[o + HEAD + c]!;
        for (let c = 0; c < this.nf; c++) {
          this.f64Words[0] = k[o + HEAD + this.nu + 2 * c]!;
          this.f64Words[1] = k[o + HEAD + this.nu + 2 * c + 1]!;
          this.hitF[c] = this.f64[0]!;
        }
        this.hitFd = r.fd;
        this.hitPos = base + o * 4;
        return true;
      }
    }
    return false;
  }

  /** Move the oldest half of the rows in memory to a new run (kept in memory when no scratch file can be written). */
  private spill(): void {
    const m = this.mem;
    const n = Math.min(MAX_SPILL, Math.floor(m.size / 2));
    const fd = scratchFile();
    if (fd === undefined) {
      this.memRows = Infinity;
      return;
    }
    const his = new Uint32Array(n);
    const los = new Uint32Array(n);
    const order = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const k = m.keyAt(m.fifoSlot(i));
      his[i] = k.hi;
      los[i] = k.lo;
      order[i] = k.hi * MAX_SPILL + i;
    }
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
    const w = this.words;
    const out = new Uint32Array(n * w);
    const b = new RunBuilder(n);
    for (let j = 0; j < n; j++) {
      const i = idx[j]!;
      const s = m.fifoSlot(i);
      const o = j * w;
      const ord = this.spilledEnd + i;
      out[o] = his[i]!;
      out[o + 1] = los[i]!;
      out[o + 2] = Math.floor(ord / TWO32);
      out[o + 3] = ord >>> 0;
      for (let c = 0; c < this.nu; c++) out[o + HEAD + c] = m.getU(s, c);
      for (let c = 0; c < this.nf; c++) {
        this.f64[0] = m.getF(s, c);
        out[o + HEAD + this.nu + 2 * c] = this.f64Words[0]!;
        out[o + HEAD + this.nu + 2 * c + 1] = this.f64Words[1]!;
      }
      b.note(his[i]!, los[i]!);
    }
    try {
      writeAll(fd, out, n * w, 0);
    } catch {
      closeQuietly(fd);
      this.memRows = Infinity;
      return;
    }
    this.fds.push(fd);
    for (let i = 0; i < n; i++) m.forgetOldest();
    this.runs.push(b.run(fd, this.spilledEnd, this.spilledEnd + n));
    this.spilledEnd += n;
    while (this.merging && this.runs.length >= 2 && this.runs.at(-2)!.rows <= this.runs.at(-1)!.rows) this.mergeLast();
  }

  /** Merge the two newest runs into one (forgotten rows dropped); on a scratch file error they stay as they are. */
  private mergeLast(): void {
    const older = this.runs.at(-2)!;
    const newer = this.runs.at(-1)!;
    const fd = scratchFile();
    if (fd === undefined) {
      this.merging = false;
      return;
    }
    const w = this.words;
    const a = new RunCursor(older, w);
    const z = new RunCursor(newer, w);
    const out = new Uint32Array(MERGE_ROWS * w);
    const b = new RunBuilder(older.rows + newer.rows);
    let held = 0;
    let pos = 0;
    try {
      for (;;) {
        const ia = a.head();
        const iz = z.head();
        if (ia < 0 && iz < 0) break;
        const da = a.data;
        const dz = z.data;
        const fromA = iz < 0 || (ia >= 0 && cmp(da[ia]!, da[ia + 1]!, dz[iz]!, dz[iz + 1]!) <= 0);
        const d = fromA ? da : dz;
        const i = fromA ? ia : iz;
        (fromA ? a : z).advance();
        if (d[i + 2]! * TWO32 + d[i + 3]! < this.floor) continue;
        out.set(d.subarray(i, i + w), held * w);
        b.note(d[i]!, d[i + 1]!);
        if (++held === MERGE_ROWS) {
          writeAll(fd, out, held * w, pos);
          pos += held * w * 4;
          held = 0;
        }
      }
      writeAll(fd, out, held * w, pos);
    } catch {
      closeQuietly(fd);
      this.merging = false;
      return;
    }
    this.fds.push(fd);
    this.runs.splice(-2, 2, b.run(fd, older.first, newer.end));
    this.drop(older);
    this.drop(newer);
  }
}
