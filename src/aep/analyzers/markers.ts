/** {@link CompletionMarks}: where completed work ended, kept compactly so a second terminal or ack is still caught. */
import { markOf, type Mark } from '../../core/mark.ts';
import type { ParsedEvent } from '../../core/rule.ts';
import type { AepCapLog } from './budget.ts';
import type { Hash64 } from '../../core/canonical.ts';
import { ReplacingSpillTable } from '../../core/spill-replacing.ts';
import { tupleHash } from './canonical.ts';
import type { SessionRecord } from './session.ts';

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
  'tool.completed',
  'tool.failed',
  'tool.denied',
  'run.step.finished',
  'delegation.subagent.stopped',
  'progress.task.completed',
  'resource.retrieval.requested',
  'resource.retrieval.returned',
  'stream.finished',
  'stream.started',
] as const;
const MARKER_CODE = new Map<string, number>(MARKER_TYPES.map((t, i) => [t, i]));
/** The u32 columns of a completion mark: where it ended (line, input index) and the {@link MARKER_TYPES} code. */
const MARK_U32 = { line: 0, file: 1, type: 2, count: 3 } as const;
/** The f64 columns of a completion mark (NaN: no byte offset). */
const MARK_F64 = { byteOffset: 0, count: 1 } as const;

/** The registered `data.kind` values of attention.requested (AEP-0002 §5.3), coded 1-6 in a request row; 7: another string. */
const REQUEST_KINDS = ['permission', 'input', 'auth', 'review', 'form', 'other'] as const;
const OTHER_KIND = 7;
const WITHHELD_BIT = 8;
/** `respond_via` without `control` (AEP-0008): a bit, and its `oob` entries (the only other channel) counted to 3. */
const NO_CONTROL_BIT = 16;
const OOB_SHIFT = 5;

/** A closed request of an ended session as its compact row keeps it: where it was raised, its kind, whether withheld. */
export interface ClosedRequest {
  at: Mark;
  /** `data.kind`; `null`: a string outside the registry, not kept. */
  kind: string | undefined | null;
  withheld?: true;
  noControl?: readonly string[];
}

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
    return { at: this.markIn(s), type: MARKER_TYPES[t.getU(s, MARK_U32.type)] ?? '' };
  }

  private markIn(s: number): Mark {
    const t = this.table;
    const at: Mark = { file: this.names.fileName(t.getU(s, MARK_U32.file)), line: t.getU(s, MARK_U32.line) };
    const byte = t.getF(s, MARK_F64.byteOffset);
    if (!Number.isNaN(byte)) at.byteOffset = byte;
    return at;
  }

  /** Leave a row per closed request of `rec`, then drop their records: a late follower still finds its request. */
  retireClosed(rec: SessionRecord, ev: ParsedEvent): void {
    const src = rec.sourceKey().lo >>> 8;
    for (const r of rec.allRequests()) {
      if (!r.terminal) continue;
      const i = r.kind === undefined ? -1 : REQUEST_KINDS.indexOf(r.kind as (typeof REQUEST_KINDS)[number]);
      let code = (r.kind === undefined ? 0 : i < 0 ? OTHER_KIND : i + 1) | (r.withheld ? WITHHELD_BIT : 0);
      if (r.noControl) code |= NO_CONTROL_BIT | (Math.min(r.noControl.length, 3) << OOB_SHIFT);
      this.write(requestKey(rec.session, r.id), r.at, (src << 8) | code, ev, false);
    }
    rec.dropClosed();
  }

  /** Retired request `id` of `session`: of the source with {@link SessionRecord.sourceKey} `source`, else the last retired. */
  closedRequest(session: string, id: string, source?: Hash64): ClosedRequest | undefined {
    const t = this.table;
    const s = t.size === 0 ? undefined : t.slot(requestKey(session, id));
    if (s === undefined) return undefined;
    const code = t.getU(s, MARK_U32.type);
    if (source !== undefined && code >>> 8 !== source.lo >>> 8) return undefined;
    const k = code & 7;
    const r: ClosedRequest = {
      at: this.markIn(s),
      kind: k === 0 ? undefined : k === OTHER_KIND ? null : REQUEST_KINDS[k - 1],
    };
    if (code & WITHHELD_BIT) r.withheld = true;
    if (code & NO_CONTROL_BIT) r.noControl = Array.from({ length: (code >>> OOB_SHIFT) & 3 }, () => 'oob');
    return r;
  }

  /** Remember that `key` completed at `at` with `type` (`ev`: where a cap notice is located); a mark rewritten becomes the newest. */
  put(key: Hash64, at: Mark, type: string, ev: ParsedEvent): void {
    this.write(key, at, MARKER_CODE.get(type) ?? 0, ev, false);
  }

  /**
   * {@link put} for a `key` that {@link get} has just found absent: no second lookup (a `put` looks the key up in memory
   * and in every spilled run's filter again to delete it), the same row.
   */
  add(key: Hash64, at: Mark, type: string, ev: ParsedEvent): void {
    this.write(key, at, MARKER_CODE.get(type) ?? 0, ev, true);
  }

  private write(key: Hash64, at: Mark, code: number, ev: ParsedEvent, absent: boolean): void {
    const t = this.table;
    const s = absent ? t.add(key) : t.put(key);
    t.setU(s, MARK_U32.line, at.line);
    t.setU(s, MARK_U32.file, this.names.fileIndex(at.file));
    t.setU(s, MARK_U32.type, code >>> 0);
    t.setF(s, MARK_F64.byteOffset, at.byteOffset ?? NaN);
    if (t.forgot > 0) this.caps.note('maxIds', this.maxIds, () => markOf(ev));
  }
}

/** The row key of a retired request: the bare session and id, so a foreign follower (no emitter source) finds it too. */
const requestKey = (session: string, id: string): Hash64 => tupleHash(['o', session, id]);
