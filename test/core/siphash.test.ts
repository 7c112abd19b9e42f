import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sipHash, sipHi, sipLo } from '../../src/core/siphash.ts';
import { textKey } from '../../src/core/canonical.ts';

// SipHash-1-3 vectors (key 00..0f, message bytes i mod 256; the 64-bit result as little-endian
// bytes, as the reference implementation prints them): the empty message's is the one Rust's
// sip13 tests list; the others were computed with a direct transcription of the paper's
// algorithm with c = 1, d = 3 (the same transcription with c = 2, d = 4 gives the paper's
// SipHash-2-4 vectors).
const VECTORS: Array<[number, string]> = [
  [0, 'dcc40f055801acab'],
  [2, '4dd4c74d029bcb82'],
  [4, '2883d388605775cf'],
  [6, 'a7229fc5502b0dc5'],
  [16, '668b907d1add4fcc'],
  [20, '40e0cca6462fdcc0'],
  [24, '8c9c3467b2ae64f4'],
  [62, 'e094664b15f6b2c3'],
  [600, '1339382524b943d3'],
];

/** The message of `bytes` bytes (i mod 256) as code units, two little-endian bytes each. */
function message(bytes: number): string {
  let s = '';
  for (let j = 0; j < bytes; j += 2) s += String.fromCharCode((j & 0xff) | (((j + 1) & 0xff) << 8));
  return s;
}

test('siphash: SipHash-1-3 vectors, every tail length of code units', () => {
  const key = Uint8Array.from({ length: 16 }, (_, i) => i);
  for (const [bytes, hex] of VECTORS) {
    const hi = sipHash(message(bytes), key);
    const out = Buffer.alloc(8);
    out.writeBigUInt64LE((BigInt(sipHi) << 32n) | BigInt(sipLo));
    assert.equal(out.toString('hex'), hex, `${bytes} bytes`);
    assert.equal(hi, sipHi);
  }
});

test('siphash: a string of code units below 256 is SipHash-1-3 of its bytes (the same vectors, every tail length)', () => {
  const key = Uint8Array.from({ length: 16 }, (_, i) => i);
  for (const [bytes, hex] of VECTORS) {
    const narrow = String.fromCharCode(...Array.from({ length: bytes }, (_, j) => j & 0xff));
    sipHash(narrow, key);
    const out = Buffer.alloc(8);
    out.writeBigUInt64LE((BigInt(sipHi) << 32n) | BigInt(sipLo));
    assert.equal(out.toString('hex'), hex, `${bytes} bytes, narrow`);
  }
  // every tail length 0-7 of the narrow path against the wide path's reading of the same bytes
  let compared = 0;
  for (let len = 0; len <= 17; len++) {
    const narrow = String.fromCharCode(...Array.from({ length: len }, (_, j) => (j * 37 + 11) & 0xff));
    const wideBytes = Buffer.from(narrow, 'latin1');
    if (len % 2 === 1) continue; // the wide reading needs whole code units
    const wide = String.fromCharCode(
      ...Array.from({ length: len / 2 }, (_, j) => wideBytes[2 * j]! | (wideBytes[2 * j + 1]! << 8)),
    );
    if ([...wide].some((c) => c.charCodeAt(0) <= 0xff) && len > 0) continue; // would itself be narrow
    const a = sipHash(narrow, key);
    const al = sipLo;
    const b = sipHash(wide, key);
    assert.ok(a === b && al === sipLo, `the same ${len} bytes give the same SipHash in both encodings under one key`);
    compared++;
  }
  assert.ok(compared >= 6, `${compared} lengths compared`);
});

test('siphash: under the process keys a narrow text and a wide text of the same bytes differ', () => {
  const narrow = 'ab';
  const wide = String.fromCharCode(0x6261); // the same two bytes as one 16-bit unit
  assert.notDeepEqual(textKey(narrow), textKey(wide));
});

test('siphash: textKey is stable within a process and tells texts apart', () => {
  const seen = new Map<string, string>();
  for (let i = 0; i < 20000; i++) {
    const text = JSON.stringify(['urn:src', `id-${i}`]);
    const k = textKey(text);
    assert.deepEqual(textKey(text), k);
    const w = `${k.hi}:${k.lo}`;
    assert.equal(seen.get(w), undefined, `${text} shares a key with ${seen.get(w)}`);
    seen.set(w, text);
    assert.ok(
      Number.isInteger(k.hi) && k.hi >= 0 && k.hi < 2 ** 32 && Number.isInteger(k.lo) && k.lo >= 0 && k.lo < 2 ** 32,
    );
  }
  // code units, not UTF-8: a lone surrogate and its replacement character are different texts
  assert.notDeepEqual(textKey('\ud800'), textKey('\ufffd'));
  assert.notDeepEqual(textKey(''), textKey('\u0000'));
});

test('siphash: AEP tuple keys tell apart every split of the same characters', async () => {
  const { idKeyHash, tupleHash } = await import('../../src/aep/analyzers/canonical.ts');
  const same = (a: { hi: number; lo: number }, b: { hi: number; lo: number }) => a.hi === b.hi && a.lo === b.lo;
  assert.ok(!same(idKeyHash('a:b', 'c'), idKeyHash('a', ':bc')));
  assert.ok(!same(idKeyHash('1:a', 'b'), idKeyHash('1', ':ab')));
  assert.ok(same(idKeyHash('src', 'id'), idKeyHash('src', 'id')));
  assert.ok(!same(tupleHash(['ab', 'c']), tupleHash(['a', 'bc'])));
  assert.ok(!same(tupleHash(['r', 's', 't']), tupleHash(['r', 's:t'])));
  assert.ok(!same(tupleHash(['', 'x']), tupleHash(['x', ''])));
  assert.ok(same(tupleHash(['q', 'src', 'sess', 'id']), tupleHash(['q', 'src', 'sess', 'id'])));
});

test('siphash: the mark keys of a session extend its key words (stable, apart by tag, prefix and name; wide names by tuple)', async () => {
  const c = await import('../../src/aep/analyzers/canonical.ts');
  const { tupleHash, tupleKeyWords } = c;
  const extendedKey = (w: Uint32Array, tag: string, prefix: string[], last: string) =>
    c.extendedKey(w[0]!, w[1]!, w[2]!, w[3]!, tag, prefix, last);
  const same = (a: { hi: number; lo: number }, b: { hi: number; lo: number }) => a.hi === b.hi && a.lo === b.lo;
  const w = tupleKeyWords(['src', 'sess']);
  assert.ok(same({ hi: w[1]!, lo: w[0]! }, tupleHash(['src', 'sess'])));
  assert.ok(same(extendedKey(w, 'r', ['src', 'sess'], 'run1'), extendedKey(w, 'r', ['src', 'sess'], 'run1')));
  assert.ok(!same(extendedKey(w, 'r', ['src', 'sess'], 'x'), extendedKey(w, 'q', ['src', 'sess'], 'x')));
  assert.ok(!same(extendedKey(w, 'r', ['src', 'sess'], 'x'), extendedKey(w, 'r', ['src', 'sess'], 'y')));
  const w2 = tupleKeyWords(['src', 'sess2']);
  assert.ok(!same(extendedKey(w, 'r', ['src', 'sess'], 'x'), extendedKey(w2, 'r', ['src', 'sess2'], 'x')));
  assert.ok(same(extendedKey(w, 'q', ['src', 'sess'], 'é\u0100'), tupleHash(['q', 'src', 'sess', 'é\u0100'])));
});

test('pairKey: stable, tells pairs apart (splits, narrow and wide ids, many sources past the derived-key memo)', async () => {
  const { pairKey } = await import('../../src/core/canonical.ts');
  const same = (a: { hi: number; lo: number }, b: { hi: number; lo: number }) => a.hi === b.hi && a.lo === b.lo;
  assert.ok(same(pairKey('urn:a', 'e1'), pairKey('urn:a', 'e1')));
  assert.ok(!same(pairKey('urn:a', 'e1'), pairKey('urn:a', 'e2')));
  assert.ok(!same(pairKey('urn:a', 'e1'), pairKey('urn:b', 'e1')));
  assert.ok(!same(pairKey('a:b', 'c'), pairKey('a', ':bc')));
  assert.ok(!same(pairKey('ab', ''), pairKey('a', 'b')));
  // a wide id (a code unit of 256 or more) takes the whole-pair key: still stable and distinct
  assert.ok(same(pairKey('urn:a', 'é\u0101'), pairKey('urn:a', 'é\u0101')));
  assert.ok(!same(pairKey('urn:a', 'é\u0101'), pairKey('urn:a', 'é\u0100')));
  assert.ok(!same(pairKey('urn:a', '\u0101'), pairKey('urn:b', '\u0101')));
  // more sources than the memo holds: keys stay the same after it is cleared
  const first = pairKey('urn:src-0', 'id');
  const seen = new Set<string>();
  for (let i = 0; i < 10_000; i++) {
    const k = pairKey(`urn:src-${i}`, 'id');
    const w = `${k.hi}:${k.lo}`;
    assert.ok(!seen.has(w), `urn:src-${i}`);
    seen.add(w);
  }
  assert.ok(same(pairKey('urn:src-0', 'id'), first));
});

test('pairSourceWords: words 0 and 1 are the textKey of the source (lo, hi), which AHP elicitation reads instead of hashing again', async () => {
  const { pairSourceWords, textKey } = await import('../../src/core/canonical.ts');
  for (const s of ['', 'urn:a', 'https://harness.example/runtime/7', 'é\u0101 wide', 'x'.repeat(300)]) {
    const w = pairSourceWords(s);
    const k = textKey(s);
    assert.deepEqual([w[0], w[1]], [k.lo, k.hi], s);
  }
});
