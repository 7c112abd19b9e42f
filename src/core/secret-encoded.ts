/**
 * Percent-encoded text as the detector reads it (secrets.ts): a credential in a URL-encoded query or redirect
 * (`next%3D%2Fcb%3Ftoken%3Dghp_...`) stands between encoded separators, which the patterns' boundaries would take for
 * letters (`%3Dghp_`: a `D` before `ghp_`). The view decodes every escape of ASCII punctuation, space, tab or line
 * break (RFC 3986 §2.1, either hex case), every UTF-8 sequence of escapes (an invalid one, over-long forms among them, to
 * U+FFFD, as a URL decoder does), the same escaped twice or three times (`%253D`, `%25253D`), and optionally `+` as a
 * space (HTML form encoding of a query), and keeps where each of its code units came from, so a match maps back to the
 * encoded text. Escapes of ASCII letters and digits stay as written.
 */
import type { DetectorClass, SecretMatch } from './secret-classes.ts';

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
// escapes read through: once, twice, three times (`%3D`, `%253D`, `%25253D`); a fourth `%25` is read as written
const MAX_DEPTH = 3;
const REPLACEMENT = '\ufffd';

/** The value of a hex digit's code unit, or -1. */
function hex(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  const l = c | 0x20;
  return l >= 0x61 && l <= 0x66 ? l - 0x61 + 10 : -1;
}

/** The byte the two hex digits at `i` of `s` stand for, or -1. */
function hexByte(s: string, i: number): number {
  const hi = hex(s.charCodeAt(i));
  const lo = hex(s.charCodeAt(i + 1));
  return hi < 0 || lo < 0 ? -1 : (hi << 4) | lo;
}

// the escape {@link escapeAt} read last: its byte, depth (1 to MAX_DEPTH) and width in code units
let escByte = 0;
let escDepth = 0;
let escWidth = 0;

/** True when an escape stands at `i` of `s` (`%XY`, with `25` up to twice before `XY`): read into `esc*`. */
function escapeAt(s: string, i: number): boolean {
  if (s.charCodeAt(i) !== 0x25) return false;
  let p = i + 1;
  let b = hexByte(s, p);
  if (b < 0) return false;
  let depth = 1;
  while (b === 0x25 && depth < MAX_DEPTH) {
    const inner = hexByte(s, p + 2);
    if (inner < 0) break;
    p += 2;
    depth++;
    b = inner;
  }
  escByte = b;
  escDepth = depth;
  escWidth = p + 2 - i;
  return true;
}

// the UTF-8 sequence {@link utf8At} read last: what it decodes to and its width in code units
let seqText = '';
let seqWidth = 0;

/**
 * The UTF-8 sequence of escapes at `i` of `s`, its lead byte `lead` at `depth` read already (width `w`), decoded as a
 * URL decoder decodes it (WHATWG Encoding, UTF-8 decode: RFC 3629 §3): a valid sequence to its character; an over-long
 * form (`%C0%BD` for `=`), a surrogate, a stray continuation byte or a cut sequence to U+FFFD per maximal subpart, never
 * to the ASCII character an over-long form spells (RFC 3629 §10). Its continuation bytes are escapes of the same depth.
 */
function utf8At(s: string, i: number, lead: number, depth: number, w: number): void {
  let need = 0;
  let lower = 0x80;
  let upper = 0xbf;
  let cp = 0;
  if (lead >= 0xc2 && lead <= 0xdf) [need, cp] = [1, lead & 0x1f];
  else if (lead >= 0xe0 && lead <= 0xef) {
    [need, cp] = [2, lead & 0x0f];
    if (lead === 0xe0) lower = 0xa0;
    if (lead === 0xed) upper = 0x9f;
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    [need, cp] = [3, lead & 0x07];
    if (lead === 0xf0) lower = 0x90;
    if (lead === 0xf4) upper = 0x8f;
  }
  seqWidth = w;
  seqText = REPLACEMENT;
  if (need === 0) return;
  for (let k = 0; k < need; k++) {
    if (!escapeAt(s, i + seqWidth) || escDepth !== depth || escByte < lower || escByte > upper) return;
    cp = (cp << 6) | (escByte & 0x3f);
    seqWidth += escWidth;
    lower = 0x80;
    upper = 0xbf;
  }
  seqText = String.fromCodePoint(cp);
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
    let code = '';
    let width = 1;
    if (plus && text.charCodeAt(i) === 0x2b) code = ' ';
    else if (escapeAt(text, i)) {
      width = escWidth;
      if (escByte >= 0x80) {
        utf8At(text, i, escByte, escDepth, escWidth);
        code = seqText;
        width = seqWidth;
      } else if (escByte === 0x26) {
        // an encoded `&` separates the pairs of an encoded query as a line break separates `KEY=value` lines: a value
        // ends there; escaped once more (`%2526`) it may be a value's own `&` and stays as written, so that a value runs
        // on over it (a plain `&` would end one in a query, secrets.ts)
        if (escDepth === 1) code = '\n';
      } else if (DECODES[escByte] !== 0) code = String.fromCharCode(DECODES[escByte]!);
    }
    if (code === '') {
      i++;
      continue;
    }
    out += text.slice(runStart, i) + code;
    if (from !== undefined) {
      for (let k = runStart; k < i; k++) from[len++] = k;
      // both halves of a surrogate pair come from the sequence's first escape
      for (let k = 0; k < code.length; k++) from[len++] = i;
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
 * as a space (a query's form encoding) and, where it has a `+`, as written (a base64 token's own `+`), scanned by `scan`
 * for the classes `classesOf` screens the first view for; a match counts with its range in the text as written unless a
 * match read before holds it. A secret match as written that starts inside a decoded escape is dropped: an escape's hex
 * digits are no text (`%2012345:AA...` holds the bot id `12345`, `%0AKIA...` no `AKIA`), and the decoded reading stands
 * for it.
 */
export function readDecoded(
  text: string,
  out: SecretMatch[],
  classesOf: (decoded: string) => readonly DetectorClass[],
  scan: (decoded: string, classes: readonly DetectorClass[]) => SecretMatch[],
): void {
  // decoding `+` adds openings (`-----BEGIN `) and phone separators and removes none: this view's screen is the decoded
  // text's
  const spaced = encodedView(text, true);
  if (spaced === undefined) return;
  let k = 0;
  for (const m of out) if (m.class === 'email' || m.class === 'phone' || atBoundary(spaced.from, m.start)) out[k++] = m;
  out.length = k;
  const classes = classesOf(spaced.text);
  if (classes.length === 0) return;
  addMapped(out, spaced, (t) => scan(t, classes));
  const kept = text.indexOf('+') >= 0 ? encodedView(text, false) : undefined;
  if (kept !== undefined) addMapped(out, kept, (t) => scan(t, classes));
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

/**
 * True when the email address that ends at `end` of `text` is followed by a colon, as written or escaped: a URL's
 * `user@host:port` or an SSH address's `git@host:path` names a host, not a mailbox.
 */
export function hostColonAt(text: string, end: number): boolean {
  return (
    text.charCodeAt(end) === 0x3a || (text.charCodeAt(end) === 0x25 && ESCAPED_COLON.test(text.slice(end, end + 9)))
  );
}
const ESCAPED_COLON = /^%(?:25){0,2}3a/i;
