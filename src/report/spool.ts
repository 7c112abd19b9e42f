/**
 * Bounded-memory sort for json, sarif and junit: findings past a limit are written in sorted runs to a temporary file
 * and merged on `drain`; the result equals a stable sort of every finding.
 */
import { closeSync, openSync, readSync, unlinkSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import type { Finding } from '../core/finding.ts';

/** Findings held in memory before a sorted run is written to the temporary file. */
export const SPOOL_MEMORY_FINDINGS = 10_000;

const READ_CHUNK = 64 * 1024;

interface Run {
  start: number;
  end: number;
}

/** A sorted run being merged: its next finding, its place among the runs, and a step on. */
interface RunCursor {
  head: Finding | undefined;
  readonly index: number;
  advance(): void;
}

class RunReader implements RunCursor {
  private pos: number;
  private lines: string[] = [];
  private rest = '';
  private readonly decoder = new StringDecoder('utf8');
  private readonly buf = Buffer.allocUnsafe(READ_CHUNK);
  head: Finding | undefined;

  constructor(
    private readonly fd: number,
    private readonly run: Run,
    readonly index: number,
  ) {
    this.pos = run.start;
    this.advance();
  }

  /** Move `head` to the next finding of the run (`undefined` at its end). */
  advance(): void {
    while (this.lines.length === 0 && this.pos < this.run.end) {
      const n = readSync(this.fd, this.buf, 0, Math.min(READ_CHUNK, this.run.end - this.pos), this.pos);
      if (n <= 0) break;
      this.pos += n;
      const parts = (this.rest + this.decoder.write(this.buf.subarray(0, n))).split('\n');
      this.rest = parts.pop()!;
      // reversed so that `pop` takes them in order
      this.lines = parts.reverse();
    }
    const line = this.lines.pop();
    this.head = line === undefined ? undefined : (JSON.parse(line) as Finding);
  }
}

/** A min-heap of run readers by their head finding; ties go to the earlier run (a stable merge). */
function mergeRuns(
  readers: RunCursor[],
  compare: (a: Finding, b: Finding) => number,
  each: (f: Finding) => void,
): void {
  const less = (a: RunCursor, b: RunCursor) => {
    const c = compare(a.head!, b.head!);
    return c < 0 || (c === 0 && a.index < b.index);
  };
  const heap = readers.filter((r) => r.head !== undefined);
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < heap.length && less(heap[l]!, heap[m]!)) m = l;
      if (r < heap.length && less(heap[r]!, heap[m]!)) m = r;
      if (m === i) return;
      [heap[i], heap[m]] = [heap[m]!, heap[i]!];
      i = m;
    }
  };
  for (let i = (heap.length >> 1) - 1; i >= 0; i--) down(i);
  while (heap.length) {
    const top = heap[0]!;
    each(top.head!);
    top.advance();
    if (top.head === undefined) {
      heap[0] = heap[heap.length - 1]!;
      heap.pop();
    }
    if (heap.length) down(0);
  }
}

/** The temporary directory (node:os loads only when a run spills). */
function tempDir(): string {
  return (createRequire(import.meta.url)('node:os') as typeof import('node:os')).tmpdir();
}

/** Findings to be given back in `compare` order, in bounded memory (see the module comment). */
export class FindingSpool {
  private held: Finding[] = [];
  private readonly runs: Run[] = [];
  private fd: number | undefined;
  private path: string | undefined;
  private size = 0;

  constructor(
    private readonly compare: (a: Finding, b: Finding) => number,
    private readonly memoryLimit = SPOOL_MEMORY_FINDINGS,
  ) {}

  /** Add one finding. @throws Error when the temporary file cannot be written. */
  add(f: Finding): void {
    this.held.push(f);
    if (this.held.length >= this.memoryLimit) this.spill();
  }

  private spill(): void {
    if (this.fd === undefined) {
      const path = join(
        tempDir(),
        `agent-conformance-${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}.spool`,
      );
      this.fd = openSync(path, 'wx+', 0o600);
      // POSIX keeps an unlinked open file readable and removes it when closed, also on a crash
      try {
        unlinkSync(path);
      } catch {
        this.path = path;
      }
    }
    const start = this.size;
    const sorted = this.held.sort(this.compare);
    this.held = [];
    let chunk = '';
    for (const f of sorted) {
      chunk += JSON.stringify(f) + '\n';
      if (chunk.length >= READ_CHUNK) {
        this.size += writeSync(this.fd, chunk, this.size);
        chunk = '';
      }
    }
    if (chunk) this.size += writeSync(this.fd, chunk, this.size);
    this.runs.push({ start, end: this.size });
  }

  /** Give every finding to `each` in order, then release the temporary file. Call once. */
  drain(each: (f: Finding) => void): void {
    const last = this.held.sort(this.compare);
    this.held = [];
    if (this.fd === undefined) {
      for (const f of last) each(f);
      return;
    }
    try {
      const readers: RunCursor[] = this.runs.map((r, i) => new RunReader(this.fd!, r, i));
      // the findings still in memory are the last run
      let k = 0;
      readers.push({
        head: last[0],
        index: readers.length,
        advance() {
          this.head = last[++k];
        },
      });
      mergeRuns(readers, this.compare, each);
    } finally {
      closeSync(this.fd);
      this.fd = undefined;
      if (this.path) {
        try {
          unlinkSync(this.path);
        } catch {
          // already gone
        }
      }
    }
  }
}
