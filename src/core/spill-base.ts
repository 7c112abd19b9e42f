/** What both spilling tables (spill-table.ts, spill-replacing.ts) keep; docs/architecture.md §Bounded stream state. */
import {
  BLOCK_ROWS,
  HEAD,
  halveBloom,
  KeyLog,
  MAX_SPILL,
  type Run,
  SCRATCH,
  scratchU32,
  unclosed,
} from './spill-runs.ts';
import { mergeLevels } from './spill-merge.ts';
import { spillRows } from './spill-write.ts';
import type { CompactTable, TableSpec } from './table.ts';

/** The shape of a spilling table: a {@link TableSpec} without `fifo` (the table decides) and its rows in memory. */
export interface SpillSpec extends Omit<TableSpec, 'fifo'> {
  /** Rows in memory before the oldest half spills (each table has its default; `Infinity`: never). */
  memRows?: number;
  /** Also log the spilled keys in arrival order, for `oldestKey`. */
  keyLog?: boolean;
  /** Bytes the runs' Bloom filters may hold together (default {@link DEFAULT_FILTER_BYTES}). */
  filterBytes?: number;
}

/** Bytes a table's Bloom filters hold at the most (~800,000 spilled rows); past it the largest is halved, exactly. */
export const DEFAULT_FILTER_BYTES = 1 << 20;

/** A spilling table's cap: rows held at the most (`limit`), and how many go at once when it is reached (`batch`). */
function capLimits(spec: Pick<TableSpec, 'cap' | 'forget'>): { limit: number; batch: number } {
  const cap = spec.cap ?? Infinity;
  const half = Math.max(1, Math.floor(cap / 2));
  const batch = spec.forget === 'half' && cap !== Infinity ? half : 1;
  const limit = spec.forget === 'half' && cap !== Infinity ? (half * 2 <= cap ? half * 2 : half) : Math.max(1, cap);
  return { limit, batch };
}

/** The state and steps both spilling tables share (see the module comment). */
export abstract class SpillingTable {
  protected readonly runs: Run[] = [];
  protected readonly fds: number[] = [];
  protected readonly nu: number;
  protected readonly nf: number;
  protected readonly words: number;
  protected memRows: number;
  protected merging = true;
  /** Arrival numbers: spilled rows below `floor` are forgotten; `spilledEnd` is the next a spill gives. */
  protected floor = 0;
  protected spilledEnd = 0;
  protected readonly limit: number;
  protected readonly batch: number;
  /** Words the runs' Bloom filters may hold together. */
  protected readonly filterWords: number;
  protected readonly hitU: Uint32Array;
  protected readonly hitF: Float64Array;
  protected readonly block: Uint32Array;
  /** The spilled keys in arrival order (`keyLog` tables). */
  protected readonly log: KeyLog | undefined;
  /** Rows forgotten by the last add (the cap). */
  forgot = 0;

  constructor(
    protected readonly mem: CompactTable,
    spec: SpillSpec,
    defaultRows: number,
  ) {
    this.nu = spec.u32;
    this.nf = spec.f64;
    this.words = HEAD + spec.u32 + 2 * spec.f64;
    this.memRows = Math.max(2, spec.memRows ?? defaultRows);
    ({ limit: this.limit, batch: this.batch } = capLimits(spec));
    this.filterWords = Math.max(2, Math.floor((spec.filterBytes ?? DEFAULT_FILTER_BYTES) / 4));
    this.hitU = new Uint32Array(spec.u32);
    this.hitF = new Float64Array(spec.f64);
    this.block = new Uint32Array(BLOCK_ROWS * this.words);
    this.log = spec.keyLog === true ? new KeyLog(this.fds) : undefined;
    unclosed.register(this, this.fds, this);
    // V8 compiles a field written once, and an array's element kind, into the code that reads it as a constant; the
    // first spill's writes would then throw away that code (the analyzers' hot paths with it) and compile it again. So
    // every field a spill writes is written twice here (and in the subclasses'), and `runs` holds objects from the start.
    this.runs.push(undefined as unknown as Run);
    this.runs.pop();
    this.floor = this.spilledEnd = -1;
    this.floor = this.spilledEnd = 0;
  }

  abstract get size(): number;

  /** Bytes of the rows held, in memory or spilled, as {@link CompactTable.bytes} counts them (the state measure). */
  bytes(): number {
    return this.size * this.mem.rowBytes;
  }

  get runCount(): number {
    return this.runs.length;
  }

  getU(s: number, col: number): number {
    return s >= 0 ? this.mem.getU(s, col) : this.hitU[col]!;
  }

  getF(s: number, col: number): number {
    return s >= 0 ? this.mem.getF(s, col) : this.hitF[col]!;
  }

  /** Bytes the runs leave in memory: their Bloom filters and sparse indexes. */
  protected runBytes(): number {
    let n = 0;
    for (const r of this.runs) n += r.bloom.byteLength + r.firsts.byteLength;
    return n;
  }

  /** Merge the runs level by level (`keep`: whether a spilled row still counts), then fit the filters in the budget. */
  protected mergeAndFit(keep: (ord: number) => boolean): void {
    if (this.merging) this.merging = mergeLevels(this.runs, this.words, this.fds, keep, this.filterWords);
    for (;;) {
      let total = 0;
      let big: Run | undefined;
      for (const r of this.runs) {
        total += r.bloom.length;
        if (r.bloom.length % 2 === 0 && (big === undefined || r.bloom.length > big.bloom.length)) big = r;
      }
      if (total <= this.filterWords || big === undefined) return;
      big.bloom = halveBloom(big.bloom);
    }
  }

  /** Write the oldest half of memory's rows as a new run; how many rows went (0, and no more spills, without a file). */
  protected spillOldestHalf(): number {
    const n = Math.min(MAX_SPILL, Math.floor(this.mem.size / 2));
    const slots = scratchU32(SCRATCH.slots, n);
    this.mem.oldestSlots(slots, n);
    const run = spillRows(this.mem, this.nu, this.nf, slots, n, this.spilledEnd, this.fds, this.log);
    if (run === undefined) {
      this.memRows = Infinity;
      return 0;
    }
    this.runs.push(run);
    this.spilledEnd += n;
    return n;
  }
}
