/**
 * The assessment analyzer (AEP-0009 §2): where the events an assessment may judge by `cause` were, as compact rows under
 * the memory budget; an id seen with two runs, or one the budget may have forgotten, is not judged.
 */
import { textKey } from '../../core/canonical.ts';
import type { Mark } from '../../core/mark.ts';
import type { StateHolder } from '../../core/state-budget.ts';
import { KeyScreen } from '../../core/key-screen.ts';
import { SpillTable } from '../../core/spill-table.ts';
import { isAssessment } from '../assessment.ts';
import { attr, type AepEvent } from '../event.ts';
import type { LifecycleFacts } from './lifecycle.ts';
import type { InputNames } from './markers.ts';

/** Event types an assessment judges by `cause` (AEP-0009 §2, §6 examples). */
const ASSESSABLE: ReadonlySet<string> = new Set([
  'run.finished',
  'run.failed',
  'run.cancelled',
  'tool.completed',
  'tool.failed',
  'message.agent.replied',
]);

/** What the assessment analyzer found about one event. */
export interface AssessmentFacts {
  /** The event this assessment's `cause` names, when its run or session differs from the assessment's envelope. */
  assessedElsewhere?: { at: Mark; type: 'run' | 'session' };
}

/** The u32 columns of an assessed event: its session's and run's keys, its line and input index (bit 31: {@link AMBIGUOUS}). */
const ROW_U32 = { session: 0, run: 1, line: 2, file: 3, count: 4 } as const;
/** The f64 column of an assessed event: its line's byte offset (NaN: not kept). */
const ROW_F64 = { byteOffset: 0, count: 1 } as const;
/** The `file` column's flag of an id not judged: it named two runs (or sessions), or may have been forgotten. */
const AMBIGUOUS = 0x80000000;

/** The 32-bit key (a {@link textKey} word) of the string last asked for, kept (runs and sessions repeat on consecutive events). */
class LastKey {
  private text: string | undefined;
  private key = 0;

  of(text: string): number {
    if (text !== this.text) {
      this.key = textKey(text).lo;
      this.text = text;
    }
    return this.key;
  }
}

/** Assessable events by id, for one run; a StateHolder of the memory budget (`--max-state-mb`). */
export class AssessmentAnalyzer implements StateHolder {
  /** Keyed id -> the event ({@link ROW_U32}, {@link ROW_F64}); rows go oldest first only. */
  private readonly table: SpillTable;
  private readonly sessions = new LastKey();
  private readonly runs = new LastKey();
  /** The keys of forgotten rows, made at the first (its fixed 128 KiB are not counted: it does not grow). */
  private forgotten: KeyScreen | undefined;

  /** `names`: the run's input names (identity.ts keeps them); `spillRows`: rows in memory (src/core/spill-table.ts). */
  constructor(
    private readonly names: InputNames,
    spillRows?: number,
  ) {
    this.table = new SpillTable({ u32: ROW_U32.count, f64: ROW_F64.count, load: 2, memRows: spillRows, keyLog: true });
  }

  get size(): number {
    return this.table.size;
  }

  bytes(): number {
    return this.table.bytes();
  }

  forgetOldest(): boolean {
    const key = this.table.oldestKey();
    if (key === undefined) return false;
    (this.forgotten ??= new KeyScreen(0)).add(key, 0);
    return this.table.forgetOldest();
  }

  observe(ev: AepEvent, facts: AssessmentFacts & Pick<LifecycleFacts, 'session'> & { at: Mark }): void {
    const type = ev.type;
    if (ASSESSABLE.has(type)) {
      const session = attr(ev, 'session');
      const run = attr(ev, 'run');
      if (session === undefined || run === undefined) return;
      const t = this.table;
      const key = textKey(attr(ev, 'id')!);
      const rec = facts.session;
      const sk = rec !== undefined ? rec.sessionLo() : this.sessions.of(session);
      const rk = rec !== undefined ? rec.runLo(run) : this.runs.of(run);
      const prior = t.slot(key);
      if (prior === undefined) {
        const at = facts.at;
        const s = t.add(key);
        t.setU(s, ROW_U32.session, sk);
        t.setU(s, ROW_U32.run, rk);
        t.setU(s, ROW_U32.line, at.line);
        const file = this.names.fileIndex(at.file);
        t.setU(s, ROW_U32.file, this.forgotten?.mayHold(key) ? (file | AMBIGUOUS) >>> 0 : file);
        t.setF(s, ROW_F64.byteOffset, at.byteOffset ?? NaN);
      } else if (t.getU(prior, ROW_U32.session) !== sk || t.getU(prior, ROW_U32.run) !== rk)
        t.setU(prior, ROW_U32.file, (t.getU(prior, ROW_U32.file) | AMBIGUOUS) >>> 0);
      return;
    }
    if (!isAssessment(type)) return;
    const cause = attr(ev, 'cause');
    if (cause === undefined || this.table.size === 0) return;
    const t = this.table;
    const s = t.slot(textKey(cause));
    if (s === undefined) return;
    const file = t.getU(s, ROW_U32.file);
    if (file & AMBIGUOUS) return;
    const session = attr(ev, 'session');
    const run = attr(ev, 'run');
    let elsewhere: 'run' | 'session' | undefined;
    if (session === undefined || t.getU(s, ROW_U32.session) !== textKey(session).lo) elsewhere = 'session';
    else if (run === undefined || t.getU(s, ROW_U32.run) !== textKey(run).lo) elsewhere = 'run';
    if (elsewhere === undefined) return;
    const at: Mark = { file: this.names.fileName(file), line: t.getU(s, ROW_U32.line) };
    const byte = t.getF(s, ROW_F64.byteOffset);
    if (!Number.isNaN(byte)) at.byteOffset = byte;
    facts.assessedElsewhere = { at, type: elsewhere };
  }
}
