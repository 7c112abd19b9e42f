/** Writing a table's oldest rows as a sorted run (spill-runs.ts has the run's format). */
import type { CompactTable } from './table.ts';
import {
  closeQuietly,
  f64,
  f64Words,
  HEAD,
  type KeyLog,
  MAX_SPILL,
  type Run,
  RunBuilder,
  SCRATCH,
  scratchF64,
  scratchFile,
  scratchU32,
  TWO32,
  writeAll,
} from './spill-runs.ts';

/**
 * `idx[0..n)`: the rows' indexes in key order (`hi`, then `lo`). Each step is its own one-loop function: a spill runs
 * each loop once, so V8 compiles it on the stack (OSR), and a function of one loop compiles once and small.
 */
function keyOrder(his: Uint32Array, los: Uint32Array, n: number, idx: Uint32Array): void {
  const order = scratchF64(n);
  packOrder(his, n, order);
  order.sort();
  unpackOrder(order, n, idx);
  settleTies(his, los, n, idx);
}

function packOrder(his: Uint32Array, n: number, order: Float64Array): void {
  for (let i = 0; i < n; i++) order[i] = his[i]! * MAX_SPILL + i;
}

function unpackOrder(order: Float64Array, n: number, idx: Uint32Array): void {
  for (let j = 0; j < n; j++) idx[j] = order[j]! % MAX_SPILL;
}

/** Equal `hi` words (rare) put in `lo` order. */
function settleTies(his: Uint32Array, los: Uint32Array, n: number, idx: Uint32Array): void {
  for (let j = 1; j < n; j++) {
    const v = idx[j]!;
    let i = j - 1;
    while (i >= 0 && his[idx[i]!] === his[v] && los[idx[i]!]! > los[v]!) idx[i + 1] = idx[i--]!;
    idx[i + 1] = v;
  }
}

/** The keys of `mem`'s rows `slots[0..n)` into `his` and `los`. */
function copyKeys(mem: CompactTable, slots: Uint32Array, n: number, his: Uint32Array, los: Uint32Array): void {
  for (let i = 0; i < n; i++) {
    his[i] = mem.keyHi(slots[i]!);
    los[i] = mem.keyLo(slots[i]!);
  }
}

function forgetRows(mem: CompactTable, n: number): void {
  for (let i = 0; i < n; i++) mem.forgetOldest();
}

/** The records of `mem`'s rows `slots` in the order `idx` into `out`, each noted in `b`. */
function writeRecords(
  mem: CompactTable,
  nu: number,
  nf: number,
  slots: Uint32Array,
  first: number,
  n: number,
  keys: { his: Uint32Array; los: Uint32Array; idx: Uint32Array },
  out: Uint32Array,
  b: RunBuilder,
): void {
  const { his, los, idx } = keys;
  const w = HEAD + nu + 2 * nf;
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
}

/**
 * Move `mem`'s oldest rows `slots[0..n)` (arrival numbers from `first`) to a sorted run; undefined: no file, rows kept.
 * `slots` may be longer than `n` (a scratch array).
 */
export function spillRows(
  mem: CompactTable,
  nu: number,
  nf: number,
  slots: Uint32Array,
  n: number,
  first: number,
  fds: number[],
  log?: KeyLog,
): Run | undefined {
  const fd = scratchFile();
  if (fd === undefined) return undefined;
  const his = scratchU32(SCRATCH.his, n);
  const los = scratchU32(SCRATCH.los, n);
  copyKeys(mem, slots, n, his, los);
  if (log && !log.append(his, los, n, first)) {
    closeQuietly(fd);
    return undefined;
  }
  const idx = scratchU32(SCRATCH.idx, n);
  keyOrder(his, los, n, idx);
  const w = HEAD + nu + 2 * nf;
  const out = scratchU32(SCRATCH.out, n * w);
  const b = new RunBuilder(n);
  writeRecords(mem, nu, nf, slots, first, n, { his, los, idx }, out, b);
  try {
    writeAll(fd, out, n * w, 0);
  } catch {
    closeQuietly(fd);
    return undefined;
  }
  fds.push(fd);
  forgetRows(mem, n);
  return b.run(fd, first, first + n, 0);
}
