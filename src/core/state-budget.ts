/**
 * The memory budget of one run's stream state (`--max-state-mb`): holders register estimated bytes; over budget, those
 * that can forget completed work drop their oldest entries (open work cannot be forgotten without a wrong verdict).
 */

/** Default budget of all stream state together, in MiB. */
export const DEFAULT_MAX_STATE_MB = 256;

/** Something that holds stream state: its bytes now, and how to forget its oldest entry (false: nothing it may forget). */
export interface StateHolder {
  bytes(): number;
  forgetOldest(): boolean;
}

/** The budget of one run (see the module comment). */
export class StateBudget {
  private readonly holders: StateHolder[] = [];
  /** Each holder's `bytes` (holders are of many classes: one property load a call site would be megamorphic). */
  private readonly sizes: StateHolder['bytes'][] = [];
  forgotten = 0;
  readonly limitBytes: number;

  /** `mb`: the budget in MiB (fractions allowed). */
  constructor(readonly mb: number) {
    this.limitBytes = mb * 1024 * 1024;
  }

  /** Register `holder`; holders forget in registration order. */
  register(holder: StateHolder): void {
    this.holders.push(holder);
    this.sizes.push(holder.bytes);
  }

  used(): number {
    let n = 0;
    for (let i = 0; i < this.sizes.length; i++) n += this.sizes[i]!.call(this.holders[i]);
    return n;
  }

  /** Forget oldest entries until the state fits; how many were forgotten (0: it fit). */
  settle(): number {
    let n = 0;
    while (this.used() > this.limitBytes) {
      let freed = false;
      for (const h of this.holders) if ((freed = h.forgetOldest())) break;
      if (!freed) break;
      n++;
    }
    this.forgotten += n;
    return n;
  }
}
