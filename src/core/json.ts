/**
 * JSON parsing with locations, duplicate-key detection, exact big integers and a depth limit.
 *
 * `JSON.parse` is fast but silent about three things a conformance tool must not be silent
 * about: duplicate object member names (it keeps the last one; RFC 8259 §4 says names
 * SHOULD be unique and behaviour is then unpredictable), integers beyond 2^53 (it rounds
 * them), and where in the text something is. {@link parseJsonText} uses `JSON.parse` for the
 * value and a cheap screen to decide whether the full scanner ({@link scanJson}) must run;
 * {@link locateIndex} finds the text position of a JSON Pointer on demand (only when a
 * finding is reported).
 */
import { escapeToken, pointerOf } from './pointer.ts';
import { codePointName, visible } from './visible.ts';

/** Default maximum nesting depth of arrays/objects (the root object is depth 1). */
export const DEFAULT_MAX_DEPTH = 256;

/**
 * Most repeated member names listed per text, top-level and nested counted apart; the rest
 * are counted (a line of a million repeats must not become a million findings in memory).
 */
const MAX_DUPLICATES_LISTED = 1000;

/** A duplicate object member: `pointer` names the member, `index` is the UTF-16 index of its second key. */
export interface DuplicateKey {
  pointer: string;
  key: string;
  index: number;
}

/** An integer literal that `JSON.parse` cannot represent exactly (|n| > 2^53 - 1). */
export interface BigIntegerLiteral {
  pointer: string;
  /** The literal text exactly as written, e.g. `9007199254740993`. */
  text: string;
  index: number;
}

/** Result of the full scanner. `index` values are UTF-16 code unit indexes into the text. */
export interface ScanResult {
  /** Syntax error: where and what was expected. */
  error?: { index: number; message: string };
  /** Nesting deeper than the limit: the first container that crossed it. */
  depthExceeded?: { pointer: string; index: number; depth: number };
  /**
   * Repeated member names in text order: at most {@link MAX_DUPLICATES_LISTED} top-level
   * ones and as many nested ones (a top-level repeat, if any, is always listed).
   */
  duplicates: DuplicateKey[];
  /** Repeats beyond those listed in `duplicates` (counted, not listed). */
  duplicatesOmitted: number;
  /** Where the first omitted repeat is, when some were omitted. */
  firstOmitted?: DuplicateKey;
  bigIntegers: BigIntegerLiteral[];
  /** When a `target` pointer was given: index of its member key (or value, for array items/root). */
  targetIndex?: number;
  /** When `copies` was given: the text of every value at each of those pointers, in text order. */
  copies?: Map<string, string[]>;
}

/** Options for {@link scanJson}. */
export interface ScanOptions {
  maxDepth?: number;
  /** A JSON Pointer to locate. */
  target?: string;
  /** JSON Pointers whose every value text to collect, in text order ({@link memberCopies}). */
  copies?: ReadonlySet<string>;
}

interface Frame {
  isObject: boolean;
  keys: Set<string> | null;
  count: number;
  /** Location node of this container (only when building a location tree). */
  node?: LocNode;
  /** When collecting copies: the pointer this container is a value of, and where it starts. */
  copyOf?: string;
  start?: number;
}

/**
 * Location tree of one text: the index of every member key / array item, keyed by escaped
 * reference token; the first occurrence of a pointer wins (as in a targeted scan).
 */
interface LocNode {
  i: number;
  c?: Map<string, LocNode>;
}

const WS = new Uint8Array(128);
WS[0x20] = 1;
WS[0x09] = 1;
WS[0x0a] = 1;
WS[0x0d] = 1;

function describeChar(text: string, i: number): string {
  if (i >= text.length) return 'end of input';
  const c = text.codePointAt(i)!;
  if (c < 0x20 || c === 0x7f) return `control character ${codePointName(c)}`;
  const ch = String.fromCodePoint(c);
  // an invisible character is named, never printed (src/core/visible.ts)
  return visible(ch) === ch
    ? `'${ch}'`
    : c === 0xfeff
      ? 'a byte order mark (U+FEFF)'
      : `invisible character ${codePointName(c)}`;
}

/**
 * Scan JSON text fully (RFC 8259 grammar), never recursing, so any depth is safe.
 * Reports the first syntax error, every duplicate member name, every integer literal beyond
 * the safe range, the first container deeper than `maxDepth`, and the position of `target`.
 * Scanning stops at the first syntax error or depth excess.
 */
export function scanJson(text: string, opts: ScanOptions = {}): ScanResult {
  return scan(text, opts);
}

/** The scanner; with `tree`, also records the location of every member and item in it. */
function scan(text: string, opts: ScanOptions, tree?: LocNode): ScanResult {
  const maxDepth = opts.maxDepth ?? DEFAULT_MAX_DEPTH;
  const target = opts.target;
  const res: ScanResult = { duplicates: [], duplicatesOmitted: 0, bigIntegers: [] };
  const copies = opts.copies;
  if (copies) res.copies = new Map();
  const addCopy = (pointer: string, from: number, to: number) => {
    const list = res.copies!.get(pointer);
    if (list) list.push(text.slice(from, to));
    else res.copies!.set(pointer, [text.slice(from, to)]);
  };
  let topListed = 0;
  let nestedListed = 0;
  if (target === '') res.targetIndex = skipWs(text, 0);
  // the target as escaped tokens, matched incrementally (comparing whole pointers per value
  // would cost O(depth) each: quadratic on deep input)
  const targetTokens = target?.startsWith('/') ? target.slice(1).split('/') : undefined;
  let match = 0; // leading path tokens equal to targetTokens
  let lastNode: LocNode | undefined = tree; // node of the value being entered
  const n = text.length;
  const stack: Frame[] = [];
  const path: (string | number)[] = [];
  let i = 0;
  // states: 0 expect value, 1 after value, 2 expect key (or '}' when empty), 3 expect key (after ',')
  let state = 0;
  const fail = (index: number, expected: string): ScanResult => {
    res.error = { index, message: `expected ${expected} but found ${describeChar(text, index)}` };
    return res;
  };
  const pushToken = (token: string | number, index: number) => {
    path.push(token);
    if (
      targetTokens &&
      match === path.length - 1 &&
      match < targetTokens.length &&
      escapeToken(token) === targetTokens[match]
    )
      match++;
    if (tree) {
      const parent = stack[stack.length - 1].node;
      if (!parent) lastNode = undefined;
      else {
        const k = escapeToken(token);
        parent.c ??= new Map();
        lastNode = parent.c.get(k);
        if (!lastNode) parent.c.set(k, (lastNode = { i: index }));
      }
    }
    if (targetTokens && res.targetIndex === undefined && match === targetTokens.length && path.length === match)
      res.targetIndex = index;
  };
  const popToken = () => {
    path.pop();
    if (match > path.length) match = path.length;
  };
  while (true) {
    i = skipWs(text, i);
    if (state === 0) {
      if (i >= n) return fail(i, 'a value');
      if (stack.length && !stack[stack.length - 1].isObject) {
        // array item
        pushToken(stack[stack.length - 1].count, i);
      }
      const c = text.charCodeAt(i);
      // only when collecting copies (rare: the text has duplicate members) is each value's pointer built
      const copyOf = copies && copies.size > 0 ? pointerOf(path) : undefined;
      const collect = copyOf !== undefined && copies!.has(copyOf);
      if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
        if (stack.length + 1 > maxDepth) {
          res.depthExceeded = { pointer: pointerOf(path), index: i, depth: stack.length + 1 };
          return res;
        }
        const isObject = c === 0x7b;
        const start = i;
        stack.push({
          isObject,
          keys: isObject ? new Set() : null,
          count: 0,
          node: lastNode,
          ...(collect ? { copyOf, start } : {}),
        });
        i++;
        const j = skipWs(text, i);
        if (text.charCodeAt(j) === (isObject ? 0x7d : 0x5d)) {
          i = j + 1;
          if (collect) addCopy(copyOf!, start, i);
          stack.pop();
          state = 1;
        } else {
          state = isObject ? 2 : 0;
        }
        continue;
      }
      let end: number;
      if (c === 0x22) {
        end = scanString(text, i);
        if (end < 0) return fail(-end - 1, stringExpectation(text, -end - 1));
      } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
        end = scanNumber(text, i);
        if (end < 0) return fail(-end - 1, 'a digit');
        if (end - i >= 16) {
          const lit = text.slice(i, end);
          if (/^-?\d{16,}$/.test(lit) && !Number.isSafeInteger(Number(lit)))
            res.bigIntegers.push({ pointer: pointerOf(path), text: lit, index: i });
        }
      } else if (text.startsWith('true', i)) end = i + 4;
      else if (text.startsWith('false', i)) end = i + 5;
      else if (text.startsWith('null', i)) end = i + 4;
      else return fail(i, 'a value');
      if (collect) addCopy(copyOf!, i, end);
      i = end;
      state = 1;
      continue;
    }
    if (state === 1) {
      // after a value: pop the path token of the finished value
      if (stack.length === 0) {
        if (i < n) return fail(i, 'end of input');
        break;
      }
      const top = stack[stack.length - 1];
      popToken();
      top.count++;
      const c = text.charCodeAt(i);
      if (c === 0x2c /* , */) {
        i++;
        state = top.isObject ? 3 : 0;
        continue;
      }
      if (c === (top.isObject ? 0x7d : 0x5d)) {
        i++;
        if (top.copyOf !== undefined) addCopy(top.copyOf, top.start!, i);
        stack.pop();
        state = 1;
        continue;
      }
      return fail(i, top.isObject ? "',' or '}'" : "',' or ']'");
    }
    // state 2/3: expect a key
    if (text.charCodeAt(i) !== 0x22) return fail(i, state === 2 ? "a member name or '}'" : 'a member name');
    const end = scanString(text, i);
    if (end < 0) return fail(-end - 1, stringExpectation(text, -end - 1));
    const raw = text.slice(i + 1, end - 1);
    const key = raw.includes('\\') ? (JSON.parse(text.slice(i, end)) as string) : raw;
    const top = stack[stack.length - 1];
    pushToken(key, i);
    if (!top.keys!.has(key)) top.keys!.add(key);
    else if (stack.length === 1 ? topListed++ < MAX_DUPLICATES_LISTED : nestedListed++ < MAX_DUPLICATES_LISTED)
      res.duplicates.push({ pointer: pointerOf(path), key, index: i });
    else if (res.duplicatesOmitted++ === 0) res.firstOmitted = { pointer: pointerOf(path), key, index: i };
    i = skipWs(text, end);
    if (text.charCodeAt(i) !== 0x3a) return fail(i, "':'");
    i++;
    // the member value: state 0 parses it (it pushes a token only for array items)
    state = 0;
  }
  return res;
}

function skipWs(text: string, i: number): number {
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c < 128 && WS[c]) i++;
    else break;
  }
  return i;
}

/** Returns the index after the closing quote, or `-(errorIndex + 1)`. */
function scanString(text: string, start: number): number {
  const n = text.length;
  let i = start + 1;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x22) return i + 1;
    if (c < 0x20) return -(i + 1);
    if (c === 0x5c) {
      const e = text.charCodeAt(i + 1);
      if (e === 0x75 /* u */) {
        if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) return -(i + 1);
        i += 6;
        continue;
      }
      if (
        e === 0x22 ||
        e === 0x5c ||
        e === 0x2f ||
        e === 0x62 ||
        e === 0x66 ||
        e === 0x6e ||
        e === 0x72 ||
        e === 0x74
      ) {
        i += 2;
        continue;
      }
      return -(i + 1);
    }
    i++;
  }
  return -(n + 1);
}

function stringExpectation(text: string, i: number): string {
  if (i >= text.length) return "a closing '\"'";
  const c = text.charCodeAt(i);
  if (c < 0x20) return 'no raw control character inside a string (escape it)';
  return 'a valid escape sequence';
}

/** Returns the index after the number, or `-(errorIndex + 1)`. */
function scanNumber(text: string, start: number): number {
  let i = start;
  if (text.charCodeAt(i) === 0x2d) i++;
  const d0 = text.charCodeAt(i);
  if (d0 === 0x30) i++;
  else if (d0 >= 0x31 && d0 <= 0x39) {
    while (isDigit(text.charCodeAt(i))) i++;
  } else return -(i + 1);
  if (text.charCodeAt(i) === 0x2e) {
    i++;
    if (!isDigit(text.charCodeAt(i))) return -(i + 1);
    while (isDigit(text.charCodeAt(i))) i++;
  }
  const e = text.charCodeAt(i);
  if (e === 0x65 || e === 0x45) {
    i++;
    const s = text.charCodeAt(i);
    if (s === 0x2b || s === 0x2d) i++;
    if (!isDigit(text.charCodeAt(i))) return -(i + 1);
    while (isDigit(text.charCodeAt(i))) i++;
  }
  return i;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** Outcome of {@link parseJsonText}. */
export type ParseOutcome =
  | {
      ok: true;
      value: unknown;
      duplicates: DuplicateKey[];
      /** Repeated member names not listed in `duplicates` (see {@link MAX_DUPLICATES_LISTED}). */
      duplicatesOmitted: number;
      /** The first of them, when `duplicatesOmitted > 0`. */
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

/**
 * Parse one JSON text exactly.
 *
 * Uses `JSON.parse` for the value, then a screen:
 * - a walk over the parsed value counts object members, finds numbers whose magnitude is at
 *   least 2^53 (any integer literal beyond the safe range parses to one: rounding is monotone)
 *   and stops at `maxDepth`;
 * - one pass over the `:` characters of the text counts those right after an unescaped `"`
 *   (every member name ends that way unless whitespace separates it from its colon, which
 *   sends the text to the full scan; inside strings quotes are escaped). A duplicate member
 *   lowers the parsed count, so the two counts are equal only when there is none.
 * Only text that fails the screen is scanned in full by {@link scanJson}; the verdict never
 * depends on which member `JSON.parse` kept.
 *
 * Never throws; never recurses deeper than `maxDepth` (nor deeper than 2048 frames).
 */
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

/**
 * Number of `":` sequences in `text` whose quote is not escaped, or -1 when some `:` follows
 * JSON whitespace (then the count cannot be compared and the caller scans in full). In JSON
 * text an unescaped `"` right before `:` can only end a member name: inside a string every
 * quote is escaped, and a string value is never followed by `:`. So embedded JSON in string
 * values (`"{\"a\":1}"`) does not disturb the count.
 */
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
 * The copies of duplicated members: for each JSON Pointer in `pointers`, the text of every
 * member value (or item) at it, in text order (`{"a":1,"a":2}` and `/a` give `["1", "2"]`;
 * inside a repeated parent, the copies of both parents count). Texts, not values, so that a
 * caller can compare copies exactly (big integers, see canonical.ts). Generic and costly (a
 * full scan that builds each value's pointer), so meant for the rare text whose parse
 * reported duplicates ({@link ParseOutcome}); a pointer absent from the text is absent from
 * the map, and a syntax error or depth excess (not expected: the text was already parsed)
 * gives an empty map. The text was parsed under the run's depth limit already, so by default
 * no other limit applies here (the scan never recurses).
 */
export function memberCopies(
  text: string,
  pointers: ReadonlySet<string>,
  maxDepth: number = Number.MAX_SAFE_INTEGER,
): Map<string, string[]> {
  const res = scan(text, { maxDepth, copies: pointers });
  return res.error || res.depthExceeded ? new Map() : res.copies!;
}

/**
 * UTF-16 index in `text` of the member named by `pointer` (its key) or of the array item /
 * root value; `undefined` when the pointer names nothing in the text. Use only when a
 * finding is reported: the first few lookups in a text scan it once each; from the fifth on,
 * the whole text is indexed once (a tree of member and item positions, kept for the last
 * text only), so a line with thousands of findings is never scanned thousands of times.
 * Meant for text already parsed under the run's depth limit: by default no other applies.
 */
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

/**
 * The number literal exactly as written for the member named by `pointer` (e.g. `1e400`,
 * `9007199254740993.0`), or `undefined` when the pointer names no number in the text.
 * Full scan: use only for values `JSON.parse` cannot represent exactly.
 */
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

/** Largest decimal exponent {@link exactIntegerOfLiteral} expands (bounds the bigint's size). */
export const MAX_EXACT_EXPONENT = 4096;

/**
 * The exact integer value of a JSON number literal, also in fraction or exponent form
 * (`1e3` -> 1000n, `9007199254740993.0` -> 9007199254740993n). Returns `'fraction'` when the
 * value is not a whole number and `'too-large'` when its exponent exceeds
 * {@link MAX_EXACT_EXPONENT}; `undefined` when `lit` is not a JSON number.
 */
export function exactIntegerOfLiteral(lit: string): bigint | 'fraction' | 'too-large' | undefined {
  const m = /^(-?)(0|[1-9][0-9]*)(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?$/.exec(lit);
  if (!m) return undefined;
  const [, sign, int, frac = '', expText = '0'] = m;
  const digits = (int + frac).replace(/^0+(?=\d)/, '');
  if (/^0+$/.test(digits)) return 0n;
  const exp = Number(expText) - frac.length;
  if (!Number.isFinite(exp) || Math.abs(exp) > MAX_EXACT_EXPONENT) return exp > 0 ? 'too-large' : 'fraction';
  let v: bigint;
  if (exp >= 0) v = BigInt(digits) * 10n ** BigInt(exp);
  else {
    const cut = digits.length + exp;
    const tail = cut > 0 ? digits.slice(cut) : digits;
    if (!/^0*$/.test(tail)) return 'fraction';
    v = cut > 0 ? BigInt(digits.slice(0, cut)) : 0n;
  }
  return sign ? -v : v;
}

/**
 * The exact order of two JSON number literals (`1e400` < `2e400`, `-1e400` < `1`), also where
 * both round to the same double or overflow it: -1, 0 or 1; `undefined` when either is not a
 * JSON number. The exponents are compared as bigints, so no literal is too large.
 */
export function compareNumberLiterals(a: string, b: string): -1 | 0 | 1 | undefined {
  const x = decimalOf(a);
  const y = decimalOf(b);
  if (!x || !y) return undefined;
  if (x.sign !== y.sign) return x.sign < y.sign ? -1 : 1;
  if (x.sign === 0) return 0;
  // same sign, both non-zero: compare the magnitudes by the place of their first digit, then digit by digit
  let m: -1 | 0 | 1;
  if (x.top !== y.top) m = x.top < y.top ? -1 : 1;
  else {
    const n = Math.max(x.digits.length, y.digits.length);
    const dx = x.digits.padEnd(n, '0');
    const dy = y.digits.padEnd(n, '0');
    m = dx === dy ? 0 : dx < dy ? -1 : 1;
  }
  return x.sign < 0 ? ((-m || 0) as -1 | 0 | 1) : m;
}

/** A JSON number literal as sign, significant digits (no leading or trailing zeros) and the place of the first one (`12e3`: "12", 5). */
function decimalOf(lit: string): { sign: -1 | 0 | 1; digits: string; top: bigint } | undefined {
  const m = /^(-?)(0|[1-9][0-9]*)(?:\.([0-9]+))?(?:[eE]([+-]?[0-9]+))?$/.exec(lit);
  if (!m) return undefined;
  const [, neg, int, frac = '', expText = '0'] = m;
  const all = int + frac;
  const lead = all.search(/[1-9]/);
  if (lead < 0) return { sign: 0, digits: '', top: 0n };
  const digits = all.slice(lead).replace(/0+$/, '');
  // value = 0.<all> * 10^(int.length + exp); the first non-zero digit sits `lead` places further right
  const top = BigInt(int.length - lead) + BigInt(expText);
  return { sign: neg ? -1 : 1, digits, top };
}
