/**
 * A screen before `SECRET_OPENINGS` (src/core/secret-patterns.ts): the three-character windows that can begin an
 * opening and the literal characters that follow them, read from the expression's own alternatives (one it cannot read
 * turns the screen off); elsewhere it decides.
 */
import { mayHoldEncodedSecret, SECRET_OPENINGS } from '../core/secret-patterns.ts';

/** ASCII folded to lower case (the `i` flag without `u` folds only ASCII letters); 0 for a code unit past ASCII. */
const FOLD = new Uint8Array(65536);
for (let c = 1; c < 128; c++) FOLD[c] = c >= 65 && c <= 90 ? c + 32 : c;

function atomAt(src: string, i: number): { units: number[]; end: number } | undefined {
  const c = src[i];
  if (c === undefined || '()|.^$?*+{}'.includes(c)) return undefined;
  if (c === '\\') {
    const e = src[i + 1];
    // an identity escape of punctuation only (`\d`, `\w`, `\b` ... are classes or assertions)
    if (e === undefined || /[A-Za-z0-9]/.test(e)) return undefined;
    return { units: [e.charCodeAt(0)], end: i + 2 };
  }
  if (c !== '[') return { units: [c.charCodeAt(0)], end: i + 1 };
  const close = src.indexOf(']', i + 1);
  const body = src.slice(i + 1, close);
  if (close < 0 || body === '' || body.startsWith('^') || body.includes('\\')) return undefined;
  const units: number[] = [];
  for (let k = 0; k < body.length; k++) {
    if (body[k + 1] === '-' && k + 2 < body.length) {
      for (let u = body.charCodeAt(k); u <= body.charCodeAt(k + 2); u++) units.push(u);
      k += 2;
    } else units.push(body.charCodeAt(k));
  }
  return { units, end: close + 1 };
}

function alternatives(src: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let inClass = false;
  let start = 0;
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (c === '\\') i++;
    else if (inClass) inClass = c !== ']';
    else if (c === '[') inClass = true;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === '|' && depth === 0) {
      out.push(src.slice(start, i));
      start = i + 1;
    }
  }
  out.push(src.slice(start));
  return out;
}

/** The index of the `)` closing the group opened at `open`, or -1. */
function groupEnd(src: string, open: number): number {
  let depth = 0;
  let inClass = false;
  for (let i = open; i < src.length; i++) {
    const c = src[i];
    if (c === '\\') i++;
    else if (inClass) inClass = c !== ']';
    else if (c === '[') inClass = true;
    else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i;
  }
  return -1;
}

/**
 * `alt` with its non-capturing groups spelled out (`a(?:b|c)?d` -> `ad`, `abd`, `acd`), so an expression grouped by
 * first letter reads as its flat list; a group under another quantifier stays (the reader then turns the screen off).
 */
function spelledOut(alt: string, depth = 0): string[] {
  let open = alt.indexOf('(?:');
  while (open > 0 && alt[open - 1] === '\\') open = alt.indexOf('(?:', open + 1);
  const close = open < 0 ? -1 : groupEnd(alt, open);
  if (close < 0 || depth > 8) return [alt];
  const q = alt[close + 1];
  if (q !== undefined && '*+{'.includes(q)) return [alt];
  const head = alt.slice(0, open);
  const tail = alt.slice(close + (q === '?' ? 2 : 1));
  const inner = alternatives(alt.slice(open + 3, close)).map((a) => head + a + tail);
  return (q === '?' ? [head + tail, ...inner] : inner).flatMap((a) => spelledOut(a, depth + 1));
}

// the folded first two code units of each opening (`a << 7 | b`), and its first three (`a << 14 | b << 7 | c`); of an
// opening that goes on with literal characters (`token`, `lin_api_`), up to five more as its tail: a window of three
// that common words share (`tok`, `lin`) sends a string to the expression only when a tail of its openings follows
interface Windows {
  pairs: Uint8Array;
  triples: Set<number>;
  /** The triples of openings that stop at three characters (or go on with a quantified part): no tail to test. */
  bare: Set<number>;
  /** Per triple, the tails of its longer openings: per position, the folded code units allowed there (1 allowed). */
  tails: Map<number, Uint8Array[][]>;
  /** The second, third and fourth code units of each opening with a tail: tested before its tails are looked up. */
  next: Set<number>;
}

// a tail's most characters: the longest opening word the screen needs to tell apart (`lin_api_`, `-----BEGIN`)
const MAX_TAIL = 5;

/** The windows of `re` (undefined: an alternative this reader cannot take apart, or flags other than `i`). */
export function openingWindows(re: RegExp): Windows | undefined {
  if (re.flags !== 'i') return undefined;
  const pairs = new Uint8Array(128 * 128);
  const triples = new Set<number>();
  const bare = new Set<number>();
  const tails = new Map<number, Uint8Array[][]>();
  const next = new Set<number>();
  for (const alt of alternatives(re.source).flatMap((a) => spelledOut(a))) {
    const sets: number[][] = [];
    let i = 0;
    for (let n = 0; n < 3; n++) {
      const a = atomAt(alt, i);
      if (!a) return undefined;
      // a quantifier may drop or repeat one of the first two atoms, and drop the third unless it is `+`
      const q = alt[a.end];
      if (q !== undefined && '?*{+'.includes(q) && !(n === 2 && q === '+')) return undefined;
      const folded = a.units.map((u) => (u < 128 ? FOLD[u]! : 0));
      if (folded.includes(0)) return undefined;
      sets.push(folded);
      i = a.end;
    }
    // the tail: the literal atoms after the third that no quantifier follows (a quantifier on the third ends it)
    const tail: Uint8Array[] = [];
    while (tail.length < MAX_TAIL) {
      const a = atomAt(alt, i);
      const q = a ? alt[a.end] : undefined;
      if (!a || (q !== undefined && '?*{+'.includes(q)) || a.units.some((u) => u >= 128)) break;
      const allowed = new Uint8Array(128);
      for (const u of a.units) allowed[FOLD[u]!] = 1;
      tail.push(allowed);
      i = a.end;
    }
    for (const x of sets[0]!)
      for (const y of sets[1]!) {
        pairs[(x << 7) | y] = 1;
        for (const z of sets[2]!) {
          const t = (x << 14) | (y << 7) | z;
          triples.add(t);
          if (tail.length === 0) bare.add(t);
          else {
            const list = tails.get(t);
            if (list === undefined) tails.set(t, [tail]);
            else list.push(tail);
            for (let u = 0; u < 128; u++) if (tail[0]![u] === 1) next.add((y << 14) | (z << 7) | u);
          }
        }
      }
  }
  for (const t of bare) tails.delete(t);
  return { pairs, triples, bare, tails, next };
}

const WINDOWS = openingWindows(SECRET_OPENINGS);
const PAIRS = WINDOWS?.pairs ?? new Uint8Array(0);
// the triples as bits (2^21, 256 KiB): a bit test where a set lookup hashed the number on every pair hit
const TRIPLES = new Int32Array(1 << 16);
for (const t of WINDOWS?.triples ?? []) TRIPLES[t >>> 5]! |= 1 << (t & 31);
const BARE = new Int32Array(1 << 16);
for (const t of WINDOWS?.bare ?? []) BARE[t >>> 5]! |= 1 << (t & 31);
const TAILS = WINDOWS?.tails ?? new Map<number, Uint8Array[][]>();
// the second to fourth code units of the openings with tails, as bits: most window hits end here, before a map lookup
const NEXT = new Int32Array(1 << 16);
for (const t of WINDOWS?.next ?? []) NEXT[t >>> 5]! |= 1 << (t & 31);

/** True when one of `tails` follows position `at` of `s`. */
function tailAt(s: string, at: number, tails: readonly Uint8Array[][]): boolean {
  for (const tail of tails) {
    if (at + tail.length > s.length) continue;
    let k = 0;
    while (k < tail.length && tail[k]![FOLD[s.charCodeAt(at + k)]!] === 1) k++;
    if (k === tail.length) return true;
  }
  return false;
}

/** Exactly `mayHoldSecret(s)` (src/core/secret-patterns.ts), the expression asked only when needed. */
export function mayHoldSecretScreened(s: string): boolean {
  return openingIn(s) || mayHoldEncodedSecret(s);
}

/** Exactly `SECRET_OPENINGS.test(s)`, by the windows first. */
function openingIn(s: string): boolean {
  if (WINDOWS === undefined) return SECRET_OPENINGS.test(s);
  const n = s.length;
  if (n < 3) return false;
  let a = FOLD[s.charCodeAt(0)]!;
  let b = FOLD[s.charCodeAt(1)]!;
  for (let i = 2; i < n; i++) {
    const c = FOLD[s.charCodeAt(i)]!;
    if (PAIRS[(a << 7) | b] === 1) {
      const t = (a << 14) | (b << 7) | c;
      const bit = 1 << (t & 31);
      if ((TRIPLES[t >>> 5]! & bit) !== 0) {
        if ((BARE[t >>> 5]! & bit) !== 0) return SECRET_OPENINGS.test(s);
        const u = i + 1 < n ? (b << 14) | (c << 7) | FOLD[s.charCodeAt(i + 1)]! : 0;
        if ((NEXT[u >>> 5]! & (1 << (u & 31))) !== 0 && tailAt(s, i + 1, TAILS.get(t)!)) return SECRET_OPENINGS.test(s);
      }
    }
    a = b;
    b = c;
  }
  return false;
}

/** Whether the screen is on (every alternative of `SECRET_OPENINGS` read); tests hold it on. */
export const SECRET_SCREEN_ON = WINDOWS !== undefined;
