/**
 * The one credential and PII detector (AEP-0003 §9.4): `aep redact`, the AEP leak rules and the AHP credential rules
 * all read it, so one string gets one verdict. Tiers: `floor` (rule (a)), `hardening` ("adapters MAY redact more"), PII
 * (d). Linear scans: matches start only at a run boundary or keyword, quantified parts are separated or atomic, PEM by
 * indexOf. The classes are in secret-classes.ts, the patterns in secret-patterns.ts.
 */
import {
  FLOOR_SECRET_CLASSES,
  HARDENING_SECRET_CLASSES,
  type DetectorClass,
  type SecretClass,
  type SecretMatch,
} from './secret-classes.ts';
import {
  ASSIGNMENT,
  AUTH_BEFORE,
  AUTH_HEADER,
  AWS_KEY,
  AWS_KEY_ID,
  AWS_SECRET_NAMED,
  AZURE_CLIENT_SECRET,
  AZURE_CONNECTION_KEY,
  AZURE_KEY,
  AZURE_NAMED_KEY,
  BASIC,
  BEARER,
  EMAIL,
  JWT,
  JWT_UNSIGNED,
  MARKER,
  findPem,
  PHONE,
  PII_SCREEN,
  PIN,
  PROVIDER,
  SECRET_NAME,
  SECRET_OPENINGS,
  SECRET_NAME_UPPER,
  TELEGRAM,
  URL_CREDENTIALS,
  URL_PLACEHOLDER,
} from './secret-patterns.ts';
import { readDecoded } from './secret-encoded.ts';
export { hostColonAt } from './secret-encoded.ts';
import { TextMemo } from './text-memo.ts';

import { blockEnd, inQuery, proseValueEnd } from './secret-values.ts';

export * from './secret-classes.ts';
export { mayHoldPii, mayHoldSecret } from './secret-patterns.ts';

const hasLetterOnly = /^[A-Za-z]+$/;
// a capital after the first letter, as in a random mixed-case string, never in a prose word
const innerCapital = /^.[^A-Z]*[A-Z]/;

function pushAll(
  re: RegExp,
  text: string,
  cls: DetectorClass,
  out: SecretMatch[],
  group?: (m: RegExpExecArray) => [number, number] | undefined,
): void {
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    if (m[0].length === 0) {
      re.lastIndex++;
      continue;
    }
    const r = group ? group(m) : [m.index, m.index + m[0].length];
    if (!r) continue;
    out.push({ class: cls, start: r[0], end: r[1] });
    // a value that runs on past the match (an assignment's whole value) is not scanned again
    if (r[1] > re.lastIndex) re.lastIndex = r[1];
  }
}

// an auth scheme or any one word (`Bearer`, `Basic`, `token`, `Scheme1`, `AWS4-HMAC-SHA256`)
const SCHEME_WORD = /^[A-Za-z][A-Za-z0-9_-]{0,23}$/;
// the word after it, when token-shaped: 8 or more token characters with a digit or an inner capital
const NEXT_WORD = /[ \t]+([A-Za-z0-9\-._~+/]{8,}=*)(?=$|[\s"',;)\]}])/y;
const MARK_AFTER = /[ \t]+(?:\[REDACTED[^\]\s]*\]|<redacted>|\*{3,})/iy;
const TOKEN_CHAR = /[A-Za-z0-9\-._~+/]/;
const OPENERS = '{([';
const CLOSERS = '})]';
// trailing closers and quotes of a run, which belong to the text around a value, not to it
const TRAILING_CHARS = `"'\`,;)]}`;
const SPACE = /\s/;

/** True when `w` reads as a credential rather than a word: a digit, or a capital after its first letter. */
function tokenShaped(w: string): boolean {
  return /[0-9]/.test(w) || innerCapital.test(w);
}

/** The end of a bare value that opens a bracket it does not close: its close on the line, or the line's end. */
function bracketEnd(text: string, from: number, depth: number): number {
  let quote = '';
  for (let i = from; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\n' || c === '\r') return i;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
    } else if (c === '"' || c === "'" || c === '`') quote = c;
    else if (OPENERS.includes(c)) depth++;
    else if (CLOSERS.includes(c) && --depth === 0) return i + 1;
  }
  return text.length;
}

/** The end of the non-space run at `from`, without the closers and quotes it ends with (one pass each way). */
function runEnd(text: string, from: number): number {
  let e = from;
  while (e < text.length && !SPACE.test(text[e]!)) e++;
  while (e > from && TRAILING_CHARS.includes(text[e - 1]!)) e--;
  return e;
}

// what may stand before the keyword on a `KEY: value` line: indentation, `export `, a list dash, the rest of the name
const LINE_KEY = /(?:^|\n)[ \t]*(?:export[ \t]+|-[ \t]+)?[A-Za-z0-9_.-]*$/;
const LINE_VALUE_END = /\s(?:#|&&|\|\|?\s)|;(?:\s|$)/;
// a mark later on the line: the value was redacted already, and the words before it are not the secret
const MARK_AFTER_ANY = /\[REDACTED[^\]\s]*\]|<redacted>|\*{3,}/i;

const NUMBER_BEFORE_CLOSERS = /^-?[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?(?=[,)\]}]+$)/;

// a YAML block scalar indicator (`|`, `>-`, `|2+`): the value is on the lines below
const BLOCK_SCALAR = /^[|>](?:[1-9]?[+-]?|[+-][1-9])$/;

/** True when the keyword at `at` is part of an unquoted key that starts its line (looked for at most 64 back). */
function startsLine(text: string, at: number): boolean {
  const from = Math.max(0, at - 64);
  const before = text.slice(from, at);
  return LINE_KEY.test(before) && (from === 0 || before.includes('\n'));
}

/**
 * The whole value of an assignment match (AEP-0003 §9.4 a replaces the *value*), or undefined when the value is a
 * marker or empty. The value is the whole value wherever it starts: the rest of a `KEY: value` line (a passphrase of
 * several words) or the YAML block below `KEY: |`, the text between triple quotes, a scheme word and the token after it
 * (`NAME_TOKEN: Scheme1 <token>`), a bare value that opens a bracket up to its close (`Ctor{..., Create: '<secret>'}`),
 * a quoted value whose closing quote is followed by more token text (a doubly wrapped `"name = "<token>""`).
 */
function assignmentValue(text: string, m: RegExpExecArray): [number, number] | undefined {
  const g = m.groups!;
  const v = g.dq ?? g.sq ?? g.bare ?? '';
  const which = g.dq !== undefined ? 'dq' : g.sq !== undefined ? 'sq' : 'bare';
  const [start, end] = m.indices!.groups![which]!;
  if (which !== 'bare') {
    const q = which === 'dq' ? '"' : "'";
    // a triple-quoted string (`password = """..."""`): the value is what stands between the triple quotes
    if (v.length === 0 && text[end + 1] === q) {
      const close = text.indexOf(q.repeat(3), end + 2);
      const e = close < 0 ? text.length : close;
      return e > end + 2 && !MARKER.test(text.slice(end + 2, e)) ? [end + 2, e] : undefined;
    }
    // a closing quote followed by token text closed nothing: the value runs on to the end of that run
    const after = end + 1;
    if (after < text.length && TOKEN_CHAR.test(text[after]!)) {
      const e = runEnd(text, after);
      if (e > after) return [start, e];
    }
    return v.length === 0 || MARKER.test(v) ? undefined : [start, end];
  }
  // in a query (the name after `?` or `&`), a plain `&` ends the pair as an encoded one does (WHATWG URL
  // application/x-www-form-urlencoded parsing splits on it): `?password=<v>&next=/home`
  if (g.op === '=' && inQuery(text, m.index)) {
    const amp = v.indexOf('&');
    if (amp >= 0) return amp === 0 || MARKER.test(v.slice(0, amp)) ? undefined : [start, start + amp];
  }
  if (MARKER.test(v)) return undefined;
  // a `KEY: value` / `KEY=value` line (YAML, .env, properties): the value is the rest of the line, up to a ` #` comment
  // or a shell separator
  if ((g.op === ':' || g.op === '=') && startsLine(text, m.index)) {
    if (g.op === ':' && BLOCK_SCALAR.test(v)) return [start, blockEnd(text, m.index, end)];
    let e = text.indexOf('\n', end);
    if (e < 0) e = text.length;
    // a comment, or a shell's next command (`KEY=v && run`, `KEY=v; run`: its `;` ends the bare match), ends it
    const stop = text.slice(start, e).search(LINE_VALUE_END);
    if (stop >= 0) e = start + stop;
    while (e > start && SPACE.test(text[e - 1]!)) e--;
    if (e > start && !MARK_AFTER_ANY.test(text.slice(end, Math.max(end, e)))) return [start, e];
  }
  // a JSON number before the commas and closers that end its member (`{"api_key": 12345678901234, ...}`) is the value
  const num = NUMBER_BEFORE_CLOSERS.exec(v);
  if (num) return [start, start + num[0].length];
  let depth = 0;
  for (const c of v) {
    if (OPENERS.includes(c)) depth++;
    else if (CLOSERS.includes(c) && depth > 0) depth--;
  }
  if (depth > 0) return [start, bracketEnd(text, end, depth)];
  if (SCHEME_WORD.test(v)) {
    // `token: Bearer [REDACTED:secret]`: the scheme of a value already redacted
    MARK_AFTER.lastIndex = end;
    if (MARK_AFTER.test(text)) return undefined;
    NEXT_WORD.lastIndex = end;
    const next = NEXT_WORD.exec(text);
    if (next && tokenShaped(next[1]!)) return [start, end + next[0].length];
  }
  // `password: correct horse battery staple` inside prose: the words after a colon up to the sentence's end
  if (g.op === ':') {
    const e = proseValueEnd(text, end);
    if (e > end) return [start, e];
  }
  // a `;` that ends the word ends a statement (`token=v; run`), no part of the value
  return v.length > 1 && v.endsWith(';') && (end === text.length || SPACE.test(text[end]!))
    ? [start, end - 1]
    : [start, end];
}

function bearerToken(text: string, m: RegExpExecArray): [number, number] | undefined {
  const tok = m[1]!;
  if (MARKER.test(tok)) return undefined;
  // "the bearer of good news": a letters-only word is a token only after `Authorization:` unless it has an inner
  // capital or is long.
  const shaped = tok.length >= 8 && (!hasLetterOnly.test(tok) || innerCapital.test(tok) || tok.length >= 20);
  if (!shaped && !AUTH_BEFORE.test(text.slice(Math.max(0, m.index - 40), m.index))) return undefined;
  const end = m.index + m[0].length;
  return [end - tok.length, end];
}

const PRINTABLE_PAIR = /^[\x20-\x7e]*:[\x20-\x7e]*$/;
const LOWER_WORD = /^[a-z]+$/;

/** `Basic <base64>` whose text decodes to `user:password` (RFC 7617), or any token-shaped one after `Authorization:`. */
function basicCredentials(text: string, m: RegExpExecArray): [number, number] | undefined {
  const tok = m[1]!;
  const end = m.index + m[0].length;
  // a word of lower-case letters is prose ("the Basic ajpaaa"), though it decodes to a printable pair by chance
  if (LOWER_WORD.test(tok)) return bearerToken(text, m);
  let decoded = '';
  try {
    decoded = atob(tok.length % 4 === 0 ? tok : tok + '='.repeat(4 - (tok.length % 4)));
  } catch {
    decoded = '';
  }
  if (decoded.length >= 2 && PRINTABLE_PAIR.test(decoded)) return [end - tok.length, end];
  return bearerToken(text, m);
}

/** The credentials of an `Authorization:` value with a scheme other than Bearer (the floor's class), when token-shaped. */
function authorizationCredentials(m: RegExpExecArray): [number, number] | undefined {
  const scheme = m[1];
  const tok = m[2]!;
  if (scheme?.toLowerCase() === 'bearer' || MARKER.test(tok)) return undefined;
  if (tok.length < 8 || !(tokenShaped(tok) || tok.length >= 20)) return undefined;
  const end = m.index + m[0].length;
  return [end - tok.length, end];
}

/** The range of a match's first group when the match ends with it (the value after its name). */
function lastGroup(m: RegExpExecArray): [number, number] {
  const end = m.index + m[0].length;
  return [end - m[1]!.length, end];
}

/** Options of {@link findSecrets}. */
export interface FindOptions {
  /** Only these classes (default: every secret class, no PII). */
  classes?: readonly DetectorClass[];
}

const ALL_SECRET: readonly DetectorClass[] = [...FLOOR_SECRET_CLASSES, ...HARDENING_SECRET_CLASSES];

const isPii = (c: DetectorClass): boolean => c === 'email' || c === 'phone';

/**
 * Every match of the selected classes (default: secrets, no PII), sorted by start; linear per class. A text with
 * percent escapes (`token%3Dghp_...`, `jane%40example.com`), or a text that may hold a secret with a `+`, is also read
 * decoded (secret-encoded.ts): for the secret classes, and for the PII classes when it has a `%`.
 */
export function findSecrets(text: string, opts: FindOptions = {}): SecretMatch[] {
  const want = opts.classes ?? ALL_SECRET;
  // the screen holds for every secret class by construction: a class whose opening is missing fails its own tests
  const screened = SECRET_OPENINGS.test(text);
  const pii = want.some(isPii);
  const out = screened || pii ? scan(text, want) : [];
  // the common path: no `%` (and no `+` in a text that may hold a secret) leaves nothing to decode
  const pct = text.indexOf('%') >= 0;
  if (pct || (screened && text.indexOf('+') >= 0))
    readDecoded(text, out, (decoded) => decodedClasses(decoded, want, pii && pct), scan);
  return out.sort((a, b) => a.start - b.start || b.end - a.end);
}

/**
 * The classes of `want` a decoded view is scanned for: the secret classes when it holds an opening, the PII classes
 * (when `pii`) when it holds what every match of theirs holds. A `+` alone is no reason to read PII decoded: prose
 * (`100+200+3000`) would read as a phone number.
 */
function decodedClasses(decoded: string, want: readonly DetectorClass[], pii: boolean): readonly DetectorClass[] {
  const secrets = SECRET_OPENINGS.test(decoded);
  const personal = pii && PII_SCREEN.test(decoded);
  if (secrets === personal) return secrets ? want : [];
  return want.filter((c) => isPii(c) === personal);
}

/** Every match of the classes `want` in `text`, unsorted. */
function scan(text: string, want: readonly DetectorClass[]): SecretMatch[] {
  const out: SecretMatch[] = [];
  for (const c of want) {
    switch (c) {
      case 'pem':
        findPem(text, out);
        break;
      case 'aws-access-key':
        if (text.includes('AKIA')) pushAll(AWS_KEY, text, c, out);
        break;
      case 'bearer':
        pushAll(BEARER, text, c, out, (m) => bearerToken(text, m));
        break;
      case 'assignment':
        pushAll(ASSIGNMENT, text, c, out, (m) => assignmentValue(text, m));
        break;
      case 'jwt':
        if (text.includes('eyJ')) pushAll(JWT, text, c, out);
        break;
      case 'provider-token':
        pushAll(PROVIDER, text, c, out);
        if (text.includes('JQQJ9')) pushAll(AZURE_KEY, text, c, out);
        if (text.includes(':AA')) pushAll(TELEGRAM, text, c, out);
        if (text.includes('Q~')) pushAll(AZURE_CLIENT_SECRET, text, c, out);
        pushAll(AWS_SECRET_NAMED, text, c, out, lastGroup);
        pushAll(AZURE_NAMED_KEY, text, c, out, lastGroup);
        pushAll(AZURE_CONNECTION_KEY, text, c, out, (m) => {
          const end = m.index + m[0].length;
          return [end - (m[1] ?? m[2]!).length, end];
        });
        break;
      case 'aws-key-id':
        pushAll(AWS_KEY_ID, text, c, out);
        break;
      case 'authorization':
        pushAll(BASIC, text, c, out, (m) => basicCredentials(text, m));
        pushAll(AUTH_HEADER, text, c, out, authorizationCredentials);
        break;
      case 'jwt-unsigned':
        if (text.includes('eyJ')) pushAll(JWT_UNSIGNED, text, c, out);
        break;
      case 'url-credentials':
        if (text.includes('://'))
          pushAll(URL_CREDENTIALS, text, c, out, (m) => {
            const pass = m[1]!;
            if (URL_PLACEHOLDER.test(pass) || MARKER.test(pass)) return undefined;
            const end = m.index + m[0].length - 1;
            return [end - pass.length, end];
          });
        break;
      case 'pin':
        pushAll(PIN, text, c, out, (m) => {
          const end = m.index + m[0].length;
          return [end - m.groups!.v!.length, end];
        });
        break;
      case 'secret-name': {
        const from = out.length;
        pushAll(SECRET_NAME, text, c, out, (m) => assignmentValue(text, m));
        // `AWS_SK=` is read by both expressions: its value once
        if (text.includes('_SK'))
          pushAll(SECRET_NAME_UPPER, text, c, out, (m) => {
            const r = assignmentValue(text, m);
            return r && !out.some((x, i) => i >= from && x.start === r[0]) ? r : undefined;
          });
        break;
      }
      case 'email':
        if (text.includes('@')) pushAll(EMAIL, text, c, out);
        break;
      case 'phone':
        pushAll(PHONE, text, c, out);
        break;
    }
  }
  return out;
}

/** The first rule (a) floor class found in `text`, or undefined (the leak checks' question). */
export function firstFloorSecret(text: string): SecretClass | undefined {
  const m = findSecrets(text, { classes: FLOOR_SECRET_CLASSES });
  return m.length ? (m[0]!.class as SecretClass) : undefined;
}

/**
 * The first secret match in `text`, as `aep redact` and the AEP leak rules see it (the AHP credential rules' question).
 */
export function credentialIn(text: string): SecretMatch | undefined {
  return findSecrets(text)[0];
}

// names, summaries and settings recur from event to event: their verdicts are kept, a bounded number of them
const recurring = new TextMemo<SecretMatch | undefined>(512, 4096);

/** {@link credentialIn} of a text that recurs (a setting name, a change summary), kept for the texts seen last. */
export function recurringCredentialIn(text: string): SecretMatch | undefined {
  return recurring.of(text, credentialIn);
}
