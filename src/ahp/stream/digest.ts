/**
 * Identity digests for the AHP stream rules.
 *
 * {@link valueDigest}: SHA-256 (base64url, 132 bits kept) of the canonical JSON of a value:
 * object members sorted by name at every level, no insignificant whitespace, strings as
 * `JSON.stringify` writes them, and integer literals beyond 2^53 with their exact text from the
 * line (`JSON.parse` would round them and make two different events look equal). Member order
 * and whitespace therefore never decide identity ("original JSON byte formatting is not a wire
 * requirement", interaction-payloads.md); any other difference does.
 *
 * {@link shortHash}: a 32-bit FNV-1a fingerprint for comparing small control fields of two
 * occurrences of the same event (not a security property: it only names which field differs).
 */
import { createHash } from 'node:crypto';
import type { BigIntegerLiteral } from '../../core/json.ts';
import { escapeToken } from '../../core/pointer.ts';

function scalar(v: unknown, ptr: string, big: ReadonlyMap<string, string> | undefined): string {
  if (typeof v === 'number' && big) {
    const exact = big.get(ptr);
    if (exact !== undefined) return exact;
  }
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  return 'null';
}

/** Canonical text, recursively (fast; the call stack bounds the depth). */
function canonical(v: unknown, ptr: string, big: ReadonlyMap<string, string> | undefined): string {
  if (v === null || typeof v !== 'object') return scalar(v, ptr, big);
  if (Array.isArray(v)) {
    let s = '[';
    for (let i = 0; i < v.length; i++) s += (i ? ',' : '') + canonical(v[i], big ? `${ptr}/${i}` : '', big);
    return s + ']';
  }
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o).sort();
  let s = '{';
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    s += (i ? ',' : '') + JSON.stringify(k) + ':' + canonical(o[k], big ? `${ptr}/${escapeToken(k)}` : '', big);
  }
  return s + '}';
}

/**
 * Canonical text with an explicit stack, for values nested deeper than the call stack allows
 * (a raised `--max-depth`); same output as {@link canonical}.
 */
function canonicalDeep(root: unknown, rootPtr: string, big: ReadonlyMap<string, string> | undefined): string {
  const out: string[] = [];
  const todo: Array<string | { v: unknown; ptr: string }> = [{ v: root, ptr: rootPtr }];
  while (todo.length) {
    const t = todo.pop()!;
    if (typeof t === 'string') {
      out.push(t);
      continue;
    }
    const { v, ptr } = t;
    if (v === null || typeof v !== 'object') out.push(scalar(v, ptr, big));
    else if (Array.isArray(v)) {
      todo.push(']');
      for (let i = v.length - 1; i >= 0; i--) {
        todo.push({ v: v[i], ptr: big ? `${ptr}/${i}` : '' });
        if (i > 0) todo.push(',');
      }
      todo.push('[');
    } else {
      const o = v as Record<string, unknown>;
      const keys = Object.keys(o).sort();
      todo.push('}');
      for (let i = keys.length - 1; i >= 0; i--) {
        const k = keys[i]!;
        todo.push({ v: o[k], ptr: big ? `${ptr}/${escapeToken(k)}` : '' });
        todo.push(JSON.stringify(k) + ':');
        if (i > 0) todo.push(',');
      }
      todo.push('{');
    }
  }
  return out.join('');
}

/**
 * Digest of `value`, which sits at `basePointer` in a line whose big integer literals are
 * `bigIntegers` (their pointers are relative to the line's root). Any nesting depth; never
 * throws for a JSON value.
 */
export function valueDigest(value: unknown, bigIntegers: readonly BigIntegerLiteral[] = [], basePointer = ''): string {
  let big: Map<string, string> | undefined;
  for (const b of bigIntegers) {
    if (b.pointer === basePointer || b.pointer.startsWith(basePointer + '/')) (big ??= new Map()).set(b.pointer, b.text);
  }
  let text: string;
  try {
    text = canonical(value, basePointer, big);
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    text = canonicalDeep(value, basePointer, big);
  }
  return createHash('sha256').update(text).digest('base64url').slice(0, 22);
}

/** A 32-bit FNV-1a fingerprint of `s`, as an unsigned integer. */
export function fnv32(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** A 32-bit FNV-1a fingerprint of `s` ({@link fnv32}), as 8 hex digits. */
export function shortHash(s: string): string {
  return fnv32(s).toString(16).padStart(8, '0');
}
