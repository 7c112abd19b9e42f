/**
 * The state of an AHP analyzer kept as one spilling table of f64 rows (src/core/spill-table.ts), capped at
 * `--max-events` rows and counted in `--max-state-mb` at a fixed estimate a row.
 */
import type { Hash64 } from '../../core/canonical.ts';
import type { Mark } from '../../core/mark.ts';
import { SpillTable } from '../../core/spill-table.ts';
import type { StateHolder } from '../../core/state-budget.ts';
import type { EventBudget } from './budget.ts';
import { spillRowsOf } from './options.ts';

/** An analyzer whose state is one table of `f64` columns, each row counted at `rowBytes`. */
export abstract class RowHolder implements StateHolder {
  protected readonly rows: SpillTable;

  constructor(
    protected readonly budget: EventBudget,
    f64: number,
    private readonly rowBytes: number,
  ) {
    this.rows = new SpillTable({ u32: 0, f64, load: 2, memRows: spillRowsOf(budget.opts) });
  }

  /** How many entries it holds. */
  held(): number {
    return this.rows.size;
  }

  /** Estimated bytes (`--max-state-mb`): `rowBytes` a row. */
  bytes(): number {
    return this.rows.size * this.rowBytes;
  }

  /** Forget the oldest row: a later event it would have judged is then not judged, never misjudged. */
  forgetOldest(): boolean {
    return this.rows.forgetOldest();
  }

  /**
   * A new row under `key` for the event at `at`, the oldest forgotten first at `--max-events` (the cap noted), or
   * undefined when `--max-events` is 0.
   */
  protected addRow(key: Hash64, at: Mark): number | undefined {
    const max = this.budget.opts.maxEvents;
    if (max <= 0) return undefined;
    if (this.rows.size >= max) {
      this.budget.noteCap('maxEvents', max, at);
      this.rows.forgetOldest();
    }
    return this.rows.add(key);
  }
}
