// src/core/heap-shape.ts: the heap settles once, when the new space reaches the cap (never before: V8 rejects code
// caches made under other flags), and polling ends then; the real hooks read V8's new space.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  NEW_SPACE_CAP_BYTES,
  OLD_GENERATION_GROWTH_PERCENT,
  shapeHeap,
  V8_HEAP_HOOKS,
} from '../../src/core/heap-shape.ts';

test('the heap settles once the new space reaches the cap, and not before', async () => {
  let size = 2 << 20;
  const settled: number[] = [];
  let reads = 0;
  const hooks = {
    newSpaceBytes: () => {
      reads++;
      return size;
    },
    settle: (percent: number, lean: boolean) => void settled.push(percent, Number(lean)),
  };
  const cancel = shapeHeap({ capBytes: 8 << 20, everyMs: 1, hooks, lean: true });
  await sleep(15);
  assert.deepEqual(settled, [], 'below the cap: no flag changed');
  size = 8 << 20;
  await sleep(15);
  assert.deepEqual(settled, [OLD_GENERATION_GROWTH_PERCENT, 1], 'at the cap: settled once, lean as asked');
  const readsAtStop = reads;
  await sleep(15);
  assert.equal(reads, readsAtStop, 'no poll after settling');
  cancel();
});

test('a new space already at the cap settles at once, without a timer', () => {
  const lean: boolean[] = [];
  shapeHeap({ capBytes: 1, everyMs: 1, hooks: { newSpaceBytes: () => 2, settle: (_, l) => void lean.push(l) } });
  assert.deepEqual(lean, [false], 'settled once, not lean unless asked');
});

test("the V8 hooks read this process's new space: a whole number of MiB, at least one", () => {
  const bytes = V8_HEAP_HOOKS.newSpaceBytes();
  assert.ok(bytes >= 1 << 20, `new space ${bytes} bytes`);
  assert.equal(bytes % (1 << 20), 0);
  assert.equal(NEW_SPACE_CAP_BYTES % (1 << 20), 0);
  assert.ok(OLD_GENERATION_GROWTH_PERCENT > 0 && OLD_GENERATION_GROWTH_PERCENT < 100);
});
