/**
 * The copies of repeated member names in a JSON text: which repeated members have copies with
 * different values. `JSON.parse` keeps the last copy and another reader may keep the first
 * (RFC 8259 §4: with duplicate names "the behavior of software that receives such an object is
 * unpredictable"), so a verdict that reads such a member would depend on member order. Callers
 * use {@link differingCopies} to decide whether a parsed value is determined at all: when every
 * repeated member's copies are equal JSON values it is, whichever copy a reader keeps.
 *
 * Runs only on texts that {@link parseJsonText} (json.ts) accepted and found repeated names in
 * (the rare path); recursion is bounded by the depth limit that parse enforced.
 */
import { pointerOf } from './pointer.ts';

/** Index just past the JSON string starting at `i` (a `"`). */
function stringEnd(text: string, i: number): number {
  let j = i + 1;
  for (;;) {
    const c = text.charCodeAt(j);
    if (c === 0x22) return j + 1;
    j += c === 0x5c ? 2 : 1;
  }
}

function skipWs(text: string, i: number): number {
  for (;;) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) i++;
    else return i;
  }
}

/**
 * Walk the value at `i`; returns the index just past it. Repeated members of every object met
 * are collected into `out`, one entry per object and name (the raw texts of its copies, in text order).
 */
function walk(text: string, i: number, path: (string | number)[], out: Array<{ pointer: string; texts: string[] }>): number {
  const c = text.charCodeAt(i);
  if (c === 0x22) return stringEnd(text, i);
  if (c === 0x7b /* { */) {
    const copies = new Map<string, Array<[number, number]>>();
    let j = skipWs(text, i + 1);
    if (text.charCodeAt(j) === 0x7d) return j + 1;
    for (;;) {
      const kEnd = stringEnd(text, j);
      const key = JSON.parse(text.slice(j, kEnd)) as string;
      const vStart = skipWs(text, skipWs(text, kEnd) + 1);
      path.push(key);
      const vEnd = walk(text, vStart, path, out);
      path.pop();
      const list = copies.get(key);
      if (list) list.push([vStart, vEnd]);
      else copies.set(key, [[vStart, vEnd]]);
      j = skipWs(text, vEnd);
      if (text.charCodeAt(j) === 0x7d) break;
      j = skipWs(text, j + 1);
    }
    for (const [key, spans] of copies) {
      if (spans.length < 2) continue;
      out.push({ pointer: pointerOf([...path, key]), texts: spans.map(([a, b]) => text.slice(a, b)) });
    }
    return j + 1;
  }
  if (c === 0x5b /* [ */) {
    let j = skipWs(text, i + 1);
    if (text.charCodeAt(j) === 0x5d) return j + 1;
    for (let n = 0; ; n++) {
      path.push(n);
      j = skipWs(text, walk(text, j, path, out));
      path.pop();
      if (text.charCodeAt(j) === 0x5d) return j + 1;
      j = skipWs(text, j + 1);
    }
  }
  // a number or a literal
  let j = i;
  for (;;) {
    const d = text.charCodeAt(j);
    if (j >= text.length || d === 0x2c || d === 0x7d || d === 0x5d || d === 0x20 || d === 0x09 || d === 0x0a || d === 0x0d) return j;
    j++;
  }
}

/** Canonical JSON text of a parsed value (object members sorted), for comparing copies. */
function canonical(v: unknown): string {
  if (v === null || typeof v !== 'object') return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  const o = v as Record<string, unknown>;
  return `{${Object.keys(o)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
    .join(',')}}`;
}

/**
 * The JSON Pointers of the repeated members of `text` (valid JSON) whose copies are not all the
 * same JSON value within one object (member order and whitespace do not count; copies are compared
 * as `JSON.parse` reads them, so a nested repeat inside a copy is judged at its own pointer). Big
 * integers are compared as `JSON.parse` rounds them. Empty when every
 * repeated member's copies are equal, i.e. the value does not depend on which copy a reader keeps.
 */
export function differingCopies(text: string): string[] {
  const out: Array<{ pointer: string; texts: string[] }> = [];
  walk(text, skipWs(text, 0), [], out);
  const differ = new Set<string>();
  for (const { pointer, texts } of out) {
    const first = canonical(JSON.parse(texts[0]!));
    if (texts.some((t) => canonical(JSON.parse(t)) !== first)) differ.add(pointer);
  }
  return [...differ];
}
