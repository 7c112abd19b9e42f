/**
 * The observations analyzer: a discarded modification never leaks into the observation, and an accepted one is what it
 * shows (observation-disposition.md); a response's `modify` result is kept as a keyed digest, at most `--max-events`,
 * the oldest forgotten first.
 */
import { type Hash64, textKey } from '../../core/canonical.ts';
import type { Mark } from '../../core/mark.ts';
import { isObj, own, type Obj } from '../../core/value.ts';
import type { StateHolder } from '../../core/state-budget.ts';
import type { EventBudget } from './budget.ts';
import { LIST_TARGETS as LIST_MEMBERS } from './edit-context.ts';
import type { ElicitationBody } from '../elicitation-body.ts';

/** Observation facts of an observed event. */
export interface ObservationFacts {
  /** Members of the observation carrying what a rejected response's modify would have produced. */
  leak?: Array<{ member: string; response: Mark; late?: true }>;
  /** Members of the observation still carrying the intercepted value an accepted response's modify changed. */
  unreflected?: Array<{ member: string; response: Mark }>;
}

/** Where each non-list modify target's value is in an event of each type (capability-auth.md; interaction-payloads.md). */
const OBJECT_MEMBERS: ReadonlyMap<string, readonly string[]> = new Map([
  ['tool.before input', ['tool', 'input']],
  ['tool.permission.request input', ['tool', 'input']],
  ['workspace.change.before workspace', ['workspace', 'change']],
  ['user.message.inbound prompt', ['message', 'messages']],
  ['user.message.outbound content', ['message', 'messages']],
  ['user.elicitation.result content', ['elicitation', 'result', 'text']],
]);

/** The event members of the modify targets at `type`: target -> member path. */
function membersOf(type: string): Map<string, readonly string[]> {
  const out = new Map<string, readonly string[]>();
  const list = LIST_MEMBERS.get(type);
  if (list) out.set(list[0], [list[1]]);
  for (const [k, path] of OBJECT_MEMBERS) if (k.startsWith(`${type} `)) out.set(k.slice(type.length + 1), path);
  return out;
}

/** A rejected response's would-be value of one target of one event. */
interface Would {
  path: readonly string[];
  digest: string;
  /** The intercepted value's digest (what an observation ignoring an accepted edit would carry). */
  before: string;
}

/** How the harness treats a response: applied, rejected whole, or ignored as late. */
export type ResponseKind = 'accepted' | 'rejected' | 'late';

/** A rejected response's would-be values for one event. */
interface Discarded {
  would: Would[];
  response: Mark;
  /** Accepted: its edit is the effective value; rejected: it must not leak; late (after a hook.failure): ignored. */
  kind: ResponseKind;
}

/** `value` applied by `op` over `cur`: a list replaced or appended to, an object replaced or shallow-merged. */
function applied(op: unknown, cur: unknown, value: unknown): unknown {
  if (Array.isArray(cur) !== Array.isArray(value) || (!Array.isArray(value) && !isObj(value))) return undefined;
  if (op === 'replace') return value;
  if (op !== 'merge') return undefined;
  if (Array.isArray(value)) return [...(cur as unknown[]), ...value];
  return isObj(cur) ? { ...cur, ...value } : undefined;
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

  /** A matched response with `effects` to the intercepted event `eventKey`: rejected keeps what its modifies would give. */
  response(
    effects: readonly unknown[],
    kind: ResponseKind,
    eventKey: Hash64 | undefined,
    type: string,
    current: Record<string, unknown> | undefined,
    at: Mark,
  ): void {
    if (eventKey === undefined) return;
    if (this.discarded.size > 0) this.discarded.delete(keyOf(eventKey));
    if (!current) return;
    const members = membersOf(type);
    const values = new Map<string, unknown>();
    for (const e of effects) {
      if (!isObj(e) || e.type !== 'modify' || typeof e.target !== 'string' || !members.has(e.target)) continue;
      if (!own(current, e.target) && !values.has(e.target)) continue;
      const next = applied(e.operation, values.has(e.target) ? values.get(e.target) : current[e.target], e.value);
      if (next !== undefined) values.set(e.target, next);
    }
    const would: Would[] = [];
    for (const [t, v] of values) {
      const digest = digestOf(v);
      const before = digestOf(current[t]);
      // an edit that changes nothing cannot be told from the intercepted value: nothing is judged
      if (digest !== before) would.push({ path: members.get(t)!, digest, before });
    }
    if (would.length === 0) return;
    const max = this.budget.opts.maxEvents;
    if (this.discarded.size >= max) {
      this.budget.noteCap('maxEvents', max, at);
      const oldest = this.discarded.keys().next();
      if (!oldest.done) this.discarded.delete(oldest.value);
    }
    if (max > 0) this.discarded.set(keyOf(eventKey), { would, response: at, kind });
  }

  /** Facts of an observation of the event `ev` (key `eventKey`, elicitation body `body`) into `facts`; the record is released. */
  observed(ev: Obj, eventKey: Hash64 | undefined, body: () => ElicitationBody, facts: ObservationFacts): void {
    if (eventKey === undefined || this.discarded.size === 0) return;
    const key = keyOf(eventKey);
    const d = this.discarded.get(key);
    if (!d) return;
    this.discarded.delete(key);
    for (const w of d.would) {
      const found = w.path[w.path.length - 1] === 'text' ? answerOf(body()) : valueAt(ev, w.path);
      if (!found.has) continue;
      const digest = digestOf(found.value);
      const hit = { member: w.path.join('/'), response: d.response };
      if (d.kind !== 'accepted' && digest === w.digest)
        (facts.leak ??= []).push(d.kind === 'late' ? { ...hit, late: true } : hit);
      // only the intercepted value itself is judged: any other difference may be a projection or a later edit
      else if (d.kind === 'accepted' && digest === w.before) (facts.unreflected ??= []).push(hit);
    }
  }
}

/** The value at `path` in `v`, if every step is an own member. */
function valueAt(v: unknown, path: readonly string[]): { has: boolean; value?: unknown } {
  let at = v;
  for (const k of path) {
    if (!isObj(at) || !own(at, k)) return { has: false };
    at = at[k];
  }
  return { has: true, value: at };
}

/** The `content` of a parsed MCP elicitation answer. */
function answerOf(body: ElicitationBody): { has: boolean; value?: unknown } {
  return body.status === 'parsed' && own(body.value, 'content')
    ? { has: true, value: body.value.content }
    : { has: false };
}
