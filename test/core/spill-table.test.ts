// SpillTable (src/core/spill-table.ts) against a plain Map model: random keys, lookups, writes, forgetting, merges.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SPILLED, SpillTable, type SpillSpec } from '../../src/core/spill-table.ts';
import { BLOOM_PROBES, bloomWords, halveBloom, RunBuilder } from '../../src/core/spill-runs.ts';
import type { Hash64 } from '../../src/core/canonical.ts';
import { prng } from '../../tools/bench/generate-aep.ts';

interface Row {
  u: number[];
  f: number[];
}

/** Drive a table and a Map model with the same `steps` random operations, checking each answer. */
function drive(spec: SpillSpec, steps: number, seed: number, narrowHi = false): SpillTable {
  const rnd = prng(seed);
  const word = () => Math.floor(rnd() * 4294967296);
  const t = new SpillTable(spec);
  const model = new Map<string, Row>();
  const order: string[] = [];
  let oldest = 0;
  const keys: Hash64[] = [];
  const name = (k: Hash64) => `${k.hi}:${k.lo}`;
  const forget = () => {
    while (oldest < order.length && !model.has(order[oldest]!)) oldest++;
    model.delete(order[oldest++]!);
  };
  for (let step = 0; step < steps; step++) {
    const r = rnd();
    if (r < 0.45) {
      // narrow `hi` words make ties, sorted by `lo` within a run
      const k = { hi: narrowHi ? word() % 7 : word(), lo: word() };
      if (model.has(name(k))) continue;
      const forgotBefore = model.size;
      const s = t.add(k);
      const limit = spec.cap ?? Infinity;
      if (forgotBefore >= limit) {
        const batch = spec.forget === 'half' ? Math.max(1, Math.floor(limit / 2)) : 1;
        for (let n = 0; n < batch && model.size > 0; n++) forget();
      }
      const row: Row = { u: [], f: [] };
      for (let c = 0; c < spec.u32; c++) t.setU(s, c, (row.u[c] = word()));
      for (let c = 0; c < spec.f64; c++) t.setF(s, c, (row.f[c] = rnd() * 1e9));
      model.set(name(k), row);
      order.push(name(k));
      keys.push(k);
    } else if (r < 0.9 && keys.length > 0) {
      const k = rnd() < 0.8 ? keys[Math.floor(rnd() * keys.length)]! : { hi: word(), lo: word() };
      const want = model.get(name(k));
      const s = t.slot(k);
      assert.equal(s !== undefined, want !== undefined, `step ${step}: held`);
      if (s === undefined || !want) continue;
      for (let c = 0; c < spec.u32; c++) assert.equal(t.getU(s, c), want.u[c]);
      for (let c = 0; c < spec.f64; c++) assert.equal(t.getF(s, c), want.f[c]);
      if (rnd() < 0.3 && spec.u32 > 0) t.setU(s, 0, (want.u[0] = word()));
      if (rnd() < 0.3 && spec.f64 > 0) t.setF(s, spec.f64 - 1, (want.f[spec.f64 - 1] = -rnd()));
    } else if (r < 0.93) {
      if (spec.keyLog && model.size > 0) {
        while (!model.has(order[oldest]!)) oldest++;
        const k = t.oldestKey()!;
        assert.equal(name(k), order[oldest], `step ${step}: oldest key`);
      }
      assert.equal(t.forgetOldest(), model.size > 0);
      if (model.size > 0) forget();
    }
    assert.equal(t.size, model.size, `step ${step}: size`);
  }
  for (const k of keys) {
    const want = model.get(name(k));
    const s = t.slot(k);
    assert.equal(s !== undefined, want !== undefined);
    if (s !== undefined && want) for (let c = 0; c < spec.u32; c++) assert.equal(t.getU(s, c), want.u[c]);
  }
  return t;
}

test('a spilling table answers as a Map: u32 and f64 columns, writes to spilled rows, forgetting oldest first', () => {
  for (const seed of [1, 2, 3]) {
    const t = drive({ u32: 3, f64: 2, memRows: 16 }, 6000, seed);
    assert.ok(t.runCount > 0 && t.runCount <= 12, `runs merge: ${t.runCount}`);
    t.close();
  }
});

test('a key-logged table names its oldest key, spilled or held', () => {
  drive({ u32: 1, f64: 1, memRows: 16, keyLog: true }, 6000, 4).close();
  drive({ u32: 1, f64: 0, memRows: 8, keyLog: true, cap: 50, forget: 'half' }, 3000, 9).close();
});

test('delete forgets the oldest entry only, as a fifo CompactTable', () => {
  const t = new SpillTable({ u32: 1, f64: 0, memRows: 4 });
  const keys = Array.from({ length: 20 }, (_, i) => ({ hi: (i * 2654435761) >>> 0, lo: i }));
  for (const k of keys) t.add(k);
  assert.throws(() => t.delete(keys[5]!), /oldest entry only/);
  t.delete(keys[0]!);
  t.delete({ hi: 1, lo: 1 });
  assert.equal(t.size, 19);
  assert.equal(t.slot(keys[0]!), undefined);
  assert.equal(t.slot(keys[1]!), SPILLED);
  t.close();
});

test('ties on the high key word are ordered by the low word within a run', () => {
  drive({ u32: 1, f64: 0, memRows: 64 }, 4000, 7, true).close();
});

test('the `half` cap forgets the oldest half, across spilled runs, as a CompactTable does', () => {
  drive({ u32: 2, f64: 0, memRows: 8, cap: 100, forget: 'half' }, 5000, 11).close();
  drive({ u32: 0, f64: 1, memRows: 8, cap: 37 }, 3000, 12).close();
});

test('the runs stay few (four-way merges level by level) and cost about 10.5 bits a spilled row in memory', () => {
  const t = new SpillTable({ u32: 1, f64: 0, memRows: 256 });
  for (let i = 0; i < 40_000; i++) t.setU(t.add({ hi: (i * 2654435761) >>> 0, lo: i }), 0, i);
  assert.ok(t.runCount <= 10, `${t.runCount} runs`);
  const spilled = 40_000 - 256;
  assert.ok(t.spilledBytes() <= spilled * 1.4, `${t.spilledBytes()} B for ${spilled} rows`);
  const s = t.slot({ hi: (5 * 2654435761) >>> 0, lo: 5 });
  assert.equal(s, SPILLED);
  assert.equal(t.getU(s!, 0), 5);
  t.close();
});

test('tables of other widths spilling in turn share the spill scratch arrays: each reads back its own rows', () => {
  // the wide table's spill (140,000 rows x 12 words) is past the scratch arrays the module keeps
  const wide = new SpillTable({ u32: 6, f64: 1, memRows: 280_000 });
  const narrow = new SpillTable({ u32: 1, f64: 0, memRows: 64 });
  const key = (i: number, salt: number) => ({ hi: (i * 2654435761 + salt) >>> 0, lo: i });
  for (let i = 0; i < 300_000; i++) {
    const s = wide.add(key(i, 1));
    for (let c = 0; c < 6; c++) wide.setU(s, c, (i + c) >>> 0);
    wide.setF(s, 0, i / 3);
    if (i % 2 === 0) narrow.setU(narrow.add(key(i, 2)), 0, i);
  }
  assert.ok(wide.runCount > 0 && narrow.runCount > 0);
  for (const i of [0, 1, 77_777, 139_999, 140_000, 299_999]) {
    const s = wide.slot(key(i, 1));
    assert.notEqual(s, undefined, `wide ${i}`);
    for (let c = 0; c < 6; c++) assert.equal(wide.getU(s!, c), (i + c) >>> 0, `wide ${i} column ${c}`);
    assert.equal(wide.getF(s!, 0), i / 3);
    if (i % 2 !== 0) continue;
    const n = narrow.slot(key(i, 2));
    assert.notEqual(n, undefined, `narrow ${i}`);
    assert.equal(narrow.getU(n!, 0), i);
  }
  assert.equal(narrow.slot(key(1, 2)), undefined);
  wide.close();
  narrow.close();
});

test('a table that never spills (memRows Infinity) is a plain fifo table', () => {
  const t = drive({ u32: 2, f64: 1, memRows: Infinity }, 3000, 5);
  assert.equal(t.runCount, 0);
});

test('without a scratch file (no temporary directory) the rows stay in memory and are all found', () => {
  const saved = process.env.TMPDIR;
  process.env.TMPDIR = '/nonexistent/agent-conformance-spill';
  try {
    const t = drive({ u32: 1, f64: 1, memRows: 8, keyLog: true }, 2000, 21);
    assert.equal(t.runCount, 0);
    assert.ok(t.size > 100);
  } finally {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
  }
});

test('a run Bloom filter sets exactly the double-hashing bits floor(((lo + i(hi|1)) mod 2^32) bits / 2^32), i < 7', () => {
  const rnd = prng(11);
  for (const rows of [1, 5, 100, 3333, 65536]) {
    const b = new RunBuilder(rows);
    const bits = b.bloom.length * 32;
    const want = new Int32Array(b.bloom.length);
    for (let r = 0; r < Math.min(rows, 200); r++) {
      const hi = Math.floor(rnd() * 2 ** 32);
      const lo = r % 7 === 0 ? 2 ** 32 - 1 - r : Math.floor(rnd() * 2 ** 32);
      b.note(hi, lo);
      for (let i = 0; i < BLOOM_PROBES; i++) {
        const bit = Math.floor((((lo + Math.imul(i, hi | 1)) >>> 0) * bits) / 2 ** 32);
        want[bit >>> 5]! |= 1 << (bit & 31);
      }
    }
    assert.deepEqual(b.bloom, want, `${rows} rows`);
  }
});

test('a halved Bloom filter is the filter built at half the bits from the same keys, halving after halving', () => {
  const rnd = prng(23);
  const keys = Array.from({ length: 3000 }, () => [Math.floor(rnd() * 2 ** 32), Math.floor(rnd() * 2 ** 32)] as const);
  // keys at the ends of the 32-bit range, where a rounding of x * bits / 2^32 would show first
  keys.push([1, 2 ** 32 - 1], [2 ** 32 - 1, 2 ** 32 - 2], [0, 0]);
  const built = (words: number) => {
    const b = new RunBuilder(1 << 20, words);
    for (const [hi, lo] of keys) b.note(hi, lo);
    return b.bloom;
  };
  let halved = built(4096);
  assert.equal(halved.length, 4096);
  for (let words = 2048; words >= 2; words /= 2) {
    halved = halveBloom(halved);
    assert.deepEqual(halved, built(words), `${words} words`);
  }
  for (const rows of [1, 100, 65_536, 1_000_000]) {
    const w = bloomWords(rows);
    assert.ok(w >= (rows * 10) / 32 && w <= Math.max(2, (rows * 10) / 32) * 1.02 + 2, `${rows} rows: ${w} words`);
    assert.equal(w % 2 ** Math.max(1, Math.floor(Math.log2(w / 128))), 0, `${rows} rows halve down to ~128 words`);
  }
});

test('filters over their budget are halved and the table still answers as a Map', () => {
  for (const seed of [31, 32]) {
    const t = drive({ u32: 2, f64: 1, memRows: 16, filterBytes: 64 }, 8000, seed);
    assert.ok(t.runCount > 1);
    const spilled = t.size - 16;
    assert.ok(t.spilledBytes() < spilled / 2, `${t.spilledBytes()} B for ${spilled} spilled rows`);
    t.close();
  }
  drive({ u32: 1, f64: 0, memRows: 8, filterBytes: 4, cap: 200, forget: 'half', keyLog: true }, 6000, 33).close();
});
