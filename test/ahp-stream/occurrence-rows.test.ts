/**
 * The occurrences analyzer's compact rows (src/ahp/analyzers/occurrences.ts) held to the insertion-ordered map of
 * `kind NUL source NUL id` strings they replace: the same facts, the same `--max-events` notices and the same rows
 * forgotten, for seeded streams of call and attempt boundaries under caps and memory-budget steps.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CapLog } from '../../src/core/caps.ts';
import { pairKey } from '../../src/core/canonical.ts';
import type { Mark } from '../../src/core/mark.ts';
import type { Obj } from '../../src/core/value.ts';
import { type AhpCapLog, EventBudget } from '../../src/ahp/analyzers/budget.ts';
import { type OccurrenceFacts, Occurrences } from '../../src/ahp/analyzers/occurrences.ts';

/** The map the rows replace (the analyzer before them), kept here as the model. */
class MapModel {
  readonly seen = new Map<string, { at: Mark; number: unknown }>();
  readonly notices: Mark[] = [];
  constructor(private readonly max: number) {}

  forgetOldest(): boolean {
    const k = this.seen.keys().next();
    if (k.done) return false;
    this.seen.delete(k.value);
    return true;
  }

  first(ev: Obj, at: Mark, facts: OccurrenceFacts): void {
    const type = ev.type;
    const source = ev.source as string;
    const call = ev.call as Obj | undefined;
    // tool.before is not counted once per call; it still passes through the analyzer here and must yield nothing
    if (type === 'tool.before') return;
    if (type === 'tool.after') {
      if (typeof call?.id !== 'string') return;
      const prior = this.note(`${type}\0${source}\0${call.id}`, at, undefined);
      if (prior) facts.occurrence = { kind: type, prior: prior.at, member: '/call/id' };
      return;
    }
    const attempt = ev.attempt as Obj | undefined;
    if (typeof attempt?.id !== 'string') return;
    const number = attempt.number;
    const prior = this.note(`attempt\0${source}\0${attempt.id}`, at, number);
    if (prior && prior.number !== number && typeof number === 'number' && typeof prior.number === 'number')
      facts.occurrence = { kind: 'attempt-number', prior: prior.at, member: '/attempt/number' };
    else if (type === 'model.request.before') {
      const request = this.note(`request\0${source}\0${attempt.id}`, at, number);
      if (request) facts.occurrence = { kind: 'attempt-request', prior: request.at, member: '/attempt/id' };
    } else {
      const error = type === 'model.error';
      const other = error ? undefined : this.seen.get(`error\0${source}\0${attempt.id}`);
      this.note(`${error ? 'error' : 'response'}\0${source}\0${attempt.id}`, at, number);
      if (other) facts.occurrence = { kind: 'attempt-outcome', prior: other.at, member: '/attempt/id' };
      if (ev.usage === undefined) return;
      const usage = this.note(`usage\0${source}\0${attempt.id}`, at, number);
      if (usage) facts.occurrence = { kind: 'attempt-usage', prior: usage.at, member: '/usage' };
    }
  }

  private note(key: string, at: Mark, number: unknown): { at: Mark; number: unknown } | undefined {
    const prior = this.seen.get(key);
    if (prior) return prior;
    if (this.seen.size >= this.max) {
      this.notices.push(at);
      this.forgetOldest();
    }
    this.seen.set(key, { at, number });
    return undefined;
  }
}

const TYPES = ['tool.before', 'tool.after', 'model.request.before', 'model.response.after', 'model.error'];

function run(seed: number, maxEvents: number, forgetEvery: number, spillRows?: number): number {
  let x = seed;
  const r = (n: number): number => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return (x >>> 8) % n;
  };
  const caps: AhpCapLog = new CapLog();
  const budget = new EventBudget({ maxEvents, maxPending: 100, maxStateMb: 256, spillRows }, caps);
  const rows = new Occurrences(budget);
  const model = new MapModel(maxEvents);
  let found = 0;
  for (let i = 1; i <= 3000; i++) {
    const type = TYPES[r(TYPES.length)]!;
    const ev: Obj = { type, source: ['urn:a', 'urn:b', 'urn:\u00e9'][r(3)]!, id: `e${i}` };
    const id = `${['c', 'a', '\u4e2d'][r(3)]}${r(30)}`;
    if (type.startsWith('tool.')) ev.call = r(20) === 0 ? {} : { id };
    else {
      const numbers: unknown[] = [1, 2, 3, '2', 1.5, -0, 0, undefined, 1e300];
      ev.attempt = { id, number: numbers[r(numbers.length)] };
      if (r(2) === 0) ev.usage = { inputTokens: 1 };
    }
    const at: Mark = { file: r(4) === 0 ? 'b.jsonl' : 'a.jsonl', line: i };
    if (r(3) !== 0) at.byteOffset = i * 500 + r(400);
    const got: OccurrenceFacts = {};
    const want: OccurrenceFacts = {};
    rows.firstOccurrence({ ev, idKey: (k) => pairKey(ev.source as string, k) }, at, got);
    model.first(ev, at, want);
    assert.deepEqual(got, want, `seed ${seed}, event ${i}`);
    if (got.occurrence) found++;
    if (forgetEvery && i % forgetEvery === 0) assert.equal(rows.forgetOldest(), model.forgetOldest());
    assert.equal(rows.held(), model.seen.size);
  }
  // the one notice a cap gets: where the first row was forgotten for room
  const first = model.notices[0];
  assert.deepEqual(caps.take(), first ? [{ cap: 'maxEvents', limit: maxEvents, at: first }] : []);
  return found;
}

test('compact occurrence rows find what the string map found: unbounded, under --max-events, and with budget steps', () => {
  for (let seed = 1; seed <= 12; seed++) {
    assert.ok(run(seed, Infinity, 0) > 300, 'repeats are found');
    assert.ok(run(seed, 25, 0) > 0);
    run(seed, 1, 0);
    run(seed, 200, 7);
    run(seed, Infinity, 2);
  }
});

test('occurrence rows spilled to scratch runs (src/core/spill-table.ts) find the same, under the same caps and steps', () => {
  for (let seed = 1; seed <= 6; seed++) {
    assert.ok(run(seed, Infinity, 0, 4) > 300, 'repeats are found');
    assert.ok(run(seed, 25, 0, 4) > 0);
    run(seed, 200, 7, 8);
    run(seed, Infinity, 2, 4);
  }
});
