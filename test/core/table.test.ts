import { test } from 'node:test';
import assert from 'node:assert/strict';
import { textKey, type Hash64 } from '../../src/core/canonical.ts';
import { CHUNK_ROWS, CompactTable, keyNumber } from '../../src/core/table.ts';

const key = (i: number): Hash64 => textKey(`k${i}`);
const COL = { a: 0, b: 1, count: 2 } as const;
const F = { x: 0, count: 1 } as const;

function fill(t: CompactTable, i: number, k = key(i)): number {
  const s = t.add(k);
  t.setU(s, COL.a, i);
  t.setU(s, COL.b, (i * 2654435761) >>> 0);
  t.setF(s, F.x, i + 0.5);
  return s;
}

function holds(t: CompactTable, i: number, k = key(i)): boolean {
  const s = t.slot(k);
  if (s === undefined) return false;
  assert.deepEqual(
    [t.getU(s, COL.a), t.getU(s, COL.b), t.getF(s, F.x)],
    [i, (i * 2654435761) >>> 0, i + 0.5],
    `row of ${i}`,
  );
  return true;
}

test('table: add, get, put and delete; freed rows come back zeroed', () => {
  const t = new CompactTable({ u32: COL.count, f64: F.count });
  for (let i = 0; i < 100; i++) fill(t, i);
  assert.equal(t.size, 100);
  for (let i = 0; i < 100; i++) assert.ok(holds(t, i));
  assert.equal(t.slot(key(100)), undefined);
  t.delete(key(42));
  t.delete(key(42)); // no-op
  t.delete(key(1000)); // never held
  assert.equal(t.size, 99);
  assert.equal(t.slot(key(42)), undefined);
  for (let i = 0; i < 100; i++) if (i !== 42) assert.ok(holds(t, i));
  const s = t.add(key(42));
  assert.deepEqual([t.getU(s, COL.a), t.getU(s, COL.b), t.getF(s, F.x)], [0, 0, 0], 'a reused row is zeroed');
  assert.deepEqual(t.keyAt(s), key(42));
  // put replaces a held entry (one entry per key) and makes it the newest
  t.setU(t.put(key(0)), COL.a, 7);
  assert.equal(t.size, 100);
  assert.equal(t.getU(t.slot(key(0))!, COL.a), 7);
  assert.deepEqual(t.keyAt(t.oldest()!), key(1));
});

test('table: growth of the index and the chunks keeps every row in place (no copies of rows)', () => {
  const t = new CompactTable({ u32: COL.count, f64: F.count });
  const n = 200_000;
  const first = fill(t, 0);
  for (let i = 1; i < n; i++) fill(t, i);
  assert.equal(t.size, n);
  assert.equal(t.allocated, Math.ceil(n / CHUNK_ROWS) * CHUNK_ROWS);
  assert.equal(t.slot(key(0)), first, 'a row keeps its slot through growth');
  for (let i = 0; i < n; i++) assert.ok(holds(t, i));
  for (let i = 0; i < n; i += 2) t.delete(key(i));
  for (let i = 0; i < n; i++) assert.equal(t.slot(key(i)) !== undefined, i % 2 === 1);
  // freed rows are reused: refilling does not allocate
  for (let i = n; i < n + n / 2; i++) fill(t, i);
  assert.equal(t.allocated, Math.ceil(n / CHUNK_ROWS) * CHUNK_ROWS);
});

test("table: forget 'oldest' drops exactly the oldest entry per new one at the cap", () => {
  const t = new CompactTable({ u32: COL.count, f64: F.count, cap: 5 });
  const forgot: number[] = [];
  for (let i = 1; i <= 5; i++) {
    fill(t, i);
    forgot.push(t.forgot);
  }
  t.delete(key(2)); // a deleted entry leaves the order too
  fill(t, 6);
  forgot.push(t.forgot);
  fill(t, 7);
  forgot.push(t.forgot);
  fill(t, 8);
  forgot.push(t.forgot);
  assert.deepEqual(forgot, [0, 0, 0, 0, 0, 0, 1, 1]);
  assert.deepEqual(
    [1, 2, 3, 4, 5, 6, 7, 8].filter((i) => t.slot(key(i)) !== undefined),
    [4, 5, 6, 7, 8],
  );
  // churn at the cap reuses the freed rows
  for (let i = 9; i < 100_000; i++) fill(t, i);
  assert.equal(t.size, 5);
  assert.equal(t.allocated, CHUNK_ROWS);
  for (let i = 99_995; i < 100_000; i++) assert.ok(holds(t, i));
});

test("table: forget 'half' drops the oldest half at once (the AEP --max-ids contract)", () => {
  const held = (t: CompactTable, n: number) =>
    Array.from({ length: n }, (_, i) => i + 1).filter((i) => t.slot(key(i)) !== undefined);
  const even = new CompactTable({ u32: COL.count, f64: F.count, cap: 10, forget: 'half' });
  for (let i = 1; i <= 10; i++) {
    fill(even, i);
    assert.equal(even.forgot, 0);
  }
  fill(even, 11);
  assert.equal(even.forgot, 5);
  assert.deepEqual(held(even, 11), [6, 7, 8, 9, 10, 11]);
  // odd cap: at most 2 * floor(cap / 2) held, the most recent floor(cap / 2) at least
  const odd = new CompactTable({ u32: COL.count, f64: F.count, cap: 5, forget: 'half' });
  const seen: string[] = [];
  for (let i = 1; i <= 8; i++) {
    fill(odd, i);
    seen.push(`${odd.forgot}:${held(odd, 8).join('')}`);
  }
  assert.deepEqual(seen, ['0:1', '0:12', '0:123', '0:1234', '2:345', '0:3456', '2:567', '0:5678']);
  const one = new CompactTable({ u32: COL.count, f64: F.count, cap: 1, forget: 'half' });
  fill(one, 1);
  fill(one, 2);
  assert.equal(one.forgot, 1);
  assert.deepEqual(held(one, 2), [2]);
});

test('table: the caller bounds an uncapped table with oldest() and deleteSlot()', () => {
  const t = new CompactTable({ u32: COL.count, f64: F.count });
  assert.equal(t.oldest(), undefined);
  for (let i = 0; i < 10; i++) fill(t, i);
  t.delete(key(0));
  const order: number[] = [];
  for (let s = t.oldest(); s !== undefined; s = t.oldest()) {
    order.push(t.getU(s, COL.a));
    t.deleteSlot(s);
  }
  assert.deepEqual(order, [1, 2, 3, 4, 5, 6, 7, 8, 9]);
  assert.equal(t.size, 0);
});

test('table: keys sharing a bucket, or one word, stay distinct; deletion at the head, inside and at the end of a chain', () => {
  const t = new CompactTable({ u32: COL.count, f64: F.count });
  // the same low word (one bucket at every size): one chain
  const run = Array.from({ length: 12 }, (_, i): Hash64 => ({ hi: (0xfc000000 | i) >>> 0, lo: 0xffffffff }));
  // the same low word with other high words, and the same high word with other low words
  const other = [
    { hi: 0, lo: 0xffffffff },
    { hi: 0xfc000000, lo: 0 },
    { hi: 0xfc000000, lo: 0xfffffffe },
  ];
  const all = [...run, ...other];
  for (const [i, k] of all.entries()) fill(t, i, k);
  assert.equal(t.size, all.length);
  for (const [i, k] of all.entries()) assert.ok(holds(t, i, k));
  for (const i of [0, 5, 11]) t.delete(run[i]!);
  for (const [i, k] of all.entries()) assert.equal(t.slot(k) !== undefined, ![0, 5, 11].includes(i), `key ${i}`);
  all.forEach((k, i) => {
    if (t.slot(k) !== undefined) assert.ok(holds(t, i, k));
  });
  // a 64-bit key is the identity: the same key (even from other text) is the same entry, as before
  assert.equal(t.slot({ hi: run[1]!.hi, lo: run[1]!.lo }), t.slot(run[1]!));
});

test('table: random adds, puts and deletes across index growth agree with a Map', () => {
  const t = new CompactTable({ u32: COL.count, f64: F.count });
  const model = new Map<number, number>();
  let seed = 1;
  const rnd = (n: number) => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed % n;
  };
  // few distinct low words, so chains are long and split unevenly
  const k = (i: number): Hash64 => ({ hi: (i * 2654435761) >>> 0, lo: i % 97 === 0 ? 7 : key(i).lo });
  for (let step = 0; step < 60_000; step++) {
    const i = rnd(20_000);
    const op = rnd(3);
    if (op === 2) {
      t.delete(k(i));
      model.delete(i);
    } else {
      const s = op === 1 || !model.has(i) ? t.put(k(i)) : t.slot(k(i))!;
      t.setU(s, COL.a, step);
      model.set(i, step);
    }
  }
  assert.equal(t.size, model.size);
  for (let i = 0; i < 20_000; i++) {
    const s = t.slot(k(i));
    assert.equal(s === undefined ? undefined : t.getU(s, COL.a), model.get(i), `key ${i}`);
  }
});

test('table: a fifo table keeps the order without links, reuses emptied chunks and refuses other deletions', () => {
  const t = new CompactTable({ u32: COL.count, f64: F.count, cap: 3000, forget: 'half', fifo: true });
  const forgot: number[] = [];
  for (let i = 0; i < 20_000; i++) {
    const s = fill(t, i);
    assert.deepEqual([t.getU(s, COL.a), t.getF(s, F.x)], [i, i + 0.5], 'a reused chunk comes back zeroed, then filled');
    if (t.forgot) forgot.push(i);
  }
  assert.deepEqual(forgot.slice(0, 3), [3000, 4500, 6000], 'the oldest half goes at the cap');
  assert.equal(t.size, 2000);
  for (let i = 0; i < 20_000; i++) assert.equal(holds(t, i), i >= 18_000, `key ${i}`);
  assert.ok(t.allocated <= 5 * CHUNK_ROWS, `${t.allocated} rows allocated`);
  assert.deepEqual(t.keyAt(t.oldest()!), key(18_000));
  assert.throws(() => t.delete(key(19_000)), /oldest entry only/);
  t.delete(key(18_000));
  assert.deepEqual(t.keyAt(t.oldest()!), key(18_001));
  while (t.forgetOldest());
  assert.equal(t.size, 0);
  assert.equal(t.oldest(), undefined);
  fill(t, 1);
  assert.ok(holds(t, 1));
  assert.deepEqual(t.keyAt(t.oldest()!), key(1));
  // the index grows while the oldest rows are gone from the middle of the first chunk
  const u = new CompactTable({ u32: COL.count, f64: F.count, fifo: true });
  for (let i = 0; i < 1500; i++) fill(u, i);
  for (let i = 0; i < 700; i++) u.forgetOldest();
  for (let i = 1500; i < 5000; i++) fill(u, i);
  for (let i = 0; i < 5000; i++) assert.equal(holds(u, i), i >= 700, `key ${i}`);
  const linked = new CompactTable({ u32: COL.count, f64: F.count });
  fill(linked, 1);
  assert.equal(t.bytes(), linked.bytes(), 'counted as linked rows: the budget forgets where it did');
});

test('table: keyNumber is the top 53 bits, exact in a float64', () => {
  assert.equal(keyNumber({ hi: 0xffffffff, lo: 0xffffffff }), 2 ** 53 - 1);
  assert.equal(keyNumber({ hi: 0, lo: 0x7ff }), 0);
  assert.equal(keyNumber({ hi: 1, lo: 0 }), 2 ** 21);
});
