/** The JSON scanner under json.ts: duplicates (RFC 8259 §4), exact big integers, depth, syntax errors, positions. */
import { escapeToken, pointerOf } from './pointer.ts';
import { codePointName, visible } from './visible.ts';

/** Default maximum nesting depth of arrays/objects (the root object is depth 1). */
export const DEFAULT_MAX_DEPTH = 256;

/**
 * Repeated names listed per text, top-level and nested apart; the rest are counted (a million repeats stay one count).
 */
export const MAX_DUPLICATES_LISTED = 1000;

/** A duplicate object member: `pointer` names the member, `index` is the UTF-16 index of its second key. */
export interface DuplicateKey {
  pointer: string;
  key: string;
  index: number;
}

/** An integer literal that `JSON.parse` cannot represent exactly (|n| > 2^53 - 1). */
export interface BigIntegerLiteral {
  pointer: string;
  text: string;
  index: number;
}

/** Result of the full scanner. `index` values are UTF-16 code unit indexes into the text. */
export interface ScanResult {
  error?: { index: number; message: string };
  /** Nesting deeper than the limit: the first container that crossed it. */
  depthExceeded?: { pointer: string; index: number; depth: number };
  /** At most MAX_DUPLICATES_LISTED top-level and as many nested repeats, in text order. */
  duplicates: DuplicateKey[];
  duplicatesOmitted: number;
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

/** Positions of every member key / array item by escaped reference token; the first occurrence of a pointer wins. */
export interface LocNode {
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
 * Scan JSON text (RFC 8259) without recursion: first syntax error, duplicates, big integers, the first container deeper
 * than `maxDepth`, `target`'s position. Stops at the first syntax error or depth excess.
 */
export function scanJson(text: string, opts: ScanOptions = {}): ScanResult {
  return scan(text, opts);
}

/** The scanner; with `tree`, also records the location of every member and item in it. */
export function scan(text: string, opts: ScanOptions, tree?: LocNode): ScanResult {
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

export function skipWs(text: string, i: number): number {
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c < 128 && WS[c]) i++;
    else break;
  }
  return i;
}

/** Returns the index after the closing quote, or `-(errorIndex + 1)`. */
export function scanString(text: string, start: number): number {
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
export function scanNumber(text: string, start: number): number {
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
