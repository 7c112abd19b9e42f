// src/core/heap-shape.ts: young growth stops once, when the new space reaches the cap, and polling
// ends then; shapeHeap also bounds the old generation's growth; the real hooks read V8's new space.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  capYoungGeneration,
  NEW_SPACE_CAP_BYTES,
  OLD_GENERATION_GROWTH_PERCENT,
  shapeHeap,
  V8_HEAP_HOOKS,
} from '../../src/core/heap-shape.ts';

test('growth stops once the new space reaches the cap, and not before', async () => {
  let size = 2 << 20;
  let stops = 0;
  let reads = 0;
  const hooks = {
    newSpaceBytes: () => {
      reads++;
      return size;
    },
    stopGrowth: () => stops++,
    boundOldGrowth: () => assert.fail('capYoungGeneration leaves the old generation alone'),
  };
  const cancel = capYoungGeneration(8 << 20, 1, hooks);
  await sleep(15);
  assert.equal(stops, 0, 'below the cap: growth left alone');
  size = 8 << 20;
  await sleep(15);
  assert.equal(stops, 1, 'at the cap: growth stopped');
  const readsAtStop = reads;
  await sleep(15);
  assert.equal(reads, readsAtStop, 'no poll after the stop');
  assert.equal(stops, 1);
  cancel();
});

test('a new space already at the cap stops growth at once, without a timer', () => {
  let stops = 0;
  capYoungGeneration(1, 1, { newSpaceBytes: () => 2, stopGrowth: () => stops++, boundOldGrowth: () => {} });
  assert.equal(stops, 1);
});

test('shapeHeap bounds the old generation once and caps the young one', () => {
  const calls: string[] = [];
  shapeHeap({
    newSpaceBytes: () => NEW_SPACE_CAP_BYTES,
    stopGrowth: () => calls.push('young'),
    boundOldGrowth: (percent) => calls.push(`old ${percent}`),
  });
  assert.deepEqual(calls, [`old ${OLD_GENERATION_GROWTH_PERCENT}`, 'young']);
  assert.ok(OLD_GENERATION_GROWTH_PERCENT > 0 && OLD_GENERATION_GROWTH_PERCENT < 100);
});

test("the V8 hooks read this process's new space: a whole number of MiB, at least one", () => {
  const bytes = V8_HEAP_HOOKS.newSpaceBytes();
  assert.ok(bytes >= 1 << 20, `new space ${bytes} bytes`);
  assert.equal(bytes % (1 << 20), 0);
  assert.equal(NEW_SPACE_CAP_BYTES % (1 << 20), 0);
});
