/**
 * Canonical JSON text of a value, and the digest of it, for identity checks: AEP redelivery
 * vs id reuse (AEP-0001 §7.4) and AHP event identity (interaction-payloads.md: "original JSON
 * byte formatting is not a wire requirement").
 *
 * Canonical form: JSON with object keys sorted (UTF-16 code unit order) at every level, no
 * insignificant whitespace, strings as `JSON.stringify` writes them, numbers as JavaScript
 * writes them, except that integer literals beyond 2^53 keep their exact text from the line
 * (JSON.parse would round `9007199254740993` to `...992` and make two different values look
 * equal). Key order and whitespace therefore never decide identity; any other difference does.
 *
 * Digest: SHA-256, so crafted input cannot make two different values share a digest.
 *
 * This runs on every event, so it is written for speed (string concatenation, quoted keys
 * cached); the pointer-tracking walk only runs for values with integers beyond 2^53, and an
 * explicit-stack walk takes over for values nested deeper than the call stack allows.
 */
import { createRequire } from 'node:module';
import { parseJsonText, type BigIntegerLiteral } from './json.ts';
import { escapeToken, getAt } from './pointer.ts';
import { sipHash, sipHashNarrow, sipHi, sipLo } from './siphash.ts';

/** What canonicalisation needs of a parsed line: its value and its big integer literals. */
export interface ExactJson {
  value: unknown;
  /** Big integer literals of the line, with pointers from the line's root. */
  bigIntegers: readonly BigIntegerLiteral[];
}

/** Most quoted keys cached (keys repeat across events: `aep`, `id`, `type`, ...). */
const MAX_CACHED_KEYS = 4096;
const quotedKeys = new Map<string, string>();

function quoteKey(k: string): string {
  let q = quotedKeys.get(k);
  if (q === undefined) {
    q = JSON.stringify(k) + ':';
    if (quotedKeys.size < MAX_CACHED_KEYS) quotedKeys.set(k, q);
  }
  return q;
}

function scalar(v: unknown): string {
  switch (typeof v) {
    case 'string':
      return JSON.stringify(v);
    case 'number':
      return Number.isFinite(v) ? String(v) : 'null';
    case 'boolean':
      return v ? 'true' : 'false';
    default:
      return 'null';
  }
}

/** Canonical text without pointer tracking (no big integers in the line). */
function plain(v: unknown): string {
  if (v === null || typeof v !== 'object') return scalar(v);
  if (Array.isArray(v)) {
    let s = '[';
    for (let i = 0; i < v.length; i++) s += (i ? ',' : '') + plain(v[i]);
    return s + ']';
  }
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o);
  if (keys.length > 1) keys.sort();
  let s = '{';
  for (let i = 0; i < keys.length; i++) s += (i ? ',' : '') + quoteKey(keys[i]) + plain(o[keys[i]]);
  return s + '}';
}

/** Canonical text with pointer tracking, substituting exact big integer literals. */
function exact(v: unknown, ptr: string, bigs: ReadonlyMap<string, string>): string {
  if (v === null || typeof v !== 'object') return (typeof v === 'number' && bigs.get(ptr)) || scalar(v);
  if (Array.isArray(v)) {
    let s = '[';
    for (let i = 0; i < v.length; i++) s += (i ? ',' : '') + exact(v[i], `${ptr}/${i}`, bigs);
    return s + ']';
  }
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o).sort();
  let s = '{';
  for (let i = 0; i < keys.length; i++)
    s += (i ? ',' : '') + quoteKey(keys[i]) + exact(o[keys[i]], `${ptr}/${escapeToken(keys[i])}`, bigs);
  return s + '}';
}

/**
 * The same text as {@link plain} / {@link exact}, with an explicit stack instead of recursion
 * (for values nested deeper than the call stack allows, e.g. under a raised `--max-depth`).
 */
function iterative(root: unknown, rootPtr: string, bigs: ReadonlyMap<string, string> | undefined): string {
  let out = '';
  // a task is literal text to append, or a value (with its pointer) to write
  const stack: (string | { v: unknown; ptr: string })[] = [{ v: root, ptr: rootPtr }];
  while (stack.length) {
    const t = stack.pop()!;
    if (typeof t === 'string') {
      out += t;
      continue;
    }
    const { v, ptr } = t;
    if (v === null || typeof v !== 'object') {
      out += (bigs && typeof v === 'number' && bigs.get(ptr)) || scalar(v);
    } else if (Array.isArray(v)) {
      out += '[';
      stack.push(']');
      for (let i = v.length - 1; i >= 0; i--) {
        stack.push({ v: v[i], ptr: bigs ? `${ptr}/${i}` : '' });
        if (i) stack.push(',');
      }
    } else {
      const o = v as Record<string, unknown>;
      const keys = Object.keys(o).sort();
      out += '{';
      stack.push('}');
      for (let i = keys.length - 1; i >= 0; i--) {
        stack.push({ v: o[keys[i]], ptr: bigs ? `${ptr}/${escapeToken(keys[i])}` : '' });
        stack.push(quoteKey(keys[i]));
        if (i) stack.push(',');
      }
    }
  }
  return out;
}

/**
 * The canonical JSON text of `ev.value`. `basePointer` is where the value sits in its line
 * (big integer pointers are relative to the line's root); default `''`, the whole line.
 * Never throws for a JSON value, at any depth.
 */
export function canonicalJson(ev: ExactJson, basePointer = ''): string {
  let bigs: Map<string, string> | undefined;
  for (const b of ev.bigIntegers) {
    if (b.pointer === basePointer || b.pointer.startsWith(basePointer + '/'))
      (bigs ??= new Map()).set(b.pointer, b.text);
  }
  try {
    return bigs ? exact(ev.value, basePointer, bigs) : plain(ev.value);
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    return iterative(ev.value, basePointer, bigs); // nested deeper than the call stack
  }
}

type OneShot = (algorithm: string, data: string, encoding: 'buffer') => Buffer;
// node:crypto loads on the first digest, not with the CLI (`--version` needs none)
let sha256: ((text: string) => Buffer) | undefined;

function loadSha256(): (text: string) => Buffer {
  const crypto = createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto');
  const oneShot = (crypto as unknown as { hash?: OneShot }).hash;
  return oneShot
    ? (text) => oneShot('sha256', text, 'buffer')
    : (text) => crypto.createHash('sha256').update(text).digest();
}

/** The 32-byte SHA-256 digest of `text` (its UTF-8 bytes; one-shot where the runtime has `crypto.hash`). */
export function digest(text: string): Buffer {
  return (sha256 ??= loadSha256())(text);
}

/** A 64-bit key or digest as two unsigned 32-bit words (the one key width of the compact tables, table.ts). */
export interface Hash64 {
  hi: number;
  lo: number;
}

/** The first 8 bytes of a digest as a {@link Hash64}. */
export function hash64(d: Uint8Array): Hash64 {
  return {
    hi: ((d[0]! << 24) | (d[1]! << 16) | (d[2]! << 8) | d[3]!) >>> 0,
    lo: ((d[4]! << 24) | (d[5]! << 16) | (d[6]! << 8) | d[7]!) >>> 0,
  };
}

/**
 * The table key of `text` (table.ts): its SipHash-1-3 under a random per-process key
 * (src/core/siphash.ts), so crafted input cannot aim for a shared key, and two of 5 million
 * keys share one by accident with odds about 10^-6. Only comparable within one process.
 */
export function textKey(text: string): Hash64 {
  sipHash(text);
  return { hi: sipHi, lo: sipLo };
}

/** The derived id keys of recent sources ({@link pairKey}): four key words each, at most {@link PAIR_SOURCES}. */
const pairSources = new Map<string, Uint32Array>();
const PAIR_SOURCES = 4096;

/**
 * The table key of the pair `(source, id)` (the identity tables of both protocols): the keyed
 * SipHash-1-3 of `id` alone, under a key derived from `source` (its two table keys, of `source`
 * and of `source` + U+0000, kept for the last {@link PAIR_SOURCES} sources). A stream repeats a
 * few sources, and the id is the short part, so an event hashes about half as many bytes as
 * with the whole pair. Two distinct pairs share a key with odds of about 2^-64, as with
 * {@link textKey}: another source means an independent secret key. An id with a code unit of
 * 256 or more is keyed as `textKey` of `<source length>:<source><id>` instead.
 */
export function pairKey(source: string, id: string): Hash64 {
  let k = pairSources.get(source);
  if (k === undefined) {
    if (pairSources.size >= PAIR_SOURCES) pairSources.clear();
    k = new Uint32Array(4);
    sipHash(source);
    k[0] = sipLo;
    k[1] = sipHi;
    sipHash(source + '\u0000');
    k[2] = sipLo;
    k[3] = sipHi;
    pairSources.set(source, k);
  }
  if (sipHashNarrow(id, k[0]!, k[1]!, k[2]!, k[3]!) < 0) return textKey(source.length + ':' + source + id);
  return { hi: sipHi, lo: sipLo };
}

/**
 * A 32-bit FNV-1a fingerprint of `s` (over UTF-16 code units), as an unsigned integer; with
 * `lead` (a code unit), that of `String.fromCharCode(lead) + s`, without building the string.
 * Not a security property: it only tells that two texts differ.
 */
export function fnv32(s: string, lead = -1): number {
  let h = lead < 0 ? 0x811c9dc5 : Math.imul(0x811c9dc5 ^ lead, 0x01000193);
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** Lines up to this many code units are fingerprinted whole; longer ones by samples. */
const WHOLE_LINE = 96;

/**
 * The fingerprint a line keeps while its `(source, id)` may repeat (the identity analyzers of
 * both protocols): FNV-1a of its length and of its code units, all of them up to
 * {@link WHOLE_LINE}, else the first 32, the last 32 and 32 at an even stride between. It tells
 * that a line read back from a file is still the one read: one replaced, shortened or lengthened
 * since is seen, as is an edit of the same length at a sampled place; one that touches none goes
 * unseen, and the repeat is then compared with the edited line. Hashing every code unit cost
 * about 8% of an AEP run (a 430-byte line, every line), for a file edited while it is checked.
 */
export function lineFingerprint(s: string): number {
  const n = s.length;
  let h = Math.imul(0x811c9dc5 ^ n, 0x01000193);
  if (n <= WHOLE_LINE) {
    for (let i = 0; i < n; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
    return h >>> 0;
  }
  for (let i = 0; i < 32; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  const stride = (n - 64) / 32;
  for (let k = 0; k < 32; k++) h = Math.imul(h ^ s.charCodeAt(32 + Math.floor(k * stride)), 0x01000193);
  for (let i = n - 32; i < n; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/**
 * Compare the value at `pointer` of a line read back from its input with the same place in
 * `current`, exactly: identical lines are equal without parsing; otherwise the canonical JSON
 * texts are compared. `firstLine` is the text read back (`undefined` when it could not be read)
 * and `fingerprint` the {@link lineFingerprint} the line had when it was first read. Returns
 * `undefined` when the line is gone or changed since, or holds nothing at `pointer`.
 */
export function sameAsReadBack(
  firstLine: string | undefined,
  fingerprint: number,
  current: ExactJson & { text: string },
  pointer = '',
): boolean | undefined {
  if (firstLine === undefined || lineFingerprint(firstLine) !== fingerprint) return undefined;
  if (firstLine === current.text) return true;
  const parsed = parseJsonText(firstLine, Number.MAX_SAFE_INTEGER);
  const first = parsed.ok ? getAt(parsed.value, pointer) : undefined;
  if (!parsed.ok || first === undefined) return undefined;
  return (
    canonicalJson({ value: first, bigIntegers: parsed.bigIntegers }, pointer) ===
    canonicalJson({ value: getAt(current.value, pointer), bigIntegers: current.bigIntegers }, pointer)
  );
}
