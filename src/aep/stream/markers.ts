/**
 * {@link CompletionMarks}: where completed work ended, kept compactly after its records are
 * released, so that a second terminal or a second ack is still caught (also after the session
 * ended). Shared by the analyzers whose work completes: lifecycle.ts (run terminals, AEP-0002
 * §2 convention 5), attention.ts (request terminals, AEP-0002 §7.2) and control.ts (the first
 * ack decision per `(ack source, cause)`, AEP-0004 §3).
 */
import { markOf, type Mark } from '../../core/mark.ts';
import type { ParsedEvent } from '../../core/rule.ts';
import type { AepCapLog } from './budget.ts';
import type { Hash64 } from './id-table.ts';
import { MarkerTable, type MarkerRow } from './marker-table.ts';

/** Input names as small integers, so a compact row holds a number, not a string (id-table.ts keeps them). */
export interface InputNames {
  fileIndex(name: string): number;
  fileName(i: number): string;
}

/** How a piece of work completed: where, and by which event type. */
export interface Completion {
  at: Mark;
  type: string;
}

/** Terminal and ack types, by their code in the marker table. */
const MARKER_TYPES = ['run.finished', 'run.failed', 'run.cancelled', 'attention.resolved', 'attention.timeout', 'control.accepted', 'control.rejected'] as const;
const MARKER_CODE = new Map<string, number>(MARKER_TYPES.map((t, i) => [t, i]));

/**
 * Compact marks of completed work by a 64-bit key (canonical.ts `tupleHash` of a kind letter and
 * the work's names: `r` run, `q` request, `a` ack): u32 [line, input, type code], f64 [byte
 * offset], about 40 bytes each. Keeps at most `maxIds` marks (the oldest half forgotten first,
 * noting `maxIds`); releases nothing else.
 */
export class CompletionMarks {
  private readonly table: MarkerTable;

  constructor(
    private readonly maxIds: number,
    private readonly names: InputNames,
    private readonly caps: AepCapLog,
  ) {
    this.table = new MarkerTable(3, 1, maxIds);
  }

  /** Marks held now. */
  get size(): number {
    return this.table.size;
  }

  /** The completion remembered for `key`. */
  get(key: Hash64): Completion | undefined {
    const row = this.table.get(key);
    if (!row) return undefined;
    const at: Mark = { file: this.names.fileName(row.u[1]), line: row.u[0] };
    if (!Number.isNaN(row.f[0])) at.byteOffset = row.f[0];
    return { at, type: MARKER_TYPES[row.u[2]] ?? '' };
  }

  /** Remember that `key` completed at `at` with `type` (`ev`: where a cap notice is located). */
  put(key: Hash64, at: Mark, type: string, ev: ParsedEvent): void {
    const row: MarkerRow = { u: [at.line, this.names.fileIndex(at.file), MARKER_CODE.get(type) ?? 0], f: [at.byteOffset ?? NaN] };
    if (this.table.put(key, row)) this.caps.note('maxIds', this.maxIds, () => markOf(ev));
  }
}
