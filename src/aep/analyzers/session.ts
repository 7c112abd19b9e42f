/**
 * One emitter session `(source, session)` (AEP-0001 §5.2), owned by the lifecycle analyzer; the others keep state in
 * its slots.
 */
import type { Mark } from '../../core/mark.ts';
import type { Counter } from '../event.ts';
import type { CompiledForm } from '../forms.ts';
import type { OptionSet } from '../text-answer.ts';
import type { OpenOwner } from './budget.ts';
import { pairKey, pairSourceWords, textKey } from '../../core/canonical.ts';
import { sipHashNarrow, sipHi, sipLo } from '../../core/siphash.ts';
import { extendedKey, tupleKeyWords, type Hash64 } from './canonical.ts';

/** One open run of an emitter session (a run leaves the session at its terminal). */
export interface RunRecord {
  run: string;
  started: Mark;
  /** Its completion-mark key ({@link SessionRecord.markKey}), made at the start and used again at the terminal. */
  mark: Hash64;
}

/** One attention request of an emitter session. */
export interface RequestRecord {
  id: string;
  at: Mark;
  /** Its completion-mark key ({@link SessionRecord.markKey}), made at the request and used again at each terminal. */
  mark: Hash64;
  /** `data.kind` of the request, when a string. */
  kind?: string;
  /** No payload at capture `none` (AEP-0001 §8: withheld): the request's kind and fields are unknown, not missing. */
  withheld?: true;
  /** `data.respond_via` without `control` of a schema-valid request: informational on the bus (AEP-0002 §5.3). */
  noControl?: readonly string[];
  /** The `options` of a schema-valid request, for text answers against them (AEP-0008). */
  options?: OptionSet;
  /** The open form request's fields, or `unusable` when its payload failed its schema (dropped at the terminal). */
  form?: CompiledForm | 'unusable';
  /** Its first `attention.answered` while open: a timeout after it is one of an answered request. */
  answered?: Mark;
  terminal?: Mark;
  terminalType?: string;
}

/** An open request (no terminal yet). */
export type OpenRequest = RequestRecord & { terminal?: undefined };

/** A completion mark's unit: `r` run, `q` request; units.ts: `t` tool call, `s` step, `d` subagent, `k` task, etc. */
export type MarkTag = 'r' | 'q' | 't' | 's' | 'd' | 'k' | 'v' | 'm';

/** What an event of unknown type or link may have closed in its session ({@link SessionRecord.unknownCloses}). */
export const UNKNOWN_CLOSES = { runs: 1, requests: 2 } as const;

/** State of one `(source, session)`. */
export class SessionRecord implements OpenOwner {
  /** Open runs and open requests held against `maxOpen` (released at their terminal or on eviction). */
  owned = 0;
  /** The next emitter session of the same bare session name (lifecycle.ts keeps the first by name). */
  nextEmitter: SessionRecord | undefined = undefined;
  /** Active since the eviction clock last passed this record (lifecycle.ts). */
  recent = false;
  // The high-water position (ordering.ts) once `hasPos`: in the record, as a separate object read back at the
  // session's next event cost a cache miss per event. `posEc`, `posSc`: its epoch and seq as Counters; `posFile`,
  // `posLine`, `posByte` (NaN: none): where it was, so the event's mark need not outlive it.
  hasPos = false;
  posEpoch = 0n;
  posSeq = 0n;
  posEc: Counter = 0;
  posSc: Counter = 0;
  posFile = '';
  posLine = 0;
  posByte = 0;
  ended?: Mark;
  /** True while the input holds the session from its start with every position and request so far. */
  fromStart = false;
  /**
   * {@link UNKNOWN_CLOSES} bits: an event of this session whose type or link failed the envelope may have closed an
   * open run or request, so the end-of-input verdicts on them are withheld (README §Decisions on a partly broken envelope).
   */
  unknownCloses = 0;
  startEpoch: Counter = 0;
  startNext: Counter = 0;
  // The {@link tupleKeyWords} of `(source, session)` (its compact-row key, and the key of its run and request marks) as
  // 16-bit halves like the source's below (w0a < 0: not derived yet): a typed array a session was ~150 promoted bytes.
  private w0a = -1;
  private w0b = 0;
  private w1a = 0;
  private w1b = 0;
  private w2a = 0;
  private w2b = 0;
  private w3a = 0;
  private w3b = 0;
  // The source's pairSourceWords as 16-bit halves (k0 = k0a << 16 | k0b, ...; k0a < 0: not derived yet): identity keys
  // of this session's events without a lookup by source, and in the record (small integers), not behind a typed
  // array's two objects, which cost a cache miss or two per event.
  private k0a = -1;
  private k0b = 0;
  private k1a = 0;
  private k1b = 0;
  private k2a = 0;
  private k2b = 0;
  private k3a = 0;
  private k3b = 0;
  private nameLo = -1;
  private lastRun: string | undefined = undefined;
  private lastRunLo = 0;
  // The first open run and the first request sit in the record, a Map only holds those after them (most sessions have
  // one at a time): a session-long Map is promoted, and its `delete` reallocates a shrunken table (docs/benchmarks.md).
  // The Maps are filled only while the slot's entry is older than theirs, so slot then Map is the order of arrival.
  private run0: RunRecord | undefined = undefined;
  private request0: RequestRecord | undefined = undefined;
  private runMap: Map<string, RunRecord> | undefined = undefined;
  private requestMap: Map<string, RequestRecord> | undefined = undefined;
  constructor(
    readonly key: string,
    readonly source: string,
    readonly session: string,
    words?: Uint32Array,
  ) {
    if (words !== undefined) this.setWords(words);
  }

  private setWords(w: Uint32Array): void {
    this.w0a = w[0]! >>> 16;
    this.w0b = w[0]! & 0xffff;
    this.w1a = w[1]! >>> 16;
    this.w1b = w[1]! & 0xffff;
    this.w2a = w[2]! >>> 16;
    this.w2b = w[2]! & 0xffff;
    this.w3a = w[3]! >>> 16;
    this.w3b = w[3]! & 0xffff;
  }

  /** The high-water position as an object (a regression's `prev`, the compact row), or `undefined` before the first. */
  get pos(): { epoch: bigint; seq: bigint; at: Mark } | undefined {
    if (!this.hasPos) return undefined;
    const at: Mark = { file: this.posFile, line: this.posLine };
    if (!Number.isNaN(this.posByte)) at.byteOffset = this.posByte;
    return { epoch: this.posEpoch, seq: this.posSeq, at };
  }

  /** The {@link tupleHash} of `(source, session)`: words 1, 0 of its {@link tupleKeyWords} (its compact row's key). */
  tupleKey(): Hash64 {
    if (this.w0a < 0) this.setWords(tupleKeyWords([this.source, this.session]));
    return { hi: ((this.w1a << 16) | this.w1b) >>> 0, lo: ((this.w0a << 16) | this.w0b) >>> 0 };
  }

  private deriveSourceWords(): void {
    const k = pairSourceWords(this.source);
    this.k0a = k[0]! >>> 16;
    this.k0b = k[0]! & 0xffff;
    this.k1a = k[1]! >>> 16;
    this.k1b = k[1]! & 0xffff;
    this.k2a = k[2]! >>> 16;
    this.k2b = k[2]! & 0xffff;
    this.k3a = k[3]! >>> 16;
    this.k3b = k[3]! & 0xffff;
  }

  /** The identity key of `(source, id)` for an event of this session (the same key as {@link idKeyHash}). */
  idKey(id: string): Hash64 {
    if (this.k0a < 0) this.deriveSourceWords();
    const narrow = sipHashNarrow(
      id,
      ((this.k0a << 16) | this.k0b) >>> 0,
      ((this.k1a << 16) | this.k1b) >>> 0,
      ((this.k2a << 16) | this.k2b) >>> 0,
      ((this.k3a << 16) | this.k3b) >>> 0,
    );
    return narrow < 0 ? pairKey(this.source, id) : { hi: sipHi, lo: sipLo };
  }

  /** {@link textKey} of the source, from the words {@link idKey} keeps (control.ts: an ack's target). */
  sourceKey(): Hash64 {
    if (this.k0a < 0) this.deriveSourceWords();
    return { hi: ((this.k1a << 16) | this.k1b) >>> 0, lo: ((this.k0a << 16) | this.k0b) >>> 0 };
  }

  /** The completion-mark key of `tag` and `name` in this session. */
  markKey(tag: MarkTag, name: string): Hash64 {
    if (this.w0a < 0) this.setWords(tupleKeyWords([this.source, this.session]));
    return extendedKey(
      ((this.w0a << 16) | this.w0b) >>> 0,
      ((this.w1a << 16) | this.w1b) >>> 0,
      ((this.w2a << 16) | this.w2b) >>> 0,
      ((this.w3a << 16) | this.w3b) >>> 0,
      tag,
      [this.source, this.session],
      name,
    );
  }

  /** `textKey(session).lo`, made once per record (assessment rows keep the session as this word). */
  sessionLo(): number {
    if (this.nameLo < 0) this.nameLo = textKey(this.session).lo;
    return this.nameLo;
  }

  /** `textKey(run).lo`, kept for the run last asked for (a session's events mostly name one run at a time). */
  runLo(run: string): number {
    if (run !== this.lastRun) {
      this.lastRunLo = textKey(run).lo;
      this.lastRun = run;
    }
    return this.lastRunLo;
  }

  /** Open a run (`run.run` not open: {@link peekRun} found none). */
  addRun(r: RunRecord): void {
    if (this.run0 === undefined && this.runMap === undefined) this.run0 = r;
    else (this.runMap ??= new Map()).set(r.run, r);
  }

  /** Close the open run `run`. */
  deleteRun(run: string): void {
    if (this.run0?.run === run) this.run0 = undefined;
    else if (this.runMap?.delete(run) && this.runMap.size === 0) this.runMap = undefined;
  }

  /** The open runs, in the order they started. */
  openRuns(): RunRecord[] {
    const out: RunRecord[] = [];
    if (this.run0) out.push(this.run0);
    if (this.runMap) for (const r of this.runMap.values()) out.push(r);
    return out;
  }

  /** Record an attention request (`r.id` not held: {@link peekRequest} found none); open ones and closed ones until the session ends. */
  addRequest(r: RequestRecord): void {
    if (this.request0 === undefined && this.requestMap === undefined) this.request0 = r;
    else (this.requestMap ??= new Map()).set(r.id, r);
  }

  /** The attention requests held, in the order they were raised. */
  allRequests(): RequestRecord[] {
    const out: RequestRecord[] = [];
    if (this.request0) out.push(this.request0);
    if (this.requestMap) for (const r of this.requestMap.values()) out.push(r);
    return out;
  }

  get hasLifecycle(): boolean {
    return (
      this.run0 !== undefined ||
      this.request0 !== undefined ||
      this.runMap !== undefined ||
      this.requestMap !== undefined
    );
  }

  /** Forget closed request records (kept while the session lives, for followers of a closed request). */
  dropClosed(): void {
    this.fromStart = false; // its requests are no longer all known
    if (this.request0?.terminal) this.request0 = undefined;
    const m = this.requestMap;
    if (!m) return;
    for (const [id, r] of m) if (r.terminal) m.delete(id);
    if (m.size === 0) this.requestMap = undefined;
  }

  /** The open requests, in the order they were raised. */
  openRequests(): OpenRequest[] {
    const out: OpenRequest[] = [];
    if (this.request0 && !this.request0.terminal) out.push(this.request0 as OpenRequest);
    if (this.requestMap) for (const r of this.requestMap.values()) if (!r.terminal) out.push(r as OpenRequest);
    return out;
  }

  /** Read-only peeks that never allocate. */
  peekRun(run: string): RunRecord | undefined {
    const r = this.run0;
    return r !== undefined && r.run === run ? r : this.runMap?.get(run);
  }

  peekRequest(id: string): RequestRecord | undefined {
    const r = this.request0;
    return r !== undefined && r.id === id ? r : this.requestMap?.get(id);
  }
}
