/**
 * Control lookups by bare name (AEP-0004 §2.2, §3): the newest command under each `id` with its session's key, and
 * the session names whose emitter emitted `session.ended`.
 */
import { textKey, type Hash64 } from '../../core/canonical.ts';
import type { Mark } from '../../core/mark.ts';
import { ReplacingSpillTable } from '../../core/spill-replacing.ts';
import type { AepIdTable } from './id-table.ts';

/** The u32 columns of a command by id: its session's key, then its line and input index. */
const BY_ID = { sessionHi: 0, sessionLo: 1, line: 2, file: 3, count: 4 } as const;
/** The u32 columns of an ended session name: the line and input index of its first `session.ended`. */
const ENDED = { line: 0, file: 1, count: 2 } as const;

/** Commands by id and ended session names; both are forgotten oldest first under the memory budget. */
export class CommandIndex {
  private readonly byId: ReplacingSpillTable;
  private readonly ended: ReplacingSpillTable;

  constructor(
    private readonly names: AepIdTable,
    spillRows?: number,
  ) {
    this.byId = new ReplacingSpillTable({ u32: BY_ID.count, f64: 1, memRows: spillRows });
    this.ended = new ReplacingSpillTable({ u32: ENDED.count, f64: 1, memRows: spillRows });
  }

  bytes(): number {
    return this.byId.bytes() + this.ended.bytes();
  }

  forgetOldest(): boolean {
    return this.byId.forgetOldest() || this.ended.forgetOldest();
  }

  /** A command `id` addressed to `session`, at `at`: the newest under its id. */
  command(id: string, session: string, at: Mark): void {
    const s = this.byId.put(textKey(id));
    const k = textKey(session);
    this.byId.setU(s, BY_ID.sessionHi, k.hi);
    this.byId.setU(s, BY_ID.sessionLo, k.lo);
    this.put(this.byId, s, BY_ID, at);
  }

  /** The newest command under `id` when it addresses a session other than `session`. */
  otherSession(id: string, session: string): Mark | undefined {
    const t = this.byId;
    const s = t.size > 0 ? t.slot(textKey(id)) : undefined;
    if (s === undefined) return undefined;
    const k: Hash64 = textKey(session);
    if (t.getU(s, BY_ID.sessionHi) === k.hi && t.getU(s, BY_ID.sessionLo) === k.lo) return undefined;
    return this.markAt(t, s, BY_ID);
  }

  /** An emitter of `session` emitted `session.ended` at `at` (the first one is kept). */
  sessionEnded(session: string, at: Mark): void {
    const k = textKey(session);
    if (this.ended.slot(k) === undefined) this.put(this.ended, this.ended.add(k), ENDED, at);
  }

  /** Where an emitter of `session` emitted `session.ended`, when one did. */
  endedAt(session: string): Mark | undefined {
    const t = this.ended;
    const s = t.size > 0 ? t.slot(textKey(session)) : undefined;
    return s === undefined ? undefined : this.markAt(t, s, ENDED);
  }

  private put(t: ReplacingSpillTable, s: number, cols: { line: number; file: number }, at: Mark): void {
    t.setU(s, cols.line, at.line);
    t.setU(s, cols.file, this.names.fileIndex(at.file));
    t.setF(s, 0, at.byteOffset ?? NaN);
  }

  private markAt(t: ReplacingSpillTable, s: number, cols: { line: number; file: number }): Mark {
    const m: Mark = { file: this.names.fileName(t.getU(s, cols.file)), line: t.getU(s, cols.line) };
    const b = t.getF(s, 0);
    if (!Number.isNaN(b)) m.byteOffset = b;
    return m;
  }
}
