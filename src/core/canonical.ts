/**
 * Canonical JSON (keys sorted by UTF-16 code unit, no whitespace, integers beyond 2^53 kept as written) and its
 * SHA-256, for identity: AEP redelivery vs id reuse (AEP-0001 §7.4), AHP event identity. Runs on every event, so
 * written for speed.
 */
import { createRequire } from 'node:module';
import { parseJsonText, type BigIntegerLiteral } from './json.ts';
import { escapeToken, getAt } from './pointer.ts';
import { sipHash, sipHashNarrow, sipHi, sipLo } from './siphash.ts';
import { TextMemo } from './text-memo.ts';

/** What canonicalisation needs of a parsed line: its value and its big integer literals. */
export interface ExactJson {
  value: unknown;
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

/** The text of plain/exact with an explicit stack, for values nested deeper than the call stack allows. */
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

/** Canonical JSON of `ev.value` at `basePointer` of its line (big integer pointers are line-relative). */
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

/** Table key of `text`: SipHash-1-3 under a random per-process key, so crafted input cannot aim for a collision. */
export function textKey(text: string): Hash64 {
  sipHash(text);
  return { hi: sipHi, lo: sipLo };
}

/** The derived id keys of recent sources ({@link pairKey}): four key words each, at most 4096 sources. */
const pairSources = new TextMemo<Uint32Array>(4096);

/**
 * Table key of `(source, id)`: SipHash of `id` under a key derived from `source` (cached), half the bytes of hashing
 * both; an id with a code unit >= 256 is keyed as textKey(`<source length>:<source><id>`).
 */
export function pairKey(source: string, id: string): Hash64 {
  return pairKeyUnder(pairSourceWords(source), source, id);
}

/**
 * Four key words of `text`: its SipHash (lo, hi: {@link textKey}'s words, which callers may read from here), then that
 * of `text` + NUL (lo, hi); keys hashed under them.
 */
export function keyWords(text: string): Uint32Array {
  const k = new Uint32Array(4);
  sipHash(text);
  k[0] = sipLo;
  k[1] = sipHi;
  sipHash(text + '\u0000');
  k[2] = sipLo;
  k[3] = sipHi;
  return k;
}

/** The last {@link pairSourceWords} source and words: comparing is cheaper than the memo's hash of the string. */
let lastSource = '';
let lastWords: Uint32Array | undefined;

/** The key words {@link pairKey} derives from `source` (cached for recent sources); a caller may keep them. */
export function pairSourceWords(source: string): Uint32Array {
  if (source === lastSource && lastWords !== undefined) return lastWords;
  lastSource = source;
  return (lastWords = pairSources.of(source, keyWords));
}

/** {@link pairKey} of `(source, id)` with the {@link pairSourceWords} of `source` at hand. */
export function pairKeyUnder(k: Uint32Array, source: string, id: string): Hash64 {
  if (sipHashNarrow(id, k[0]!, k[1]!, k[2]!, k[3]!) < 0) return textKey(source.length + ':' + source + id);
  return { hi: sipHi, lo: sipLo };
}

/**
 * 32-bit FNV-1a of `s` (of `lead` + `s` when given) over UTF-16 code units; tells texts apart, no security property.
 */
export function fnv32(s: string, lead = -1): number {
  let h = lead < 0 ? 0x811c9dc5 : Math.imul(0x811c9dc5 ^ lead, 0x01000193);
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** Lines up to this many code units are fingerprinted whole; longer ones by samples. */
const WHOLE_LINE = 96;

/** Fingerprint of a line whose `(source, id)` may repeat (sampled past WHOLE_LINE): tells it was edited. */
export function lineFingerprint(s: string): number {
  const n = s.length;
  let h = Math.imul(0x811c9dc5 ^ n, 0x01000193);
  if (n <= WHOLE_LINE) {
    for (let i = 0; i < n; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
    return h >>> 0;
  }
  for (let i = 0; i < 32; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  // floor(k * (n - 64) / 32) in integers: k * (n - 64) < 2^29 under the 16 MiB line cap
  const span = n - 64;
  for (let k = 0; k < 32; k++) h = Math.imul(h ^ s.charCodeAt(32 + ((k * span) >>> 5)), 0x01000193);
  for (let i = n - 32; i < n; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/**
 * Whether the value at `pointer` of the read-back `firstLine` equals `current` (canonical JSON of each `view`, unless
 * identical); `undefined` when the line is gone, changed since `fingerprint`, or holds nothing at `pointer`.
 */
export function sameAsReadBack(
  firstLine: string | undefined,
  fingerprint: number,
  current: ExactJson & { text: string },
  pointer = '',
  view: (v: unknown) => unknown = (v) => v,
): boolean | undefined {
  if (firstLine === undefined || lineFingerprint(firstLine) !== fingerprint) return undefined;
  if (firstLine === current.text) return true;
  const parsed = parseJsonText(firstLine, Number.MAX_SAFE_INTEGER);
  const first = parsed.ok ? getAt(parsed.value, pointer) : undefined;
  if (!parsed.ok || first === undefined) return undefined;
  return (
    canonicalJson({ value: view(first), bigIntegers: parsed.bigIntegers }, pointer) ===
    canonicalJson({ value: view(getAt(current.value, pointer)), bigIntegers: current.bigIntegers }, pointer)
  );
}
