/**
 * The packed rows of the AHP retained state: marks as one float64 (src/ahp/analyzers/budget.ts `EventBudget.pos`),
 * and the answered requests of the correlation (src/ahp/analyzers/correlation-store.ts: a fifo table whose reused ids are
 * tombstones, responses as a distance from their request) held to the plain insertion-ordered map they replace.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { CapLog } from '../../src/core/caps.ts';
import { ConformanceError } from '../../src/core/errors.ts';
import type { Mark } from '../../src/core/mark.ts';
import { type AhpCapLog, EventBudget } from '../../src/ahp/analyzers/budget.ts';
import { Correlation, type ResponseLink } from '../../src/ahp/analyzers/correlation.ts';
import type { AhpMessage } from '../../src/ahp/message.ts';
import { REPO_DIR, runRule, type AhpRuleId } from './helpers.ts';

function budget(maxEvents = Infinity, spillRows?: number): EventBudget {
  const caps: AhpCapLog = new CapLog();
  return new EventBudget({ maxEvents, maxPending: 100_000, maxStateMb: 256, spillRows }, caps);
}

test('past its spans of input a run stops with a usable message, not a misplaced finding or a stack', () => {
  const b = new EventBudget({ maxEvents: Infinity, maxPending: 100, maxStateMb: 256 }, new CapLog(), 3);
  for (const file of ['a', 'b', 'c']) b.pos({ file, line: 1, byteOffset: 0 });
  assert.equal(b.markAt(b.pos({ file: 'b', line: 9, byteOffset: 90 })).line, 9);
  assert.throws(
    () => b.pos({ file: 'd', line: 1, byteOffset: 0 }),
    (e: unknown) => e instanceof ConformanceError && e.kind === 'input' && /split this run/.test(e.message),
  );
});

test('a mark round-trips through its float64 position: with and without byte offsets, many inputs, lines and offsets past their spans and 2^32', () => {
  const b = budget();
  const offsets = [0, 1, 922, 2 ** 31, 2 ** 32 - 1, 2 ** 32, 2 ** 32 + 5, 3 * 2 ** 32 + 7, 2 ** 40 + 123, 2 ** 53 - 1];
  const lines = [1, 2, 2047, 2048, 2049, 40_000, 2 ** 20 + 3, 2 ** 31, 2 ** 32 - 1];
  const marks: Mark[] = [];
  for (let f = 0; f < 300; f++)
    for (const [i, off] of [undefined, ...offsets].entries()) {
      const line = f % 3 === 0 ? lines[(f + i) % lines.length]! : 1 + f * 13 + i;
      const m: Mark = { file: f % 7 === 0 ? `dir/input-${f}.jsonl` : `-${f}`, line };
      if (off !== undefined) m.byteOffset = off;
      marks.push(m);
    }
  // interleaved, so segments are met again after others (not only the last one cached)
  const order = marks.map((_, i) => (i * 7919) % marks.length);
  const pos = new Map<number, number>();
  for (const i of order) pos.set(i, b.pos(marks[i]!));
  for (const i of order) {
    const m = marks[i]!;
    const p = pos.get(i)!;
    assert.ok(Number.isSafeInteger(p), `${p} is exact`);
    assert.deepEqual(b.markAt(p), m);
    assert.equal(b.files.name(b.posFile(p)), m.file);
    assert.equal(b.posOffset(p), m.byteOffset ?? NaN);
    assert.equal(b.pos(m), p, 'the same mark, the same position');
  }
  // the same input and offset without an offset differ
  assert.notEqual(b.pos({ file: 'x', line: 1 }), b.pos({ file: 'x', line: 1, byteOffset: 0 }));
});

/** A request or response message with JSON-RPC id `id`. */
function msg(
  kind: 'intercept-request' | 'capabilities-request' | 'response',
  id: string | number,
  result: Record<string, unknown> = {},
): AhpMessage {
  const value: Record<string, unknown> = { jsonrpc: '2.0', id };
  if (kind === 'response') value.result = result;
  else value.method = kind === 'intercept-request' ? 'hooks/intercept' : 'hooks/capabilities';
  return { kind, value, bigIntegers: [] } as unknown as AhpMessage;
}

/** The answered requests as they were kept before (an insertion-ordered map, a reused id deleted): the reference. */
class Reference {
  readonly pending = new Map<string | number, { at: Mark; deliveries: number }>();
  readonly answered = new Map<string | number, { request: Mark; response: Mark; spare: number }>();
  constructor(private readonly maxEvents: number) {}
  request(id: string | number, at: Mark): void {
    const p = this.pending.get(id);
    if (p) {
      p.deliveries++;
      return;
    }
    this.answered.delete(id);
    this.pending.set(id, { at, deliveries: 1 });
  }
  response(id: string | number, at: Mark): ResponseLink['status'] | [string, Mark, Mark?] {
    const p = this.pending.get(id);
    if (p) {
      this.pending.delete(id);
      if (this.answered.size >= this.maxEvents) this.answered.delete(this.answered.keys().next().value!);
      this.answered.set(id, { request: p.at, response: at, spare: p.deliveries - 1 });
      return 'matched';
    }
    const a = this.answered.get(id);
    if (!a) return 'unmatched';
    if (a.spare > 0) {
      a.spare--;
      return ['retry-answer', a.request];
    }
    return ['duplicate', a.request, a.response];
  }
}

function outcome(link: ResponseLink): ResponseLink['status'] | [string, Mark, Mark?] {
  if (link.status === 'retry-answer') return ['retry-answer', link.request];
  if (link.status === 'duplicate') return ['duplicate', link.request, link.first];
  return link.status;
}

test('an id reused after its answer, answered again, then a duplicate response: the newest answer is the one cited', () => {
  const c = new Correlation(budget());
  const at = (line: number): Mark => ({ file: 'a.jsonl', line, byteOffset: line * 100 });
  c.request(msg('intercept-request', 1), at(1));
  assert.equal(c.response(msg('response', 1), at(2)).link.status, 'matched');
  assert.deepEqual(outcome(c.response(msg('response', 1), at(3)).link), ['duplicate', at(1), at(2)]);
  c.request(msg('intercept-request', 1), at(4));
  assert.equal(c.held(), 0, 'the buried row is not held');
  assert.equal(c.bytes(), 1024, 'nor counted (one pending request)');
  assert.equal(c.response(msg('response', 1), at(5)).link.status, 'matched');
  assert.deepEqual(outcome(c.response(msg('response', 1), at(6)).link), ['duplicate', at(4), at(5)]);
  // a retried request allows one more response, then the next is a duplicate
  c.request(msg('intercept-request', 1), at(7));
  c.request(msg('intercept-request', 1), at(8));
  assert.equal(c.response(msg('response', 1), at(9)).link.status, 'matched');
  assert.deepEqual(outcome(c.response(msg('response', 1), at(10)).link), ['retry-answer', at(7)]);
  assert.deepEqual(outcome(c.response(msg('response', 1), at(11)).link), ['duplicate', at(7), at(9)]);
  // reused and never answered: a response to it names nothing answered
  c.request(msg('intercept-request', 1), at(12));
  c.request(msg('capabilities-request', 2), at(13));
  assert.equal(c.held(), 0);
  assert.equal(c.openRequests().length, 2);
  // a response far from its request (another input, many lines on, no offset) keeps its exact place
  const far: Mark = { file: 'b.jsonl', line: 5000 };
  assert.equal(c.response(msg('response', 1), far).link.status, 'matched');
  assert.deepEqual(outcome(c.response(msg('response', 1), at(14)).link), ['duplicate', at(12), far]);
  assert.equal(c.held(), 1);
});

test('an id requested again and again keeps a bounded number of answered rows, and the same links', () => {
  const c = new Correlation(budget());
  const at = (line: number): Mark => ({ file: 'a.jsonl', line, byteOffset: line * 100 });
  // an answered id never used again stays the oldest row; then every request is numbered 1
  c.request(msg('capabilities-request', 'init'), at(1));
  c.response(msg('response', 'init'), at(2));
  c.request(msg('capabilities-request', 'far'), at(3));
  c.response(msg('response', 'far'), { file: 'b.jsonl', line: 9 });
  c.request(msg('intercept-request', 'retried'), at(4));
  c.request(msg('intercept-request', 'retried'), at(5));
  c.response(msg('response', 'retried'), at(6));
  let line = 10;
  for (let i = 0; i < 20_000; i++) {
    c.request(msg('intercept-request', 1), at(line++));
    assert.equal(c.response(msg('response', 1), at(line++)).link.status, 'matched');
  }
  const rows = (c as unknown as { answered: { rows: number } }).answered.rows;
  assert.ok(rows <= 2 * 1024 + 8, `${rows} answered rows kept for 4 live ones`);
  assert.equal(c.held(), 4);
  assert.deepEqual(outcome(c.response(msg('response', 1), at(line)).link), ['duplicate', at(line - 2), at(line - 1)]);
  assert.deepEqual(outcome(c.response(msg('response', 'init'), at(line)).link), ['duplicate', at(1), at(2)]);
  assert.deepEqual(outcome(c.response(msg('response', 'far'), at(line)).link), [
    'duplicate',
    at(3),
    { file: 'b.jsonl', line: 9 },
  ]);
  assert.deepEqual(outcome(c.response(msg('response', 'retried'), at(line)).link), ['retry-answer', at(4)]);
  assert.deepEqual(outcome(c.response(msg('response', 'retried'), at(line)).link), ['duplicate', at(4), at(6)]);
});

test('answered requests, held or spilled: the same links, held counts and forgetting as the ordered map', () => {
  let seed = 7;
  const rnd = (n: number): number => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return Math.floor((seed / 2 ** 32) * n);
  };
  for (const [maxEvents, spillRows] of [Infinity, 1, 3, 17].flatMap((m) =>
    [undefined, 2, 5].map((r) => [m, r] as const),
  )) {
    const b = budget(maxEvents, spillRows);
    const c = new Correlation(b);
    b.register(c);
    const ref = new Reference(maxEvents);
    let line = 1;
    let offset = 2 ** 32 - 50_000;
    // a request first: a response before any request is only uncorrelatable
    c.request(msg('intercept-request', 'first'), { file: 'main.jsonl', line });
    ref.request('first', { file: 'main.jsonl', line });
    for (let step = 0; step < 6000; step++) {
      const id = rnd(3) === 0 ? `s${rnd(12)}` : rnd(12);
      line += 1 + (rnd(50) === 0 ? 2000 : 0);
      offset += 1 + rnd(rnd(20) === 0 ? 2 ** 23 : 300);
      const file = rnd(40) === 0 ? 'other.jsonl' : 'main.jsonl';
      const at: Mark = rnd(25) === 0 ? { file, line } : { file, line, byteOffset: offset };
      if (rnd(2) === 0) {
        // one method per id: a pending id reused by the other method is ahp/request-id-pending (tested below)
        c.request(msg(typeof id === 'string' ? 'capabilities-request' : 'intercept-request', id), at);
        ref.request(id, at);
      } else {
        const got = outcome(c.response(msg('response', id), at).link);
        assert.deepEqual(
          got,
          ref.response(id, at),
          `step ${step}, id ${id}, maxEvents ${maxEvents}, spillRows ${spillRows}`,
        );
      }
      assert.equal(c.held(), ref.answered.size, `held at step ${step}`);
      assert.equal(c.bytes(), ref.answered.size * 63 + ref.pending.size * 1024);
    }
    // forgetting for the memory budget: oldest answered first
    while (ref.answered.size > 0) {
      assert.equal(c.forgetOldest(), true);
      ref.answered.delete(ref.answered.keys().next().value!);
      assert.equal(c.held(), ref.answered.size);
    }
    assert.equal(c.forgetOldest(), false);
  }
});

test('past the name cap (4,096 types) an event row keeps its type fingerprint: the same reuse, denial, pairing and cycle verdicts', async () => {
  const prefix = Array.from({ length: 4100 }, (_, i) =>
    JSON.stringify({
      jsonrpc: '2.0',
      method: 'hooks/observe',
      params: {
        protocolVersion: 'draft',
        event: { id: `t${i}`, source: 's', type: `x.custom${i}`, time: '2026-08-24T08:00:00Z' },
      },
    }),
  );
  const cases = [
    'ahp.event-id-reuse',
    'ahp.event-id-reuse--metadata',
    'ahp.event-id-reuse--retry',
    'ahp.event-id-reuse--task',
    'ahp.config-after-denied',
    'ahp.elicitation-parent-missing',
    'ahp.parent-cycle--late',
  ];
  for (const name of cases) {
    const lines = readFileSync(join(REPO_DIR, 'conformance/ahp/fail', `${name}.jsonl`), 'utf8').split('\n');
    if (lines.at(-1) === '') lines.pop();
    const rule = `ahp/${name.split('.')[1]!.split('--')[0]}` as AhpRuleId;
    const alone = await runRule(rule, lines);
    assert.ok(alone.length > 0, `${name} has findings of ${rule}`);
    const after = await runRule(rule, [...prefix, ...lines]);
    assert.deepEqual(
      after.map((b) => b.replace(/@(\d+)/, (_, n: string) => `@${Number(n) - prefix.length}`)),
      alone,
      name,
    );
  }
});

test('a pending id reused by a request of the other method: each response is paired by its shape, then the id is answered', () => {
  const c = new Correlation(budget());
  const at = (line: number): Mark => ({ file: 'a.jsonl', line, byteOffset: line * 100 });
  c.request(msg('intercept-request', 'x'), at(1));
  assert.equal(c.takeIdPending(), undefined);
  c.request(msg('capabilities-request', 'x'), at(2));
  assert.deepEqual(c.takeIdPending(), { prior: at(1), method: 'hooks/intercept' });
  assert.equal(c.takeIdPending(), undefined, 'read once');
  // the manifest answers the capabilities request even though the intercept came first
  const first = c.response(msg('response', 'x', { manifest: {} }), at(3)).link;
  assert.equal(first.status === 'matched' && first.request.method, 'hooks/capabilities');
  assert.equal(first.status === 'matched' && first.mismatch, undefined, 'not blamed as a swapped result');
  const second = c.response(msg('response', 'x', { effects: [] }), at(4)).link;
  assert.equal(second.status === 'matched' && second.request.method, 'hooks/intercept');
  assert.deepEqual(outcome(c.response(msg('response', 'x'), at(5)).link), ['duplicate', at(1), at(4)]);
  // an identical intercept retry is one more delivery, not a reuse
  c.request(msg('intercept-request', 'y'), at(6));
  c.request(msg('intercept-request', 'y'), at(7));
  assert.equal(c.takeIdPending(), undefined);
});

test("a third request under an id two requests of both methods await reuses the other method's id too: the same finding, naming that request", () => {
  const at = (line: number): Mark => ({ file: 'a.jsonl', line, byteOffset: line * 100 });
  // C an intercept retry of A while the capabilities request B is pending: names B; it is one more delivery of A
  const c = new Correlation(budget());
  c.request(msg('intercept-request', 'x'), at(1));
  c.request(msg('capabilities-request', 'x'), at(2));
  assert.deepEqual(c.takeIdPending(), { prior: at(1), method: 'hooks/intercept' });
  assert.equal(c.request(msg('intercept-request', 'x'), at(3)), undefined, 'no new pending record');
  assert.deepEqual(c.takeIdPending(), { prior: at(2), method: 'hooks/capabilities' });
  // C a second capabilities request: names A; it is a delivery of B, whose spare answer survives A's answer
  const d = new Correlation(budget());
  d.request(msg('intercept-request', 'x'), at(1));
  d.request(msg('capabilities-request', 'x'), at(2));
  d.takeIdPending();
  d.request(msg('capabilities-request', 'x'), at(3));
  assert.deepEqual(d.takeIdPending(), { prior: at(1), method: 'hooks/intercept' });
  const manifest = d.response(msg('response', 'x', { manifest: {} }), at(4)).link;
  assert.equal(manifest.status === 'matched' && manifest.request.method, 'hooks/capabilities');
  const effects = d.response(msg('response', 'x', { effects: [] }), at(5)).link;
  assert.equal(effects.status === 'matched' && effects.request.method, 'hooks/intercept');
  assert.equal(d.response(msg('response', 'x', { manifest: {} }), at(6)).link.status, 'retry-answer');
  assert.equal(d.response(msg('response', 'x', { manifest: {} }), at(7)).link.status, 'duplicate');
  // once the capabilities request is answered, an intercept retry under the id is a delivery again
  const e = new Correlation(budget());
  e.request(msg('intercept-request', 'x'), at(1));
  e.request(msg('capabilities-request', 'x'), at(2));
  e.takeIdPending();
  e.response(msg('response', 'x', { manifest: {} }), at(3));
  e.request(msg('intercept-request', 'x'), at(4));
  assert.equal(e.takeIdPending(), undefined);
});

test('a request under a pending id after an unreadable line later than that request is not judged (the line may have held its response)', () => {
  const at = (line: number): Mark => ({ file: 'a.jsonl', line, byteOffset: line * 100 });
  const c = new Correlation(budget());
  c.request(msg('capabilities-request', 'x'), at(1));
  c.unreadableLine(at(2));
  c.request(msg('intercept-request', 'x'), at(3));
  assert.equal(c.takeIdPending(), undefined);
  // an unreadable line before the pending request does not excuse the reuse
  const d = new Correlation(budget());
  d.unreadableLine(at(1));
  d.request(msg('capabilities-request', 'x'), at(2));
  d.request(msg('intercept-request', 'x'), at(3));
  assert.deepEqual(d.takeIdPending(), { prior: at(2), method: 'hooks/capabilities' });
});
