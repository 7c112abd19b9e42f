/** The analyzers' position counters (src/aep/event.ts `Counter`): numbers where safe, exact across 2^53. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { counterOf, nextCounter } from '../../src/aep/event.ts';

const EDGE = 2n ** 53n;
const VALUES = [
  0n,
  1n,
  -1n,
  1023n,
  1024n,
  EDGE - 2n,
  EDGE - 1n,
  EDGE,
  EDGE + 1n,
  -EDGE + 1n,
  -EDGE,
  -EDGE - 1n,
  10n ** 400n,
];

test('counters: a number exactly when safe; === and < agree with the bigints; the next one is +1', () => {
  for (const a of VALUES) {
    const ca = counterOf(a);
    assert.equal(typeof ca, a >= -EDGE + 1n && a <= EDGE - 1n ? 'number' : 'bigint', String(a));
    if (typeof ca === 'number') assert.equal(counterOf(a, ca), ca);
    const n = nextCounter(ca);
    assert.equal(BigInt(n), a + 1n);
    assert.equal(n, counterOf(a + 1n));
    for (const b of VALUES) {
      const cb = counterOf(b);
      assert.equal(ca === cb, a === b, `${a} === ${b}`);
      assert.equal(ca < cb, a < b, `${a} < ${b}`);
      assert.equal(ca <= cb, a <= b, `${a} <= ${b}`);
    }
  }
});
