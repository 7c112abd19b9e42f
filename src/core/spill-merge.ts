/** Merging a table's sorted runs, FAN_IN of a level at a time (spill-runs.ts has the run's format). */
import {
  cmp,
  closeQuietly,
  dropRun,
  readAll,
  type Run,
  RunBuilder,
  SCRATCH,
  scratchFile,
  scratchU32,
  TWO32,
  writeAll,
} from './spill-runs.ts';

/** Records a merge reads at a time. */
export const MERGE_ROWS = 2048;
/** Records a merge gathers before a write: few, so the write runs within the merge's first iterations, before V8 compiles the loop. */
const MERGE_OUT_ROWS = 128;
const FAN_IN = 4;

/** Sequential reads of a run's records, {@link MERGE_ROWS} at a time. */
export class RunCursor {
  private readonly buf: Uint32Array;
  private have = 0;
  private at = 0;
  private next = 0;

  /** `buf`: room for {@link MERGE_ROWS} records (a scratch array). */
  constructor(
    private readonly run: Run,
    private readonly words: number,
    buf: Uint32Array,
  ) {
    this.buf = buf;
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

/** Merge sorted runs `inputs` (oldest first) into a run in `fd`, keeping records `keep` accepts; throws on an error. */
function mergeRuns(inputs: Run[], words: number, fd: number, keep: (ord: number) => boolean): Run {
  const cursors = inputs.map((r, i) => new RunCursor(r, words, scratchU32(SCRATCH.merge + i, MERGE_ROWS * words)));
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
  const out = scratchU32(SCRATCH.merge + n, MERGE_OUT_ROWS * words);
  const b = new RunBuilder(inputs.reduce((sum, r) => sum + r.rows, 0));
  mergeRecords(cursors, at, his, los, words, out, b, fd, keep);
  return b.run(fd, inputs[0]!.first, inputs.at(-1)!.end, inputs[0]!.level + 1);
}

/**
 * The loop of {@link mergeRuns}, on its own: V8 compiles it while it runs, and code after a loop that had not run yet
 * would send it back to the slow tier for the rest of the merge.
 */
function mergeRecords(
  cursors: RunCursor[],
  at: Int32Array,
  his: Uint32Array,
  los: Uint32Array,
  words: number,
  out: Uint32Array,
  b: RunBuilder,
  fd: number,
  keep: (ord: number) => boolean,
): void {
  const n = cursors.length;
  let held = 0;
  let pos = 0;
  for (;;) {
    let c = -1;
    for (let i = 0; i < n; i++) {
      if (at[i]! < 0) continue;
      if (c < 0 || cmp(his[i]!, los[i]!, his[c]!, los[c]!) < 0) c = i;
    }
    if (c < 0) {
      writeAll(fd, out, held * words, pos);
      return;
    }
    const cursor = cursors[c]!;
    const d = cursor.data;
    const o = at[c]!;
    if (keep(d[o + 2]! * TWO32 + d[o + 3]!)) {
      for (let w = 0, t = held * words; w < words; w++) out[t + w] = d[o + w]!;
      b.note(his[c]!, los[c]!);
      if (++held === MERGE_OUT_ROWS) {
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
