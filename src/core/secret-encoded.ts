/**
 * Percent-encoded text as the detector reads it (secrets.ts): a credential in a URL-encoded query or redirect
 * (`next%3D%2Fcb%3Ftoken%3Dghp_...`) stands between encoded separators, which the patterns' boundaries would take for
 * letters (`%3Dghp_`: a `D` before `ghp_`). The view decodes every escape of ASCII punctuation, space, tab or line
 * break (RFC 3986 §2.1, either hex case) and the same escaped once more (`%253D`), and optionally `+` as a space (HTML
 * form encoding of a query), and keeps where each of its code units came from, so a match maps back to the encoded text.
 */
import type { SecretMatch } from './secret-classes.ts';

/** A decoded copy of a text and, per code unit of it, its offset in the text (`from[length]`: the text's length). */
export interface EncodedView {
  text: string;
  from: Int32Array;
}

// per code unit: the character an escape of it decodes to in the view (0: the escape stays as written)
const DECODES = new Uint16Array(128);
for (let c = 0x20; c < 0x7f; c++) if (!/[A-Za-z0-9%]/.test(String.fromCharCode(c))) DECODES[c] = c;
DECODES[0x09] = 0x09;
DECODES[0x0a] = 0x0a;
DECODES[0x0d] = 0x0d;
// an encoded `&` separates the pairs of an encoded query as a line break separates `KEY=value` lines: a value ends
// there (its `&` escaped once more, `%2526`, is part of a value and decodes to `&`, which a value runs on over)
const AMP_ONCE = 0x0a;

/** The value of a hex digit's code unit, or -1. */
function hex(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  const l = c | 0x20;
  return l >= 0x61 && l <= 0x66 ? l - 0x61 + 10 : -1;
}

/** The code the escape `%XY` at `i` of `s` stands for, or 0 when no two hex digits follow the `%`. */
function escapeAt(s: string, i: number): number {
  const hi = hex(s.charCodeAt(i + 1));
  const lo = hex(s.charCodeAt(i + 2));
  if (hi < 0 || lo < 0) return 0;
  return (hi << 4) | lo;
}

/** The view of `text`, `+` read as a space when `plus`; or undefined when it decodes nothing. */
export function encodedView(text: string, plus: boolean): EncodedView | undefined {
  const from = new Int32Array(text.length + 1);
  const decoded = decode(text, plus, from);
  return decoded === undefined ? undefined : { text: decoded, from: from.subarray(0, decoded.length + 1) };
}

/** The decoded text of {@link encodedView} alone (a screen's question), or undefined when it decodes nothing. */
export function encodedText(text: string, plus: boolean): string | undefined {
  return decode(text, plus, undefined);
}

/** `text` decoded, each code unit's offset in `text` written to `from` when given; undefined: nothing decoded. */
function decode(text: string, plus: boolean, from: Int32Array | undefined): string | undefined {
  const n = text.length;
  let out = '';
  let len = 0; // code units of the view written so far
  let runStart = 0; // the start of the text as written not yet copied
  let changed = false;
  // the next `%` and `+` (-1: none): the loop steps from one to the next
  let pct = text.indexOf('%');
  let pl = plus ? text.indexOf('+') : -1;
  for (let i = 0; i < n; ) {
    if (pct >= 0 && pct < i) pct = text.indexOf('%', i);
    if (pl >= 0 && pl < i) pl = text.indexOf('+', i);
    i = pct < 0 ? pl : pl < 0 ? pct : Math.min(pct, pl);
    if (i < 0) break;
    const c = text.charCodeAt(i);
    let code = 0;
    let width = 1;
    if (c === 0x2b && plus) code = 0x20;
    else if (c === 0x25) {
      const outer = escapeAt(text, i);
      // `%25XY`: an escape escaped once more
      const inner = outer === 0x25 ? escapeAt(text, i + 2) : 0;
      if (inner !== 0 && inner < 128 && DECODES[inner] !== 0) {
        code = DECODES[inner]!;
        width = 5;
      } else if (outer !== 0 && outer < 128 && DECODES[outer] !== 0) {
        code = outer === 0x26 ? AMP_ONCE : DECODES[outer]!;
        width = 3;
      }
    }
    if (code === 0) {
      i++;
      continue;
    }
    out += text.slice(runStart, i) + String.fromCharCode(code);
    if (from !== undefined) {
      for (let k = runStart; k < i; k++) from[len++] = k;
      from[len++] = i;
    }
    i += width;
    runStart = i;
    changed = true;
  }
  if (!changed) return undefined;
  if (from !== undefined) {
    for (let k = runStart; k < n; k++) from[len++] = k;
    from[len] = n;
  }
  return out + text.slice(runStart);
}

/**
 * The decoded reading of `text` added to `out`, the matches of the text as written (findSecrets): `text` read with `+`
 * as a space (a query's form encoding) and, where it has a `+`, as written (a base64 token's own `+`), screened by
 * `openings`, scanned by `scan`; a match counts with its range in the text as written unless a match read before holds
 * it. A secret match as written that starts inside a decoded escape is dropped: an escape's hex digits are no text
 * (`%2012345:AA...` holds the bot id `12345`, `%0AKIA...` no `AKIA`), and the decoded reading stands for it.
 */
export function readDecoded(
  text: string,
  out: SecretMatch[],
  openings: RegExp,
  scan: (decoded: string) => SecretMatch[],
): void {
  // decoding `+` adds openings (`-----BEGIN `) and removes none: this view's screen is the decoded text's
  const spaced = encodedView(text, true);
  if (spaced === undefined) return;
  let k = 0;
  for (const m of out) if (m.class === 'email' || m.class === 'phone' || atBoundary(spaced.from, m.start)) out[k++] = m;
  out.length = k;
  if (!openings.test(spaced.text)) return;
  addMapped(out, spaced, scan);
  const kept = text.indexOf('+') >= 0 ? encodedView(text, false) : undefined;
  if (kept !== undefined) addMapped(out, kept, scan);
}

/** True when `pos` of the text as written starts a code unit of the view (`from` rises: it is one of its values). */
function atBoundary(from: Int32Array, pos: number): boolean {
  let lo = 0;
  let hi = from.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (from[mid]! < pos) lo = mid + 1;
    else hi = mid;
  }
  return from[lo] === pos;
}

/** The matches of `view` in the text as written, each unless a match already in `out` holds its range. */
function addMapped(out: SecretMatch[], view: EncodedView, scan: (decoded: string) => SecretMatch[]): void {
  const before = out.length;
  for (const m of scan(view.text)) {
    const start = view.from[m.start]!;
    const end = view.from[m.end]!;
    let held = false;
    for (let i = 0; i < before && !held; i++) held = out[i]!.start <= start && out[i]!.end >= end;
    if (!held) out.push({ class: m.class, start, end });
  }
}
