/**
 * The occurrences analyzer: one `tool.before` and one `tool.after` per call (execution-payloads.md §Identity and native
 * boundary duties), a new identity and at most one usage amount per provider attempt (§Content and accounting). Only
 * first occurrences of an event `(source, id)` are read (observation-disposition.md: the observation keeps the event's
 * `id`). At most `--max-events` entries of its own, the oldest forgotten first.
 */
import type { Mark } from '../../core/mark.ts';
import { isObj, type Obj } from '../../core/value.ts';
import type { StateHolder } from '../../core/state-budget.ts';
import type { EventBudget } from './budget.ts';

/** A second event for a boundary that occurs once per call or attempt. */
export interface OccurrenceFacts {
  occurrence?: {
    /** What is repeated: a call's before or after boundary, an attempt's request, or an attempt id's number. */
    kind: 'tool.before' | 'tool.after' | 'attempt-request' | 'attempt-number' | 'attempt-usage';
    /** Where the first one was. */
    prior: Mark;
    /** The pointer (below the event) of the repeated identity. */
    member: string;
  };
}

/** What is kept of a first boundary: where it was, and for an attempt id its number. */
interface Entry {
  at: Mark;
  number: unknown;
}

/** The occurrences analyzer */
export class Occurrences implements StateHolder {
  /** `kind NUL source NUL id` -> the first boundary (insertion order: the oldest first). */
  private readonly seen = new Map<string, Entry>();

  constructor(private readonly budget: EventBudget) {}

  /** How many entries it holds. */
  held(): number {
    return this.seen.size;
  }

  /** Estimated bytes (`--max-state-mb`): a key string, an entry and its mark, about 200 bytes each. */
  bytes(): number {
    return this.seen.size * 200;
  }

  /** Forget the oldest entry: a later repeat is then not seen, never misjudged. */
  forgetOldest(): boolean {
    const oldest = this.seen.keys().next();
    if (oldest.done) return false;
    this.seen.delete(oldest.value);
    return true;
  }

  /** Facts of the first occurrence `ev` (at `at`) of its `(source, id)` into `facts`. */
  firstOccurrence(ev: Obj, at: Mark, facts: OccurrenceFacts): void {
    const type = ev.type;
    const source = ev.source as string;
    if (type === 'tool.before' || type === 'tool.after') {
      if (!isObj(ev.call) || typeof ev.call.id !== 'string') return;
      const prior = this.note(`${type}\0${source}\0${ev.call.id}`, at, undefined);
      if (prior) facts.occurrence = { kind: type, prior: prior.at, member: '/call/id' };
      return;
    }
    if (type !== 'model.request.before' && type !== 'model.response.after' && type !== 'model.error') return;
    const attempt = ev.attempt;
    if (!isObj(attempt) || typeof attempt.id !== 'string') return;
    const number = attempt.number;
    const prior = this.note(`attempt\0${source}\0${attempt.id}`, at, number);
    if (prior && prior.number !== number && typeof number === 'number' && typeof prior.number === 'number')
      facts.occurrence = { kind: 'attempt-number', prior: prior.at, member: '/attempt/number' };
    else if (type === 'model.request.before') {
      const request = this.note(`request\0${source}\0${attempt.id}`, at, number);
      if (request) facts.occurrence = { kind: 'attempt-request', prior: request.at, member: '/attempt/id' };
    } else if (isObj(ev.usage)) {
      const usage = this.note(`usage\0${source}\0${attempt.id}`, at, number);
      if (usage) facts.occurrence = { kind: 'attempt-usage', prior: usage.at, member: '/usage' };
    }
  }

  /** The entry kept under `key`, or undefined after keeping `at` there (room made in the budget first). */
  private note(key: string, at: Mark, number: unknown): Entry | undefined {
    const prior = this.seen.get(key);
    if (prior) return prior;
    const max = this.budget.opts.maxEvents;
    if (this.seen.size >= max) {
      this.budget.caps.note('maxEvents', max, () => at);
      const oldest = this.seen.keys().next();
      if (!oldest.done) this.seen.delete(oldest.value);
    }
    if (max > 0) this.seen.set(key, { at, number });
    return undefined;
  }
}
