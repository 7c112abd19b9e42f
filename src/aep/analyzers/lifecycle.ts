/**
 * The lifecycle analyzer (AEP-0002 §2 convention 5): live sessions (cap `maxSessions`), their open runs, and ended
 * sessions as compact rows, so a second end, a regression or a terminal after the end is caught.
 */
import { markOf, type Mark } from '../../core/mark.ts';
import type { ParsedEvent } from '../../core/rule.ts';
import { attr, counterOf, exactInteger, nextCounter, type AepEvent, type AepScope, type Counter } from '../event.ts';
import type { AepCapLog, OpenBudget } from './budget.ts';
import { copiesAt, type IdentityFacts } from './identity-facts.ts';
import { tupleKeyWords } from './canonical.ts';
import type { CompletionMarks, InputNames } from './markers.ts';
import { ReplacingSpillTable } from '../../core/spill-replacing.ts';
import { SessionRecord, UNKNOWN_CLOSES, type OpenRequest } from './session.ts';

/** The run terminal types (AEP-0002 §2 convention 5). */
export const RUN_TERMINALS: ReadonlySet<string> = new Set(['run.finished', 'run.failed', 'run.cancelled']);

const SAFE = BigInt(Number.MAX_SAFE_INTEGER);
/** The session map key of `(source, session)`: `<source length>:<source><session>` (injective; cheaper than JSON). */
const key2 = (a: string, b: string) => a.length + ':' + a + b;
/** The u32 columns of an ended session: its first `session.ended` and its ordering high-water mark (line, input index). */
const ENDED_U32 = { endedLine: 0, endedFile: 1, posLine: 2, posFile: 3, count: 4 } as const;
/** The f64 columns of an ended session (byte offsets NaN when not kept; epoch and seq within ±2^53). */
const ENDED_F64 = { endedByteOffset: 0, posByteOffset: 1, epoch: 2, seq: 3, count: 4 } as const;

/** What the lifecycle analyzer found about one event. */
export interface LifecycleFacts {
  /** The emitter session of a sequenced event (session-scoped, with `session` and an exact `seq`). */
  session?: SessionRecord;
  seq?: bigint;
  /** With `seq`: the exact `epoch`, 0 when absent, `undefined` when not an exact integer. */
  epoch?: bigint;
  /** With `seq`: `seq` as a {@link Counter}, for the analyzers' comparisons. */
  seqC?: Counter;
  /** With `seq`: `epoch` as a {@link Counter} (`undefined` as `epoch`). */
  epochC?: Counter;
  runTerminal?: { run: string; prior: Mark; priorType: string };
  /** A second distinct `session.ended`: the first one. */
  sessionEnded?: Mark;
  endsSession?: boolean;
}

/** Open work of one session at the end of input. */
export interface OpenSession {
  rec: SessionRecord;
  runs: [string, Mark][];
  requests: OpenRequest[];
}

/** Estimated bytes of one live session record (its maps, key strings and run state), for the memory budget. */
const SESSION_BYTES = 768;

/** Emitters of one session name found by comparing sources; beyond this many, by the `(source, session)` key. */
const FEW_EMITTERS = 8;

/** Emitter sessions, runs and session end for one run. */
export class LifecycleAnalyzer {
  private readonly sessions = new Map<string, SessionRecord>();
  /** Bare session -> the emitter sessions using that name (usually one), chained by `nextEmitter`, newest first. */
  private readonly bySession = new Map<string, SessionRecord>();
  /** Ended sessions without open work ({@link ENDED_U32}, {@link ENDED_F64}). */
  private readonly endedSessions: ReplacingSpillTable;
  /** True once a session was forgotten (evicted, or its compact entry dropped): a new record may then be a returning session. */
  private forgot = false;
  /** True when {@link session} just created a record for a session never seen before (not revived). */
  private fresh = false;

  constructor(
    private readonly maxSessions: number,
    private readonly maxIds: number,
    private readonly caps: AepCapLog,
    private readonly budget: OpenBudget,
    private readonly marks: CompletionMarks,
    private readonly names: InputNames,
    spillRows?: number,
  ) {
    const spec = {
      u32: ENDED_U32.count,
      f64: ENDED_F64.count,
      cap: maxIds,
      forget: 'half',
      memRows: spillRows,
    } as const;
    this.endedSessions = new ReplacingSpillTable(spec);
  }

  get size(): number {
    return this.sessions.size;
  }

  /** Estimated bytes: live session records (open work, never forgotten for the budget) and the compact ended sessions. */
  bytes(): number {
    return this.sessions.size * SESSION_BYTES + this.endedSessions.bytes();
  }

  /** Forget the oldest compact ended session (the memory budget); live sessions stay. */
  forgetOldest(): boolean {
    if (!this.endedSessions.forgetOldest()) return false;
    this.forgot = true;
    return true;
  }

  get endedSize(): number {
    return this.endedSessions.size;
  }

  /** The emitter sessions of the bare session name `session` (foreign events name only that), chained by `nextEmitter`. */
  emittersOf(session: string): SessionRecord | undefined {
    return this.bySession.get(session);
  }

  /** `known`: the record {@link peek} found for the event's `(source, session)`, if any. */
  observe(
    ev: AepEvent,
    facts: LifecycleFacts & IdentityFacts & { scope: AepScope; at: Mark },
    known?: SessionRecord,
  ): void {
    const session = attr(ev, 'session');
    if (session === undefined || facts.scope !== 'session') return;
    const seq = exactInteger(ev, '/seq');
    if (seq === undefined) return;
    const source = attr(ev, 'source')!;
    this.fresh = false;
    const rec = this.session(source, session, ev, known);
    facts.session = rec;
    facts.seq = seq;
    const epoch = ev.value.epoch === undefined ? 0n : exactInteger(ev, '/epoch');
    facts.epoch = epoch;
    const plain = ev.bigIntegers.length === 0;
    const sc = counterOf(seq, plain ? ev.value.seq : undefined);
    const ec = epoch === undefined ? undefined : counterOf(epoch, plain ? (ev.value.epoch ?? 0) : undefined);
    facts.seqC = sc;
    facts.epochC = ec;
    const type = ev.type;
    this.trackStart(rec, ev, sc, ec);
    if (ev.untrusted !== undefined) {
      // an event of unknown type may have been any event: a request (no longer held from the start), a terminal
      if (type === '') {
        rec.fromStart = false;
        rec.unknownCloses = UNKNOWN_CLOSES.runs | UNKNOWN_CLOSES.requests;
      } else if (ev.untrusted.has('run') && RUN_TERMINALS.has(type)) rec.unknownCloses |= UNKNOWN_CLOSES.runs;
    }

    const run = attr(ev, 'run');
    if (run !== undefined && (type === 'run.started' || RUN_TERMINALS.has(type))) {
      const r = rec.peekRun(run);
      if (type === 'run.started') {
        // an open run takes a maxOpen slot; a run that already ended is not opened again
        if (!r) {
          const mark = rec.markKey('r', run);
          if (!this.marks.get(mark) && this.budget.admit(rec, ev)) rec.addRun({ run, started: facts.at, mark });
        }
      } else {
        // completed: the run leaves the session and only a compact terminal mark stays
        const mk = r ? r.mark : rec.markKey('r', run);
        const prior = r ? undefined : this.marks.get(mk);
        if (prior) {
          if (!copiesAt(facts, prior.at)) facts.runTerminal = { run, prior: prior.at, priorType: prior.type };
        } else {
          // without an open run `get` just found the mark absent
          if (r) this.marks.put(mk, facts.at, type, ev);
          else this.marks.add(mk, facts.at, type, ev);
          if (r) {
            rec.deleteRun(run);
            this.budget.release(rec);
          }
        }
      }
    }

    if (type === 'session.ended') {
      if (rec.ended) {
        if (!copiesAt(facts, rec.ended)) facts.sessionEnded = rec.ended;
      } else {
        rec.ended = facts.at;
        facts.endsSession = true;
      }
    }
  }

  /** `fromStart`: known from its `session.started` with no position missed (gaps may hide events, AEP-0001 §7.2). */
  private trackStart(rec: SessionRecord, ev: AepEvent, seq: Counter, epoch: Counter | undefined): void {
    if (
      (this.fresh && !this.forgot && epoch !== undefined && ev.type === 'session.started') ||
      (rec.fromStart && epoch === rec.startEpoch && seq === rec.startNext)
    ) {
      rec.fromStart = true;
      rec.startEpoch = epoch!;
      rec.startNext = nextCounter(seq);
    } else rec.fromStart = false;
  }

  /** After the other analyzers: an ended session without open work shrinks to a compact entry. */
  settle(ev: ParsedEvent, facts: LifecycleFacts): void {
    const rec = facts.session;
    if (rec?.ended && rec.owned === 0) this.compact(rec, ev);
  }

  /** Emitter sessions with open runs or open attention requests (end of input). */
  *openSessions(): Generator<OpenSession> {
    for (const rec of this.sessions.values()) {
      if (!rec.hasLifecycle) continue;
      const runs: [string, Mark][] = [];
      if (!(rec.unknownCloses & UNKNOWN_CLOSES.runs)) for (const r of rec.openRuns()) runs.push([r.run, r.started]);
      const requests = rec.unknownCloses & UNKNOWN_CLOSES.requests ? [] : rec.openRequests();
      if (runs.length || requests.length) yield { rec, runs, requests };
    }
  }

  private note(cap: 'maxSessions' | 'maxIds', ev: ParsedEvent): void {
    this.caps.note(cap, cap === 'maxIds' ? this.maxIds : this.maxSessions, () => markOf(ev));
  }

  /** Shrink an ended session without open work to a compact entry (positions beyond 2^53 keep the slim record). */
  private compact(rec: SessionRecord, ev: ParsedEvent): void {
    const p = rec.pos;
    const e = rec.ended;
    if (!p || !e) return;
    if (p.epoch > SAFE || p.epoch < -SAFE || p.seq > SAFE || p.seq < -SAFE) {
      this.marks.retireClosed(rec, ev);
      return;
    }
    const t = this.endedSessions;
    const s = t.put(rec.tupleKey());
    t.setU(s, ENDED_U32.endedLine, e.line);
    t.setU(s, ENDED_U32.endedFile, this.names.fileIndex(e.file));
    t.setU(s, ENDED_U32.posLine, p.at.line);
    t.setU(s, ENDED_U32.posFile, this.names.fileIndex(p.at.file));
    t.setF(s, ENDED_F64.endedByteOffset, e.byteOffset ?? NaN);
    t.setF(s, ENDED_F64.posByteOffset, p.at.byteOffset ?? NaN);
    t.setF(s, ENDED_F64.epoch, Number(p.epoch));
    t.setF(s, ENDED_F64.seq, Number(p.seq));
    if (t.forgot > 0) {
      this.forgot = true;
      this.note('maxIds', ev);
    }
    this.marks.retireClosed(rec, ev); // requests closed after the end
    this.forget(rec);
  }

  /** An ended session brought back from its compact entry (an event arrived after its end). */
  private revive(key: string, source: string, session: string, words: Uint32Array): SessionRecord | undefined {
    const t = this.endedSessions;
    const s = t.slot({ hi: words[1]!, lo: words[0]! });
    if (s === undefined) return undefined;
    const mark = (line: number, file: number, byte: number): Mark => {
      const m: Mark = { file: this.names.fileName(file), line };
      if (!Number.isNaN(byte)) m.byteOffset = byte;
      return m;
    };
    const rec = new SessionRecord(key, source, session, words);
    rec.ended = mark(
      t.getU(s, ENDED_U32.endedLine),
      t.getU(s, ENDED_U32.endedFile),
      t.getF(s, ENDED_F64.endedByteOffset),
    );
    const epoch = t.getF(s, ENDED_F64.epoch);
    const seq = t.getF(s, ENDED_F64.seq);
    rec.posEpoch = BigInt(epoch);
    rec.posSeq = BigInt(seq);
    rec.posEc = epoch; // within ±2^53 (compact)
    rec.posSc = seq;
    rec.hasPos = true;
    rec.posFile = this.names.fileName(t.getU(s, ENDED_U32.posFile));
    rec.posLine = t.getU(s, ENDED_U32.posLine);
    rec.posByte = t.getF(s, ENDED_F64.posByteOffset);
    return rec;
  }

  /** The record of `(source, session)` when held, without side effects. */
  peek(source: string, session: string): SessionRecord | undefined {
    // found through the bare session name, whose few emitters are compared by source (docs/benchmarks.md)
    let n = 0;
    for (let rec = this.bySession.get(session); rec !== undefined; rec = rec.nextEmitter) {
      if (rec.source === source) return rec;
      if (++n === FEW_EMITTERS) return this.sessions.get(key2(source, session));
    }
    return undefined;
  }

  /** The record of `(source, session)` (`known`: its {@link peek}), created and the least recently active one evicted as needed. */
  private session(source: string, session: string, ev: ParsedEvent, known: SessionRecord | undefined): SessionRecord {
    if (known) {
      known.recent = true; // for the eviction clock (a flag, not a re-insertion per event)
      return known;
    }
    if (this.sessions.size >= this.maxSessions) {
      this.forgot = true;
      const old = this.leastRecent();
      this.budget.releaseAll(old);
      this.forget(old);
      this.note('maxSessions', ev);
    }
    const k = key2(source, session);
    // an ended session's row is keyed by the session's own key words: computed once, kept by the record
    const words = this.endedSessions.size === 0 ? undefined : tupleKeyWords([source, session]);
    let rec = words && this.revive(k, source, session, words);
    if (!rec) {
      rec = new SessionRecord(k, source, session, words);
      this.fresh = true;
    }
    this.sessions.set(k, rec);
    rec.nextEmitter = this.bySession.get(session);
    this.bySession.set(session, rec);
    return rec;
  }

  /** The least recently active session, by a second-chance clock over insertion order; amortised O(1). */
  private leastRecent(): SessionRecord {
    for (;;) {
      const oldest = this.sessions.values().next().value as SessionRecord;
      if (!oldest.recent) return oldest;
      oldest.recent = false;
      this.sessions.delete(oldest.key);
      this.sessions.set(oldest.key, oldest);
    }
  }

  private forget(rec: SessionRecord): void {
    this.sessions.delete(rec.key);
    const first = this.bySession.get(rec.session);
    if (first === rec) {
      if (rec.nextEmitter) this.bySession.set(rec.session, rec.nextEmitter);
      else this.bySession.delete(rec.session);
    } else
      for (let r = first; r !== undefined; r = r.nextEmitter)
        if (r.nextEmitter === rec) {
          r.nextEmitter = rec.nextEmitter;
          break;
        }
    rec.nextEmitter = undefined;
  }
}
