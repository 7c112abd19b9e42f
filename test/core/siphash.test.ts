import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sipHash, sipHi, sipLo } from '../../src/core/siphash.ts';
import { textKey } from '../../src/core/canonical.ts';

// SipHash-2-4 reference vectors (key 00..0f, message bytes 00, 01, ...; the reference
// implementation's vectors.h prints the 64-bit result as little-endian bytes). Lengths 0-20
// are vectors.h's; 600 (bytes i mod 256) was computed with a direct transcription of the paper.
const VECTORS: Array<[number, string]> = [
  [0, '310e0edd47db6f72'],
  [2, '5a4fa9d909806c0d'],
  [4, 'b7877127e09427cf'],
  [6, 'cee3fe586e46c9cb'],
  [16, 'db9bc2577fcc2a3f'],
  [20, '98eea21af25cd6be'],
  [24, '94af49f6c650adb8'],
  [62, '575ff28e60381be5'],
  [600, 'b117a7359f018b21'],
];

/** The message of `bytes` bytes (i mod 256) as code units, two little-endian bytes each. */
function message(bytes: number): string {
  let s = '';
  for (let j = 0; j < bytes; j += 2) s += String.fromCharCode((j & 0xff) | (((j + 1) & 0xff) << 8));
  return s;
}

test('siphash: SipHash-2-4 reference vectors, every tail length of code units', () => {
  const key = Uint8Array.from({ length: 16 }, (_, i) => i);
  for (const [bytes, hex] of VECTORS) {
    const hi = sipHash(message(bytes), key);
    const out = Buffer.alloc(8);
    out.writeBigUInt64LE((BigInt(sipHi) << 32n) | BigInt(sipLo));
    assert.equal(out.toString('hex'), hex, `${bytes} bytes`);
    assert.equal(hi, sipHi);
  }
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
    assert.ok(Number.isInteger(k.hi) && k.hi >= 0 && k.hi < 2 ** 32 && Number.isInteger(k.lo) && k.lo >= 0 && k.lo < 2 ** 32);
  }
  // code units, not UTF-8: a lone surrogate and its replacement character are different texts
  assert.notDeepEqual(textKey('\ud800'), textKey('\ufffd'));
  assert.notDeepEqual(textKey(''), textKey('\u0000'));
});
