/**
 * The one `--max-events` budget of the identity, correlation and lineage analyzers (documented as one cap): when full,
 * they forget their oldest entry in a fixed order (answered ids before events).
 */
import type { CapLog } from '../../core/caps.ts';
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

  constructor(
    readonly opts: AhpStreamOptions,
    readonly caps: AhpCapLog,
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

  /** Make room for one entry (the oldest of the first holder that has one); false when nothing could go. */
  makeRoom(at: Mark): boolean {
    if (this.held() < this.opts.maxEvents) return true;
    this.caps.note('maxEvents', this.opts.maxEvents, () => at);
    for (const h of this.holders) if (h.forgetOldest()) return true;
    return false;
  }

  fileCode(m: Mark): number {
    return this.files.code(m.file);
  }

  /** A mark from a row's columns (NaN byte offset: not kept). */
  mark(file: number, line: number, byteOffset: number): Mark {
    const m: Mark = { file: this.files.name(file)!, line };
    if (!Number.isNaN(byteOffset)) m.byteOffset = byteOffset;
    return m;
  }
}
