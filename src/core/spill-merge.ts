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

/** Records a merge reads or writes at a time. */
export const MERGE_ROWS = 2048;
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
function mergeRuns(inputs: Run[], words: number, fd: number, keep: (ord: number) => boolean, filterWords: number): Run {
  const cursors = inputs.map((r, i) => new RunCursor(r, words, scratchU32(SCRATCH.merge + i, MERGE_ROWS * words)));
  const out = scratchU32(SCRATCH.merge + cursors.length, MERGE_ROWS * words);
  const b = new RunBuilder(
    inputs.reduce((sum, r) => sum + r.rows, 0),
    filterWords,
  );
  const merge = new Merge(cursors, words, out, b, fd, keep);
  while (merge.step()) {
    // each step takes one record
  }
  return b.run(fd, inputs[0]!.first, inputs.at(-1)!.end, inputs[0]!.level + 1);
}

/**
 * A merge, one record a {@link Merge.step}: a merge's loop runs once, so V8 would compile it on the stack and, meeting
 * code it had not seen, send it back to the slow tier for the rest of the merge; a step called for every record is
 * compiled as a whole, once, and stays compiled for the next merge.
 */
class Merge {
  /** Each cursor's head record (offset into its buffer, -1: done) and key: only the cursor taken reads again. */
  private readonly at: Int32Array;
  private readonly his: Uint32Array;
  private readonly los: Uint32Array;
  private held = 0;
  private pos = 0;

  constructor(
    private readonly cursors: RunCursor[],
    private readonly words: number,
    private readonly out: Uint32Array,
    private readonly b: RunBuilder,
    private readonly fd: number,
    private readonly keep: (ord: number) => boolean,
  ) {
    const n = cursors.length;
    this.at = new Int32Array(n);
    this.his = new Uint32Array(n);
    this.los = new Uint32Array(n);
    for (let i = 0; i < n; i++) this.load(i);
  }

  /** Move the least head record to the output; false (the output written) when every cursor is done. */
  step(): boolean {
    const { at, his, los, words, out } = this;
    let c = -1;
    for (let i = 0; i < at.length; i++) {
      if (at[i]! < 0) continue;
      if (c < 0 || cmp(his[i]!, los[i]!, his[c]!, los[c]!) < 0) c = i;
    }
    if (c < 0) {
      this.flush();
      return false;
    }
    const cursor = this.cursors[c]!;
    const d = cursor.data;
    const o = at[c]!;
    if (this.keep(d[o + 2]! * TWO32 + d[o + 3]!)) {
      for (let w = 0, t = this.held * words; w < words; w++) out[t + w] = d[o + w]!;
      this.b.note(his[c]!, los[c]!);
      if (++this.held === MERGE_ROWS) this.flush();
    }
    cursor.advance();
    this.load(c);
    return true;
  }

  /** Cursor `i`'s head record into `at`, `his`, `los`. */
  private load(i: number): void {
    const cursor = this.cursors[i]!;
    const next = cursor.head();
    this.at[i] = next;
    if (next < 0) return;
    this.his[i] = cursor.data[next]!;
    this.los[i] = cursor.data[next + 1]!;
  }

  private flush(): void {
    writeAll(this.fd, this.out, this.held * this.words, this.pos);
    this.pos += this.held * this.words * 4;
    this.held = 0;
  }
}

/**
 * Merge the newest `runs` while FAN_IN share a level (records `keep` refuses dropped; a new filter within
 * `filterWords`); false on a file error.
 */
export function mergeLevels(
  runs: Run[],
  words: number,
  fds: number[],
  keep: (ord: number) => boolean,
  filterWords: number,
): boolean {
  // a run merges with its FAN_IN - 1 elders of its level: each row is rewritten once a level, log4 of the spills
  while (runs.length >= FAN_IN && runs.at(-FAN_IN)!.level === runs.at(-1)!.level) {
    const inputs = runs.slice(-FAN_IN);
    const fd = scratchFile();
    if (fd === undefined) return false;
    let run: Run;
    try {
      run = mergeRuns(inputs, words, fd, keep, filterWords);
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
