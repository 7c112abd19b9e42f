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
 * - answered requests: id -> where the request and its first response were, and how many
 *   further responses identical retries of the request still allow (to tell a duplicate
 *   response from a response to nothing). A new request with the same id clears the entry.
 * - events: `(source, id)` (AHP event identity, task-workspace-lineage.md §Lineage) -> type,
 *   first location, content digest, fingerprints of the control metadata, `parentEventId`, the
 *   elicitation request's server/mode/form, and whether a `config.change.before` was denied.
 * - unresolved parents: `(source, parentEventId)` -> the events naming a parent not seen yet
 *   (parents may arrive late: observation order is not guaranteed); settled when the parent
 *   arrives, reported at the end of input otherwise.
 * Answered requests, events and unresolved parents together count against `maxEvents`; the
 * oldest entry is forgotten first. The advertised elicitation modes of the latest capabilities
 * manifest are kept per event type (two entries at most). Exceeding a cap is reported once per
 * cap by `ahp/state-cap` and never throws.
 *
 * Sharing across rule instances: `RuleRunner` creates every stream rule of a run from the same
 * options object, synchronously and in list order. {@link trackerFor} keys the tracker by that
 * object; a rule id asking for a tracker it has already claimed means a new run (a second
 * `createChecker` with the same driver), which gets a fresh tracker.
 */
import type { Location } from '../../core/finding.ts';
import { eventLocation, type ParsedEvent, type RuleContext, type RuleMeta, type StreamRule } from '../../core/rule.ts';
import type { AhpMessage } from '../driver.ts';
import { checkEffects, type EffectsVerdict, type HostContext } from '../effects.ts';
import { elicitationBody, type ElicitationBody } from '../elicitation-body.ts';
import { formAnswerProblems, type AnswerProblem } from '../form-answer.ts';
import { shortHash, valueDigest } from './digest.ts';
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
  /** Intercept: the `(source, id)` key of its event. */
  eventKey?: string;
  /** Intercept: what judging the response's effects needs; absent when the request's capabilities are unusable. */
  host?: HostContext;
}

interface AnsweredRecord {
  request: Mark;
  response: Mark;
  /** Further responses still allowed (deliveries - 1). */
  spare: number;
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
  schema?: unknown;
}

/**
 * Names of the control metadata compared across occurrences of one event, in fingerprint order.
 * The elicitation server, mode and action are envelope metadata that edits and views keep
 * (interaction-payloads.md: "Keep action, mode, and envelope metadata consistent").
 */
export const CONTROL_FIELDS = ['type', 'time', 'parentEventId', 'session.id', 'turn.id', 'call.id', 'elicitation.server', 'elicitation.mode', 'elicitation.action'] as const;

interface EventRecord {
  at: Mark;
  type: string;
  via: 'intercept' | 'observe';
  /** Digest of the first intercepted occurrence (retries must repeat it); only intercepted events are digested. */
  interceptDigest?: string;
  /** Fingerprints of the control metadata ({@link CONTROL_FIELDS}, 8 hex digits each, concatenated). */
  meta: string;
  parent?: string;
  elicit?: ElicitRequestInfo;
  /** A config.change.before: where it was denied (accepted deny, or a fail-closed hook.failure). */
  denied?: Mark;
  /** An elicitation result: digest of the last answer checked against its form. */
  checkedContent?: string;
  /** Whether an unadvertised elicitation mode was already reported for this event. */
  modeReported?: boolean;
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
  kind: 'type' | 'retry' | 'metadata';
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
  status: 'checked' | 'no-request' | 'request-view' | 'request-invalid' | 'request-absent';
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
export interface CapNotice {
  cap: CapName;
  limit: number;
  at: Mark;
}

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

const eventKey = (source: string, id: string): string => JSON.stringify([source, id]);

const CONTROL_PATHS = CONTROL_FIELDS.map((f) => f.split('.'));
const ABSENT = '--------';

/** Fingerprints of the control metadata of `ev` (see {@link CONTROL_FIELDS}), 8 characters per field. */
function metaOf(ev: Obj): string {
  let out = '';
  for (const path of CONTROL_PATHS) {
    let cur: unknown = ev;
    for (const k of path) cur = isObj(cur) ? cur[k] : undefined;
    // strings and scalars directly; anything else through the depth-safe digest
    out += cur === undefined ? ABSENT : shortHash(typeof cur === 'string' ? 's' + cur : cur === null || typeof cur !== 'object' ? typeof cur + String(cur) : 'o' + valueDigest(cur));
  }
  return out;
}

/** The control fields whose fingerprints differ. */
function differingFields(a: string, b: string): string[] {
  return CONTROL_FIELDS.filter((_, i) => a.slice(i * 8, i * 8 + 8) !== b.slice(i * 8, i * 8 + 8));
}

/** The modes a `capabilities.elicitation` object grants (`form` / `url` members that are objects). */
function grantedModes(el: unknown): string[] | undefined {
  if (!isObj(el)) return undefined;
  return ['form', 'url'].filter((m) => isObj(el[m]));
}

/** The shared stream state of one run. */
export class AhpStreamTracker {
  private readonly pending = new Map<string, PendingRecord>();
  private readonly answered = new Map<string, AnsweredRecord>();
  private readonly events = new Map<string, EventRecord>();
  private readonly unresolved = new Map<string, UnresolvedParent[]>();
  private unresolvedCount = 0;
  private seq = 0;
  /** Event type -> modes advertised by the latest manifest (elicitation events only). */
  private manifestModes = new Map<string, { modes: string[]; at: Mark }>();
  private sawRequest = false;
  private reportedUncorrelatable = false;
  private pendingDropped = false;
  private readonly capsHit = new Set<CapName>();
  private notices: CapNotice[] = [];
  private lastMsg: AhpMessage | undefined;
  private lastObs: AhpObservation | undefined;
  /** The elicitation body of the message being observed (parsed at most once per message). */
  private body: { msg: AhpMessage; body: ElicitationBody } | undefined;
  /** Rule ids that took this tracker (see {@link trackerFor}). */
  readonly claimedBy = new Set<string>();

  constructor(readonly opts: AhpStreamOptions) {}

  /** Facts about `msg`; computed on the first call for a message, then returned as is. */
  observe(msg: AhpMessage): AhpObservation {
    if (this.lastMsg === msg && this.lastObs) return this.lastObs;
    const obs = this.compute(msg);
    this.lastMsg = msg;
    this.lastObs = obs;
    return obs;
  }

  /** Caps exceeded since the last call (each cap at most once per run). */
  takeNotices(): CapNotice[] {
    const n = this.notices;
    this.notices = [];
    return n;
  }

  /** Requests still awaiting a response (end of stream), in arrival order. */
  openRequests(): PendingRecord[] {
    return [...this.pending.values()];
  }

  /** Events naming a parent that never arrived (end of stream), in arrival order of the naming events. */
  unresolvedParents(): UnresolvedParent[] {
    return [...this.unresolved.values()].flat().sort((a, b) => a.seq - b.seq);
  }

  private capHit(cap: CapName, at: Mark): void {
    if (this.capsHit.has(cap)) return;
    this.capsHit.add(cap);
    this.notices.push({ cap, limit: this.opts[cap], at });
  }

  /** Entries held against `maxEvents`. */
  private held(): number {
    return this.events.size + this.answered.size + this.unresolvedCount;
  }

  /** Make room for one more `maxEvents` entry by forgetting the oldest answered request or event. */
  private makeRoom(at: Mark): boolean {
    if (this.held() < this.opts.maxEvents) return true;
    this.capHit('maxEvents', at);
    const oldAnswered = this.answered.keys().next();
    if (!oldAnswered.done) {
      this.answered.delete(oldAnswered.value);
      return true;
    }
    const oldEvent = this.events.keys().next();
    if (!oldEvent.done) {
      this.events.delete(oldEvent.value);
      return true;
    }
    return false;
  }

  /** The elicitation body of `msg`'s event, parsed once per message. */
  private bodyOf(msg: AhpMessage, ev: Obj): ElicitationBody {
    if (this.body?.msg !== msg) this.body = { msg, body: elicitationBody(ev, EVENT_PTR, msg.issues) };
    return this.body.body;
  }

  private compute(msg: AhpMessage): AhpObservation {
    const obs: AhpObservation = { msg };
    const at = markOf(msg);
    const ev = msg.event;
    if ((msg.kind === 'intercept-request' || msg.kind === 'observe-notification') && ev && typeof ev.source === 'string' && typeof ev.id === 'string' && typeof ev.type === 'string') {
      obs.event = this.eventFacts(msg, ev, at);
    }
    if (msg.kind === 'intercept-request' || msg.kind === 'capabilities-request') this.request(msg, at);
    if (msg.kind === 'response' || msg.kind === 'error-response') obs.response = this.response(msg, at);
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
    this.answered.delete(key);
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
      rec.host = this.hostContext(msg, ev);
    }
    this.pending.set(key, rec);
  }

  /** The host context of an intercepted event, from the request (undefined when its capabilities are unusable). */
  private hostContext(msg: AhpMessage, ev: Obj): HostContext | undefined {
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
      const parent = typeof ev.parentEventId === 'string' && typeof ev.source === 'string' ? this.events.get(eventKey(ev.source, ev.parentEventId)) : undefined;
      if (parent?.elicit?.form === 'parsed') host.requestedSchema = parent.elicit.schema;
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
    if (pend) {
      this.pending.delete(key);
      if (this.makeRoom(at)) this.answered.set(key, { request: pend.at, response: at, spare: pend.deliveries - 1 });
      const link: ResponseLink = { status: 'matched', request: pend };
      if (result && pend.method === 'hooks/intercept' && own(result, 'manifest')) link.mismatch = 'manifest-for-intercept';
      if (result && pend.method === 'hooks/capabilities' && !own(result, 'manifest') && own(result, 'effects')) link.mismatch = 'effects-for-capabilities';
      const facts: ResponseFacts = { link };
      if (result && !link.mismatch && pend.method === 'hooks/intercept' && pend.host && Array.isArray(result.effects)) {
        const outcome = checkEffects(result.effects, pend.host);
        facts.effects = { outcome, list: result.effects, request: pend };
        if (outcome.accepted && result.effects.some((e) => isObj(e) && e.type === 'deny') && pend.eventKey) {
          const ev = this.events.get(pend.eventKey);
          if (ev && ev.type === 'config.change.before') ev.denied ??= at;
        }
      }
      if (result && pend.method === 'hooks/capabilities' && isObj(result.manifest)) this.readManifest(result.manifest, at);
      return facts;
    }
    const done = this.answered.get(key);
    if (done) {
      if (done.spare > 0) {
        done.spare--;
        return { link: { status: 'retry-answer', request: done.request } };
      }
      return { link: { status: 'duplicate', request: done.request, first: done.response } };
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

  private eventFacts(msg: AhpMessage, ev: Obj, at: Mark): EventFacts {
    const source = ev.source as string;
    const id = ev.id as string;
    const type = ev.type as string;
    const via = msg.kind === 'intercept-request' ? 'intercept' : 'observe';
    const key = eventKey(source, id);
    const digest = via === 'intercept' ? valueDigest(ev, msg.bigIntegers, EVENT_PTR) : undefined;
    const meta = metaOf(ev);
    const facts: EventFacts = { source, id, type, via, first: false };
    let record = this.events.get(key);
    if (record) {
      const fields = record.meta === meta ? [] : differingFields(record.meta, meta);
      if (record.type !== type) facts.reuse = { prior: record.at, priorVia: record.via, kind: 'type', fields };
      else if (via === 'intercept' && record.interceptDigest !== undefined && record.interceptDigest !== digest) facts.reuse = { prior: record.at, priorVia: record.via, kind: 'retry', fields };
      else if (fields.length) facts.reuse = { prior: record.at, priorVia: record.via, kind: 'metadata', fields };
      if (digest !== undefined) record.interceptDigest ??= digest;
    } else {
      facts.first = true;
      if (this.makeRoom(at)) {
        record = { at, type, via, meta };
        if (digest !== undefined) record.interceptDigest = digest;
        if (typeof ev.parentEventId === 'string') record.parent = ev.parentEventId;
        this.events.set(key, record);
      }
      this.lineage(msg, ev, at, key, facts, record);
    }
    if (type === 'user.elicitation.request' && record && (facts.first || record.elicit?.form !== 'parsed')) {
      const info = this.requestInfo(msg, ev);
      if (!record.elicit || info.form === 'parsed') record.elicit = info;
    }
    if (type === 'user.elicitation.result') this.resultFacts(msg, ev, facts, record);
    if ((type === 'user.elicitation.request' || type === 'user.elicitation.result') && !record?.modeReported) {
      facts.mode = this.modeFacts(msg, ev);
      if (facts.mode && record) record.modeReported = true;
    }
    return facts;
  }

  /** Parent, cycle and config before/after facts of a first occurrence. */
  private lineage(msg: AhpMessage, ev: Obj, at: Mark, key: string, facts: EventFacts, record: EventRecord | undefined): void {
    const source = ev.source as string;
    const parentId = typeof ev.parentEventId === 'string' ? ev.parentEventId : undefined;
    let parent: EventRecord | undefined;
    if (parentId !== undefined) {
      if (parentId === ev.id) {
        facts.cycle = [at];
        facts.parent = { id: parentId, known: true, type: ev.type as string, at };
      } else {
        parent = this.events.get(eventKey(source, parentId));
        facts.parent = parent ? { id: parentId, known: true, type: parent.type, at: parent.at } : { id: parentId, known: false };
        if (!parent) this.addUnresolved(source, parentId, eventLocation(msg, `${EVENT_PTR}/parentEventId`), at);
      }
    }
    // a late parent: events named this one before it arrived; a cycle must pass through it
    const waiting = this.unresolved.get(key);
    if (waiting) {
      this.unresolved.delete(key);
      this.unresolvedCount -= waiting.length;
      if (record && !facts.cycle && parentId !== undefined) {
        const chain: Mark[] = [at];
        const seen = new Set<string>([key]);
        let cur: string | undefined = parentId;
        while (cur !== undefined) {
          const k = eventKey(source, cur);
          if (k === key) {
            facts.cycle = chain;
            break;
          }
          if (seen.has(k)) break;
          seen.add(k);
          const r = this.events.get(k);
          if (!r) break;
          chain.push(r.at);
          cur = r.parent;
        }
      }
    }
    if (ev.type === 'config.change.after' && parent?.type === 'config.change.before' && parent.denied) {
      facts.configAfterDenied = { before: parent.at, deniedAt: parent.denied };
    }
    if (ev.type === 'hook.failure' && parent?.type === 'config.change.before' && isObj(ev.failure) && ev.failure.policy === 'fail-closed') {
      // a fail-closed operational failure denies the operation (base/failure.md §Failure policy)
      parent.denied ??= at;
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

  /** Pairing (first occurrence) and answer facts of a user.elicitation.result. */
  private resultFacts(msg: AhpMessage, ev: Obj, facts: EventFacts, record: EventRecord | undefined): void {
    const source = ev.source as string;
    const parentId = typeof ev.parentEventId === 'string' ? ev.parentEventId : undefined;
    const parent = parentId !== undefined ? this.events.get(eventKey(source, parentId)) : undefined;
    if (facts.first) {
      if (parentId === undefined) facts.pair = { parent: 'absent' };
      else if (!parent) facts.pair = { parent: 'unknown' };
      else if (parent.type !== 'user.elicitation.request') facts.pair = { parent: 'not-request', parentType: parent.type, parentAt: parent.at };
      else facts.pair = { parent: 'request', parentAt: parent.at, request: parent.elicit };
    }
    const el = isObj(ev.elicitation) ? ev.elicitation : {};
    if (el.mode !== 'form' || el.action !== 'accept') return;
    const body = this.bodyOf(msg, ev);
    if (body.status !== 'parsed' || !isObj(body.value.content)) return;
    const content = body.value.content;
    const cd = valueDigest(content);
    if (record) {
      if (record.checkedContent === cd) return;
      record.checkedContent = cd;
    }
    const out: ContentFacts = { partPointer: body.partPointer, status: 'checked', problems: [] };
    const req = parent?.type === 'user.elicitation.request' ? parent.elicit : undefined;
    if (!req) out.status = 'no-request';
    else {
      out.request = parent!.at;
      if (req.form === 'url') return; // a form answer to a URL request: ahp/elicitation-result-mode says so
      if (req.form === 'view') out.status = 'request-view';
      else if (req.form === 'invalid') out.status = 'request-invalid';
      else if (req.form === 'absent') out.status = 'request-absent';
      else out.problems = formAnswerProblems(content, req.schema);
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

const TRACKERS = new WeakMap<AhpStreamOptions, AhpStreamTracker>();

/** The tracker of the run that `opts` belongs to (see the module comment). */
export function trackerFor(opts: AhpStreamOptions, ruleId: string): AhpStreamTracker {
  let t = TRACKERS.get(opts);
  if (!t || t.claimedBy.has(ruleId)) {
    t = new AhpStreamTracker(opts);
    TRACKERS.set(opts, t);
  }
  t.claimedBy.add(ruleId);
  return t;
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
    create(opts: AhpStreamOptions) {
      const tracker = trackerFor(opts, meta.id);
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
