/**
 * JSON parse with locations: JSON.parse is silent about duplicate member names (RFC 8259 §4), integers beyond 2^53 and
 * positions, so a cheap screen decides when the full scanner must run; locateIndex finds a pointer's position on
 * demand.
 */
import {
  type BigIntegerLiteral,
  DEFAULT_MAX_DEPTH,
  type DuplicateKey,
  type LocNode,
  MAX_DUPLICATES_LISTED,
  scan,
  scanJson,
  scanNumber,
  scanString,
  skipWs,
} from './json-scan.ts';

export {
  type BigIntegerLiteral,
  DEFAULT_MAX_DEPTH,
  type DuplicateKey,
  type ScanOptions,
  type ScanResult,
  scanJson,
} from './json-scan.ts';
export { compareNumberLiterals, exactIntegerOfLiteral, MAX_EXACT_EXPONENT } from './json-numbers.ts';
/** Outcome of {@link parseJsonText}. */
export type ParseOutcome =
  | {
      ok: true;
      value: unknown;
      duplicates: DuplicateKey[];
      /** Repeated member names not listed in `duplicates` (see {@link MAX_DUPLICATES_LISTED}). */
      duplicatesOmitted: number;
      firstOmitted?: DuplicateKey;
      bigIntegers: BigIntegerLiteral[];
    }
  | { ok: false; kind: 'invalid-json'; index: number; message: string }
  | { ok: false; kind: 'max-depth'; index: number; pointer: string; depth: number };

const NO_DUPS: DuplicateKey[] = [];
const NO_BIGS: BigIntegerLiteral[] = [];
const MAX_SAFE = Number.MAX_SAFE_INTEGER;
/** Above this depth limit the value walk uses an explicit stack instead of recursion. */
const RECURSIVE_WALK_LIMIT = 2048;

// Results of the last value walk (module state: the walk runs synchronously and allocates nothing).
let walkMembers = 0;
let walkUnsafe = false;

/** Parse one JSON text exactly: JSON.parse, then a cheap screen sends only suspicious text to scanJson. */
export function parseJsonText(text: string, maxDepth: number = DEFAULT_MAX_DEPTH): ParseOutcome {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    const s = scanJson(text, { maxDepth: Number.MAX_SAFE_INTEGER });
    if (s.error) return { ok: false, kind: 'invalid-json', index: s.error.index, message: s.error.message };
    // JSON.parse and the scanner disagree: report at the start rather than guess.
    return { ok: false, kind: 'invalid-json', index: 0, message: 'expected a JSON text' };
  }
  walkMembers = 0;
  walkUnsafe = typeof value === 'number' && (value > MAX_SAFE || value < -MAX_SAFE);
  const deep =
    value !== null &&
    typeof value === 'object' &&
    (maxDepth <= RECURSIVE_WALK_LIMIT ? walk(value, 1, maxDepth) : walkIterative(value, maxDepth));
  if (deep) {
    const s = scanJson(text, { maxDepth });
    const d = s.depthExceeded ?? { pointer: '', index: 0, depth: maxDepth + 1 };
    return { ok: false, kind: 'max-depth', index: d.index, pointer: d.pointer, depth: d.depth };
  }
  if (!walkUnsafe && memberNamesInText(text) === walkMembers)
    return { ok: true, value, duplicates: NO_DUPS, duplicatesOmitted: 0, bigIntegers: NO_BIGS };
  const s = scanJson(text, { maxDepth });
  return {
    ok: true,
    value,
    duplicates: s.duplicates,
    duplicatesOmitted: s.duplicatesOmitted,
    firstOmitted: s.firstOmitted,
    bigIntegers: s.bigIntegers,
  };
}

/** Count of `":` with an unescaped quote (each ends a member name), or -1 when whitespace precedes some `:`. */
function memberNamesInText(text: string): number {
  let count = 0;
  for (let p = text.indexOf(':'); p !== -1; p = text.indexOf(':', p + 1)) {
    const c = text.charCodeAt(p - 1);
    if (c === 0x22) {
      if (text.charCodeAt(p - 2) !== 0x5c) count++;
      else {
        let k = p - 2;
        while (text.charCodeAt(k) === 0x5c) k--;
        if ((p - 2 - k) % 2 === 0) count++; // an even run of backslashes: the quote itself is real
      }
    } else if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) return -1;
  }
  return count;
}

/** Recursive walk (depth <= `maxDepth` <= 2048); returns true when nesting exceeds `maxDepth`. */
function walk(v: object, depth: number, maxDepth: number): boolean {
  if (depth > maxDepth) return true;
  if (Array.isArray(v)) {
    for (let k = 0; k < v.length; k++) {
      const x: unknown = v[k];
      if (typeof x === 'object') {
        if (x !== null && walk(x, depth + 1, maxDepth)) return true;
      } else if (typeof x === 'number' && (x > MAX_SAFE || x < -MAX_SAFE)) walkUnsafe = true;
    }
    return false;
  }
  for (const k in v) {
    walkMembers++;
    const x = (v as Record<string, unknown>)[k];
    if (typeof x === 'object') {
      if (x !== null && walk(x, depth + 1, maxDepth)) return true;
    } else if (typeof x === 'number' && (x > MAX_SAFE || x < -MAX_SAFE)) walkUnsafe = true;
  }
  return false;
}

/** The same walk with an explicit stack, for large depth limits. */
function walkIterative(root: object, maxDepth: number): boolean {
  const stack: [object, number][] = [[root, 1]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (depth > maxDepth) return true;
    const isArray = Array.isArray(v);
    const keys = isArray ? undefined : Object.keys(v);
    const n = isArray ? v.length : keys!.length;
    if (!isArray) walkMembers += n;
    for (let k = 0; k < n; k++) {
      const x: unknown = isArray ? v[k] : (v as Record<string, unknown>)[keys![k]];
      if (typeof x === 'object') {
        if (x !== null) stack.push([x, depth + 1]);
      } else if (typeof x === 'number' && (x > MAX_SAFE || x < -MAX_SAFE)) walkUnsafe = true;
    }
  }
  return false;
}

/** After this many lookups in the same text, {@link locateIndex} indexes the whole text once. */
const LOCATE_TREE_AFTER = 4;
let locText: string | undefined;
let locDepth = 0;
let locLookups = 0;
let locTree: LocNode | undefined;

/**
 * Texts of every copy of each duplicated member at `pointers`, in text order (`{"a":1,"a":2}`, `/a` -> `["1", "2"]`).
 * A full scan: only for the rare text with duplicates; absent pointers are absent, a syntax error gives an empty map.
 */
export function memberCopies(
  text: string,
  pointers: ReadonlySet<string>,
  maxDepth: number = Number.MAX_SAFE_INTEGER,
): Map<string, string[]> {
  const res = scan(text, { maxDepth, copies: pointers });
  return res.error || res.depthExceeded ? new Map() : res.copies!;
}

/** UTF-16 index of the member (its key), item or root at `pointer`; `undefined` when absent (for reported findings). */
export function locateIndex(
  text: string,
  pointer: string,
  maxDepth: number = Number.MAX_SAFE_INTEGER,
): number | undefined {
  if (text !== locText || maxDepth !== locDepth) {
    locText = text;
    locDepth = maxDepth;
    locLookups = 0;
    locTree = undefined;
  }
  if (!locTree && ++locLookups > LOCATE_TREE_AFTER) {
    locTree = { i: skipWs(text, 0) };
    scan(text, { maxDepth }, locTree);
  }
  if (!locTree) return scan(text, { maxDepth, target: pointer }).targetIndex;
  if (pointer === '') return locTree.i;
  if (!pointer.startsWith('/')) return undefined;
  let node: LocNode | undefined = locTree;
  let from = 1;
  while (node) {
    const slash = pointer.indexOf('/', from);
    node = node.c?.get(slash === -1 ? pointer.slice(from) : pointer.slice(from, slash));
    if (slash === -1) return node?.i;
    from = slash + 1;
  }
  return undefined;
}

/** The number literal as written at `pointer` (`1e400`), or `undefined`; a full scan, for values JSON.parse rounds. */
export function numberLiteralAt(text: string, pointer: string): string | undefined {
  let i = locateIndex(text, pointer);
  if (i === undefined) return undefined;
  if (pointer !== '' && text.charCodeAt(i) === 0x22) {
    // a member: skip its key and the colon
    const end = scanString(text, i);
    if (end < 0) return undefined;
    i = skipWs(text, end);
    if (text.charCodeAt(i) !== 0x3a) return undefined;
    i = skipWs(text, i + 1);
  }
  const end = scanNumber(text, i);
  return end > i ? text.slice(i, end) : undefined;
}
