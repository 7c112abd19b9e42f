/**
 * Canonical event content for identity checks (AEP-0001 §7.4 redelivery vs collision).
 *
 * Canonical form: JSON with object keys sorted (UTF-16 code unit order) at every level, no
 * insignificant whitespace, strings as `JSON.stringify` writes them, numbers as JavaScript
 * writes them, except that integer literals beyond 2^53 keep their exact text from the line
 * (JSON.parse would round `9007199254740993` to `...992` and make two different events look
 * equal). Key order and whitespace therefore never decide identity; any other difference does.
 *
 * This runs on every event, so it is written for speed (string concatenation, quoted keys
 * cached, one-shot hashing); the exact-integer walk that tracks pointers only runs for lines
 * that have integers beyond 2^53.
 */
import * as crypto from 'node:crypto';
import type { BigIntegerLiteral } from '../../core/json.ts';
import { escapeToken } from '../../core/pointer.ts';
import { hash64, type Hash64 } from './id-table.ts';

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
  for (let i = 0; i < keys.length; i++) s += (i ? ',' : '') + quoteKey(keys[i]) + exact(o[keys[i]], `${ptr}/${escapeToken(keys[i])}`, bigs);
  return s + '}';
}

/**
 * The same text as {@link plain} / {@link exact}, with an explicit stack instead of recursion
 * (for values nested deeper than the call stack allows, e.g. under a raised `--max-depth`).
 */
function iterative(root: unknown, bigs: ReadonlyMap<string, string> | undefined): string {
  let out = '';
  // a task is literal text to append, or a value (with its pointer) to write
  const stack: (string | { v: unknown; ptr: string })[] = [{ v: root, ptr: '' }];
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

/** The canonical JSON text of `ev` (sorted keys, exact big integers). */
export function canonicalJson(ev: ExactJson): string {
  const bigs = ev.bigIntegers.length ? new Map(ev.bigIntegers.map((b) => [b.pointer, b.text])) : undefined;
  try {
    return bigs ? exact(ev.value, '', bigs) : plain(ev.value);
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    return iterative(ev.value, bigs); // nested deeper than the call stack
  }
}

type OneShot = (algorithm: string, data: string, encoding: 'buffer') => Buffer;
const oneShot = (crypto as unknown as { hash?: OneShot }).hash;

/** SHA-256 of a string (one-shot where the runtime has `crypto.hash`). */
function sha256(text: string): Buffer {
  return oneShot ? oneShot('sha256', text, 'buffer') : crypto.createHash('sha256').update(text).digest();
}

/** The 64-bit digest of an event's canonical content (the first 8 bytes of its SHA-256). */
export function contentHash(ev: ExactJson): Hash64 {
  return hash64(sha256(canonicalJson(ev)));
}

/** The 64-bit key of an `(source, id)` pair (the first 8 bytes of a SHA-256). */
export function idKeyHash(source: string, id: string): Hash64 {
  return hash64(sha256(JSON.stringify([source, id])));
}

/** The 64-bit key of a tuple of strings (the first 8 bytes of the SHA-256 of its JSON array). */
export function tupleHash(parts: readonly string[]): Hash64 {
  return hash64(sha256(JSON.stringify(parts)));
}
