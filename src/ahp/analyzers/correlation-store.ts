/**
 * The request stores of the correlation analyzer (correlation.ts): the requests awaiting a response, by typed id key,
 * and the answered requests as compact rows (so that a second response is told from a response to nothing).
 */
import type { Hash64 } from '../../core/canonical.ts';
import { KeyScreen } from '../../core/key-screen.ts';
import type { Mark } from '../../core/mark.ts';
import { ReplacingSpillTable } from '../../core/spill-replacing.ts';
import { keyNumber } from '../../core/table.ts';
import type { EventBudget } from './budget.ts';
import type { HostContext } from './effects.ts';
import { spillRowsOf } from './options.ts';

/** A request awaiting its response (every member made at once: one object shape, no property array grown later). */
export interface PendingRecord {
  method: 'hooks/intercept' | 'hooks/capabilities';
  at: Mark;
  /** Deliveries of this request id while pending (identical retries add one each). */
  deliveries: number;
  /** Read from an HTTP body: its response is the HTTP response, so none is owed in the input. */
  http: true | undefined;
  /** Intercept: the `(source, id)` key of its event (identity.ts `eventKey`). */
  eventKey: Hash64 | undefined;
  /** The key its answered row gets ({@link answeredKey}), hashed once at the request. */
  answeredKey: Hash64;
  /** Intercept of an elicitation result whose request's form was already released. */
  schemaReleased: Mark | undefined;
  /** Intercept: what judging the response's effects needs; absent when the request's capabilities are unusable. */
  host: HostContext | undefined;
  /** What a draft backend cannot process in the request (base/index.md §Base Protocol profile): -32001 or -32002. */
  unsupported: 'version' | 'event' | undefined;
  /** A request of the other method sent with this id while this one was pending (its response is told by shape). */
  next: PendingRecord | undefined;
}

/** How a response relates to the requests of the stream. */
export type ResponseLink =
  /** It answers a pending request; `mismatch` when its result is of the other method's shape. */
  | { status: 'matched'; request: PendingRecord; mismatch?: 'manifest-for-intercept' | 'effects-for-capabilities' }
  /** A further response allowed by an identical retry of the request. */
  | { status: 'retry-answer'; request: Mark }
  | { status: 'duplicate'; request: Mark; first: Mark }
  /** It answers no request; `notification`: the notification whose event has the response's id. */
  | { status: 'unmatched'; notification?: Mark }
  /**
   * `unmatched` or `duplicate` (`of`), after an unreadable line of the stream (`unreadable`) that may have held the
   * request or its retry: not verified (README §Decisions on unreadable lines).
   */
  | { status: 'unverifiable'; of: 'unmatched' | 'duplicate'; unreadable: Mark }
  /** No request in the input so far; `first`: the first such response; `notification`: the first before it. */
  | { status: 'uncorrelatable'; first: boolean; notification: Mark | undefined }
  /**
   * An HTTP binding response body with no request before it in the input: the HTTP exchange it came back on correlates
   * it (AHP-HTTP-001), so there is nothing to verify.
   */
  | { status: 'exchange' }
  /** The pending cap was exceeded earlier: it may answer an untracked request. */
  | { status: 'untracked' }
  /** An error response with a null id (the request id could not be read): nothing to correlate. */
  | { status: 'null-id' }
  /** It answers a request of a method AHP does not define (ahp/method reports the request): not judged. */
  | { status: 'other-method'; request: Mark };

/** A typed JSON-RPC id key (correlation.ts `idKey`). */
export type IdKey = string | number | bigint;

/** Where the response is from the request ({@link nearWord}; {@link FAR}: in the far map). */
const ANSWERED_U32 = { response: 0, count: 1 } as const;
/** Where the request is (budget.ts `EventBudget.pos`); NaN: a tombstone (the id was requested again). */
const ANSWERED_F64 = { requestPos: 0, count: 1 } as const;
/** The byte distance's share of a response word (the line distance has the top 10 bits). */
const NEAR = 2 ** 22;
const FAR = 0xffffffff;

/** The response word of a response at `at` to a request at `req` (distance in lines and bytes), else {@link FAR}. */
function nearWord(req: Mark, at: Mark): number {
  if (at.file !== req.file || (at.byteOffset === undefined) !== (req.byteOffset === undefined)) return FAR;
  const dl = at.line - req.line;
  const dp = at.byteOffset === undefined ? 0 : at.byteOffset - req.byteOffset!;
  if (dl < 0 || dl >= 1024 || dp < 0 || dp >= NEAR) return FAR;
  return dl * NEAR + dp;
}

/** Bytes an answered row counts for the memory budget: the row it was (so the budget forgets where it did). */
const ANSWERED_BYTES = 63;

/** The pending requests by id key, in arrival order; the newest in fields of its own (most are answered at once). */
export class PendingRequests {
  private readonly older = new Map<IdKey, PendingRecord>();
  private newestKey: IdKey | undefined;
  private newest: PendingRecord | undefined;

  get size(): number {
    return this.newest === undefined ? this.older.size : this.older.size + 1;
  }

  get(key: IdKey): PendingRecord | undefined {
    // `===` is the Map's SameValueZero for the keys of idKey (never NaN; bigints by value)
    if (this.newest !== undefined && this.newestKey === key) return this.newest;
    return this.older.size === 0 ? undefined : this.older.get(key);
  }

  /** Add `rec` as the newest, for a `key` not pending. */
  add(key: IdKey, rec: PendingRecord): void {
    if (this.newest !== undefined) this.older.set(this.newestKey!, this.newest);
    this.newestKey = key;
    this.newest = rec;
  }

  delete(key: IdKey): void {
    if (this.newest !== undefined && this.newestKey === key) {
      this.newestKey = undefined;
      this.newest = undefined;
    } else this.older.delete(key);
  }

  values(): PendingRecord[] {
    const all = [...this.older.values()];
    if (this.newest !== undefined) all.push(this.newest);
    return all;
  }
}

/** The answered requests, oldest first; a reused id's row goes (`bury`), past `spillRows` the oldest half spills. */
export class AnsweredRequests {
  private readonly answered: ReplacingSpillTable;
  /** The keys given to answered rows: a new request id (most) skips the probe of {@link bury} (its start size for good). */
  private readonly screen = new KeyScreen(0);
  /** Further responses an answered row still allows (identical retries of its request), by key number; most have none. */
  private readonly spares = new Map<number, number>();
  /** Where the responses far from their request are ({@link FAR}; budget.ts `EventBudget.pos`), by key number. */
  private readonly far = new Map<number, number>();

  constructor(private readonly budget: EventBudget) {
    this.answered = new ReplacingSpillTable({
      u32: ANSWERED_U32.count,
      f64: ANSWERED_F64.count,
      load: 2,
      memRows: spillRowsOf(budget.opts),
      keyLog: true,
    });
  }

  get rows(): number {
    return this.answered.size;
  }

  held(): number {
    return this.answered.size;
  }

  bytes(): number {
    return this.held() * ANSWERED_BYTES;
  }

  /** Forget the oldest answered request; false when none is held. */
  forgetOldest(): boolean {
    const a = this.answered;
    if (this.spares.size !== 0 || this.far.size !== 0) {
      const k = a.oldestKey();
      if (k === undefined) return false;
      this.spares.delete(keyNumber(k));
      this.far.delete(keyNumber(k));
    }
    return a.forgetOldest();
  }

  /** Keep `pend`, answered at `at` (the budget made room for it; its key was buried at the request). */
  add(pend: PendingRecord, at: Mark): void {
    const a = this.answered;
    const b = this.budget;
    const key = pend.answeredKey;
    const s = a.add(key);
    this.screen.add(key, a.size);
    const word = nearWord(pend.at, at);
    a.setF(s, ANSWERED_F64.requestPos, b.pos(pend.at));
    a.setU(s, ANSWERED_U32.response, word);
    if (word === FAR) this.far.set(keyNumber(key), b.pos(at));
    if (pend.deliveries > 1) this.spares.set(keyNumber(key), pend.deliveries - 1);
  }

  /** How a response to the answered request of `key` relates to it (undefined: none is held). */
  link(key: Hash64): ResponseLink | undefined {
    const a = this.answered;
    const b = this.budget;
    const s = this.slot(key);
    if (s === undefined) return undefined;
    const request = b.markAt(a.getF(s, ANSWERED_F64.requestPos));
    const word = a.getU(s, ANSWERED_U32.response);
    const n = keyNumber(key);
    const spare = this.spares.size === 0 ? undefined : this.spares.get(n);
    if (spare !== undefined) {
      if (spare > 1) this.spares.set(n, spare - 1);
      else this.spares.delete(n);
      return { status: 'retry-answer', request };
    }
    let first: Mark;
    if (word === FAR) first = b.markAt(this.far.get(n)!);
    else {
      first = { file: request.file, line: request.line + Math.floor(word / NEAR) };
      if (request.byteOffset !== undefined) first.byteOffset = request.byteOffset + (word % NEAR);
    }
    return { status: 'duplicate', request, first };
  }

  /** Forget the answered row of `key` (its id is requested again), when it has one. */
  bury(key: Hash64): void {
    if (this.slot(key) === undefined) return;
    this.answered.delete(key);
    const n = keyNumber(key);
    this.spares.delete(n);
    this.far.delete(n);
  }

  private slot(key: Hash64): number | undefined {
    return this.answered.size !== 0 && this.screen.mayHold(key) ? this.answered.slot(key) : undefined;
  }
}
