/**
 * Request/response correlation (AHP base/events.md §Common message envelope) by typed JSON-RPC id (`"1"` is not `1`),
 * capped by `--max-pending`; answered requests stay as compact rows, so a second response is told from one to nothing.
 */
import { pairKey, type Hash64 } from '../../core/canonical.ts';
import type { Mark } from '../../core/mark.ts';
import {
  AnsweredRequests,
  PendingRequests,
  type IdKey,
  type PendingRecord,
  type ResponseLink,
} from './correlation-store.ts';
import type { AhpMessage } from '../message.ts';
import type { BudgetHolder, EventBudget } from './budget.ts';
import { isObj, own } from '../../core/value.ts';
import { ahpInterceptableEventTypes } from '../schema/schemas.ts';

export type { IdKey, PendingRecord, ResponseLink } from './correlation-store.ts';

/** What of `msg` (a request) a draft backend cannot process, with `interceptable` the draft's intercept types. */
function unsupportedOf(msg: AhpMessage, interceptable: ReadonlySet<unknown>): PendingRecord['unsupported'] {
  const params = msg.value.params;
  if (!isObj(params)) return undefined;
  const v = params.protocolVersion;
  if (typeof v === 'string' && v !== 'draft') return 'version';
  const ev = msg.event;
  if (msg.kind === 'intercept-request' && ev && typeof ev.type === 'string' && !interceptable.has(ev.type))
    return 'event';
  return undefined;
}

/** Facts about a response. */
export interface ResponseFacts {
  link: ResponseLink;
}

/** The typed key of a JSON-RPC id (`"1"` and `1` differ); an unsafe integer keyed by its digits as a bigint. */
export function idKey(msg: AhpMessage): IdKey | undefined {
  const id = msg.value.id;
  if (typeof id === 'string') return id;
  if (typeof id !== 'number') return undefined;
  if (Number.isSafeInteger(id) || !Number.isInteger(id)) return id;
  const big = msg.bigIntegers.find((b) => b.pointer === '/id');
  if (big) return BigInt(big.text);
  return Math.abs(id) >= 1e21 ? id : BigInt(String(id));
}

// the two domains of answered keys: the id hashed under key words derived from these (pairKey)
const STRING_IDS = '\u0000s';
const NUMBER_IDS = '\u0000n';

/** The answered-table key of an id key: its text hashed in the domain of its type. */
function answeredKey(k: IdKey): Hash64 {
  return typeof k === 'string' ? pairKey(STRING_IDS, k) : pairKey(NUMBER_IDS, String(k));
}

const PENDING_BYTES = 1024;

export class Correlation implements BudgetHolder {
  private readonly pending = new PendingRequests();
  private readonly answered: AnsweredRequests;
  private sawRequest = false;
  private reportedUncorrelatable = false;
  private pendingDropped = false;
  /** The last line of the stream that gave no message (O(1): any earlier one makes a verdict of absence unsure). */
  private unreadable: Mark | undefined;
  private peak = 0;

  /** The event types hooks/intercept may carry in the draft. */
  private readonly interceptable: ReadonlySet<unknown> = new Set(ahpInterceptableEventTypes());

  private firstNotification: Mark | undefined;
  /** Requests of a method AHP does not define, by id key, oldest first (at most `--max-pending`). */
  private readonly others = new Map<IdKey, Mark>();
  /** The pending request whose id the last request reused, until read ({@link takeIdPending}). */
  private idPending: { prior: Mark; method: string } | undefined;

  /** `notifiedAt`: where a notification carried the event of an id (identity.ts), else undefined. */
  constructor(
    private readonly budget: EventBudget,
    private readonly notifiedAt: (id: string) => Mark | undefined = () => undefined,
  ) {
    this.answered = new AnsweredRequests(budget);
  }

  held(): number {
    return this.answered.held();
  }

  /** Estimated bytes of the answered rows and the pending requests (open work, never forgotten). */
  bytes(): number {
    return this.answered.bytes() + this.pending.size * PENDING_BYTES;
  }

  /** Forget the oldest answered request; false when none is held. */
  forgetOldest(): boolean {
    return this.answered.forgetOldest();
  }

  /** Requests awaiting a response now (open work; cap `--max-pending`). */
  get pendingCount(): number {
    return this.pending.size;
  }

  get pendingPeak(): number {
    return this.peak;
  }

  get answeredCount(): number {
    return this.held();
  }

  /** Requests still awaiting a response (end of stream), in arrival order. */
  openRequests(): PendingRecord[] {
    return this.pending.values();
  }

  /**
   * An intercept request of `msg`'s id awaits its response, and no unreadable line came after it: such a line may have
   * held the response, and then `msg` is the next interceptor's delivery, not a retry (README §Decisions on unreadable
   * lines).
   */
  surelyAwaiting(msg: AhpMessage): boolean {
    const key = idKey(msg);
    const pend = key === undefined ? undefined : this.pending.get(key);
    if (pend === undefined) return false;
    return this.noUnreadableSince(pend.at);
  }

  /** No line that gave no message came after `at` (such a line may have held its answer). */
  private noUnreadableSince(at: Mark): boolean {
    const u = this.unreadable;
    return u === undefined || (u.file === at.file && u.line < at.line);
  }

  /** The pending request a response `msg` will answer, looked up without answering it (the schema stage's use). */
  awaited(msg: AhpMessage): PendingRecord | undefined {
    const key = idKey(msg);
    return key === undefined ? undefined : this.pending.get(key);
  }

  /** An observe notification at `at`. */
  notification(at: Mark): void {
    if (this.firstNotification === undefined) this.firstNotification = at;
  }

  /** A line at `at` gave no message: it may have held a request or a retry of one. */
  unreadableLine(at: Mark): void {
    this.unreadable = at;
  }

  /** A request (`msg` at `at`): a new pending record, which the caller completes with its host context. */
  request(msg: AhpMessage, at: Mark, eventKey?: Hash64): PendingRecord | undefined {
    this.sawRequest = true;
    const key = idKey(msg);
    if (key === undefined) return undefined;
    const prior = this.pending.get(key);
    const method = msg.kind === 'intercept-request' ? 'hooks/intercept' : 'hooks/capabilities';
    if (prior) {
      // an identical retry is one more delivery of the same request; a request reusing the id of a pending request of
      // the other method is the harness's error (stdio §Persistent lifecycle: responses are correlated by id), and each
      // of its responses is then told by its result's shape. A third request under the id is a delivery of the one of
      // its method, yet it too reuses the id of the other method's pending request: the same error (even as a retry,
      // which must keep its id, failure.md §Duplicate delivery and retries, the harness chose to send it then)
      const same = prior.method === method ? prior : prior.next;
      const other = prior.method === method ? prior.next : prior;
      // not after an unreadable line later than the other request: that line may have held its response (README
      // §Decisions on unreadable lines)
      if (other !== undefined && this.noUnreadableSince(other.at))
        this.idPending = { prior: other.at, method: other.method };
      if (same !== undefined) {
        same.deliveries++;
        return undefined;
      }
    }
    const answeredAs = answeredKey(key);
    this.answered.bury(answeredAs);
    if (!prior && this.pending.size >= this.budget.opts.maxPending) {
      this.budget.noteCap('maxPending', this.budget.opts.maxPending, at);
      this.pendingDropped = true;
      return undefined;
    }
    const ev = msg.event;
    const rec: PendingRecord = {
      method,
      at,
      deliveries: 1,
      http: msg.binding === 'http' ? true : undefined,
      eventKey: method === 'hooks/intercept' && ev && typeof ev.type === 'string' ? eventKey : undefined,
      answeredKey: answeredAs,
      schemaReleased: undefined,
      host: undefined,
      unsupported: unsupportedOf(msg, this.interceptable),
      next: undefined,
    };
    if (prior) {
      prior.next = rec;
      return rec;
    }
    this.pending.add(key, rec);
    if (this.pending.size > this.peak) this.peak = this.pending.size;
    return rec;
  }

  /** A request (with an id) of a method AHP does not define: its response is not judged, nor is it unmatched. */
  otherRequest(msg: AhpMessage, at: Mark): void {
    this.sawRequest = true;
    const key = idKey(msg);
    if (key === undefined) return;
    this.others.delete(key);
    if (this.others.size >= this.budget.opts.maxPending) this.others.delete(this.others.keys().next().value!);
    this.others.set(key, at);
  }

  /** The pending request the last request reused the id of (another method's), once; else undefined. */
  takeIdPending(): { prior: Mark; method: string } | undefined {
    const p = this.idPending;
    this.idPending = undefined;
    return p;
  }

  response(msg: AhpMessage, at: Mark): ResponseFacts {
    const key = idKey(msg);
    const result = isObj(msg.value.result) ? msg.value.result : undefined;
    if (key === undefined) {
      if (msg.kind === 'error-response' && msg.value.id === null) return { link: { status: 'null-id' } };
      return { link: this.unmatched(msg) };
    }
    let pend = this.pending.get(key);
    const b = this.budget;
    if (pend?.next) {
      // two pending requests share the id: a manifest answers the capabilities one, anything else the older one
      const first = pend;
      const caps = result !== undefined && own(result, 'manifest');
      pend = (first.next!.method === 'hooks/capabilities') === caps ? first.next! : first;
      const rest = pend === first ? first.next! : first;
      first.next = undefined;
      // one answered row is kept per id (the one answered last): the extra deliveries of this one keep their answers
      rest.deliveries += pend.deliveries - 1;
      this.pending.delete(key);
      this.pending.add(key, rest);
      return { link: { status: 'matched', request: pend } };
    }
    if (!pend && this.others.size !== 0) {
      const other = this.others.get(key);
      if (other !== undefined) {
        this.others.delete(key);
        return { link: { status: 'other-method', request: other } };
      }
    }
    if (pend) {
      this.pending.delete(key);
      if (b.makeRoom(at)) this.answered.add(pend, at);
      const link: ResponseLink = { status: 'matched', request: pend };
      if (result && pend.method === 'hooks/intercept' && own(result, 'manifest'))
        link.mismatch = 'manifest-for-intercept';
      if (result && pend.method === 'hooks/capabilities' && !own(result, 'manifest') && own(result, 'effects'))
        link.mismatch = 'effects-for-capabilities';
      return { link };
    }
    const answered = this.answered.link(answeredKey(key));
    if (answered?.status === 'duplicate' && this.unreadable)
      return { link: { status: 'unverifiable', of: 'duplicate', unreadable: this.unreadable } };
    return { link: answered ?? this.unmatched(msg) };
  }

  private unmatched(msg: AhpMessage): ResponseLink {
    // an HTTP response body answers the POST it came back on (AHP-HTTP-001): its request is the exchange's, not the
    // input's, so no request before it is what a lone body looks like (and the order of bodies is not the wire's)
    if (!this.sawRequest && msg.binding === 'http') return { status: 'exchange' };
    if (this.pendingDropped) return { status: 'untracked' };
    // an earlier notification's event id answers nothing, whatever came before (README §Decisions on requests that
    // may precede the capture)
    const id = msg.value.id;
    const notification = typeof id === 'string' ? this.notifiedAt(id) : undefined;
    if (notification === undefined && !this.sawRequest) {
      const first = !this.reportedUncorrelatable;
      this.reportedUncorrelatable = true;
      return { status: 'uncorrelatable', first, notification: this.firstNotification };
    }
    if (this.unreadable) return { status: 'unverifiable', of: 'unmatched', unreadable: this.unreadable };
    return notification === undefined ? { status: 'unmatched' } : { status: 'unmatched', notification };
  }
}
