/** The caps the AEP analyzers share: their names, the run's {@link AepCapLog} and the `maxOpen` {@link OpenBudget}. */
import type { CapLog } from '../../core/caps.ts';
import { markOf, type Mark } from '../../core/mark.ts';
import type { ParsedEvent } from '../../core/rule.ts';

/** Which AEP stream cap was exceeded (`data.cap` of `aep/state-cap`). */
export type AepCapName = 'maxSessions' | 'maxOpen' | 'maxIds' | 'maxStateMb';

/** The cap notices of one AEP run, shared by its analyzers. */
export type AepCapLog = CapLog<AepCapName, Mark>;

/** Something that holds open work against the budget: a session, for its open runs and requests. */
export interface OpenOwner {
  owned: number;
}

/** Estimated bytes of one piece of open work, for the memory budget (a two-field form request measured 635, docs/benchmarks.md). */
const OPEN_BYTES = 640;

/**
 * The `maxOpen` budget shared by open runs, open attention requests and unacked commands; a slot is released when its
 * work completes or its session is evicted. When full, new open work is not tracked and `maxOpen` is noted once.
 */
export class OpenBudget {
  private count = 0;

  constructor(
    readonly max: number,
    private readonly caps: AepCapLog,
  ) {}

  get open(): number {
    return this.count;
  }

  /** Estimated bytes of the open work (runs, requests with their form fields, commands): the memory budget. */
  bytes(): number {
    return this.count * OPEN_BYTES;
  }

  /** Open work is never forgotten for the budget (new work is refused at `maxOpen` instead). */
  forgetOldest(): boolean {
    return false;
  }

  /** Take one slot for `owner` (or for run-wide work); false, and `maxOpen` noted, when full. */
  admit(owner: OpenOwner | undefined, ev: ParsedEvent): boolean {
    if (this.count >= this.max) {
      this.caps.note('maxOpen', this.max, () => markOf(ev));
      return false;
    }
    this.count++;
    if (owner) owner.owned++;
    return true;
  }

  release(owner: OpenOwner | undefined): void {
    this.count--;
    if (owner) owner.owned--;
  }

  releaseAll(owner: OpenOwner): void {
    this.count -= owner.owned;
    owner.owned = 0;
  }
}
