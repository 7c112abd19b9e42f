/**
 * Shared cross-message state of the AHP stream rules for one run, and the per-message
 * {@link AhpObservation} every AHP stream rule reads.
 *
 * Why one tracker: each stream rule reports under its own id, but most of them need the same
 * facts (the pending request a response answers, the event a `parentEventId` names, the form an
 * elicitation answer must satisfy). The tracker computes those facts once per message, against
 * the state as it was before the message, then updates the state; rules only read the
 * observation and report. One copy of every piece of state, one place for the caps.
 *
 * Messages reach the tracker only when their JSON-RPC shape is valid (`AhpMessage.wireValid`);
 * per-message problems inside them (effects, events, elicitation bodies) were reported already
 * and are not repeated here.
 *
 * State, keys and caps (the caps are `--max-pending` and `--max-events`):
 * - pending requests: JSON-RPC id (typed: `"1"` and `1` differ) -> the `hooks/intercept` or
 *   `hooks/capabilities` request awaiting its response, with the host context needed to judge
 *   the response's effects (the granted capabilities, current target values, elicitation
 *   mode/action and original form). Dropped when the response arrives. Cap `maxPending`: when
 *   full, new requests are not tracked, and a response that matches nothing is no longer
 *   reported (it may answer an untracked request).
 * - answered requests: id -> a compact row (compact-table.ts: numbers only, keyed by a 52-bit
 *   hash of the typed id): where the request and its first response were, and how many further
 *   responses identical retries of the request still allow (to tell a duplicate response from a
 *   response to nothing). A new request with the same id clears the entry.
 * - events: `(source, id)` (AHP event identity, task-workspace-lineage.md §Lineage) -> a compact
 *   row (hashed key): type, first location, 64-bit content digest of the first intercepted
 *   occurrence, FNV-1a fingerprints of the control metadata, the parent's hashed key, the
 *   elicitation request's server/mode/form verdict, and where a `config.change.before` was
 *   denied. Type, server and mode names are interned (at most 4096 distinct names; beyond
 *   that a new type is compared by its fingerprint and named "(unrecorded type)" in messages,
 *   and a new server or mode is not compared).
 * - elicitation forms: the `requestedSchema` of a parsed form request is open work held until
 *   an accepted answer has been checked against it; then it moves to a grace window of the 256
 *   most recently checked forms and is dropped after. Trade-off: a further result for the same
 *   request arriving after that (or an intercepted retry of a result whose form is gone) can only
 *   be reported as not verifiable (`ahp/elicitation-content-schema` / `ahp/modify-invalid`,
 *   info), never silently passed.
 * - unresolved parents: `(source, parentEventId)` -> the events naming a parent not seen yet
 *   (parents may arrive late: observation order is not guaranteed); settled when the parent
 *   arrives, reported at the end of input otherwise.
 * Release (DESIGN.md §Principles "Stream, don't slurp"): a pending request leaves the pending
 * map when answered (its compact answered row still catches a second response as
 * `ahp/response-duplicate`); completed events keep only their compact row (about 110 bytes of
 * columns plus the index entry, no strings). Answered requests, events and unresolved parents
 * together count against `maxEvents`; the oldest entry is forgotten first. The advertised
 * elicitation modes of the latest capabilities manifest are kept per event type (two entries at
 * most). {@link AhpStreamTracker.stats} reports what is held. Exceeding a cap is reported once
 * per cap by `ahp/state-cap` and never throws.
 *
 * Sharing across rule instances: every stream rule of a run gets the same tracker from the
 * run's {@link RunScope} ({@link trackerFor}); the next run gets a fresh one.
 */
import { StreamTrackerBase, type TrackerCapNotice } from '../../core/caps.ts';
import type { Location } from '../../core/finding.ts';
import { eventLocation, type ParsedEvent, type RuleContext, type RuleMeta, type RunScope, type StreamRule } from '../../core/rule.ts';
import type { AhpMessage } from '../driver.ts';
import { checkEffects, type EffectsVerdict, type HostContext } from '../effects.ts';
import { elicitationBody, type ElicitationBody } from '../elicitation-body.ts';
import { formAnswerProblems, type AnswerProblem } from '../form-answer.ts';
import { CompactTable, digestWords, Interner, keyOf } from './compact-table.ts';
import { sameAsReadBack } from '../../core/canonical.ts';
import { fnv32, valueDigest } from './digest.ts';
import type { AhpStreamOptions } from './index.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const own = (o: Obj, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);
const EVENT_PTR = '/params/event';

/** Where a message was: its input, line and line-start byte offset. */
export interface Mark {
  file: string;
  line: number;
  byteOffset: number;
}

/** The mark of `ev`. */
export function markOf(ev: ParsedEvent): Mark {
  return { file: ev.source, line: ev.line, byteOffset: ev.byteOffset };
}

/** A {@link Location} for a mark (column 1: the start of the message's line). */
export function markLocation(m: Mark, pointer = ''): Location {
  return { source: m.file, line: m.line, column: 1, byteOffset: m.byteOffset, pointer };
}

/** A request awaiting its response. */
export interface PendingRecord {
  method: 'hooks/intercept' | 'hooks/capabilities';
  at: Mark;
  /** Deliveries of this request id while pending (identical retries add one each). */
  deliveries: number;
  /** Intercept: the type of the event it carries. */
  eventType?: string;
  /** Intercept: the `(source, id)` key of its event ({@link keyOf}). */
  eventKey?: number;
  /**
   * Intercept of an elicitation result whose request's form was already released (its answer was
   * checked by an earlier result): a content edit cannot be checked against the form.
   */
  schemaReleased?: Mark;
  /** Intercept: what judging the response's effects needs; absent when the request's capabilities are unusable. */
  host?: HostContext;
}

/** What an elicitation request event tells its result. */
export interface ElicitRequestInfo {
  server: unknown;
  mode: unknown;
  /**
   * The form behind it: `parsed` (a valid MCP form request; `schema` holds `requestedSchema`),
   * `url` (a URL-mode request: no form), `view` (metadata / omit / gap: not available),
   * `invalid` (the body failed `ahp/elicitation-body`), `absent` (no request part).
   */
  form: 'parsed' | 'url' | 'view' | 'invalid' | 'absent';
  /** `requestedSchema` of a `parsed` form while still held (released once a result's answer was checked). */
  schema?: unknown;
  /** A `parsed` form whose `requestedSchema` was released (see the module comment). */
  released?: boolean;
}

/**
 * Names of the control metadata compared across occurrences of one event, in fingerprint order.
 * The elicitation server, mode and action are envelope metadata that edits and views keep
 * (interaction-payloads.md: "Keep action, mode, and envelope metadata consistent").
 */
export const CONTROL_FIELDS = ['type', 'time', 'parentEventId', 'session.id', 'turn.id', 'call.id', 'elicitation.server', 'elicitation.mode', 'elicitation.action'] as const;

/**
 * The compact event record: one row of {@link CompactTable} per `(source, id)`. Columns (u32):
 * input (interned), line, type (interned), flags, the 9 control-metadata fingerprints
 * ({@link CONTROL_FIELDS}, FNV-1a), the first intercepted occurrence's digest (64 bits), the
 * digest of the last answer checked against the form (64 bits), where a config.change.before was
 * denied (input, line), the elicitation request's server and mode (interned); (f64): byte
 * offset, the parent's key, the denial's byte offset.
 */
const EU = { FILE: 0, LINE: 1, TYPE: 2, FLAGS: 3, META: 4, DIG: 13, CHK: 15, DFILE: 17, DLINE: 18, SERVER: 19, MODE: 20, N: 21 } as const;
const EF = { OFF: 0, PARENT: 1, DOFF: 2, N: 3 } as const;
/**
 * Flags: observed first; has an intercept digest (or, with REREAD, the intercepted line's
 * FNV-1a fingerprint in the first digest word); has a parent; mode already reported; denied; has a
 * checked answer; the first intercepted copy can be read back from its input.
 */
const FL = { OBSERVE: 1, DIGEST: 2, PARENT: 4, MODE_REPORTED: 8, DENIED: 16, CHECKED: 32, REREAD: 64 } as const;
/** Bits 8-10 of the flags: the elicitation request's form (index in {@link FORMS}, 0: none). */
const FORM_SHIFT = 8;
const FORMS = [undefined, 'parsed', 'url', 'view', 'invalid', 'absent'] as const;
/** Bits 16-24 of the flags: which control fields are present. */
const META_SHIFT = 16;
/** Answered-request columns (u32): request input, line; first response input, line; spare responses; (f64) the two byte offsets. */
const AU = { RFILE: 0, RLINE: 1, SFILE: 2, SLINE: 3, SPARE: 4, N: 5 } as const;
const AF = { ROFF: 0, SOFF: 1, N: 2 } as const;
/** Forms kept after their answer was checked, so that nearby further results are still verified. */
const RECENT_FORMS = 256;
/** Most distinct event types, elicitation servers and modes remembered by name. */
const MAX_NAMES = 4096;

/** Held-state counts of a tracker (see {@link AhpStreamTracker.stats}). */
export interface AhpTrackerStats {
  /** Requests awaiting their response (open work; cap `maxPending`). */
  pending: number;
  /** Compact markers of answered request ids (for duplicate responses). */
  answered: number;
  /** Compact event records (lineage, id reuse, elicitation pairing). */
  events: number;
  /** Rows allocated for event records: the high-water mark of events held at once. */
  eventRows: number;
  /** Events naming a parent not seen yet (open work). */
  unresolved: number;
  /** `requestedSchema`s of elicitation requests whose answer was not checked yet (open work). */
  schemas: number;
  /** Forms kept after their answer was checked (a grace window of at most 256). */
  recentForms: number;
}
/** How a response relates to the requests of the stream. */
export type ResponseLink =
  /** It answers a pending request; `mismatch` when its result is of the other method's shape. */
  | { status: 'matched'; request: PendingRecord; mismatch?: 'manifest-for-intercept' | 'effects-for-capabilities' }
  /** A further response allowed by an identical retry of the request. */
  | { status: 'retry-answer'; request: Mark }
  /** The request was already answered (and not retried). */
  | { status: 'duplicate'; request: Mark; first: Mark }
  /** No request of the stream has this id. */
  | { status: 'unmatched' }
  /** The input holds no request at all so far (one direction of the traffic); `first` for the first such response. */
  | { status: 'uncorrelatable'; first: boolean }
  /** The pending cap was exceeded earlier: it may answer an untracked request. */
  | { status: 'untracked' }
  /** An error response with a null id (the request id could not be read): nothing to correlate. */
  | { status: 'null-id' };

/** Facts about a response. */
export interface ResponseFacts {
  link: ResponseLink;
  /** A matched intercept success response whose request's capabilities are usable: its effects applied in the request's host context. */
  effects?: { outcome: EffectsVerdict; list: unknown[]; request: PendingRecord };
}

/** An event id reused by the same source in a way a retry or another view of the event cannot explain. */
export interface ReuseFacts {
  prior: Mark;
  priorVia: 'intercept' | 'observe';
  /** `type`: another event type; `retry`: a re-sent intercept request whose event differs; `metadata`: other control metadata. */
  kind: 'type' | 'retry' | 'metadata' | 'unverifiable';
  /** The differing control fields (may be empty for `retry`: then only content differs). */
  fields: string[];
}

/** The elicitation request a result answers (first occurrence of the result). */
export interface PairFacts {
  /** `absent`: no parentEventId; `unknown`: the parent was not seen (yet); `not-request`: the parent is another event type. */
  parent: 'absent' | 'unknown' | 'not-request' | 'request';
  parentType?: string;
  parentAt?: Mark;
  request?: ElicitRequestInfo;
}

/** The answer of an accepted form result checked against the request's form. */
export interface ContentFacts {
  /** Pointer of the result part (`/params/event/elicitation/result`). */
  partPointer: string;
  /** `checked`: `problems` lists what fails; otherwise why the answer cannot be verified. */
  status: 'checked' | 'no-request' | 'request-view' | 'request-invalid' | 'request-absent' | 'request-released';
  problems: AnswerProblem[];
  request?: Mark;
}

/** An elicitation event whose mode is not among the advertised ones. */
export interface ModeFacts {
  mode: string;
  advertised: string[];
  /** `request`: the intercept request's own `capabilities.elicitation`; `manifest`: the latest capabilities manifest. */
  by: 'request' | 'manifest';
  /** The manifest's location (for `manifest`). */
  at?: Mark;
}

/** Facts about the event of an intercept request or observe notification. */
export interface EventFacts {
  source: string;
  id: string;
  type: string;
  via: 'intercept' | 'observe';
  /** True for the first occurrence of `(source, id)` in the stream. */
  first: boolean;
  reuse?: ReuseFacts;
  /** First occurrence with a parentEventId: whether the parent is known yet. */
  parent?: { id: string; known: boolean; type?: string; at?: Mark };
  /** The parent chain of this event leads back to it: the events of the cycle (this one first). */
  cycle?: Mark[];
  /** A config.change.after whose parent config.change.before was denied. */
  configAfterDenied?: { before: Mark; deniedAt: Mark };
  /** user.elicitation.result, first occurrence. */
  pair?: PairFacts;
  /** user.elicitation.result with an accepted form answer not checked before. */
  content?: ContentFacts;
  mode?: ModeFacts;
}

/** Which cap was exceeded. */
export type CapName = 'maxPending' | 'maxEvents';

/** A cap exceeded for the first time, waiting for `ahp/state-cap` to report it. */
export type CapNotice = TrackerCapNotice<CapName, Mark>;

/** Facts about one message, computed once against the state before it. */
export interface AhpObservation {
  msg: AhpMessage;
  event?: EventFacts;
  response?: ResponseFacts;
}

/** An event naming a parent never seen in the input (end of stream). */
export interface UnresolvedParent {
  source: string;
  parentId: string;
  at: Location;
  /** Arrival order of the naming event. */
  seq: number;
}

/** The typed key of a JSON-RPC id (`"1"` and `1` differ), or undefined for anything else. */
function idKey(msg: AhpMessage): string | undefined {
  const id = msg.value.id;
  if (typeof id === 'string') return 's:' + id;
  if (typeof id === 'number') {
    const big = msg.bigIntegers.find((b) => b.pointer === '/id');
    return 'n:' + (big ? big.text : String(id));
  }
  return undefined;
}

/** The numeric key of an event identity `(source, id)`. */
const eventKey = (source: string, id: string): number => keyOf(JSON.stringify([source, id]));

/** Control-metadata fingerprints of one occurrence: one FNV-1a per field and a presence mask. */
interface Meta {
  fp: number[];
  mask: number;
}

const CONTROL_PATHS = CONTROL_FIELDS.map((f) => f.split('.'));

/** Fingerprints of the control metadata of `ev` (see {@link CONTROL_FIELDS}). */
function metaOf(ev: Obj): Meta {
  const fp: number[] = [];
  let mask = 0;
  CONTROL_PATHS.forEach((path, i) => {
    let cur: unknown = ev;
    for (const k of path) cur = isObj(cur) ? cur[k] : undefined;
    if (cur === undefined) {
      fp.push(0);
      return;
    }
    mask |= 1 << i;
    // strings and scalars directly; anything else through the depth-safe digest
    fp.push(fnv32(typeof cur === 'string' ? 's' + cur : cur === null || typeof cur !== 'object' ? typeof cur + String(cur) : 'o' + valueDigest(cur)));
  });
  return { fp, mask };
}

/** The type fingerprint an event of type `t` has in its metadata. */
const typeFp = (t: string): number => fnv32('s' + t);
const FP_ELICIT_REQUEST = typeFp('user.elicitation.request');
const FP_CONFIG_BEFORE = typeFp('config.change.before');

/** The modes a `capabilities.elicitation` object grants (`form` / `url` members that are objects). */
function grantedModes(el: unknown): string[] | undefined {
  if (!isObj(el)) return undefined;
  return ['form', 'url'].filter((m) => isObj(el[m]));
}

/** The shared stream state of one run. */
export class AhpStreamTracker extends StreamTrackerBase<AhpMessage, AhpObservation, CapName, Mark> {
  private readonly pending = new Map<string, PendingRecord>();
  /** Answered request ids (key: {@link keyOf} of the typed id), compact ({@link AU}, {@link AF}). */
  private readonly answered = new CompactTable(AU.N, AF.N);
  /** Event records (key: {@link eventKey}), compact ({@link EU}, {@link EF}). */
  private readonly events = new CompactTable(EU.N, EF.N);
  /** Event key of an elicitation request with a parsed form -> its `requestedSchema`, until an answer was checked against it. */
  private readonly schemas = new Map<number, unknown>();
  /** Forms whose answer was checked, most recent last (at most {@link RECENT_FORMS}): a grace window for further results. */
  private readonly checkedSchemas = new Map<number, unknown>();
  /** Event key of a request whose schema is released once the current message is done. */
  private releaseAfter: number | undefined;
  private readonly unresolved = new Map<number, UnresolvedParent[]>();
  private readonly files = new Interner(Number.MAX_SAFE_INTEGER);
  /** How to read back lines of re-readable inputs, by input code (intercept retries). */
  private readonly rereaders = new Map<number, (byteOffset: number) => string | undefined>();
  private readonly names = new Interner(MAX_NAMES);
  private unresolvedCount = 0;
  private seq = 0;
  /** Event type -> modes advertised by the latest manifest (elicitation events only). */
  private manifestModes = new Map<string, { modes: string[]; at: Mark }>();
  private sawRequest = false;
  private reportedUncorrelatable = false;
  private pendingDropped = false;
  /** The elicitation body of the message being observed (parsed at most once per message). */
  private body: { msg: AhpMessage; body: ElicitationBody } | undefined;

  constructor(readonly opts: AhpStreamOptions) {
    super();
  }

  /** Requests still awaiting a response (end of stream), in arrival order. */
  openRequests(): PendingRecord[] {
    return [...this.pending.values()];
  }

  /** Events naming a parent that never arrived (end of stream), in arrival order of the naming events. */
  unresolvedParents(): UnresolvedParent[] {
    return [...this.unresolved.values()].flat().sort((a, b) => a.seq - b.seq);
  }

  /**
   * How much state the tracker holds now (read-only counts, for tests and diagnostics): open work
   * (pending requests, unresolved parents, unchecked elicitation forms) and compact markers
   * (answered ids, event records). See the module comment for what each is kept for.
   */
  stats(): AhpTrackerStats {
    return {
      pending: this.pending.size,
      answered: this.answered.size,
      events: this.events.size,
      eventRows: this.events.allocated,
      unresolved: this.unresolvedCount,
      schemas: this.schemas.size,
      recentForms: this.checkedSchemas.size,
    };
  }

  private capHit(cap: CapName, at: Mark): void {
    this.noteCap(cap, this.opts[cap], () => at);
  }

  /** Entries held against `maxEvents`. */
  private held(): number {
    return this.events.size + this.answered.size + this.unresolvedCount;
  }

  /** Make room for one more `maxEvents` entry by forgetting the oldest answered request or event. */
  private makeRoom(at: Mark): boolean {
    if (this.held() < this.opts.maxEvents) return true;
    this.capHit('maxEvents', at);
    const oldAnswered = this.answered.oldestKey();
    if (oldAnswered !== undefined) {
      this.answered.delete(oldAnswered);
      return true;
    }
    const oldEvent = this.events.oldestKey();
    if (oldEvent !== undefined) {
      this.events.delete(oldEvent);
      this.schemas.delete(oldEvent);
      this.checkedSchemas.delete(oldEvent);
      return true;
    }
    return false;
  }

  // ---- compact rows -----------------------------------------------------------------------

  private fileCode(m: Mark): number {
    return this.files.code(m.file);
  }

  /** The mark kept in row `s` of the event table. */
  private eventAt(s: number): Mark {
    const e = this.events;
    return { file: this.files.name(e.getU(s, EU.FILE))!, line: e.getU(s, EU.LINE), byteOffset: e.getF(s, EF.OFF) };
  }

  /** The type name kept in row `s` (events past {@link MAX_NAMES} distinct names: a placeholder). */
  private eventType(s: number): string {
    return this.names.name(this.events.getU(s, EU.TYPE)) ?? '(unrecorded type)';
  }

  /** Whether row `s` is an event of the type with fingerprint `fp`. */
  private typeIs(s: number, fp: number): boolean {
    return (this.events.getU(s, EU.FLAGS) >>> META_SHIFT) & 1 ? this.events.getU(s, EU.META) === fp : false;
  }

  /** The control fields whose fingerprints differ between row `s` and `m`. */
  private differingFields(s: number, m: Meta): string[] {
    const mask = (this.events.getU(s, EU.FLAGS) >>> META_SHIFT) & 0x1ff;
    return CONTROL_FIELDS.filter((_, i) => ((mask >>> i) & 1) !== ((m.mask >>> i) & 1) || this.events.getU(s, EU.META + i) !== m.fp[i]);
  }

  /** What the elicitation request of row `s` tells its result (undefined: not an elicitation request with a body verdict). */
  private elicitOf(s: number, key: number): ElicitRequestInfo | undefined {
    const e = this.events;
    const form = FORMS[(e.getU(s, EU.FLAGS) >>> FORM_SHIFT) & 7];
    if (!form) return undefined;
    const info: ElicitRequestInfo = { server: this.names.name(e.getU(s, EU.SERVER)), mode: this.names.name(e.getU(s, EU.MODE)), form };
    if (form === 'parsed') {
      if (this.schemas.has(key)) info.schema = this.schemas.get(key);
      else if (this.checkedSchemas.has(key)) info.schema = this.checkedSchemas.get(key);
      else info.released = true;
    }
    return info;
  }

  private setFlag(s: number, flag: number): void {
    this.events.setU(s, EU.FLAGS, this.events.getU(s, EU.FLAGS) | flag);
  }

  /** Record where the config.change.before of row `s` was denied (the first denial wins). */
  private deny(s: number, at: Mark): void {
    if (this.events.getU(s, EU.FLAGS) & FL.DENIED) return;
    this.setFlag(s, FL.DENIED);
    this.events.setU(s, EU.DFILE, this.fileCode(at));
    this.events.setU(s, EU.DLINE, at.line);
    this.events.setF(s, EF.DOFF, at.byteOffset);
  }

  /** Where the config.change.before of row `s` was denied, if it was. */
  private deniedAt(s: number): Mark | undefined {
    const e = this.events;
    if (!(e.getU(s, EU.FLAGS) & FL.DENIED)) return undefined;
    return { file: this.files.name(e.getU(s, EU.DFILE))!, line: e.getU(s, EU.DLINE), byteOffset: e.getF(s, EF.DOFF) };
  }

  /** The elicitation body of `msg`'s event, parsed once per message. */
  private bodyOf(msg: AhpMessage, ev: Obj): ElicitationBody {
    if (this.body?.msg !== msg) this.body = { msg, body: elicitationBody(ev, EVENT_PTR, msg.issues) };
    return this.body.body;
  }

  protected compute(msg: AhpMessage): AhpObservation {
    const obs: AhpObservation = { msg };
    const at = markOf(msg);
    const ev = msg.event;
    if ((msg.kind === 'intercept-request' || msg.kind === 'observe-notification') && ev && typeof ev.source === 'string' && typeof ev.id === 'string' && typeof ev.type === 'string') {
      obs.event = this.eventFacts(msg, ev, at);
    }
    if (msg.kind === 'intercept-request' || msg.kind === 'capabilities-request') this.request(msg, at);
    if (msg.kind === 'response' || msg.kind === 'error-response') obs.response = this.response(msg, at);
    // the form of a request whose answer was checked: the intercept request above took it into its host context
    if (this.releaseAfter !== undefined && this.schemas.has(this.releaseAfter)) {
      this.checkedSchemas.set(this.releaseAfter, this.schemas.get(this.releaseAfter));
      this.schemas.delete(this.releaseAfter);
      if (this.checkedSchemas.size > RECENT_FORMS) this.checkedSchemas.delete(this.checkedSchemas.keys().next().value!);
    }
    this.releaseAfter = undefined;
    this.body = undefined;
    return obs;
  }

  // ---- requests and responses -------------------------------------------------------------

  private request(msg: AhpMessage, at: Mark): void {
    this.sawRequest = true;
    const key = idKey(msg);
    if (key === undefined) return;
    const prior = this.pending.get(key);
    if (prior) {
      prior.deliveries++;
      return;
    }
    this.answered.delete(keyOf(key));
    if (this.pending.size >= this.opts.maxPending) {
      this.capHit('maxPending', at);
      this.pendingDropped = true;
      return;
    }
    const method = msg.kind === 'intercept-request' ? 'hooks/intercept' : 'hooks/capabilities';
    const rec: PendingRecord = { method, at, deliveries: 1 };
    const ev = msg.event;
    if (method === 'hooks/intercept' && ev && typeof ev.type === 'string') {
      rec.eventType = ev.type;
      if (typeof ev.source === 'string' && typeof ev.id === 'string') rec.eventKey = eventKey(ev.source, ev.id);
      rec.host = this.hostContext(msg, ev, rec);
    }
    this.pending.set(key, rec);
  }

  /** The host context of an intercepted event, from the request (undefined when its capabilities are unusable). */
  private hostContext(msg: AhpMessage, ev: Obj, rec: PendingRecord): HostContext | undefined {
    const params = msg.value.params as Obj;
    const caps = params.capabilities;
    if (!isObj(caps) || !Array.isArray(caps.effects)) return undefined;
    const type = ev.type as string;
    const host: HostContext = { event: type, capabilities: caps };
    const current: Record<string, unknown> = {};
    const message = isObj(ev.message) ? ev.message : undefined;
    if (type === 'tool.before' && isObj(ev.tool) && isObj(ev.tool.input)) current.input = ev.tool.input;
    if (type === 'tool.after' && Array.isArray(ev.items)) current.output = ev.items;
    if (type === 'user.message.inbound' && message && Array.isArray(message.messages)) current.prompt = message.messages;
    if (type === 'user.message.outbound' && message && Array.isArray(message.messages)) current.content = message.messages;
    if (type === 'user.elicitation.result' && isObj(ev.elicitation)) {
      const el = ev.elicitation;
      host.mode = typeof el.mode === 'string' ? el.mode : '';
      host.action = typeof el.action === 'string' ? el.action : '';
      const body = this.bodyOf(msg, ev);
      if (body.status === 'parsed') {
        if (own(body.value, 'content')) current.content = body.value.content;
      } else {
        // the answer is not exposed: no part (omission), a metadata/omit view, or a gap; an
        // invalid body was reported by ahp/elicitation-body and is not judged again here
        const part = isObj(el.result) ? el.result : undefined;
        if (body.status !== 'invalid') host.selection = { content: body.status === 'absent' ? 'omit' : part && part.selection !== 'body' ? String(part.selection) : 'gap' };
      }
      if (typeof ev.parentEventId === 'string' && typeof ev.source === 'string') {
        const pk = eventKey(ev.source, ev.parentEventId);
        const ps = this.events.slot(pk);
        const req = ps !== undefined && this.typeIs(ps, FP_ELICIT_REQUEST) ? this.elicitOf(ps, pk) : undefined;
        if (req?.form === 'parsed') {
          if (req.released) rec.schemaReleased = this.eventAt(ps!);
          else host.requestedSchema = req.schema;
        }
      }
    }
    host.current = current;
    return host;
  }

  private response(msg: AhpMessage, at: Mark): ResponseFacts {
    const key = idKey(msg);
    const result = isObj(msg.value.result) ? msg.value.result : undefined;
    if (key === undefined) {
      if (msg.kind === 'error-response' && msg.value.id === null) return { link: { status: 'null-id' } };
      return { link: this.unmatched() };
    }
    const pend = this.pending.get(key);
    const ak = keyOf(key);
    if (pend) {
      this.pending.delete(key);
      if (this.makeRoom(at)) {
        const a = this.answered;
        const s = a.add(ak);
        a.setU(s, AU.RFILE, this.fileCode(pend.at));
        a.setU(s, AU.RLINE, pend.at.line);
        a.setF(s, AF.ROFF, pend.at.byteOffset);
        a.setU(s, AU.SFILE, this.fileCode(at));
        a.setU(s, AU.SLINE, at.line);
        a.setF(s, AF.SOFF, at.byteOffset);
        a.setU(s, AU.SPARE, pend.deliveries - 1);
      }
      const link: ResponseLink = { status: 'matched', request: pend };
      if (result && pend.method === 'hooks/intercept' && own(result, 'manifest')) link.mismatch = 'manifest-for-intercept';
      if (result && pend.method === 'hooks/capabilities' && !own(result, 'manifest') && own(result, 'effects')) link.mismatch = 'effects-for-capabilities';
      const facts: ResponseFacts = { link };
      if (result && !link.mismatch && pend.method === 'hooks/intercept' && pend.host && Array.isArray(result.effects)) {
        const outcome = checkEffects(result.effects, pend.host);
        facts.effects = { outcome, list: result.effects, request: pend };
        if (outcome.accepted && result.effects.some((e) => isObj(e) && e.type === 'deny') && pend.eventKey !== undefined) {
          const s = this.events.slot(pend.eventKey);
          if (s !== undefined && this.typeIs(s, FP_CONFIG_BEFORE)) this.deny(s, at);
        }
      }
      if (result && pend.method === 'hooks/capabilities' && isObj(result.manifest)) this.readManifest(result.manifest, at);
      return facts;
    }
    const a = this.answered;
    const s = a.slot(ak);
    if (s !== undefined) {
      const request: Mark = { file: this.files.name(a.getU(s, AU.RFILE))!, line: a.getU(s, AU.RLINE), byteOffset: a.getF(s, AF.ROFF) };
      const spare = a.getU(s, AU.SPARE);
      if (spare > 0) {
        a.setU(s, AU.SPARE, spare - 1);
        return { link: { status: 'retry-answer', request } };
      }
      const first: Mark = { file: this.files.name(a.getU(s, AU.SFILE))!, line: a.getU(s, AU.SLINE), byteOffset: a.getF(s, AF.SOFF) };
      return { link: { status: 'duplicate', request, first } };
    }
    if (result && isObj(result.manifest)) this.readManifest(result.manifest, at);
    return { link: this.unmatched() };
  }

  private unmatched(): ResponseLink {
    if (!this.sawRequest) {
      const first = !this.reportedUncorrelatable;
      this.reportedUncorrelatable = true;
      return { status: 'uncorrelatable', first };
    }
    return this.pendingDropped ? { status: 'untracked' } : { status: 'unmatched' };
  }

  /** Remember the elicitation modes a capabilities manifest advertises (the latest manifest wins). */
  private readManifest(manifest: Obj, at: Mark): void {
    if (!Array.isArray(manifest.events)) return;
    const modes = new Map<string, { modes: string[]; at: Mark }>();
    for (const e of manifest.events) {
      if (!isObj(e) || (e.event !== 'user.elicitation.request' && e.event !== 'user.elicitation.result')) continue;
      const granted = isObj(e.capabilities) ? grantedModes(e.capabilities.elicitation) : undefined;
      if (granted) modes.set(e.event, { modes: granted, at });
    }
    this.manifestModes = modes;
  }

  // ---- events -----------------------------------------------------------------------------

  /**
   * Whether the intercepted event `ev` equals the first intercepted copy kept in row `s`
   * (same JSON value: member order and whitespace do not count). With {@link FL.REREAD} the
   * first line is read back and compared exactly; otherwise digests are compared. `undefined`
   * when the first line cannot be read back as it was (the file changed while it was checked).
   */
  private sameIntercepted(s: number, flags: number, msg: AhpMessage, ev: Obj): boolean | undefined {
    const e = this.events;
    if (!(flags & FL.REREAD)) {
      const d = digestWords(valueDigest(ev, msg.bigIntegers, EVENT_PTR));
      return d[0] === e.getU(s, EU.DIG) && d[1] === e.getU(s, EU.DIG + 1);
    }
    const reread = this.rereaders.get(e.getU(s, EU.FILE));
    const off = e.getF(s, EF.OFF);
    return sameAsReadBack(reread && !Number.isNaN(off) ? reread(off) : undefined, e.getU(s, EU.DIG), msg, EVENT_PTR);
  }

  private eventFacts(msg: AhpMessage, ev: Obj, at: Mark): EventFacts {
    const source = ev.source as string;
    const id = ev.id as string;
    const type = ev.type as string;
    const via = msg.kind === 'intercept-request' ? 'intercept' : 'observe';
    const key = eventKey(source, id);
    const intercepted = via === 'intercept';
    const meta = metaOf(ev);
    const facts: EventFacts = { source, id, type, via, first: false };
    const e = this.events;
    let s = e.slot(key);
    if (s !== undefined) {
      const flags = e.getU(s, EU.FLAGS);
      const prior = this.eventAt(s);
      const priorVia = flags & FL.OBSERVE ? 'observe' : 'intercept';
      const fields = this.differingFields(s, meta);
      const same = intercepted && flags & FL.DIGEST ? this.sameIntercepted(s, flags, msg, ev) : true;
      if (fields[0] === 'type') facts.reuse = { prior, priorVia, kind: 'type', fields };
      else if (same === false) facts.reuse = { prior, priorVia, kind: 'retry', fields };
      else if (fields.length) facts.reuse = { prior, priorVia, kind: 'metadata', fields };
      else if (same === undefined) facts.reuse = { prior, priorVia, kind: 'unverifiable', fields };
      if (intercepted && !(flags & FL.DIGEST)) {
        // first intercepted after an observation: the row's offset is the observation's, so keep a digest
        const digest = digestWords(valueDigest(ev, msg.bigIntegers, EVENT_PTR));
        e.setU(s, EU.DIG, digest[0]);
        e.setU(s, EU.DIG + 1, digest[1]);
        this.setFlag(s, FL.DIGEST);
      }
    } else {
      facts.first = true;
      if (this.makeRoom(at)) {
        s = e.add(key);
        e.setU(s, EU.FILE, this.fileCode(at));
        e.setU(s, EU.LINE, at.line);
        e.setF(s, EF.OFF, at.byteOffset);
        e.setU(s, EU.TYPE, this.names.code(type));
        let flags = (meta.mask << META_SHIFT) | (via === 'observe' ? FL.OBSERVE : 0);
        meta.fp.forEach((v, i) => e.setU(s!, EU.META + i, v));
        if (intercepted) {
          // a re-readable line keeps only its fingerprint (FNV-1a): a re-sent
          // request reads it back and compares exactly; other inputs keep a digest
          const fileCode = e.getU(s, EU.FILE);
          const rereadable = msg.reread !== undefined && at.byteOffset !== undefined;
          if (rereadable) this.rereaders.set(fileCode, msg.reread!);
          const words = rereadable ? [fnv32(msg.text), 0] : digestWords(valueDigest(ev, msg.bigIntegers, EVENT_PTR));
          flags |= FL.DIGEST | (rereadable ? FL.REREAD : 0);
          e.setU(s, EU.DIG, words[0]);
          e.setU(s, EU.DIG + 1, words[1]);
        }
        if (typeof ev.parentEventId === 'string') {
          flags |= FL.PARENT;
          e.setF(s, EF.PARENT, eventKey(source, ev.parentEventId));
        }
        e.setU(s, EU.FLAGS, flags);
      }
      this.lineage(msg, ev, at, key, facts, s);
    }
    if (type === 'user.elicitation.request' && s !== undefined) {
      const form = FORMS[(e.getU(s, EU.FLAGS) >>> FORM_SHIFT) & 7];
      if (facts.first || form !== 'parsed') {
        const info = this.requestInfo(msg, ev);
        if (!form || info.form === 'parsed') {
          const code = FORMS.indexOf(info.form);
          e.setU(s, EU.FLAGS, (e.getU(s, EU.FLAGS) & ~(7 << FORM_SHIFT)) | (code << FORM_SHIFT));
          e.setU(s, EU.SERVER, typeof info.server === 'string' ? this.names.code(info.server) : 0);
          e.setU(s, EU.MODE, typeof info.mode === 'string' ? this.names.code(info.mode) : 0);
          if (info.form === 'parsed') this.schemas.set(key, info.schema);
        }
      }
    }
    if (type === 'user.elicitation.result') this.resultFacts(msg, ev, facts, s);
    if ((type === 'user.elicitation.request' || type === 'user.elicitation.result') && !(s !== undefined && e.getU(s, EU.FLAGS) & FL.MODE_REPORTED)) {
      facts.mode = this.modeFacts(msg, ev);
      if (facts.mode && s !== undefined) this.setFlag(s, FL.MODE_REPORTED);
    }
    return facts;
  }

  /** Parent, cycle and config before/after facts of a first occurrence (`s`: its row, when kept). */
  private lineage(msg: AhpMessage, ev: Obj, at: Mark, key: number, facts: EventFacts, s: number | undefined): void {
    const source = ev.source as string;
    const parentId = typeof ev.parentEventId === 'string' ? ev.parentEventId : undefined;
    let ps: number | undefined;
    if (parentId !== undefined) {
      if (parentId === ev.id) {
        facts.cycle = [at];
        facts.parent = { id: parentId, known: true, type: ev.type as string, at };
      } else {
        ps = this.events.slot(eventKey(source, parentId));
        facts.parent = ps !== undefined ? { id: parentId, known: true, type: this.eventType(ps), at: this.eventAt(ps) } : { id: parentId, known: false };
        if (ps === undefined) this.addUnresolved(source, parentId, eventLocation(msg, `${EVENT_PTR}/parentEventId`), at);
      }
    }
    // a late parent: events named this one before it arrived; a cycle must pass through it
    const waiting = this.unresolved.get(key);
    if (waiting) {
      this.unresolved.delete(key);
      this.unresolvedCount -= waiting.length;
      if (s !== undefined && !facts.cycle && parentId !== undefined) {
        const chain: Mark[] = [at];
        const seen = new Set<number>([key]);
        let cur: number | undefined = eventKey(source, parentId);
        while (cur !== undefined) {
          if (cur === key) {
            facts.cycle = chain;
            break;
          }
          if (seen.has(cur)) break;
          seen.add(cur);
          const r = this.events.slot(cur);
          if (r === undefined) break;
          chain.push(this.eventAt(r));
          cur = this.events.getU(r, EU.FLAGS) & FL.PARENT ? this.events.getF(r, EF.PARENT) : undefined;
        }
      }
    }
    if (ev.type === 'config.change.after' && ps !== undefined && this.typeIs(ps, FP_CONFIG_BEFORE)) {
      const deniedAt = this.deniedAt(ps);
      if (deniedAt) facts.configAfterDenied = { before: this.eventAt(ps), deniedAt };
    }
    if (ev.type === 'hook.failure' && ps !== undefined && this.typeIs(ps, FP_CONFIG_BEFORE) && isObj(ev.failure) && ev.failure.policy === 'fail-closed') {
      // a fail-closed operational failure denies the operation (base/failure.md §Failure policy)
      this.deny(ps, at);
    }
  }

  private addUnresolved(source: string, parentId: string, loc: Location, at: Mark): void {
    if (!this.makeRoom(at)) return;
    if (this.held() >= this.opts.maxEvents) return;
    const k = eventKey(source, parentId);
    const list = this.unresolved.get(k);
    const entry = { source, parentId, at: loc, seq: this.seq++ };
    if (list) list.push(entry);
    else this.unresolved.set(k, [entry]);
    this.unresolvedCount++;
  }

  /** What a user.elicitation.request offers its result. */
  private requestInfo(msg: AhpMessage, ev: Obj): ElicitRequestInfo {
    const el = isObj(ev.elicitation) ? ev.elicitation : {};
    const base = { server: el.server, mode: el.mode };
    if (el.mode === 'url') return { ...base, form: 'url' };
    const body = this.bodyOf(msg, ev);
    if (body.status !== 'parsed') return { ...base, form: body.status };
    if (body.value.mode === 'url') return { ...base, form: 'url' };
    return { ...base, form: 'parsed', schema: body.value.requestedSchema };
  }

  /** Pairing (first occurrence) and answer facts of a user.elicitation.result (`s`: its row, when kept). */
  private resultFacts(msg: AhpMessage, ev: Obj, facts: EventFacts, s: number | undefined): void {
    const source = ev.source as string;
    const parentId = typeof ev.parentEventId === 'string' ? ev.parentEventId : undefined;
    const pk = parentId !== undefined ? eventKey(source, parentId) : undefined;
    const ps = pk !== undefined ? this.events.slot(pk) : undefined;
    const isRequest = ps !== undefined && this.typeIs(ps, FP_ELICIT_REQUEST);
    if (facts.first) {
      if (parentId === undefined) facts.pair = { parent: 'absent' };
      else if (ps === undefined) facts.pair = { parent: 'unknown' };
      else if (!isRequest) facts.pair = { parent: 'not-request', parentType: this.eventType(ps), parentAt: this.eventAt(ps) };
      else {
        facts.pair = { parent: 'request', parentAt: this.eventAt(ps) };
        const info = this.elicitOf(ps, pk!);
        if (info) facts.pair.request = info;
      }
    }
    const el = isObj(ev.elicitation) ? ev.elicitation : {};
    if (el.mode !== 'form' || el.action !== 'accept') return;
    const body = this.bodyOf(msg, ev);
    if (body.status !== 'parsed' || !isObj(body.value.content)) return;
    const content = body.value.content;
    const cd = digestWords(valueDigest(content));
    if (s !== undefined) {
      const e = this.events;
      if (e.getU(s, EU.FLAGS) & FL.CHECKED && e.getU(s, EU.CHK) === cd[0] && e.getU(s, EU.CHK + 1) === cd[1]) return;
      this.setFlag(s, FL.CHECKED);
      e.setU(s, EU.CHK, cd[0]);
      e.setU(s, EU.CHK + 1, cd[1]);
    }
    const out: ContentFacts = { partPointer: body.partPointer, status: 'checked', problems: [] };
    const req = isRequest ? this.elicitOf(ps!, pk!) : undefined;
    if (!req) out.status = 'no-request';
    else {
      out.request = this.eventAt(ps!);
      if (req.form === 'url') return; // a form answer to a URL request: ahp/elicitation-result-mode says so
      if (req.form === 'view') out.status = 'request-view';
      else if (req.form === 'invalid') out.status = 'request-invalid';
      else if (req.form === 'absent') out.status = 'request-absent';
      else if (req.released) out.status = 'request-released';
      else {
        out.problems = formAnswerProblems(content, req.schema);
        // checked: the form is released once this message is done (see the module comment)
        this.releaseAfter = pk;
      }
    }
    facts.content = out;
  }

  /** An elicitation event whose mode the stream's advertisement does not grant. */
  private modeFacts(msg: AhpMessage, ev: Obj): ModeFacts | undefined {
    const el = isObj(ev.elicitation) ? ev.elicitation : undefined;
    const mode = el && typeof el.mode === 'string' ? el.mode : undefined;
    if (mode === undefined) return undefined;
    if (msg.kind === 'intercept-request') {
      const caps = isObj(msg.value.params) ? (msg.value.params as Obj).capabilities : undefined;
      const granted = isObj(caps) ? grantedModes(caps.elicitation) : undefined;
      if (granted && !granted.includes(mode)) return { mode, advertised: granted, by: 'request' };
    }
    const m = this.manifestModes.get(ev.type as string);
    if (m && !m.modes.includes(mode)) return { mode, advertised: m.modes, by: 'manifest', at: m.at };
    return undefined;
  }
}

/** The tracker of the run that `run` scopes (one per run, shared by every tracked rule). */
export function trackerFor(opts: AhpStreamOptions, run: RunScope): AhpStreamTracker {
  return run.shared('ahp/stream-tracker', () => new AhpStreamTracker(opts));
}

/** What a tracked rule implements. */
export interface TrackedRuleInstance {
  /** One message's observation. */
  onEvent(obs: AhpObservation, ctx: RuleContext): void;
  /** End of input. */
  onEnd?(tracker: AhpStreamTracker, ctx: RuleContext): void;
}

/** Define an AHP stream rule on top of the shared tracker. */
export function trackedRule(meta: RuleMeta, impl: (tracker: AhpStreamTracker) => TrackedRuleInstance): StreamRule<AhpMessage, AhpStreamOptions> {
  return {
    ...meta,
    create(opts: AhpStreamOptions, run: RunScope) {
      const tracker = trackerFor(opts, run);
      const inst = impl(tracker);
      return {
        onEvent(msg, ctx) {
          inst.onEvent(tracker.observe(msg), ctx);
        },
        onEnd(ctx) {
          inst.onEnd?.(tracker, ctx);
        },
      };
    },
  };
}
