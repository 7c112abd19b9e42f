/**
 * The memory budget of one run's stream state (`--max-state-mb`, default
 * {@link DEFAULT_MAX_STATE_MB}; README §Options of validate): every analyzer that keeps state
 * across events registers what it holds, with an estimate of its bytes, and the model settles
 * the budget once per event. Over the budget, the holders that can forget (completed work: ids,
 * completion marks, answered ids, checked forms) forget their oldest entries, in registration
 * order, until the state fits again; open work cannot be forgotten without a wrong verdict and
 * stays bounded by its count caps. The count options (`--max-ids`, `--max-events`, ...) remain
 * upper bounds when given; by default the budget alone decides, so realistic logs never evict.
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
  /** Entries forgotten for the budget in this run. */
  forgotten = 0;
  readonly limitBytes: number;

  /** `mb`: the budget in MiB (fractions allowed). */
  constructor(readonly mb: number) {
    this.limitBytes = mb * 1024 * 1024;
  }

  /** Register `holder`; holders forget in registration order. */
  register(holder: StateHolder): void {
    this.holders.push(holder);
  }

  /** Estimated bytes of all registered state now. */
  used(): number {
    let n = 0;
    for (const h of this.holders) n += h.bytes();
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
