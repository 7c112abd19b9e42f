/**
 * SessionRecord's open runs and requests: the first sits in the record and a Map holds those after it
 * (src/aep/analyzers/session.ts); held against a plain Map model under random opens, closes and drops, in arrival order.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type RequestRecord, SessionRecord } from '../../src/aep/analyzers/session.ts';
// mulberry32: a fixed sequence of operations (no timing, no randomness between runs)
import { prng } from '../../tools/bench/generate-aep.ts';

const AT = { file: 'f', line: 1 };
const MARK = { hi: 1, lo: 2 };

test('session slots: open runs keep the order and membership of a Map under random starts and terminals', () => {
  for (let seed = 1; seed <= 40; seed++) {
    const rnd = prng(seed);
    const rec = new SessionRecord('k', 'src', 'sess');
    const model = new Map<string, number>();
    for (let step = 0; step < 300; step++) {
      const run = 'r' + Math.floor(rnd() * 6);
      if (rnd() < 0.55) {
        if (rec.peekRun(run)) assert.ok(model.has(run));
        else {
          assert.ok(!model.has(run));
          rec.addRun({ run, started: { ...AT, line: step }, mark: MARK });
          model.set(run, step);
        }
      } else {
        rec.deleteRun(run);
        model.delete(run);
      }
      assert.deepEqual(
        rec.openRuns().map((r) => [r.run, r.started.line]),
        [...model],
        `seed ${seed} step ${step}`,
      );
      assert.equal(rec.hasLifecycle, model.size > 0);
    }
  }
});

test('session slots: requests open, close and drop (dropClosed) in the order they were raised', () => {
  for (let seed = 1; seed <= 40; seed++) {
    const rnd = prng(1000 + seed);
    const rec = new SessionRecord('k', 'src', 'sess');
    const model = new Map<string, RequestRecord>();
    let n = 0;
    for (let step = 0; step < 300; step++) {
      const x = rnd();
      if (x < 0.45) {
        const id = 'q' + n++;
        const r: RequestRecord = { id, at: AT, mark: MARK };
        rec.addRequest(r);
        model.set(id, r);
      } else if (x < 0.9 && model.size > 0) {
        const ids = [...model.keys()];
        const r = rec.peekRequest(ids[Math.floor(rnd() * ids.length)]!)!;
        r.terminal = AT;
      } else {
        rec.dropClosed();
        for (const [id, r] of model) if (r.terminal) model.delete(id);
      }
      assert.deepEqual(rec.allRequests(), [...model.values()], `seed ${seed} step ${step}`);
      assert.deepEqual(
        rec.openRequests(),
        [...model.values()].filter((r) => !r.terminal),
      );
      for (const id of model.keys()) assert.equal(rec.peekRequest(id), model.get(id));
      assert.equal(rec.peekRequest('q' + n), undefined);
      assert.equal(rec.hasLifecycle, model.size > 0);
    }
  }
});
