/**
 * SpillTable: a `fifo` {@link CompactTable} whose memory is flat in stream length: past `memRows` rows in memory the
 * oldest half goes to a run sorted by key in an unlinked scratch file; `slot` asks memory, then each run through its
 * Bloom filter and sparse index; runs merge four at a time by level. Design, figures and the bytes a spilled row leaves
 * in memory (1.31): docs/architecture.md §Bounded stream state. Without a scratch file the rows stay in memory.
 */

import type { Hash64 } from './canonical.ts';
import {
  BLOCK_ROWS,
  BLOOM_PROBES,
  bloomProbe,
  closeQuietly,
  cmp,
  HEAD,
  KeyLog,
  MERGE_ROWS,
  readAll,
  type Run,
  RunBuilder,
  RunCursor,
  scratchFile,
  TWO32,
  writeAll,
} from './spill-runs.ts';
import { CompactTable, type TableSpec } from './table.ts';

/** Rows a table holds in memory before its oldest half spills (a few MB of rows). */
export const DEFAULT_SPILL_ROWS = 1 << 16;
/** What {@link SpillTable.slot} gives for a spilled row: valid (read and written through) until the next `slot` or `add`. */
export const SPILLED = -1;
const FAN_IN = 4;
/** Most rows one spill sorts (its sort key packs the row's index in 21 bits). */
const MAX_SPILL = 1 << 21;

/** The shape of a spilling table: a {@link TableSpec} without `fifo` (always), and the rows kept in memory. */
export interface SpillSpec extends Omit<TableSpec, 'fifo'> {
  /** Rows in memory before the oldest half spills (default {@link DEFAULT_SPILL_ROWS}; `Infinity`: never). */
  memRows?: number;
  /** Also keep the spilled keys in arrival order (in a scratch file), for {@link SpillTable.oldestKey}. */
  keyLog?: boolean;
}

const open = new FinalizationRegistry<number[]>((fds) => {
  for (const fd of fds) closeQuietly(fd);
});

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
  private hitOrd = 0;
  private readonly block: Uint32Array;
  private readonly f64 = new Float64Array(1);
  private readonly f64Words = new Uint32Array(this.f64.buffer);
  /** The spilled keys in arrival order (`keyLog` tables). */
  private readonly log: KeyLog | undefined;
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
    this.log = spec.keyLog === true ? new KeyLog(this.fds) : undefined;
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

  /** The key of the oldest entry held (`keyLog` tables once they spilled), `undefined` when none is held. */
  oldestKey(): Hash64 | undefined {
    if (this.runs.length === 0) {
      const s = this.mem.oldest();
      return s === undefined ? undefined : this.mem.keyAt(s);
    }
    if (!this.log) throw new Error('SpillTable: oldestKey needs keyLog');
    return this.log.keyAt(this.floor, this.spilledEnd);
  }

  /** Forget `key` (no-op when not held); as in a `fifo` CompactTable, it throws unless `key` is the oldest entry. */
  delete(key: Hash64): void {
    const s = this.slot(key);
    if (s === undefined) return;
    const oldest = s === SPILLED ? this.hitOrd === this.floor : this.runs.length === 0 && s === this.mem.oldest();
    if (!oldest) throw new Error('SpillTable: a fifo table forgets its oldest entry only');
    this.forgetOldest();
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
    this.log?.close();
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
        this.hitOrd = k[o + 2]! * TWO32 + k[o + 3]!;
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
    if (this.log && !this.log.append(his, los, this.spilledEnd)) {
      closeQuietly(fd);
      this.memRows = Infinity;
      return;
    }
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
    this.runs.push(b.run(fd, this.spilledEnd, this.spilledEnd + n, 0));
    this.spilledEnd += n;
    // a run merges with its FAN_IN - 1 elders of its level: each row is rewritten once a level, log4 of the spills
    const r = this.runs;
    while (this.merging && r.length >= FAN_IN && r.at(-FAN_IN)!.level === r.at(-1)!.level) this.mergeLast(FAN_IN);
  }

  /** Merge the `k` newest runs into one (forgotten rows dropped); on a scratch file error they stay as they are. */
  private mergeLast(k: number): void {
    const inputs = this.runs.slice(-k);
    const fd = scratchFile();
    if (fd === undefined) {
      this.merging = false;
      return;
    }
    const w = this.words;
    const cursors = inputs.map((r) => new RunCursor(r, w));
    const out = new Uint32Array(MERGE_ROWS * w);
    const b = new RunBuilder(inputs.reduce((n, r) => n + r.rows, 0));
    let held = 0;
    let pos = 0;
    try {
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
        if (d[bi + 2]! * TWO32 + d[bi + 3]! < this.floor) continue;
        for (let c = 0, o = held * w; c < w; c++) out[o + c] = d[bi + c]!;
        b.note(d[bi]!, d[bi + 1]!);
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
    this.runs.splice(-k, k, b.run(fd, inputs[0]!.first, inputs.at(-1)!.end, inputs[0]!.level + 1));
    for (const r of inputs) this.drop(r);
  }
}
