// The record of delivered Events merges our subscriptions: backfill one of them delivers below a position another
// delivered is placed by (epoch, seq) in its session (AEP-0001 §7 #2), a regression within one stays where it came.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LiveRun } from '../../src/live/live-run.ts';

const ev = (seq: number, session = 's', epoch?: number) =>
  JSON.stringify({ session, seq, id: `${session}-${epoch ?? 0}-${seq}`, ...(epoch === undefined ? {} : { epoch }) });
const seqs = (run: LiveRun) => run.delivered.map((l) => (JSON.parse(l) as { seq?: number }).seq ?? -1);

test('backfill from another subscription is placed by (epoch, seq); a regression within one subscription is kept where it came', () => {
  const run = new LiveRun(new URL('http://127.0.0.1:1'), { timeoutMs: 100 });
  const live = {};
  const replay = {};
  run.record(ev(5), live);
  run.record(ev(1), replay);
  run.record(ev(2), replay);
  // another session and an Event of no session are appended
  run.record(ev(0, 't'), replay);
  run.record(JSON.stringify({ type: 'agent.heartbeat' }), replay);
  assert.deepEqual(seqs(run), [1, 2, 5, 0, -1]);
  // the live subscription's own regression stays last, for the validate rules to report
  run.record(ev(4), live);
  assert.deepEqual(seqs(run), [1, 2, 5, 0, -1, 4]);
  // a later epoch is after every seq of an earlier one; the same text again is one line
  run.record(ev(0, 's', 1), replay);
  run.record(ev(1), live);
  assert.deepEqual(seqs(run), [1, 2, 5, 0, -1, 4, 0]);
});
