/**
 * A dependency-free unified diff (`diff -u` hunks) of a refreshed extraction: Myers' O(ND) after trimming common ends;
 * past `maxEdits` the middle is one replacement (correct, not minimal). A missing final newline is a difference.
 */

/** Options of {@link unifiedDiff}. */
export interface UnifiedDiffOptions {
  /** Label of the old side (`--- <label>`), e.g. `a/schemas/mcp/x.json` or `/dev/null`. */
  oldLabel: string;
  newLabel: string;
  /** Unchanged lines shown around each change; default 3. */
  context?: number;
  /** Cap on the edit distance searched (memory grows with its square); default 2000. */
  maxEdits?: number;
}

type Op = { t: ' ' | '-' | '+'; line: string };

/** Split into lines that keep their `\n`; a last line without one keeps none. `""` -> `[]`. */
export function splitLines(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (;;) {
    const nl = text.indexOf('\n', start);
    if (nl < 0) break;
    out.push(text.slice(start, nl + 1));
    start = nl + 1;
  }
  if (start < text.length) out.push(text.slice(start));
  return out;
}

/** Myers' shortest edit script between `a` and `b`, or `undefined` beyond `maxD` edits. */
function myers(a: readonly string[], b: readonly string[], maxD: number): Op[] | undefined {
  const n = a.length;
  const m = b.length;
  const max = n + m;
  const off = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= Math.min(max, maxD); d++) {
    // Snapshot of v[-d..d] before step d (all that backtracking from step d reads).
    trace.push(v.slice(off - d, off + d + 1));
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[off + k - 1] < v[off + k + 1]) ? v[off + k + 1] : v[off + k - 1] + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[off + k] = x;
      if (x >= n && y >= m) return backtrack(a, b, trace);
    }
  }
  return undefined;
}

function backtrack(a: readonly string[], b: readonly string[], trace: Int32Array[]): Op[] {
  const ops: Op[] = [];
  let x = a.length;
  let y = b.length;
  for (let d = trace.length - 1; d >= 0; d--) {
    const snap = trace[d];
    const at = (k: number): number => snap[k + d];
    const k = x - y;
    const prevK = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1;
    const prevX = d === 0 ? 0 : at(prevK);
    const prevY = d === 0 ? 0 : prevX - prevK;
    while (x > prevX && y > prevY) {
      ops.push({ t: ' ', line: a[x - 1] });
      x--;
      y--;
    }
    if (d > 0) {
      if (x === prevX) ops.push({ t: '+', line: b[prevY] });
      else ops.push({ t: '-', line: a[prevX] });
    }
    x = prevX;
    y = prevY;
  }
  return ops.reverse();
}

/** The edit script: common prefix and suffix as context, Myers (or one replacement) between. */
function editScript(a: readonly string[], b: readonly string[], maxEdits: number): Op[] {
  let pre = 0;
  while (pre < a.length && pre < b.length && a[pre] === b[pre]) pre++;
  let suf = 0;
  while (suf < a.length - pre && suf < b.length - pre && a[a.length - 1 - suf] === b[b.length - 1 - suf]) suf++;
  const midA = a.slice(pre, a.length - suf);
  const midB = b.slice(pre, b.length - suf);
  const mid = myers(midA, midB, maxEdits) ?? [
    ...midA.map((line): Op => ({ t: '-', line })),
    ...midB.map((line): Op => ({ t: '+', line })),
  ];
  return [
    ...a.slice(0, pre).map((line): Op => ({ t: ' ', line })),
    ...mid,
    ...a.slice(a.length - suf).map((line): Op => ({ t: ' ', line })),
  ];
}

function range(start0: number, count: number): string {
  const start = count === 0 ? start0 : start0 + 1;
  return count === 1 ? `${start}` : `${start},${count}`;
}

function render(op: Op): string {
  return op.line.endsWith('\n') ? op.t + op.line : `${op.t}${op.line}\n\\ No newline at end of file\n`;
}

/** Unified diff of two texts (`""` when equal): header and `@@ -l,s +l,s @@` hunks, every line ending in `\n`. */
export function unifiedDiff(oldText: string, newText: string, opts: UnifiedDiffOptions): string {
  if (oldText === newText) return '';
  const ctx = opts.context ?? 3;
  const ops = editScript(splitLines(oldText), splitLines(newText), opts.maxEdits ?? 2000);
  // Position of every op on each side (0-based index of the next line).
  const oldPos: number[] = [];
  const newPos: number[] = [];
  let o = 0;
  let nw = 0;
  for (const op of ops) {
    oldPos.push(o);
    newPos.push(nw);
    if (op.t !== '+') o++;
    if (op.t !== '-') nw++;
  }
  const changes = ops.flatMap((op, i) => (op.t === ' ' ? [] : [i]));
  let out = `--- ${opts.oldLabel}\n+++ ${opts.newLabel}\n`;
  let g = 0;
  while (g < changes.length) {
    let last = g;
    while (last + 1 < changes.length && changes[last + 1] - changes[last] - 1 <= 2 * ctx) last++;
    const from = Math.max(0, changes[g] - ctx);
    const to = Math.min(ops.length, changes[last] + 1 + ctx);
    const hunk = ops.slice(from, to);
    const oldCount = hunk.filter((op) => op.t !== '+').length;
    const newCount = hunk.filter((op) => op.t !== '-').length;
    out += `@@ -${range(oldPos[from], oldCount)} +${range(newPos[from], newCount)} @@\n`;
    for (const op of hunk) out += render(op);
    g = last + 1;
  }
  return out;
}
