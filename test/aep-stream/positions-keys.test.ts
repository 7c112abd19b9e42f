/** The analyzers' position counters (src/aep/event.ts `Counter`) and session keys (src/aep/analyzers/session.ts). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { idKeyHash } from '../../src/aep/analyzers/canonical.ts';
import { SessionRecord } from '../../src/aep/analyzers/session.ts';
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

test('session records: an identity key is the pair key of (source, id), narrow or wide', () => {
  const sources = ['aep://host-2/agent/claude-code/session/s_8m', 'aep://h/é', 'urn:x', 'aep://ωmega/a'];
  const ids = ['01JX9Y000000000001BENCHGEN', '', 'x', 'id-ü', 'ħ', 'a'.repeat(70)];
  for (const source of sources) {
    const rec = new SessionRecord(source.length + ':' + source + 's', source, 's');
    for (const id of ids)
      for (let i = 0; i < 2; i++) assert.deepEqual(rec.idKey(id), idKeyHash(source, id), `${source} ${id}`);
  }
});
