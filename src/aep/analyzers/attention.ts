/**
 * The attention analyzer (AEP-0002 §7; AEP-0004 §5-§6): requests and followers by `subject`. A request leaves a compact
 * mark at its terminal, and a session's closed requests leave compact rows at `session.ended`, so a later follower
 * still links to a closed request.
 */
import type { Mark } from '../../core/mark.ts';
import { attr, CAPTURE_RANK, type AepEvent } from '../event.ts';
import { optionSetOf } from '../text-answer.ts';
import type { AepCapLog, OpenBudget } from './budget.ts';
import type { AepIdTable } from './id-table.ts';
import { copiesAt, type IdentityFacts } from './identity-facts.ts';
import type { LifecycleAnalyzer, LifecycleFacts } from './lifecycle.ts';
import type { ClosedRequest, Completion, CompletionMarks } from './markers.ts';
import { UNKNOWN_CLOSES, type OpenRequest, type RequestRecord, type SessionRecord } from './session.ts';

/** The attention request terminals (AEP-0002 §7.2). */
export const ATTENTION_TERMINALS: ReadonlySet<string> = new Set(['attention.resolved', 'attention.timeout']);
/** Events that name an attention request in `subject` (AEP-0002 §7.1; AEP-0004 §5, §6). */
export const ATTENTION_FOLLOWERS: ReadonlySet<string> = new Set([
  'attention.routed',
  'attention.answered',
  'attention.resolved',
  'attention.timeout',
  'control.attention.respond',
]);

/** How an event's `subject` resolved to an attention request (`closed`: one of an ended session, by its compact row). */
export type RequestLink =
  | { status: 'found'; request: RequestRecord; owner: SessionRecord }
  | { status: 'closed'; request: ClosedRequest }
  | { status: 'missing' }
  | { status: 'ambiguous'; sources: number };

const MISSING: RequestLink = { status: 'missing' };

/** What the attention analyzer found about one event. */
export interface AttentionFacts {
  endedWithOpen?: OpenRequest[];
  /** The request this `attention.requested` recorded (open, or closed when its terminal came first). */
  requested?: RequestRecord;
  /**
   * `fromStart`: the link is missing in a session the input provably holds from its start. `targetFromStart`: a foreign
   * follower's (respond, routed) link is missing and the one emitter of the session it addresses is held from its start.
   */
  attention?: {
    subject: string | undefined;
    link: RequestLink;
    priorTerminal?: Completion;
    fromStart?: boolean;
    targetFromStart?: boolean;
    /**
     * The link is missing and `subject` is the id of an earlier event of the emitter whose request it must name (its own
     * source; a foreign follower's, the session's one emitter) that is no attention.requested: where that event is.
     */
    notRequest?: Mark;
  };
  /** An `attention.answered` after its request's terminal in the same emitter session (AEP-0002 §7 order). */
  answeredLate?: Completion;
  /** An `attention.timeout` of a request its emitter session answered: where it was answered. */
  timeoutAnswered?: Mark;
}

/** Attention requests and their followers for one run. */
export class AttentionAnalyzer {
  constructor(
    private readonly lifecycle: LifecycleAnalyzer,
    private readonly budget: OpenBudget,
    private readonly marks: CompletionMarks,
    private readonly ids: AepIdTable,
    private readonly caps: AepCapLog,
  ) {}

  /**
   * Ids are unique per source (AEP-0001 §5.1 #2), so an id its emitter already used for another event names no request
   * of it, gap or not. Not known when a request may have gone unrecorded (a refused event, a cap) or forgotten.
   */
  private requestsUnknown = false;

  /** An event the schema stage refused: had it been an attention.requested, no record of it is kept. */
  refused(ev: AepEvent): void {
    if (ev.type === 'attention.requested' || ev.type === '' || ev.untrusted?.has('type')) this.requestsUnknown = true;
  }

  observe(
    ev: AepEvent,
    facts: AttentionFacts & IdentityFacts & Pick<LifecycleFacts, 'session' | 'endsSession'> & { at: Mark },
  ): void {
    const rec = facts.session;
    const type = ev.type;
    // an event whose type failed may have been a request: an id it used proves nothing
    if (ev.untrusted?.has('type')) this.requestsUnknown = true;
    if (rec && facts.endsSession) {
      const open = rec.hasLifecycle && !(rec.unknownCloses & UNKNOWN_CLOSES.requests) ? rec.openRequests() : undefined;
      if (open?.length) facts.endedWithOpen = open;
      this.marks.retireClosed(rec, ev); // open requests stay (open-at-end reports them)
    }
    if (rec && type === 'attention.requested') this.request(ev, rec, facts);
    if (!ATTENTION_FOLLOWERS.has(type)) return;
    if (ev.untrusted?.has('subject')) {
      // which request it follows is unknown: a terminal may have closed any open request of its session
      if (rec && ATTENTION_TERMINALS.has(type)) rec.unknownCloses |= UNKNOWN_CLOSES.requests;
      return;
    }
    const session = attr(ev, 'session');
    if (session === undefined) return;
    const subject = attr(ev, 'subject');
    const link =
      subject === undefined ? MISSING : rec ? this.linkOwn(rec, subject) : this.linkForeign(session, subject);
    const a: AttentionFacts['attention'] = { subject, link };
    let emitter: SessionRecord | undefined = rec;
    if (rec?.fromStart && subject !== undefined && link.status === 'missing') a.fromStart = true;
    else if (!rec && subject !== undefined && link.status === 'missing') {
      const target = this.lifecycle.emittersOf(session);
      if (target?.fromStart && target.nextEmitter === undefined) a.targetFromStart = true;
      emitter = target?.nextEmitter === undefined ? target : undefined;
    }
    if (emitter && subject !== undefined && link.status === 'missing' && !this.requestsUnknown && !this.caps.anyHit) {
      const named = this.ids.get(emitter.idKey(subject));
      if (named) a.notRequest = { file: this.ids.fileName(named.file), line: named.line };
    }
    facts.attention = a;
    if (rec && subject !== undefined && type === 'attention.answered') {
      const r = rec.peekRequest(subject);
      const prior = r?.terminal
        ? { at: r.terminal, type: r.terminalType! }
        : r
          ? undefined
          : this.marks.get(rec.markKey('q', subject));
      if (prior && !copiesAt(facts, prior.at)) facts.answeredLate = prior;
      else if (r && !r.terminal) r.answered ??= facts.at;
    }
    if (rec && subject !== undefined && ATTENTION_TERMINALS.has(type)) {
      // every request terminal leaves a compact mark; an open request closes
      const r = rec.peekRequest(subject);
      const mk = r ? r.mark : rec.markKey('q', subject);
      const prior = r?.terminal ? { at: r.terminal, type: r.terminalType! } : r ? undefined : this.marks.get(mk);
      if (prior) {
        if (!copiesAt(facts, prior.at)) a.priorTerminal = prior;
      } else {
        // without a record `get` just found the mark absent
        if (r) this.marks.put(mk, facts.at, type, ev);
        else this.marks.add(mk, facts.at, type, ev);
        if (r?.answered && type === 'attention.timeout') facts.timeoutAnswered = r.answered;
        if (r) {
          r.terminal = facts.at;
          r.terminalType = type;
          r.form = undefined;
          this.budget.release(rec);
        }
      }
    }
  }

  /** Record an `attention.requested`: open (a `maxOpen` slot), or closed when its terminal came first. */
  private request(ev: AepEvent, rec: SessionRecord, facts: AttentionFacts & { at: Mark }): void {
    const id = attr(ev, 'id')!;
    if (rec.peekRequest(id)) return;
    const mark = rec.markKey('q', id);
    const prior = this.marks.get(mark);
    if (!prior && !this.budget.admit(rec, ev)) {
      rec.fromStart = false; // a request not recorded: a follower's missing link proves nothing
      this.requestsUnknown = true;
      return;
    }
    const data = ev.value.data;
    const kind =
      data !== null && typeof data === 'object' && typeof (data as { kind?: unknown }).kind === 'string'
        ? (data as { kind: string }).kind
        : undefined;
    const r: RequestRecord = { id, at: facts.at, mark, kind };
    if (data === undefined && ev.capture === 'none') r.withheld = true;
    // a `data` that is no object (an envelope finding) leaves the request's kind and form unknown, not missing
    if (ev.untrusted?.has('data')) r.form = 'unusable';
    const via = ev.payloadValid ? (data as { respond_via?: unknown } | undefined)?.respond_via : undefined;
    if (Array.isArray(via) && !via.includes('control')) r.noControl = via as string[];
    if (ev.payloadValid) {
      const options = optionSetOf(data, CAPTURE_RANK[ev.capture] >= CAPTURE_RANK.redacted);
      if (options) r.options = options;
    }
    if (prior) {
      r.terminal = prior.at;
      r.terminalType = prior.type;
    }
    rec.addRequest(r);
    facts.requested = r;
  }

  /** The request `subject` of the emitter session `rec` (same `(source, session)`). */
  private linkOwn(rec: SessionRecord, subject: string): RequestLink {
    const r = rec.peekRequest(subject);
    if (r) return { status: 'found', request: r, owner: rec };
    // the terminal mark keyed by the source as well: a row of another emitter of the session name is not this one's
    const closed =
      rec.ended && this.marks.get(rec.markKey('q', subject))
        ? this.marks.closedRequest(rec.session, subject, rec.sourceKey())
        : undefined;
    return closed ? { status: 'closed', request: closed } : MISSING;
  }

  /** The request `subject` of any emitter of `session` (foreign events: routed, respond). */
  private linkForeign(session: string, subject: string): RequestLink {
    let found: RequestLink = MISSING;
    let n = 0;
    for (let rec = this.lifecycle.emittersOf(session); rec !== undefined; rec = rec.nextEmitter) {
      const r = rec.peekRequest(subject);
      if (!r) continue;
      n++;
      found = { status: 'found', request: r, owner: rec };
    }
    if (n === 0) {
      const closed = this.marks.closedRequest(session, subject);
      if (closed) return { status: 'closed', request: closed };
    }
    return n > 1 ? { status: 'ambiguous', sources: n } : found;
  }
}
