/**
 * The one credential and PII detector (AEP-0003 §9.4): `aep redact`, the AEP leak rules and the AHP credential rules
 * all read it, so one string gets one verdict. Tiers: `floor` (rule (a)), `hardening` ("adapters MAY redact more"), PII
 * (d). Linear scans: matches start only at a run boundary or keyword, quantified parts are separated or atomic, PEM by
 * indexOf.
 */
import { TextMemo } from './text-memo.ts';

/** A rule (a) class (AEP-0003 §9.4 a) or a hardening class beyond it. */
export type SecretClass =
  | 'pem'
  | 'aws-access-key'
  | 'bearer'
  | 'assignment'
  | 'jwt'
  | 'provider-token'
  | 'aws-key-id'
  | 'authorization'
  | 'jwt-unsigned'
  | 'url-credentials';
/** A rule (d) class (AEP-0003 §9.4 d). */
export type PiiClass = 'email' | 'phone';
/** Any class the detector knows. */
export type DetectorClass = SecretClass | PiiClass;

/** One match: its class and the UTF-16 range `[start, end)` of the text to replace. */
export interface SecretMatch {
  class: DetectorClass;
  start: number;
  end: number;
}

/** The rule (a) floor classes of AEP-0003 §9.4, in the order the spec lists them. */
export const FLOOR_SECRET_CLASSES: readonly SecretClass[] = ['pem', 'aws-access-key', 'bearer', 'assignment', 'jwt'];
/** The hardening classes beyond the floor ("adapters MAY redact more", AEP-0003 §9.4). */
export const HARDENING_SECRET_CLASSES: readonly SecretClass[] = [
  'provider-token',
  'aws-key-id',
  'authorization',
  'jwt-unsigned',
  'url-credentials',
];

/** The tier of a secret class: the §9.4(a) floor, or hardening beyond it. */
export type SecretTier = 'floor' | 'hardening';

/** The tier of `cls` (a secret class). */
export function secretTier(cls: DetectorClass): SecretTier {
  return (HARDENING_SECRET_CLASSES as readonly DetectorClass[]).includes(cls) ? 'hardening' : 'floor';
}

/** What each class stands for, in words (used in messages; never the matched text). */
export const CLASS_DESCRIPTIONS: Readonly<Record<DetectorClass, string>> = {
  pem: 'a PEM block',
  'aws-access-key': 'an AWS access key id (AKIA...)',
  bearer: 'a Bearer token',
  assignment: 'a password/secret/api-key/token assignment',
  jwt: 'a JWT-shaped string',
  'provider-token':
    'a provider access token (GitHub, GitLab, Slack, OpenAI/Anthropic sk-, Stripe, Google AIza, Azure AI/OpenAI)',
  'aws-key-id': 'an AWS temporary or other access key id (ASIA..., ABIA..., ACCA..., A3T...)',
  authorization: 'HTTP Authorization credentials (Basic user:password, or another scheme)',
  'jwt-unsigned': 'an unsigned two-segment JWT (eyJ....eyJ...)',
  'url-credentials': "a password in a URL's userinfo (scheme://user:password@host)",
  email: 'an email address',
  phone: 'a phone number',
};

/** The replacement text of rule (a) and (b). */
export const SECRET_MARK = '[REDACTED:secret]';
/** The replacement text of rule (d). */
export const PII_MARK = '[REDACTED:pii]';

// A value that is already a redaction marker is no secret: `token=[REDACTED:secret]` is what
// the pipeline leaves behind, and `***` / `<redacted>` are other redactors' markers.
const MARKER = /^["']?(?:\[REDACTED[^\]\s]*\]|<redacted>|\*{3,}|•{3,})[\])}"',;.]*$/i;

const PEM_BEGIN = /-----BEGIN ([A-Z0-9][A-Z0-9 ]{0,62})-----/g;
// public material: no credential (a private or secret label wins over these words)
const PEM_PUBLIC = /PUBLIC KEY|CERTIFICATE|X509 CRL|SIGNATURE|SIGNED MESSAGE|PARAMETERS|PKCS7|CMS/;
const PEM_PRIVATE = /PRIVATE|SECRET/;
// the base64 body lines of a PEM block whose END line is missing (a truncated key still leaks)
const PEM_BODY = /(?:\r?\n[A-Za-z0-9+/=:\- ]+)*/y;
const AWS_KEY = /AKIA[0-9A-Z]{16}/g;
// AWS key ids beyond the floor's AKIA (IAM unique-id prefixes of credentials: temporary ASIA, STS bearer ABIA,
// context ACCA, legacy A3T?): a whole word of 20, so that an upper-case word that merely starts so is none
const AWS_KEY_ID = /(?<![A-Za-z0-9])(?:ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}(?![A-Za-z0-9])/g;
const BEARER = /(?<![A-Za-z0-9_-])bearer[ \t]+([A-Za-z0-9\-._~+/]+=*)/gi;
const AUTH_BEFORE = /authorization["']?\s*[:=]\s*["']?$/i;
// RFC 7617 Basic credentials: base64 of `user:password`
const BASIC = /(?<![A-Za-z0-9_-])basic[ \t]+([A-Za-z0-9+/]{6,}={0,2})(?![A-Za-z0-9+/=])/gi;
// an Authorization header value: an optional scheme word, then the credentials (Bearer is the floor's own class)
const AUTH_HEADER =
  /(?<![A-Za-z0-9_-])(?:proxy-)?authorization["']?[ \t]*[:=][ \t]*["']?(?:([A-Za-z][A-Za-z0-9_-]{0,23})[ \t]+)?([A-Za-z0-9\-._~+/]+=*)/gi;
// keyword (optionally with a suffix that still names the secret: `secret_value`, `SECRET_ACCESS_KEY`, `tokenValue`),
// optional closing quote of a quoted key, optional declared type, the whole operator (atomic: a look-ahead and a
// back-reference, so the value never starts inside it), the value
const ASSIGNMENT =
  /(?:password|passwd|secret|api[_-]?key|token)(?:[_-]?(?:access[_-]?)?key|[_-]?(?:value|val|str|string|b64|base64|hex|raw|plain|plaintext|bytes|material|enc|encoded))?["']?(?:(?:\s*:\s*|\s+)(?:string|String|str|&str|&'static str|\[\]byte|bytes)(?=\s*=))?\s*(?=(?<op>[:=]+>?))\k<op>\s*(?:"(?<dq>(?:[^"\\\r\n]|\\.)*)"|'(?<sq>(?:[^'\\\r\n]|\\.)*)'|(?<bare>\S+))/dgi;
const JWT = /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g;
// an unsigned JWT written without its empty third segment: header and claims, both JSON objects (`eyJ`), and no dot
// after (with one, the floor's JWT shape holds it)
const JWT_UNSIGNED = /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{4,}\.eyJ[A-Za-z0-9_-]{4,}(?![A-Za-z0-9_.-])/g;
const PROVIDER = new RegExp(
  '(?<![A-Za-z0-9_-])(?:' +
    [
      'gh[pousr]_[A-Za-z0-9]{20,}', // GitHub classic, OAuth, user-to-server, server-to-server, refresh
      'github_pat_[A-Za-z0-9_]{20,}', // GitHub fine-grained
      'GR1348941[A-Za-z0-9_-]{20,}', // GitLab runner registration
      'xox[abeoprs]-[A-Za-z0-9-]{10,}', // Slack bot, user, app-level, refresh tokens
      'xoxe\\.xox[bp]-[A-Za-z0-9-]{10,}', // Slack rotating tokens
      'xapp-[0-9]-[A-Za-z0-9-]{10,}', // Slack app-level
      'hooks\\.slack\\.com/(?:services|workflows|triggers)/[A-Za-z0-9/_-]{20,}', // Slack webhooks
      'sk-[A-Za-z0-9_-]{16,}', // OpenAI (sk-, sk-proj-, sk-svcacct-, sk-admin-), Anthropic (sk-ant-...)
      '(?:sk|rk|ek)_(?:live|test)_[A-Za-z0-9]{16,}', // Stripe secret, restricted and ephemeral keys
      'whsec_[A-Za-z0-9+/=]{24,}', // Stripe webhook signing secrets
      'AIza[0-9A-Za-z_-]{30,}', // Google API keys
    ].join('|') +
    // GitLab tokens by their documented prefixes, the routable `.<version>.<crc>` tail included; an instance prefix
    // (`SIE-glpat-`) may stand before them
    ')|(?<![A-Za-z0-9_])gl(?:pat|oas|dt|rt|rtr|cbt|ptt|ft|imt|agent|soat|ffct|wt)-[A-Za-z0-9_-]{20,}(?:\\.[0-9a-z]{2}\\.[0-9a-z]{7,9}(?![A-Za-z0-9]))?',
  'g',
);
// Azure AI services (Azure OpenAI among them) keys: the 84-character identifiable key with its `JQQJ9?` signature, and
// the 32-hex key where a name says so (alone a 32-hex string is a hash)
const AZURE_KEY =
  /(?<![A-Za-z0-9])[A-Za-z0-9]{52}JQQJ9[9DH][A-Za-z0-9][A-L][A-Za-z0-9]{16}[A-Za-z][A-Za-z0-9]{7}(?:[A-Za-z0-9]{2}==)?(?![A-Za-z0-9])/g;
const AZURE_NAMED_KEY =
  /(?:azure|openai|cognitive|ocp-apim-subscription)[A-Za-z0-9_.-]{0,40}?key["']?\s*[:=]\s*["']?([0-9a-fA-F]{32})(?![A-Za-z0-9])/gi;
// a password in a URL's userinfo (RFC 3986 §3.2.1 deprecates it because it leaks): scheme://user:password@host
const URL_CREDENTIALS = /(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]{1,20}:\/\/[^\s:/?#@[\]]+:([^\s/?#@]+)@/g;
// a reference or a placeholder where the password would be: `${DB_PASS}`, `$PASS`, `<password>`, `***`, `%s`
const URL_PLACEHOLDER = /^(?:\$\{?[A-Za-z_][A-Za-z0-9_]*\}?|<[^>]*>|\*+|%s|\{\{[^}]*\}\})$/;
const EMAIL = /(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}(?![A-Za-z0-9-])/g;
const PHONE = /(?<![\w+])(?:\+\d{1,3}[ -]?)?(?:\(\d{1,4}\)[ -]?|\d{2,4}[ -])\d{3,4}[ -]\d{4}(?!\w)/g;

// A text none of whose matches can start: every pattern above opens with (or, for PEM, needs) one of these literals.
const SECRET_OPENINGS =
  /-----BEGIN |AKIA|ASIA|ABIA|ACCA|A3T|bearer|basic|authorization|passw(?:or)?d|secret|api[_-]?key|token|eyJ|gh[pousr]_|github_pat_|gl[a-z]+-|GR1348941|xox|xapp-|hooks\.slack\.com\/|[sre]k[-_]|whsec_|AIza|JQQJ9|azure|openai|cognitive|ocp-apim|:\/\//i;

/**
 * False when `text` surely holds no match of a secret class (none of the literals the patterns open with): one scan
 * that {@link findSecrets} makes before its one per class. Not for the PII classes.
 */
export function mayHoldSecret(text: string): boolean {
  return SECRET_OPENINGS.test(text);
}

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

function findPem(text: string, out: SecretMatch[]): void {
  if (!text.includes('-----BEGIN ')) return;
  const noEnd = new Set<string>(); // labels whose END line is known to be absent further on
  PEM_BEGIN.lastIndex = 0;
  for (let m = PEM_BEGIN.exec(text); m !== null; m = PEM_BEGIN.exec(text)) {
    const label = m[1]!;
    const bodyFrom = m.index + m[0].length;
    const endLine = `-----END ${label}-----`;
    let end = -1;
    if (!noEnd.has(label)) {
      const e = text.indexOf(endLine, bodyFrom);
      if (e >= 0) end = e + endLine.length;
      else noEnd.add(label);
    }
    if (end < 0) {
      PEM_BODY.lastIndex = bodyFrom;
      PEM_BODY.exec(text);
      end = Math.max(bodyFrom, PEM_BODY.lastIndex);
    }
    if (PEM_PRIVATE.test(label) || !PEM_PUBLIC.test(label)) out.push({ class: 'pem', start: m.index, end });
    PEM_BEGIN.lastIndex = end;
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

/**
 * The end of a bare value that opens a bracket it does not close (`Ctor{Kind:`): the matching close bracket on the
 * same line, quotes respected, or the end of the line.
 */
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
const LINE_VALUE_END = /\s(?:#|&&|\|\|?\s)|;\s/;
// a mark later on the line: the value was redacted already, and the words before it are not the secret
const MARK_AFTER_ANY = /\[REDACTED[^\]\s]*\]|<redacted>|\*{3,}/i;

// a YAML block scalar indicator (`|`, `>-`, `|2+`): the value is on the lines below
const BLOCK_SCALAR = /^[|>](?:[1-9]?[+-]?|[+-][1-9])$/;

/**
 * The end of a YAML block scalar whose key is on the line of `keyAt` and whose indicator ends at `from`: the lines below
 * indented deeper than the key (blank lines among them), one pass.
 */
function blockEnd(text: string, keyAt: number, from: number): number {
  const lineStart = text.lastIndexOf('\n', keyAt) + 1;
  let indent = 0;
  while (text[lineStart + indent] === ' ' || text[lineStart + indent] === '\t') indent++;
  let last = from;
  for (let nl = text.indexOf('\n', from); nl >= 0; ) {
    const ls = nl + 1;
    let q = ls;
    while (q < text.length && (text[q] === ' ' || text[q] === '\t')) q++;
    const next = text.indexOf('\n', ls);
    const le = next < 0 ? text.length : next;
    if (q < le) {
      if (q - ls <= indent) break;
      last = le;
    }
    nl = next;
  }
  return last;
}

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
  if (MARKER.test(v)) return undefined;
  // a `KEY: value` / `KEY=value` line (YAML, .env, properties): the value is the rest of the line, up to a ` #` comment
  // or a shell separator
  if ((g.op === ':' || g.op === '=') && startsLine(text, m.index)) {
    if (g.op === ':' && BLOCK_SCALAR.test(v)) return [start, blockEnd(text, m.index, end)];
    let e = text.indexOf('\n', end);
    if (e < 0) e = text.length;
    // a comment, or a shell's next command (`KEY=v && run`), ends it
    const stop = text.slice(end, e).search(LINE_VALUE_END);
    if (stop >= 0) e = end + stop;
    while (e > end && SPACE.test(text[e - 1]!)) e--;
    if (!MARK_AFTER_ANY.test(text.slice(end, e))) return [start, e];
  }
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
  return [start, end];
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

/** `Basic <base64>` whose text decodes to `user:password` (RFC 7617), or any token-shaped one after `Authorization:`. */
function basicCredentials(text: string, m: RegExpExecArray): [number, number] | undefined {
  const tok = m[1]!;
  const end = m.index + m[0].length;
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

/** Options of {@link findSecrets}. */
export interface FindOptions {
  /** Only these classes (default: every secret class, no PII). */
  classes?: readonly DetectorClass[];
}

const ALL_SECRET: readonly DetectorClass[] = [...FLOOR_SECRET_CLASSES, ...HARDENING_SECRET_CLASSES];

/** Every match of the selected classes (default: secrets, no PII), sorted by start; linear per class. */
export function findSecrets(text: string, opts: FindOptions = {}): SecretMatch[] {
  const want = opts.classes ?? ALL_SECRET;
  // the screen holds for every secret class by construction: a class whose opening is missing fails its own tests
  if (!mayHoldSecret(text) && !want.includes('email') && !want.includes('phone')) return [];
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
        pushAll(AZURE_NAMED_KEY, text, c, out, (m) => {
          const end = m.index + m[0].length;
          return [end - m[1]!.length, end];
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
      case 'email':
        if (text.includes('@')) pushAll(EMAIL, text, c, out);
        break;
      case 'phone':
        pushAll(PHONE, text, c, out);
        break;
    }
  }
  return out.sort((a, b) => a.start - b.start || b.end - a.end);
}

/** The first rule (a) floor class found in `text`, or undefined (the leak checks' question). */
export function firstFloorSecret(text: string): SecretClass | undefined {
  const m = findSecrets(text, { classes: FLOOR_SECRET_CLASSES });
  return m.length ? (m[0]!.class as SecretClass) : undefined;
}

/** `text` with each range of `matches` (sorted by start) replaced by `mark`; overlapping ranges merge. */
export function replaceMatches(text: string, matches: readonly SecretMatch[], mark: string): string {
  if (matches.length === 0) return text;
  let out = '';
  let pos = 0;
  let curStart = -1;
  let curEnd = -1;
  const flush = () => {
    if (curStart < 0) return;
    out += text.slice(pos, curStart) + mark;
    pos = curEnd;
  };
  for (const m of matches) {
    if (curStart >= 0 && m.start <= curEnd) {
      if (m.end > curEnd) curEnd = m.end;
      continue;
    }
    flush();
    curStart = Math.max(m.start, pos);
    curEnd = m.end;
  }
  flush();
  return out + text.slice(pos);
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
