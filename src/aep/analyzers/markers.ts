/** {@link CompletionMarks}: where completed work ended, kept compactly so a second terminal or ack is still caught. */
import { markOf, type Mark } from '../../core/mark.ts';
import type { ParsedEvent } from '../../core/rule.ts';
import type { AepCapLog } from './budget.ts';
import type { Hash64 } from '../../core/canonical.ts';
import { ReplacingSpillTable } from '../../core/spill-replacing.ts';

/** Input names as small integers, so a compact row holds a number, not a string (identity.ts keeps them). */
export interface InputNames {
  fileIndex(name: string): number;
  fileName(i: number): string;
}

/** How a piece of work completed: where, and by which event type. */
export interface Completion {
  at: Mark;
  type: string;
}

const MARKER_TYPES = [
  'run.finished',
  'run.failed',
  'run.cancelled',
  'attention.resolved',
  'attention.timeout',
  'control.accepted',
  'control.rejected',
] as const;
const MARKER_CODE = new Map<string, number>(MARKER_TYPES.map((t, i) => [t, i]));
/** The u32 columns of a completion mark: where it ended (line, input index) and the {@link MARKER_TYPES} code. */
const MARK_U32 = { line: 0, file: 1, type: 2, count: 3 } as const;
/** The f64 columns of a completion mark (NaN: no byte offset). */
const MARK_F64 = { byteOffset: 0, count: 1 } as const;

/**
 * Compact marks of completed work (run, request, ack) in a table spilling past `spillRows` rows in memory
 * (src/core/spill-replacing.ts); at most `maxIds` (`forget: 'half'`).
 */
export class CompletionMarks {
  private readonly table: ReplacingSpillTable;

  constructor(
    private readonly maxIds: number,
    private readonly names: InputNames,
    private readonly caps: AepCapLog,
    spillRows?: number,
  ) {
    const spec = { u32: MARK_U32.count, f64: MARK_F64.count, cap: maxIds, forget: 'half', memRows: spillRows } as const;
    this.table = new ReplacingSpillTable(spec);
  }

  get size(): number {
    return this.table.size;
  }

  bytes(): number {
    return this.table.bytes();
  }

  forgetOldest(): boolean {
    return this.table.forgetOldest();
  }

  get(key: Hash64): Completion | undefined {
    const t = this.table;
    const s = t.size === 0 ? undefined : t.slot(key);
    if (s === undefined) return undefined;
    const at: Mark = { file: this.names.fileName(t.getU(s, MARK_U32.file)), line: t.getU(s, MARK_U32.line) };
    const byte = t.getF(s, MARK_F64.byteOffset);
    if (!Number.isNaN(byte)) at.byteOffset = byte;
    return { at, type: MARKER_TYPES[t.getU(s, MARK_U32.type)] ?? '' };
  }

  /** Remember that `key` completed at `at` with `type` (`ev`: where a cap notice is located); a mark rewritten becomes the newest. */
  put(key: Hash64, at: Mark, type: string, ev: ParsedEvent): void {
    const t = this.table;
    const s = t.put(key);
    t.setU(s, MARK_U32.line, at.line);
    t.setU(s, MARK_U32.file, this.names.fileIndex(at.file));
    t.setU(s, MARK_U32.type, MARKER_CODE.get(type) ?? 0);
    t.setF(s, MARK_F64.byteOffset, at.byteOffset ?? NaN);
    if (t.forgot > 0) this.caps.note('maxIds', this.maxIds, () => markOf(ev));
  }
}
