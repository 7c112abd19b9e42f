/**
 * The observations analyzer: a discarded modification never leaks into the observation (observation-disposition.md); a
 * rejected response's `modify` result is kept as a keyed digest, at most `--max-events`, the oldest forgotten first.
 */
import { type Hash64, textKey } from '../../core/canonical.ts';
import type { Mark } from '../../core/mark.ts';
import { isObj, type Obj } from '../../core/value.ts';
import type { StateHolder } from '../../core/state-budget.ts';
import type { EventBudget } from './budget.ts';
import { LIST_TARGETS as LIST_MEMBERS } from './edit-context.ts';

/** Observation facts of an observed event. */
export interface ObservationFacts {
  /** The observation carries what a rejected response's modify would have produced. */
  leak?: { member: string; response: Mark };
}

/** A rejected response's would-be list for one event. */
interface Discarded {
  member: string;
  digest: string;
  response: Mark;
}

/** Canonical JSON of `v` (object members sorted): equal JSON values give equal text. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (isObj(v))
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`)
      .join(',')}}`;
  return JSON.stringify(v) ?? 'null';
}

const keyOf = (k: Hash64): string => `${k.hi}:${k.lo}`;
const digestOf = (v: unknown): string => keyOf(textKey(canonical(v)));

/** The observations analyzer */
export class Observations implements StateHolder {
  private readonly discarded = new Map<string, Discarded>();

  constructor(private readonly budget: EventBudget) {}

  /** How many records it holds. */
  held(): number {
    return this.discarded.size;
  }

  /** Estimated bytes (`--max-state-mb`): a key string, an entry and its mark, about 200 bytes each. */
  bytes(): number {
    return this.discarded.size * 200;
  }

  /** Forget the oldest entry: a later repeat is then not seen, never misjudged. */
  forgetOldest(): boolean {
    const oldest = this.discarded.keys().next();
    if (oldest.done) return false;
    this.discarded.delete(oldest.value);
    return true;
  }

  /** A matched response with `effects` to the intercepted event `eventKey`: rejected keeps its list modify. */
  response(
    effects: readonly unknown[],
    accepted: boolean,
    eventKey: Hash64 | undefined,
    type: string,
    current: Record<string, unknown> | undefined,
    at: Mark,
  ): void {
    if (eventKey === undefined) return;
    if (accepted) {
      if (this.discarded.size > 0) this.discarded.delete(keyOf(eventKey));
      return;
    }
    const target = LIST_MEMBERS.get(type);
    const list = target && current ? current[target[0]] : undefined;
    if (!target || !Array.isArray(list)) return;
    let would: unknown[] | undefined;
    for (const e of effects) {
      if (!isObj(e) || e.type !== 'modify' || e.target !== target[0] || !Array.isArray(e.value)) continue;
      if (e.operation === 'replace') would = e.value;
      else if (e.operation === 'merge') would = [...(would ?? list), ...e.value];
    }
    if (!would) return;
    const digest = digestOf(would);
    if (digest === digestOf(list)) return; // the edit changes nothing: no leak can be told
    const max = this.budget.opts.maxEvents;
    if (this.discarded.size >= max) {
      this.budget.noteCap('maxEvents', max, at);
      const oldest = this.discarded.keys().next();
      if (!oldest.done) this.discarded.delete(oldest.value);
    }
    if (max > 0) this.discarded.set(keyOf(eventKey), { member: target[1], digest, response: at });
  }

  /** Facts of an observation of the event `ev` (key `eventKey`) into `facts`; the record is released. */
  observed(ev: Obj, eventKey: Hash64 | undefined, facts: ObservationFacts): void {
    if (eventKey === undefined || this.discarded.size === 0) return;
    const key = keyOf(eventKey);
    const d = this.discarded.get(key);
    if (!d) return;
    this.discarded.delete(key);
    if (Object.hasOwn(ev, d.member) && digestOf(ev[d.member]) === d.digest)
      facts.leak = { member: d.member, response: d.response };
  }
}
