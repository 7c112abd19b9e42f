/**
 * Shared cross-event state of the AEP stream rules for one run, and the per-event
 * {@link Observation} every stream rule reads.
 *
 * Why one tracker: each stream rule id is its own rule object (a rule reports under one id),
 * but most of them need the same facts (the attention request an answer names, whether a run
 * already ended). The tracker computes those facts once per event, in one place, against
 * the state as it was *before* the event, and then updates the state. Rules only read the
 * observation and report. This keeps one copy of every piece of state, one place for the
 * memory caps, and one place for dedupe.
 *
 * Dedupe (AEP-0001 §7.4; notes A-1): the first thing {@link AepStreamTracker.observe} does is
 * the identity check on `(source, id)`. A canonical byte-for-byte repeat is a redelivery: its
 * observation carries only `redelivery`, no state is touched, and {@link trackedRule} does not
 * show it to any rule except `aep/redelivery`. So a redelivered event is never counted twice
 * (ordering, terminals, acks, forms). Per-event rules (capture, field_spec shape) still run
 * on the repeated line: they describe that line, not the stream.
 *
 * State and keys (AEP-0001 §5.2: session identity is emitter-scoped):
 * - identity: `(source, id)` -> where the first occurrence was, in a compact hash table
 *   (id-table.ts; cap `maxIds`, the oldest half forgotten first), with either a 64-bit digest
 *   of its canonical content or, when it came from a regular file, only a fingerprint of the
 *   line: a repeat then reads the first line back ({@link ParsedEvent.reread}) and compares
 *   exactly (same bytes, else same canonical text). Most events never repeat, so this saves
 *   canonicalising and hashing every line; standard input and pipes keep the digest;
 * - live sessions: `(source, session)` -> ordering high-water mark `(epoch, seq)`, the first
 *   `session.ended`, open runs, and attention requests (open ones, and closed ones without
 *   their form fields, so that followers of a closed request still find it) (cap
 *   `maxSessions`; the least recently active session is forgotten first, found by a
 *   second-chance clock so that an event costs a flag, not a map re-insertion);
 * - markers (marker-table.ts, compact, no strings): every run terminal by
 *   `(source, session, run)`, every request terminal by `(source, session, request)`, and the
 *   first ack decision by `(ack source, cause)` (AEP-0004 §3): line, input, byte offset, type;
 * - ended sessions without open work: the first `session.ended` and the ordering mark, as a
 *   compact entry (marker-table.ts) keyed by `(source, session)`;
 * - commands (AEP-0004 §2) awaiting their ack, by `(session, id)`: where, when (`time`),
 *   whether an emitter of the session was present, and whether a `control.attention.respond`
 *   failed its form (`aep/respond-invalid-accepted`); dropped at the ack (`aep/ack-window`),
 *   summarised at the end (`aep/command-unacked`).
 *
 * Release (DESIGN.md §Principles "Stream, don't slurp"): only OPEN work counts against
 * `maxOpen`: open runs, open attention requests, and commands awaiting their ack; when
 * it is full, new ones are not tracked. A run leaves its session at its terminal (its marker
 * stays); a request drops its form fields at its terminal and stops counting; a pending
 * command is dropped at its ack. At its first `session.ended` a session drops its closed
 * requests; once it has no open work left (at once, or when its last open run or request
 * closes) it leaves the session map for a compact ended entry. An event after the end brings
 * the session back from that entry (ended mark and ordering mark), so a second distinct
 * `session.ended`, a seq/epoch regression, a second run or request terminal and a second ack
 * are still caught after the end. Trade-off: the attention requests of an ended session are
 * forgotten, so a follower (`attention.answered`, `control.attention.respond`, routed) of
 * one of its requests arriving after the session ended is reported as naming an unknown
 * request (`aep/attention-unknown-request`, info) instead of being linked. Markers and ended
 * entries share the `maxIds` bound (each is held in generations like the identity table; when
 * the oldest half is forgotten `aep/state-cap` reports `maxIds`); a marker costs about 40 bytes,
 * an ended session about 75. Closed request records of a session that never ends stay until
 * `maxSessions` evicts it. Exceeding a cap is reported once per cap by `aep/state-cap` and
 * never throws.
 *
 * Sharing across rule instances: every stream rule of a run gets the same tracker from the
 * run's {@link RunScope} ({@link trackerFor}); the next run gets a fresh one.
 */
import { StreamTrackerBase, type TrackerCapNotice } from '../../core/caps.ts';
import type { Location } from '../../core/finding.ts';
import type { ParsedEvent, RuleContext, RuleMeta, RunScope, StreamRule } from '../../core/rule.ts';
import { attr, exactInteger, scopeOf, type AepEvent } from '../event.ts';
import { checkFormValues, compileForm, type CompiledForm, type FormIssue } from '../forms.ts';
import { fnv32, sameAsReadBack } from '../../core/canonical.ts';
import { contentHash, idKeyHash, tupleHash } from './canonical.ts';
import { AepIdTable, MAX_LINE_FILES, MAX_LINE_OFFSET, type Hash64, type IdEntry } from './id-table.ts';
import { MarkerTable, type MarkerRow } from './marker-table.ts';
import type { AepStreamOptions } from './index.ts';

/** Where an event was: its input, line and (when kept) line-start byte offset. */
export interface Mark {
  file: string;
  line: number;
  byteOffset?: number;
}

/** The mark of `ev`. */
export function markOf(ev: ParsedEvent): Mark {
  return { file: ev.source, line: ev.line, byteOffset: ev.byteOffset };
}

/** A {@link Location} for a mark (column 1: the start of the event's line). */
export function markLocation(m: Mark, pointer = ''): Location {
  const loc: Location = { source: m.file, line: m.line, column: 1, pointer };
  if (m.byteOffset !== undefined) loc.byteOffset = m.byteOffset;
  return loc;
}

/** The run terminal types (AEP-0002 §2 convention 5). */
export const RUN_TERMINALS: ReadonlySet<string> = new Set(['run.finished', 'run.failed', 'run.cancelled']);
/** The attention request terminals (AEP-0002 §7.2). */
export const ATTENTION_TERMINALS: ReadonlySet<string> = new Set(['attention.resolved', 'attention.timeout']);
/** Events that name an attention request in `subject` (AEP-0002 §7.1; AEP-0004 §5, §6). */
export const ATTENTION_FOLLOWERS: ReadonlySet<string> = new Set(['attention.routed', 'attention.answered', 'attention.resolved', 'attention.timeout', 'control.attention.respond']);
/** Ack decisions (AEP-0004 §3). */
export const ACKS: ReadonlySet<string> = new Set(['control.accepted', 'control.rejected']);

/** One open run of an emitter session (a run leaves the map at its terminal). */
export interface RunRecord {
  started?: Mark;
  terminal?: Mark;
  terminalType?: string;
}

/** One attention request of an emitter session (or a placeholder for a terminal naming an unseen one). */
export interface RequestRecord {
  id: string;
  /** Where the request was; absent for a placeholder. */
  at?: Mark;
  kind?: string;
  /**
   * The form's fields while the request is open (`kind: "form"` with a valid payload);
   * `unusable` when the request payload failed its schema; `closed` once the request reached a
   * terminal (fields are dropped then).
   */
  form?: CompiledForm | 'unusable' | 'closed';
  terminal?: Mark;
  terminalType?: string;
}

/** State of one `(source, session)`. */
export class SessionRecord {
  /** Open runs and open requests held against `maxOpen` (released at their terminal or on eviction). */
  owned = 0;
  /** Active since the eviction clock last passed this record ({@link AepStreamTracker}'s `leastRecent`). */
  recent = false;
  pos?: { epoch: bigint; seq: bigint; at: Mark };
  ended?: Mark;
  /** Created on first use (most sessions never need one of them). */
  private runMap?: Map<string, RunRecord>;
  private requestMap?: Map<string, RequestRecord>;
  constructor(
    readonly key: string,
    readonly source: string,
    readonly session: string,
  ) {}

  get runs(): Map<string, RunRecord> {
    return (this.runMap ??= new Map());
  }

  get requests(): Map<string, RequestRecord> {
    return (this.requestMap ??= new Map());
  }

  /** True when the session holds runs or requests. */
  get hasLifecycle(): boolean {
    return (this.runMap?.size ?? 0) + (this.requestMap?.size ?? 0) > 0;
  }

  /** Forget closed request records (kept while the session lives, for followers of a closed request). */
  dropClosed(): void {
    if (!this.requestMap) return;
    for (const [id, r] of this.requestMap) if (r.terminal) this.requestMap.delete(id);
  }

  /** Read-only peeks that never allocate. */
  peekRun(run: string): RunRecord | undefined {
    return this.runMap?.get(run);
  }

  peekRequest(id: string): RequestRecord | undefined {
    return this.requestMap?.get(id);
  }
}

/** How an event's `subject` resolved to an attention request. */
export type RequestLink =
  | { status: 'found'; request: RequestRecord & { at: Mark }; owner: SessionRecord }
  | { status: 'missing' }
  | { status: 'ambiguous'; sources: number };

/** What the form checks found on an `answer.values` (attention.answered or control.attention.respond). */
export type FormOutcome =
  | { kind: 'checked'; issues: FormIssue[]; request: Mark }
  | { kind: 'not-form'; requestKind: string | undefined; request: Mark }
  | { kind: 'unverifiable'; reason: 'missing' | 'ambiguous' | 'unusable' | 'closed'; request?: Mark };

/** The form facts of one answering event. */
export interface FormObservation {
  /** `answered`: the emitter's validated record. `respond`: a sender's command. */
  role: 'answered' | 'respond';
  values: Record<string, unknown>;
  subject: string;
  outcome: FormOutcome;
}

/** A command (AEP-0004 §2) awaiting its ack. */
export interface PendingCommand {
  at: Mark;
  type: string;
  session: string;
  /** `time` in ms since the epoch, when it parses. */
  timeMs: number | undefined;
  /** True when an emitter of the addressed session had been seen when the command came. */
  targetSeen: boolean;
  /** A `control.attention.respond` whose values fail its form, not yet answered (AEP-0004 §3, notes CTL-09). */
  invalid?: boolean;
}

/** Which cap was exceeded. */
export type CapName = 'maxSessions' | 'maxOpen' | 'maxIds';

/** A cap exceeded for the first time, waiting for `aep/state-cap` to report it. */
export type CapNotice = TrackerCapNotice<CapName, Mark>;

/** Facts about one event, computed once against the state before it. */
export interface Observation {
  ev: AepEvent;
  /** The first occurrence, when this event repeats it byte-for-byte (canonically). */
  redelivery?: Mark;
  /** The first occurrence, when this event reuses its `(source, id)` with other content. */
  collision?: Mark;
  /** The first occurrence, when this event repeats its `(source, id)` but that line could not be read back to compare. */
  unverifiable?: Mark;
  /** An `(epoch, seq)` position at or below the session's high-water mark. */
  order?: { kind: 'epoch' | 'seq'; epoch: bigint; seq: bigint; prev: { epoch: bigint; seq: bigint; at: Mark } };
  /** A run terminal for a run that already has one. */
  runTerminal?: { run: string; prior: Mark; priorType: string };
  /** A second distinct `session.ended`: the first one. */
  sessionEnded?: Mark;
  /** Requests of the session still open at its first `session.ended`. */
  endedWithOpen?: (RequestRecord & { at: Mark })[];
  /** For attention followers: the `subject` and the request it names. */
  attention?: { subject: string | undefined; link: RequestLink; priorTerminal?: { at: Mark; type: string } };
  /**
   * For acks: the `cause`, an earlier distinct decision for the same `(source, cause)`, and the
   * command it answers when that command is in the input (`lateByMs`: how much later than the
   * ack window the ack's `time` is, when both times parse).
   */
  ack?: { cause: string | undefined; prior?: { at: Mark; type: string }; command?: { at: Mark; type: string; lateByMs?: number } };
  /** An invalid `control.attention.respond` that this `control.accepted` or `attention.answered` goes along with. */
  endorsesInvalid?: Mark;
  /** Form checks of `answer.values`. */
  form?: FormObservation;
}

const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const own = (o: object, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);
const key2 = (a: string, b: string) => JSON.stringify([a, b]);

/** An event's `time` in ms since the epoch, or `undefined` when it does not parse (leap seconds, lowercase forms). */
function timeOf(ev: AepEvent): number | undefined {
  const t = attr(ev, 'time');
  const ms = t === undefined ? NaN : Date.parse(t);
  return Number.isNaN(ms) ? undefined : ms;
}

/** Terminal and ack types, by their code in the marker table. */
const MARKER_TYPES = ['run.finished', 'run.failed', 'run.cancelled', 'attention.resolved', 'attention.timeout', 'control.accepted', 'control.rejected'] as const;
const MARKER_CODE = new Map<string, number>(MARKER_TYPES.map((t, i) => [t, i]));
const SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/** Sizes of the stream state held now (see {@link AepStreamTracker.stats}). */
export interface AepTrackerStats {
  /** Open work counted against `maxOpen`: open runs, open attention requests, commands awaiting their ack. */
  open: number;
  /** `(source, session)` records held in full (live sessions, and ended ones with open work). */
  sessions: number;
  /** Ended sessions kept as compact entries (their `session.ended` and ordering mark). */
  endedSessions: number;
  /** Compact markers of run terminals, request terminals and ack decisions. */
  markers: number;
  /** `(source, id)` identity entries. */
  ids: number;
}

/** The shared stream state of one run. */
export class AepStreamTracker extends StreamTrackerBase<AepEvent, Observation, CapName, Mark> {
  private readonly ids: AepIdTable;
  private readonly sessions = new Map<string, SessionRecord>();
  /** Bare session -> the emitter sessions using that name (usually one). */
  private readonly bySession = new Map<string, Set<SessionRecord>>();
  /** Run terminals, request terminals and ack decisions: u32 [line, file, type code], f64 [byte offset]. */
  private readonly markers: MarkerTable;
  /** Ended sessions without open work: u32 [ended line, file, pos line, pos file], f64 [ended byte, pos byte, epoch, seq]. */
  private readonly endedSessions: MarkerTable;
  /** Commands awaiting their ack, by `(session, command id)` (AEP-0004 §3). */
  private readonly commands = new Map<string, PendingCommand>();
  /** How to read back lines of re-readable inputs, by file index (identity checks). */
  private readonly rereaders = new Map<number, (byteOffset: number) => string | undefined>();
  private open = 0;

  constructor(readonly opts: AepStreamOptions) {
    super();
    this.ids = new AepIdTable(opts.maxIds);
    this.markers = new MarkerTable(3, 1, opts.maxIds);
    this.endedSessions = new MarkerTable(4, 4, opts.maxIds);
  }

  /**
   * Sizes of the state held now (read-only; for tests and diagnostics). On a stream whose
   * sessions all ended and whose work all completed, `open` and `sessions` are 0.
   */
  stats(): AepTrackerStats {
    return { open: this.open, sessions: this.sessions.size, endedSessions: this.endedSessions.size, markers: this.markers.size, ids: this.ids.size };
  }

  /** Commands still awaiting their ack, in arrival order (end of stream). */
  pendingCommands(): PendingCommand[] {
    return [...this.commands.values()];
  }

  /** Emitter sessions with open runs or open attention requests (end of stream). */
  *openSessions(): Generator<{ rec: SessionRecord; runs: [string, Mark][]; requests: (RequestRecord & { at: Mark })[] }> {
    for (const rec of this.sessions.values()) {
      if (!rec.hasLifecycle) continue;
      const runs: [string, Mark][] = [];
      for (const [run, r] of rec.runs) if (r.started && !r.terminal) runs.push([run, r.started]);
      const requests = this.openRequests(rec);
      if (runs.length || requests.length) yield { rec, runs, requests };
    }
  }

  private openRequests(rec: SessionRecord): (RequestRecord & { at: Mark })[] {
    const out: (RequestRecord & { at: Mark })[] = [];
    if (!rec.hasLifecycle) return out;
    for (const r of rec.requests.values()) if (r.at && !r.terminal) out.push(r as RequestRecord & { at: Mark });
    return out;
  }

  private notice(cap: CapName, ev: ParsedEvent): void {
    this.noteCap(cap, this.opts[cap], () => markOf(ev));
  }

  /** Take one `maxOpen` slot for `owner` (or a run-wide record); false when the cap is full. */
  private admit(owner: SessionRecord | undefined, ev: ParsedEvent): boolean {
    if (this.open >= this.opts.maxOpen) {
      this.notice('maxOpen', ev);
      return false;
    }
    this.open++;
    if (owner) owner.owned++;
    return true;
  }

  private release(owner: SessionRecord | undefined): void {
    this.open--;
    if (owner) owner.owned--;
  }

  /** A marker (terminal or ack) remembered for `key`. */
  private marker(key: Hash64): { at: Mark; type: string } | undefined {
    const row = this.markers.get(key);
    if (!row) return undefined;
    const at: Mark = { file: this.ids.fileName(row.u[1]), line: row.u[0] };
    if (!Number.isNaN(row.f[0])) at.byteOffset = row.f[0];
    return { at, type: MARKER_TYPES[row.u[2]] ?? '' };
  }

  private putMarker(key: Hash64, at: Mark, type: string, ev: ParsedEvent): void {
    const row: MarkerRow = { u: [at.line, this.ids.fileIndex(at.file), MARKER_CODE.get(type) ?? 0], f: [at.byteOffset ?? NaN] };
    if (this.markers.put(key, row)) this.notice('maxIds', ev);
  }

  /**
   * Shrink an ended session without open work to a compact entry (its `session.ended` and
   * ordering high-water mark) and drop everything else it held. Positions beyond 2^53 keep the
   * (slim) record in the session map instead.
   */
  private compact(rec: SessionRecord, ev: ParsedEvent): void {
    const p = rec.pos;
    const e = rec.ended;
    if (!p || !e) return;
    if (p.epoch > SAFE || p.epoch < -SAFE || p.seq > SAFE || p.seq < -SAFE) {
      rec.dropClosed();
      return;
    }
    const row: MarkerRow = {
      u: [e.line, this.ids.fileIndex(e.file), p.at.line, this.ids.fileIndex(p.at.file)],
      f: [e.byteOffset ?? NaN, p.at.byteOffset ?? NaN, Number(p.epoch), Number(p.seq)],
    };
    if (this.endedSessions.put(tupleHash([rec.source, rec.session]), row)) this.notice('maxIds', ev);
    this.forget(rec);
  }

  /** An ended session brought back from its compact entry (an event arrived after its end). */
  private revive(key: string, source: string, session: string): SessionRecord | undefined {
    if (this.endedSessions.size === 0) return undefined;
    const row = this.endedSessions.get(tupleHash([source, session]));
    if (!row) return undefined;
    const mark = (line: number, file: number, byte: number): Mark => {
      const m: Mark = { file: this.ids.fileName(file), line };
      if (!Number.isNaN(byte)) m.byteOffset = byte;
      return m;
    };
    const rec = new SessionRecord(key, source, session);
    rec.ended = mark(row.u[0], row.u[1], row.f[0]);
    rec.pos = { epoch: BigInt(row.f[2]), seq: BigInt(row.f[3]), at: mark(row.u[2], row.u[3], row.f[1]) };
    return rec;
  }

  /** The record of `(source, session)`, created (and the least recently active one evicted) as needed. */
  private session(source: string, session: string, ev: ParsedEvent): SessionRecord {
    const key = key2(source, session);
    let rec = this.sessions.get(key);
    if (rec) {
      rec.recent = true; // for the eviction clock (a flag, not a re-insertion per event)
      return rec;
    }
    if (this.sessions.size >= this.opts.maxSessions) {
      this.evict(this.leastRecent());
      this.notice('maxSessions', ev);
    }
    rec = this.revive(key, source, session) ?? new SessionRecord(key, source, session);
    this.sessions.set(key, rec);
    let set = this.bySession.get(session);
    if (!set) this.bySession.set(session, (set = new Set()));
    set.add(rec);
    return rec;
  }

  /**
   * The session to forget when `maxSessions` is full: the least recently active one, found by
   * a second-chance clock over the map's insertion order (a session active since the hand last
   * passed it is moved to the newest end and spared once). Amortised O(1) per eviction.
   */
  private leastRecent(): SessionRecord {
    for (;;) {
      const oldest = this.sessions.values().next().value as SessionRecord;
      if (!oldest.recent) return oldest;
      oldest.recent = false;
      this.sessions.delete(oldest.key);
      this.sessions.set(oldest.key, oldest);
    }
  }

  private evict(rec: SessionRecord): void {
    this.open -= rec.owned;
    rec.owned = 0;
    this.forget(rec);
  }

  /** Remove `rec` from the session maps. */
  private forget(rec: SessionRecord): void {
    this.sessions.delete(rec.key);
    const set = this.bySession.get(rec.session);
    set?.delete(rec);
    if (set && set.size === 0) this.bySession.delete(rec.session);
  }

  /** The request `subject` of the emitter session `rec` (same `(source, session)`). */
  private linkOwn(rec: SessionRecord, subject: string): RequestLink {
    const r = rec.peekRequest(subject);
    return r?.at ? { status: 'found', request: r as RequestRecord & { at: Mark }, owner: rec } : { status: 'missing' };
  }

  /** The request `subject` of any emitter of `session` (foreign events: routed, respond). */
  private linkForeign(session: string, subject: string): RequestLink {
    let found: RequestLink = { status: 'missing' };
    let n = 0;
    for (const rec of this.bySession.get(session) ?? []) {
      const r = rec.peekRequest(subject);
      if (!r?.at) continue;
      n++;
      found = { status: 'found', request: r as RequestRecord & { at: Mark }, owner: rec };
    }
    return n > 1 ? { status: 'ambiguous', sources: n } : found;
  }

  protected compute(ev: AepEvent): Observation {
    const obs: Observation = { ev };
    const source = attr(ev, 'source')!;
    const id = attr(ev, 'id')!;
    const at = markOf(ev);

    // 1. identity and dedupe (AEP-0001 §5.1 #2, §7.4): every later event with the same
    // (source, id) is compared with the first one
    const key = idKeyHash(source, id);
    const first = this.ids.get(key);
    if (first) {
      const firstAt: Mark = { file: this.ids.fileName(first.file), line: first.line };
      const same = this.sameContent(first, ev);
      if (same === true) {
        obs.redelivery = firstAt;
        return obs; // never counted twice
      }
      if (same === false) obs.collision = firstAt;
      else obs.unverifiable = firstAt;
    } else if (this.ids.add(key, this.identityEntry(ev))) {
      this.notice('maxIds', ev);
    }

    const type = ev.type;
    const session = attr(ev, 'session');
    const scope = scopeOf(type);
    const sequenced = session !== undefined && scope === 'session' && exactInteger(ev, '/seq') !== undefined;
    const rec = sequenced ? this.session(source, session, ev) : undefined;

    // 2. ordering (AEP-0001 §7.2-§7.3): seq-bearing events of one (source, session), arrival order
    if (rec) {
      const seq = exactInteger(ev, '/seq')!;
      const epoch = exactInteger(ev, '/epoch') ?? 0n;
      const p = rec.pos;
      if (p && epoch < p.epoch) obs.order = { kind: 'epoch', epoch, seq, prev: p };
      else if (p && epoch === p.epoch && seq <= p.seq) obs.order = { kind: 'seq', epoch, seq, prev: p };
      else rec.pos = { epoch, seq, at }; // the high-water mark never goes down
    }

    // 3. runs (AEP-0002 §2 convention 5)
    const run = attr(ev, 'run');
    if (rec && run !== undefined && (type === 'run.started' || RUN_TERMINALS.has(type))) {
      const r = rec.peekRun(run);
      if (type === 'run.started') {
        // an open run takes a maxOpen slot; a run that already ended is not opened again
        if (r) r.started ??= at;
        else if (!this.marker(tupleHash(['r', source, session!, run])) && this.admit(rec, ev)) rec.runs.set(run, { started: at });
      } else {
        // completed: the run leaves the session and only a compact terminal marker stays
        const mk = tupleHash(['r', source, session!, run]);
        const prior = r ? undefined : this.marker(mk);
        if (prior) obs.runTerminal = { run, prior: prior.at, priorType: prior.type };
        else {
          this.putMarker(mk, at, type, ev);
          if (r) {
            rec.runs.delete(run);
            this.release(rec);
          }
        }
      }
    }

    // 4. session end (AEP-0002 §2 convention 5, §7.2)
    if (rec && type === 'session.ended') {
      if (rec.ended) obs.sessionEnded = rec.ended;
      else {
        rec.ended = at;
        const open = this.openRequests(rec);
        if (open.length) obs.endedWithOpen = open;
        rec.dropClosed(); // open runs and requests stay (open-at-end reports them)
      }
    }

    // 5. attention requests and their followers (AEP-0002 §7; AEP-0004 §5-§6)
    if (rec && type === 'attention.requested' && !rec.peekRequest(id)) {
      // an open request takes a maxOpen slot; one whose terminal came first is recorded closed
      const prior = this.marker(tupleHash(['q', source, session!, id]));
      let r: RequestRecord | undefined;
      if (prior) rec.requests.set(id, (r = { id, terminal: prior.at, terminalType: prior.type }));
      else if (this.admit(rec, ev)) rec.requests.set(id, (r = { id }));
      if (r) {
        r.at = at;
        const data = isObj(ev.value.data) ? ev.value.data : undefined;
        r.kind = typeof data?.kind === 'string' ? data.kind : undefined;
        if (r.terminal) r.form = r.kind === 'form' ? 'closed' : undefined;
        else if (r.kind === 'form') r.form = ev.payloadValid && Array.isArray(data?.fields) ? compileForm(data.fields as unknown[]) : 'unusable';
      }
    }
    if (session !== undefined && ATTENTION_FOLLOWERS.has(type)) {
      const subject = attr(ev, 'subject');
      const link: RequestLink = subject === undefined ? { status: 'missing' } : rec ? this.linkOwn(rec, subject) : this.linkForeign(session, subject);
      obs.attention = { subject, link };
      if (rec && subject !== undefined && ATTENTION_TERMINALS.has(type)) {
        // every request terminal leaves a compact marker, so a second terminal is caught even
        // for a request not (yet) seen or after its session ended; an open request closes
        const r = rec.peekRequest(subject);
        const mk = tupleHash(['q', source, session!, subject]);
        const prior = r?.terminal ? { at: r.terminal, type: r.terminalType! } : r ? undefined : this.marker(mk);
        if (prior) obs.attention.priorTerminal = prior;
        else {
          this.putMarker(mk, at, type, ev);
          if (r) {
            r.terminal = at;
            r.terminalType = type;
            if (r.form !== undefined) r.form = 'closed';
            if (r.at) this.release(rec);
          }
        }
      }
      if (subject !== undefined && (type === 'attention.answered' || type === 'control.attention.respond')) {
        obs.form = this.formObservation(ev, subject, link);
      }
    }

    // 6. control (AEP-0004 §2-§3): commands awaiting their ack (a maxOpen slot each; a
    // control.attention.respond whose values fail its form is marked invalid), and acks
    if (session !== undefined && type !== 'attention.routed' && scope === 'foreign') {
      const k = key2(session, id);
      let cmd = this.commands.get(k);
      if (!cmd && this.admit(undefined, ev)) {
        cmd = { at, type, session, timeMs: timeOf(ev), targetSeen: this.bySession.has(session) };
        this.commands.set(k, cmd);
      }
      if (cmd && type === 'control.attention.respond' && obs.form?.outcome.kind === 'checked') {
        if (obs.form.outcome.issues.some((i) => i.kind === 'type' || i.kind === 'required' || i.kind === 'choice')) cmd.invalid = true;
      }
    }
    // the command this event answers (an ack, or an attention.answered caused by a respond)
    const cause = rec && (ACKS.has(type) || type === 'attention.answered') ? attr(ev, 'cause') : undefined;
    const ck = cause === undefined ? undefined : key2(rec!.session, cause);
    const cmd = ck === undefined ? undefined : this.commands.get(ck);
    if (rec && ACKS.has(type)) {
      obs.ack = { cause };
      if (cause !== undefined) {
        const k = tupleHash(['a', source, cause]);
        const prior = this.marker(k);
        if (prior) obs.ack.prior = prior;
        else this.putMarker(k, at, type, ev);
      }
      if (cmd) {
        this.commands.delete(ck!);
        this.release(undefined);
        obs.ack.command = { at: cmd.at, type: cmd.type };
        const t = timeOf(ev);
        if (t !== undefined && cmd.timeMs !== undefined && t - cmd.timeMs > this.opts.ackWindowMs) obs.ack.command.lateByMs = t - cmd.timeMs - this.opts.ackWindowMs;
      }
    }
    if (cmd?.invalid) {
      // the first answer to an invalid respond decides: accepted or answered endorses it
      cmd.invalid = false;
      if (type !== 'control.rejected') obs.endorsesInvalid = cmd.at;
    }

    // 7. release: an ended session without open work shrinks to a compact entry
    if (rec?.ended && rec.owned === 0) this.compact(rec, ev);
    return obs;
  }

  /**
   * What the id table keeps of a first occurrence. From a regular file: where the line is and
   * its fingerprint, since the line can be read back when its `(source, id)` repeats; otherwise
   * the digest of its canonical content.
   */
  private identityEntry(ev: AepEvent): IdEntry {
    const file = this.ids.fileIndex(ev.source);
    if (ev.reread && file < MAX_LINE_FILES && ev.byteOffset < MAX_LINE_OFFSET) {
      this.rereaders.set(file, ev.reread);
      return { kind: 'line', fnv: fnv32(ev.text), byteOffset: ev.byteOffset, line: ev.line, file };
    }
    return { kind: 'digest', content: contentHash(ev), line: ev.line, file };
  }

  /**
   * Whether `ev` has the same canonical content as the first occurrence `first`: compared
   * exactly (byte-identical lines, else canonical texts) when the first line can be read back,
   * by digest otherwise. `undefined` when the first line cannot be read back as it was (the
   * file changed while it was checked).
   */
  private sameContent(first: IdEntry, ev: AepEvent): boolean | undefined {
    if (first.kind === 'digest') {
      const c = contentHash(ev);
      return c.hi === first.content.hi && c.lo === first.content.lo;
    }
    return sameAsReadBack(this.rereaders.get(first.file)?.(first.byteOffset), first.fnv, ev);
  }

  private formObservation(ev: AepEvent, subject: string, link: RequestLink): FormObservation | undefined {
    if (!ev.payloadValid) return undefined; // the payload findings already describe it
    const data = ev.value.data;
    const answer = isObj(data) && own(data, 'answer') && isObj(data.answer) ? data.answer : undefined;
    if (!answer || !own(answer, 'values') || !isObj(answer.values)) return undefined;
    const role = ev.type === 'attention.answered' ? 'answered' : 'respond';
    const base = { role, values: answer.values, subject } as const;
    if (link.status === 'missing') return { ...base, outcome: { kind: 'unverifiable', reason: 'missing' } };
    if (link.status === 'ambiguous') return { ...base, outcome: { kind: 'unverifiable', reason: 'ambiguous' } };
    const req = link.request;
    if (req.kind !== 'form') return { ...base, outcome: { kind: 'not-form', requestKind: req.kind, request: req.at } };
    if (req.form === undefined || req.form === 'unusable' || req.form === 'closed') {
      return { ...base, outcome: { kind: 'unverifiable', reason: req.form === 'closed' ? 'closed' : 'unusable', request: req.at } };
    }
    return { ...base, outcome: { kind: 'checked', issues: checkFormValues(req.form, answer.values, ev.capture), request: req.at } };
  }
}

/** The tracker of the run that `run` scopes (one per run, shared by every tracked rule). */
export function trackerFor(opts: AepStreamOptions, run: RunScope): AepStreamTracker {
  return run.shared('aep/stream-tracker', () => new AepStreamTracker(opts));
}

/** What a tracked rule implements. */
export interface TrackedRuleInstance {
  /** One event's observation (redeliveries only when the rule asked for them). */
  onEvent(obs: Observation, ctx: RuleContext): void;
  /** End of input. */
  onEnd?(tracker: AepStreamTracker, ctx: RuleContext): void;
}

/**
 * Define an AEP stream rule on top of the shared tracker. Redeliveries are withheld from the
 * rule unless `seesRedeliveries` is set (only `aep/redelivery` sets it): this is what makes
 * dedupe hold for every rule in the list, present and future.
 */
export function trackedRule(
  meta: RuleMeta,
  impl: (tracker: AepStreamTracker) => TrackedRuleInstance,
  options: { seesRedeliveries?: boolean } = {},
): StreamRule<AepEvent, AepStreamOptions> & { readonly tracked: true } {
  return {
    ...meta,
    tracked: true,
    create(opts, run) {
      const tracker = trackerFor(opts, run);
      const inst = impl(tracker);
      return {
        onEvent(ev, ctx) {
          const obs = tracker.observe(ev);
          if (obs.redelivery && !options.seesRedeliveries) return;
          inst.onEvent(obs, ctx);
        },
        onEnd: inst.onEnd ? (ctx) => inst.onEnd!(tracker, ctx) : undefined,
      };
    },
  };
}
