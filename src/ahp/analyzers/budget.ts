/**
 * The one `--max-events` budget of the identity, correlation and lineage analyzers (documented as one cap): when full,
 * they forget their oldest entry in a fixed order (answered ids before events).
 */
import type { CapLog } from '../../core/caps.ts';
import { ConformanceError } from '../../core/errors.ts';
import type { Mark } from '../../core/mark.ts';
import type { AhpStreamOptions } from './options.ts';

/** Small strings (input names, event types, elicitation servers and modes) as numbers, at most `cap` distinct ones. */
export class Interner {
  private readonly codes = new Map<string, number>();
  private readonly names: string[] = [''];

  constructor(private readonly cap: number) {}

  /** The code of `s` (0 when the table is full and `s` is new). */
  code(s: string): number {
    let c = this.codes.get(s);
    if (c === undefined) {
      if (this.names.length > this.cap) return 0;
      c = this.names.length;
      this.names.push(s);
      this.codes.set(s, c);
    }
    return c;
  }

  /** The string of code `c` (undefined for 0). */
  name(c: number): string | undefined {
    return c === 0 ? undefined : this.names[c];
  }
}

const TWO32 = 2 ** 32;
/** A {@link EventBudget.pos} below its segment: the line's last 11 bits, then the byte offset's last 21. */
const LINE_SPAN = 2 ** 11;
const OFF_SPAN = 2 ** 21;
/** Segments a {@link EventBudget.pos} can tell apart exactly (segment * 2^32 + 2^32 - 1 < 2^53). */
export const MAX_SEGMENTS = 2 ** 21;

/** Which cap was exceeded. */
export type CapName = 'maxPending' | 'maxEvents' | 'maxStateMb';

/** The cap notices of one AHP run (read by `ahp/state-cap`). */
export type AhpCapLog = CapLog<CapName, Mark>;

/** One holder of `--max-events` entries: how many it holds, and how to forget its oldest (false: none held). */
export interface BudgetHolder {
  held(): number;
  forgetOldest(): boolean;
}

/** The shared `--max-events` budget of one run */
export class EventBudget {
  /** Every input name a compact row refers to (by code; never evicted: one entry per input). */
  readonly files = new Interner(Number.MAX_SAFE_INTEGER);
  private readonly holders: BudgetHolder[] = [];
  /** {@link pos} segments by `offset span, line span, input`: each one's input code, line and offset span (-1: none). */
  private readonly segments = new Map<string, number>();
  private readonly segFile: number[] = [];
  private readonly segLine: number[] = [];
  private readonly segOff: number[] = [];
  private lastFile: string | undefined;
  private lastLine = 0;
  private lastOff = 0;
  private lastSeg = 0;

  /** `maxSegments`: {@link MAX_SEGMENTS}, smaller only in tests. */
  constructor(
    readonly opts: AhpStreamOptions,
    readonly caps: AhpCapLog,
    private readonly maxSegments = MAX_SEGMENTS,
  ) {}

  /** Register a holder; holders are asked to forget their oldest entry in registration order. */
  register(holder: BudgetHolder): void {
    this.holders.push(holder);
  }

  held(): number {
    let n = 0;
    for (const h of this.holders) n += h.held();
    return n;
  }

  /** Note `cap` reached at `at` (a caller's own closure over `at` cost it a context on every call, cap or not). */
  noteCap(cap: CapName, limit: number, at: Mark): void {
    this.caps.note(cap, limit, () => at);
  }

  /** Make room for one entry (the oldest of the first holder that has one); false when nothing could go. */
  makeRoom(at: Mark): boolean {
    if (this.held() < this.opts.maxEvents) return true;
    this.noteCap('maxEvents', this.opts.maxEvents, at);
    for (const h of this.holders) if (h.forgetOldest()) return true;
    return false;
  }

  /** The code of `m`'s input (the key of the input's re-reader). */
  fileCode(m: Mark): number {
    return this.files.code(m.file);
  }

  /** Mark `m` as one exact number for a row's float64 column (exact under 2^21 segments; past them the run stops). */
  pos(m: Mark): number {
    const off = m.byteOffset;
    const line = m.line;
    const offHi = off === undefined ? -1 : Math.floor(off / OFF_SPAN);
    const lineHi = Math.floor(line / LINE_SPAN);
    let seg = this.lastSeg;
    if (m.file !== this.lastFile || lineHi !== this.lastLine || offHi !== this.lastOff) {
      const k = `${offHi},${lineHi},${m.file}`;
      let c = this.segments.get(k);
      if (c === undefined) {
        c = this.segFile.length;
        if (c >= this.maxSegments)
          throw new ConformanceError(
            'input',
            `one run holds places in at most ${MAX_SEGMENTS} spans of input (each input, 2,048 lines, 2 MiB): split this run into several`,
          );
        this.segments.set(k, c);
        this.segFile.push(this.files.code(m.file));
        this.segLine.push(lineHi);
        this.segOff.push(offHi);
      }
      seg = this.lastSeg = c;
      this.lastFile = m.file;
      this.lastLine = lineHi;
      this.lastOff = offHi;
    }
    return seg * TWO32 + (line - lineHi * LINE_SPAN) * OFF_SPAN + (offHi < 0 ? 0 : off! - offHi * OFF_SPAN);
  }

  /** The input code of a {@link pos}. */
  posFile(pos: number): number {
    return this.segFile[Math.floor(pos / TWO32)]!;
  }

  /** The byte offset of a {@link pos} (NaN: the mark had none). */
  posOffset(pos: number): number {
    const seg = Math.floor(pos / TWO32);
    const hi = this.segOff[seg]!;
    return hi < 0 ? NaN : hi * OFF_SPAN + ((pos - seg * TWO32) % OFF_SPAN);
  }

  /** The mark of a {@link pos}. */
  markAt(pos: number): Mark {
    const seg = Math.floor(pos / TWO32);
    const lo = pos - seg * TWO32;
    const lineLo = Math.floor(lo / OFF_SPAN);
    const m: Mark = { file: this.files.name(this.segFile[seg]!)!, line: this.segLine[seg]! * LINE_SPAN + lineLo };
    const hi = this.segOff[seg]!;
    if (hi >= 0) m.byteOffset = hi * OFF_SPAN + (lo - lineLo * OFF_SPAN);
    return m;
  }
}
