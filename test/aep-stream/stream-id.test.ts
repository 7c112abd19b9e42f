/**
 * AEP-0007 §3 item 1: a stream id is "an emitter-unique identifier for one production of content", so a second
 * `stream.started` under an id the emitter session already started or finished is `aep/stream-id-reused`.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { brief, checkText, event, jsonl } from './helpers.ts';

const start = (seq: number, id: string, over: Record<string, unknown> = {}) =>
  event('stream.started', seq, { id, subject: 'm1', data: { kind: 'reasoning' }, ...over });
const finish = (seq: number, id: string, cause?: string) =>
  event('stream.finished', seq, { id, subject: 'm1', ...(cause ? { cause } : {}) });

async function reused(events: readonly unknown[], profile = true): Promise<number[]> {
  const fs = await checkText(jsonl(events), profile ? { profile: 'aep-0007' } : {});
  return fs.filter((f) => f.ruleId === 'aep/stream-id-reused').map((f) => f.line ?? 0);
}

test('stream id reuse: any start after a start or a finish of the same id is a second production', async () => {
  assert.deepEqual(await reused([start(0, 'a'), start(1, 'b')]), [2]);
  assert.deepEqual(await reused([start(0, 'a'), finish(1, 'f', 'a'), start(2, 'b')]), [3]);
  // the stream began before the capture: its finish alone already used the id
  assert.deepEqual(await reused([finish(0, 'f'), start(1, 'b')]), [2]);
  assert.deepEqual(await reused([start(0, 'a'), start(1, 'b'), start(2, 'c')]), [2, 3]);
});

test('stream id reuse: one production per id, copies, other sessions and no profile give no finding', async () => {
  const one = start(0, 'a');
  assert.deepEqual(await reused([one, finish(1, 'f', 'a'), start(2, 'b', { subject: 'm2' })]), []);
  const copy = await checkText(jsonl([one, one]), { profile: 'aep-0007' });
  assert.ok(!copy.some((f) => f.ruleId === 'aep/stream-id-reused'), brief(copy));
  const other = start(0, 'b', { session: 'u_2', source: 'aep://unit-host/agent/unit/session/u_2' });
  assert.deepEqual(await reused([one, other]), []);
  assert.deepEqual(await reused([one, start(1, 'b')], false), []);
});
