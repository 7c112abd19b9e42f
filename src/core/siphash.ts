/**
 * SipHash-1-3 of a string's UTF-16 code units under a random 128-bit per-process key: the table keys of canonical.ts.
 * Keyed, because an unkeyed 64-bit digest cut can be attacked offline (birthday, ~2^32). Narrow and wide strings hash
 * under independent keys.
 */
// The process key, drawn on the first keyed call.
let keyed = false;
let K0L = 0;
let K0H = 0;
let K1L = 0;
let K1H = 0;
let N0L = 0;
let N0H = 0;
let N1L = 0;
let N1H = 0;

const word = (): number => (Math.random() * 0x100000000) >>> 0;

function drawKey(): void {
  K0L = word();
  K0H = word();
  K1L = word();
  K1H = word();
  N0L = word();
  N0H = word();
  N1L = word();
  N1H = word();
  keyed = true;
}

/** Result words of the last {@link sipHash} call (module state: the call is synchronous and allocates nothing). */
export let sipHi = 0;
/** See {@link sipHi}. */
export let sipLo = 0;

/**
 * SipHash-1-3 of `s` under the process key of its encoding, or `key` (16 bytes, test vectors); result in sipHi / sipLo.
 */
export function sipHash(s: string, key?: Uint8Array): number {
  if (!keyed) drawKey();
  if (key) {
    const b = Buffer.from(key.buffer, key.byteOffset, 16);
    const [k0l, k0h, k1l, k1h] = [b.readUInt32LE(0), b.readUInt32LE(4), b.readUInt32LE(8), b.readUInt32LE(12)];
    const r = sipCore(s, k0l, k0h, k1l, k1h, true);
    return r >= 0 ? r : sipCore(s, k0l, k0h, k1l, k1h, false);
  }
  const r = sipCore(s, N0L, N0H, N1L, N1H, true);
  return r >= 0 ? r : sipCore(s, K0L, K0H, K1L, K1H, false);
}

/** SipHash-1-3 of narrow `s` under key words `k0l..k1h`; -1 when `s` is not narrow (canonical.ts `pairKey`). */
export function sipHashNarrow(s: string, k0l: number, k0h: number, k1l: number, k1h: number): number {
  return sipCore(s, k0l, k0h, k1l, k1h, true);
}

/**
 * SipHash-1-3 of `s` under the given key words, read narrow (-1 when a code unit is 256 or more) or wide. The words are
 * kept as int32 (`| 0`; a carry compares the unsigned views) and the round is written once: its steps are the full
 * words, the last word with the length, then three finalization rounds (`step` 1-3), each one round.
 */
function sipCore(s: string, k0l: number, k0h: number, k1l: number, k1h: number, narrow: boolean): number {
  const n = s.length;
  // the OR of every code unit read narrow: above 0xff, the string is not narrow
  let units = 0;
  // "somepseudorandomlygeneratedbytes"
  let v0h = k0h ^ 0x736f6d65;
  let v0l = k0l ^ 0x70736575;
  let v1h = k1h ^ 0x646f7261;
  let v1l = k1l ^ 0x6e646f6d;
  let v2h = k0h ^ 0x6c796765;
  let v2l = k0l ^ 0x6e657261;
  let v3h = k1h ^ 0x74656462;
  let v3l = k1l ^ 0x79746573;
  const full = narrow ? n - (n & 7) : n - (n & 3);
  let i = 0;
  let mh = 0;
  let ml = 0;
  let t = 0;
  let u = 0;
  // 0: message words; 1-3: finalization rounds done + 1; 4: done
  let step = 0;
  for (;;) {
    if (i < full) {
      if (narrow) {
        const c0 = s.charCodeAt(i);
        const c1 = s.charCodeAt(i + 1);
        const c2 = s.charCodeAt(i + 2);
        const c3 = s.charCodeAt(i + 3);
        const c4 = s.charCodeAt(i + 4);
        const c5 = s.charCodeAt(i + 5);
        const c6 = s.charCodeAt(i + 6);
        const c7 = s.charCodeAt(i + 7);
        units |= c0 | c1 | c2 | c3 | c4 | c5 | c6 | c7;
        ml = c0 | (c1 << 8) | (c2 << 16) | (c3 << 24);
        mh = c4 | (c5 << 8) | (c6 << 16) | (c7 << 24);
        i += 8;
      } else {
        ml = s.charCodeAt(i) | (s.charCodeAt(i + 1) << 16);
        mh = s.charCodeAt(i + 2) | (s.charCodeAt(i + 3) << 16);
        i += 4;
      }
    } else if (step === 0) {
      // the last word, with the length in its top byte (bytes: 2 a code unit read wide)
      const r = n - full;
      if (narrow) {
        let lo = 0;
        let hi = 0;
        for (let k = 0; k < r; k++) {
          const c = s.charCodeAt(i + k);
          units |= c;
          if (k < 4) lo |= c << (8 * k);
          else hi |= c << (8 * (k - 4));
        }
        if (units > 0xff) return -1;
        ml = lo;
        mh = hi | ((n & 0xff) << 24);
      } else {
        ml = r === 0 ? 0 : r === 1 ? s.charCodeAt(i) : s.charCodeAt(i) | (s.charCodeAt(i + 1) << 16);
        mh = (r === 3 ? s.charCodeAt(i + 2) : 0) | (((2 * n) & 0xff) << 24);
      }
      step = 1;
    } else {
      if (step === 4) break;
      if (step === 1) {
        // the last word's round done: finalization, no message
        v0h ^= mh;
        v0l ^= ml;
        v2l ^= 0xff;
        mh = 0;
        ml = 0;
      }
      step++;
    }
    v3h ^= mh;
    v3l ^= ml;
    t = (v0l + v1l) | 0;
    v0h = (v0h + v1h + (t >>> 0 < v0l >>> 0 ? 1 : 0)) | 0;
    v0l = t;
    t = (v1h << 13) | (v1l >>> 19);
    u = (v1l << 13) | (v1h >>> 19);
    v1h = t ^ v0h;
    v1l = u ^ v0l;
    t = v0h;
    v0h = v0l;
    v0l = t;
    t = (v2l + v3l) | 0;
    v2h = (v2h + v3h + (t >>> 0 < v2l >>> 0 ? 1 : 0)) | 0;
    v2l = t;
    t = (v3h << 16) | (v3l >>> 16);
    u = (v3l << 16) | (v3h >>> 16);
    v3h = t ^ v2h;
    v3l = u ^ v2l;
    t = (v0l + v3l) | 0;
    v0h = (v0h + v3h + (t >>> 0 < v0l >>> 0 ? 1 : 0)) | 0;
    v0l = t;
    t = (v3h << 21) | (v3l >>> 11);
    u = (v3l << 21) | (v3h >>> 11);
    v3h = t ^ v0h;
    v3l = u ^ v0l;
    t = (v2l + v1l) | 0;
    v2h = (v2h + v1h + (t >>> 0 < v2l >>> 0 ? 1 : 0)) | 0;
    v2l = t;
    t = (v1h << 17) | (v1l >>> 15);
    u = (v1l << 17) | (v1h >>> 15);
    v1h = t ^ v2h;
    v1l = u ^ v2l;
    t = v2h;
    v2h = v2l;
    v2l = t;
    if (step === 0) {
      v0h ^= mh;
      v0l ^= ml;
    }
  }
  sipHi = (v0h ^ v1h ^ v2h ^ v3h) >>> 0;
  sipLo = (v0l ^ v1l ^ v2l ^ v3l) >>> 0;
  return sipHi;
}
