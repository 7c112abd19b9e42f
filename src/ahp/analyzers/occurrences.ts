/**
 * The occurrences analyzer: one `tool.after` per call, one `tool.batch.after` per batch and one `turn.end` per turn
 * (execution-payloads.md §Identity and native boundary duties; no sentence makes `tool.before` once per call), a new identity and at most one usage amount per provider attempt (§Content and accounting), over
 * first occurrences only; rows keyed by a keyed 64-bit key of `(kind, source, id)` (a call, batch or turn id with its
 * `session.id`; an attempt id without), at most `--max-events`.
 */
import type { Hash64 } from '../../core/canonical.ts';
import type { Mark } from '../../core/mark.ts';
import { SpillTable } from '../../core/spill-table.ts';
import { isObj } from '../../core/value.ts';
import type { StateHolder } from '../../core/state-budget.ts';
import type { EventBudget } from './budget.ts';
import { spillRowsOf } from './options.ts';
import type { MessageScope } from './scope.ts';

/** A second event for a boundary that occurs once per call or attempt. */
export interface OccurrenceFacts {
  occurrence?: {
    /** What is repeated: a call's after boundary, a batch's, an attempt's request, or an attempt id's number. */
    kind:
      | 'tool.after'
      | 'tool.batch.after'
      | 'turn.end'
      | 'batch-call'
      | 'attempt-request'
      | 'attempt-number'
      | 'attempt-usage'
      | 'attempt-outcome';
    /** `batch-call`: the `calls` entry that first resolved the call in this same event. */
    entry?: number;
    /** Where the first one was. */
    prior: Mark;
    /** The pointer (below the event) of the repeated identity. */
    member: string;
  };
}

/** The kinds of row: each keys its `(source, id)` apart by its own {@link KIND_MIX} words. */
const KIND = {
  'turn.end': 0,
  'tool.after': 1,
  attempt: 2,
  request: 3,
  usage: 4,
  'tool.batch.after': 5,
  response: 6,
  error: 7,
  'tool.after any': 8,
  'tool.batch.after any': 9,
} as const;
type RowKind = keyof typeof KIND;
/** Words xored into a `(source, id)` key per kind (fixed distinct constants; the keyed hash keeps crafted collisions out). */
const KIND_MIX: readonly (readonly [number, number])[] = [
  [0x9e3779b9, 0x7f4a7c15],
  [0x85ebca6b, 0xc2b2ae35],
  [0x27d4eb2f, 0x165667b1],
  [0xd3a2646c, 0xfd7046c5],
  [0xb55a4f09, 0x94d049bb],
  [0x61c88647, 0x2545f491],
  [0x7feb352d, 0x846ca68b],
  [0xcaf649a9, 0x68e31da4],
  [0x2c1b3c6d, 0x297a2d39],
  [0xa0761d65, 0xe7037ed1],
];
/** The f64 columns of a row: where the first boundary was, its attempt number (NaN: none, or not an attempt row). */
const ROW_F64 = { pos: 0, number: 1, count: 2 } as const;
/** Bytes a row counts in `--max-state-mb` (the estimate of the string-keyed entries it replaced, so the same rows go). */
const ROW_BYTES = 200;

/** The occurrences analyzer */
export class Occurrences implements StateHolder {
  /** Keyed `(kind, source, id)` -> the first boundary ({@link ROW_F64}); rows go oldest first only. */
  private readonly seen: SpillTable;
  /** The key of the event being read, before its kind's words are mixed in, and after (reused: the table copies it). */
  private readonly key: Hash64 = { hi: 0, lo: 0 };
  private readonly mixed: Hash64 = { hi: 0, lo: 0 };

  constructor(private readonly budget: EventBudget) {
    this.seen = new SpillTable({ u32: 0, f64: ROW_F64.count, load: 2, memRows: spillRowsOf(budget.opts) });
  }

  /**
   * A `calls` entry of a `tool.batch.after` resolving a call an earlier entry of the same event resolved: one boundary
   * after its calls resolve, each call resolved once (the first repeat; a batch-level repeat below replaces it).
   */
  private repeatedCall(calls: readonly unknown[], at: Mark, facts: OccurrenceFacts): void {
    if (calls.length < 2) return;
    const first = new Map<string, number>();
    for (let i = 0; i < calls.length; i++) {
      const c = calls[i];
      const call = isObj(c) && isObj(c.call) ? c.call.id : undefined;
      if (typeof call !== 'string') continue;
      const j = first.get(call);
      if (j === undefined) first.set(call, i);
      else {
        facts.occurrence = { kind: 'batch-call', prior: at, member: `/calls/${i}/call/id`, entry: j };
        return;
      }
    }
  }

  /** How many entries it holds. */
  held(): number {
    return this.seen.size;
  }

  /** Estimated bytes (`--max-state-mb`): {@link ROW_BYTES} a row. */
  bytes(): number {
    return this.seen.size * ROW_BYTES;
  }

  /** Forget the oldest entry: a later repeat is then not seen, never misjudged. */
  forgetOldest(): boolean {
    return this.seen.forgetOldest();
  }

  /** Facts of the first occurrence of the event of `scope` (at `at`) into `facts`. */
  firstOccurrence(scope: Pick<MessageScope, 'ev' | 'idKey'>, at: Mark, facts: OccurrenceFacts): void {
    const ev = scope.ev;
    const type = ev.type;
    // a second tool.before for a call is not judged: "one tool.after represents a resolved call" has no before
    // counterpart, and the protocol's interop scenarios send many tool.before for one placeholder call id
    if (type === 'tool.after' || type === 'tool.batch.after' || type === 'turn.end') {
      // a batch is one aggregate boundary (§Identity and native boundary duties), keyed by its batch id as a call by its;
      // a turn ends once, "only on real completion" (`turn.finish.before is not turn.end`, and may come again)
      const holder = type === 'tool.batch.after' ? ev.batch : type === 'turn.end' ? ev.turn : ev.call;
      if (type === 'tool.batch.after' && Array.isArray(ev.calls)) this.repeatedCall(ev.calls, at, facts);
      if (!isObj(holder) || typeof holder.id !== 'string') return;
      const id = holder.id;
      const session = isObj(ev.session) && typeof ev.session.id === 'string' ? ev.session.id : undefined;
      // no sentence makes a call or turn id unique across sessions, so the session is part of the key (every session's
      // turn t1 is its own); the two encodings cannot meet (a length never starts with '-')
      this.keyOf(scope.idKey(session === undefined ? `-${id}` : `${session.length}:${session}${id}`));
      let prior = this.note(type, at, NaN);
      // across a session shown and one not: a call or batch still pairs, a turn.end may be another session's turn (not
      // judged); the first boundary under any session is kept for a later one without
      if (type !== 'turn.end') {
        const any = type === 'tool.after' ? 'tool.after any' : 'tool.batch.after any';
        if (prior === undefined && session !== undefined) {
          this.keyOf(scope.idKey(`-${id}`));
          prior = this.find(type);
        }
        this.keyOf(scope.idKey(id));
        if (session !== undefined) this.note(any, at, NaN);
        else if (prior === undefined) prior = this.find(any);
      }
      if (prior !== undefined)
        facts.occurrence = {
          kind: type,
          prior: this.markOf(prior),
          member: type === 'tool.batch.after' ? '/batch/id' : type === 'turn.end' ? '/turn/id' : '/call/id',
        };
      return;
    }
    if (type !== 'model.request.before' && type !== 'model.response.after' && type !== 'model.error') return;
    const attempt = ev.attempt;
    if (!isObj(attempt) || typeof attempt.id !== 'string') return;
    const number = attempt.number;
    // JSON has no NaN: NaN stands for a number that is not a JSON number (or none)
    const n = typeof number === 'number' ? number : NaN;
    this.keyOf(scope.idKey(attempt.id));
    const prior = this.note('attempt', at, n);
    if (prior !== undefined && !Number.isNaN(n) && this.numberAt(prior) !== n && !Number.isNaN(this.numberAt(prior)))
      facts.occurrence = { kind: 'attempt-number', prior: this.markOf(prior), member: '/attempt/number' };
    else if (type === 'model.request.before') {
      const request = this.note('request', at, n);
      if (request !== undefined)
        facts.occurrence = { kind: 'attempt-request', prior: this.markOf(request), member: '/attempt/id' };
    } else {
      // a success reported for an attempt that already failed is fabricated (a model.error after a response may be the
      // harness failing on that response, which no sentence forbids)
      const error = type === 'model.error';
      const other = error ? undefined : this.find('error');
      const outcome = other === undefined ? undefined : this.markOf(other);
      this.note(error ? 'error' : 'response', at, n);
      if (outcome) facts.occurrence = { kind: 'attempt-outcome', prior: outcome, member: '/attempt/id' };
      if (!isObj(ev.usage)) return;
      const usage = this.note('usage', at, n);
      if (usage !== undefined)
        facts.occurrence = { kind: 'attempt-usage', prior: this.markOf(usage), member: '/usage' };
    }
  }

  /** Set {@link key} to the keyed `(source, id)` key `k`. */
  private keyOf(k: Hash64): void {
    this.key.hi = k.hi;
    this.key.lo = k.lo;
  }

  private markOf(s: number): Mark {
    return this.budget.markAt(this.seen.getF(s, ROW_F64.pos));
  }

  private numberAt(s: number): number {
    return this.seen.getF(s, ROW_F64.number);
  }

  /** The row kept under `kind` and {@link key}, or undefined; nothing is kept. */
  private find(kind: RowKind): number | undefined {
    const mix = KIND_MIX[KIND[kind]]!;
    return this.seen.slot({ hi: (this.key.hi ^ mix[0]) >>> 0, lo: (this.key.lo ^ mix[1]) >>> 0 });
  }

  /** The row kept under `kind` and {@link key}, or undefined after keeping `at` there (room made in the budget first). */
  private note(kind: RowKind, at: Mark, number: number): number | undefined {
    const mix = KIND_MIX[KIND[kind]]!;
    const key = this.mixed;
    key.hi = (this.key.hi ^ mix[0]) >>> 0;
    key.lo = (this.key.lo ^ mix[1]) >>> 0;
    const t = this.seen;
    const prior = t.slot(key);
    if (prior !== undefined) return prior;
    const max = this.budget.opts.maxEvents;
    if (t.size >= max) {
      this.budget.noteCap('maxEvents', max, at);
      t.forgetOldest();
    }
    if (max > 0) {
      const s = t.add(key);
      t.setF(s, ROW_F64.pos, this.budget.pos(at));
      t.setF(s, ROW_F64.number, number);
    }
    return undefined;
  }
}
