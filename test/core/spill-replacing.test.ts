// ReplacingSpillTable (src/core/spill-replacing.ts) against a CompactTable with order links: random puts (re-puts of
// spilled keys), adds, deletes, lookups, forgetting oldest first and the caps, through spills and merges.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Hash64 } from '../../src/core/canonical.ts';
import { ReplacingSpillTable } from '../../src/core/spill-replacing.ts';
import { SPILLED, type SpillSpec } from '../../src/core/spill-table.ts';
import { CompactTable } from '../../src/core/table.ts';
import { prng } from '../../tools/bench/generate-aep.ts';

/** Drive a spilling table and a CompactTable of the same spec with the same `steps` random operations. */
function drive(spec: Omit<SpillSpec, 'keyLog'>, steps: number, seed: number, narrowHi = false): ReplacingSpillTable {
  const rnd = prng(seed);
  const word = () => Math.floor(rnd() * 4294967296);
  const t = new ReplacingSpillTable(spec);
  const want = new CompactTable({ u32: spec.u32, f64: spec.f64, cap: spec.cap, forget: spec.forget });
  const keys: Hash64[] = [];
  const pick = () => (rnd() < 0.85 && keys.length > 0 ? keys[Math.floor(rnd() * keys.length)]! : fresh());
  const fresh = () => {
    const k = { hi: narrowHi ? word() % 7 : word(), lo: word() };
    keys.push(k);
    return k;
  };
  const same = (k: Hash64, at: string) => {
    const s = t.slot(k);
    const w = want.slot(k);
    assert.equal(s !== undefined, w !== undefined, `${at}: held`);
    if (s === undefined || w === undefined) return;
    for (let c = 0; c < spec.u32; c++) assert.equal(t.getU(s, c), want.getU(w, c), `${at}: u32 ${c}`);
    for (let c = 0; c < spec.f64; c++) assert.equal(t.getF(s, c), want.getF(w, c), `${at}: f64 ${c}`);
  };
  for (let step = 0; step < steps; step++) {
    const r = rnd();
    const at = `seed ${seed} step ${step}`;
    if (r < 0.5) {
      // a put, often of a key held (in memory or spilled): it becomes the newest
      const k = r < 0.1 ? fresh() : pick();
      const held = want.slot(k) !== undefined;
      const s = held || rnd() < 0.5 ? t.put(k) : t.add(k);
      const w = held ? want.put(k) : want.add(k);
      assert.equal(t.forgot, want.forgot, `${at}: forgot`);
      for (let c = 0; c < spec.u32; c++) {
        const v = word();
        t.setU(s, c, v);
        want.setU(w, c, v);
      }
      for (let c = 0; c < spec.f64; c++) {
        const v = rnd() * 1e9;
        t.setF(s, c, v);
        want.setF(w, c, v);
      }
    } else if (r < 0.8) same(pick(), at);
    else if (r < 0.92) {
      const k = pick();
      t.delete(k);
      want.delete(k);
    } else assert.equal(t.forgetOldest(), want.forgetOldest(), `${at}: forgetOldest`);
    assert.equal(t.size, want.size, `${at}: size`);
    assert.equal(t.bytes(), want.bytes(), `${at}: bytes`);
  }
  for (const k of keys) same(k, `seed ${seed} end`);
  // forgetting everything goes in the same order
  for (let n = 0; want.size > 0; n++) {
    const k = want.keyAt(want.oldest()!);
    assert.notEqual(t.slot(k), undefined, `seed ${seed}: oldest ${n} held`);
    assert.equal(t.forgetOldest(), want.forgetOldest());
    assert.equal(t.slot(k), undefined, `seed ${seed}: oldest ${n} forgotten`);
  }
  assert.equal(t.size, 0);
  assert.equal(t.runCount, 0, 'runs released once nothing spilled is held');
  return t;
}

test('a replacing spilling table answers as a CompactTable: re-puts, deletes, forgetting oldest first', () => {
  for (const seed of [1, 2, 3, 4]) drive({ u32: 3, f64: 2, memRows: 16 }, 8000, seed).close();
  drive({ u32: 1, f64: 0, memRows: 2 }, 3000, 5).close();
});

test('the caps forget the same rows in the same order, spilled or held', () => {
  drive({ u32: 2, f64: 0, memRows: 8, cap: 100, forget: 'half' }, 6000, 11).close();
  drive({ u32: 0, f64: 1, memRows: 8, cap: 37 }, 4000, 12).close();
  drive({ u32: 1, f64: 1, memRows: 4, cap: 9, forget: 'half' }, 4000, 13).close();
});

test('ties on the high key word are ordered by the low word within a run', () => {
  drive({ u32: 1, f64: 0, memRows: 64 }, 6000, 7, true).close();
});

test('a spilled row found reads as SPILLED and is rewritten only by put', () => {
  const t = new ReplacingSpillTable({ u32: 1, f64: 0, memRows: 4 });
  const keys = Array.from({ length: 40 }, (_, i) => ({ hi: (i * 2654435761) >>> 0, lo: i }));
  for (const [i, k] of keys.entries()) t.setU(t.add(k), 0, i);
  const s = t.slot(keys[0]!);
  assert.equal(s, SPILLED);
  assert.equal(t.getU(s!, 0), 0);
  assert.throws(() => t.setU(s!, 0, 1), /rewritten by put/);
  t.setU(t.put(keys[0]!), 0, 100);
  assert.equal(t.getU(t.slot(keys[0]!)!, 0), 100);
  assert.ok(t.runCount > 0 && t.runCount <= 6, `${t.runCount} runs`);
  t.forgetOldest();
  assert.equal(t.slot(keys[1]!), undefined, 'the oldest live row went, not the replaced one');
  assert.equal(t.getU(t.slot(keys[0]!)!, 0), 100);
  t.close();
});

test('without a scratch file the rows stay in memory and the answers are the same', () => {
  const saved = process.env.TMPDIR;
  process.env.TMPDIR = '/nonexistent/agent-conformance-spill';
  try {
    assert.equal(drive({ u32: 1, f64: 1, memRows: 8 }, 2000, 21).runCount, 0);
  } finally {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
  }
});

test('filters over their budget are halved and the answers are the same', () => {
  for (const seed of [41, 42]) drive({ u32: 2, f64: 1, memRows: 16, filterBytes: 64 }, 9000, seed).close();
  drive({ u32: 1, f64: 0, memRows: 4, filterBytes: 4, cap: 120, forget: 'half' }, 6000, 43).close();
});
