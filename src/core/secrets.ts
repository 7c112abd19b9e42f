/**
 * The one credential and PII detector (AEP-0003 §9.4): `aep redact`, the AEP leak rules and the AHP credential rules
 * all read it, so one string gets one verdict. Tiers: `floor` (rule (a)), `hardening` ("adapters MAY redact more"), PII
 * (d). Linear scans: matches start only at a run boundary or keyword, quantified parts are separated or atomic, PEM by
 * indexOf.
 */

/** A rule (a) class (AEP-0003 §9.4 a) or a hardening class beyond it. */
export type SecretClass = 'pem' | 'aws-access-key' | 'bearer' | 'assignment' | 'jwt' | 'provider-token';
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
export const HARDENING_SECRET_CLASSES: readonly SecretClass[] = ['provider-token'];

/** The tier of a secret class: the §9.4(a) floor, or hardening beyond it. */
export type SecretTier = 'floor' | 'hardening';

/** The tier of `cls` (a secret class). */
export function secretTier(cls: DetectorClass): SecretTier {
  return cls === 'provider-token' ? 'hardening' : 'floor';
}

/** What each class stands for, in words (used in messages; never the matched text). */
export const CLASS_DESCRIPTIONS: Readonly<Record<DetectorClass, string>> = {
  pem: 'a PEM block',
  'aws-access-key': 'an AWS access key id (AKIA...)',
  bearer: 'a Bearer token',
  assignment: 'a password/secret/api-key/token assignment',
  jwt: 'a JWT-shaped string',
  'provider-token': 'a provider access token (GitHub, GitLab, Slack, OpenAI/Anthropic sk-, Stripe, Google AIza)',
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
const BEARER = /(?<![A-Za-z0-9_-])bearer[ \t]+([A-Za-z0-9\-._~+/]+=*)/gi;
const AUTH_BEFORE = /authorization["']?\s*[:=]\s*["']?$/i;
// keyword, optional closing quote of a quoted key, optional declared type, the whole operator
// (atomic: a look-ahead and a back-reference, so the value never starts inside it), the value
const ASSIGNMENT =
  /(?:password|passwd|secret|api[_-]?key|token)["']?(?:(?:\s*:\s*|\s+)(?:string|String|str|&str|&'static str|\[\]byte|bytes)(?=\s*=))?\s*(?=(?<op>[:=]+>?))\k<op>\s*(?:"(?<dq>(?:[^"\\\r\n]|\\.)*)"|'(?<sq>(?:[^'\\\r\n]|\\.)*)'|(?<bare>\S+))/dgi;
const JWT = /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g;
const PROVIDER = new RegExp(
  '(?<![A-Za-z0-9_-])(?:' +
    [
      'gh[pousr]_[A-Za-z0-9]{20,}', // GitHub classic, OAuth, user-to-server, server-to-server, refresh
      'github_pat_[A-Za-z0-9_]{20,}', // GitHub fine-grained
      'gl(?:pat|dt|rt|ptt|ft|soat|cbt|imt|agent|oas|wt)-[A-Za-z0-9_-]{20,}', // GitLab tokens
      'GR1348941[A-Za-z0-9_-]{20,}', // GitLab runner registration
      'xox[abeoprs]-[A-Za-z0-9-]{10,}', // Slack bot, user, app-level, refresh tokens
      'xoxe\\.xox[bp]-[A-Za-z0-9-]{10,}', // Slack rotating tokens
      'xapp-[0-9]-[A-Za-z0-9-]{10,}', // Slack app-level
      'hooks\\.slack\\.com/(?:services|workflows|triggers)/[A-Za-z0-9/_-]{20,}', // Slack webhooks
      'sk-[A-Za-z0-9_-]{16,}', // OpenAI (sk-, sk-proj-, sk-svcacct-, sk-admin-), Anthropic (sk-ant-...)
      '(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}', // Stripe secret and restricted keys
      'whsec_[A-Za-z0-9+/=]{24,}', // Stripe webhook signing secrets
      'AIza[0-9A-Za-z_-]{30,}', // Google API keys
    ].join('|') +
    ')',
  'g',
);
const EMAIL = /(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}(?![A-Za-z0-9-])/g;
const PHONE = /(?<![\w+])(?:\+\d{1,3}[ -]?)?(?:\(\d{1,4}\)[ -]?|\d{2,4}[ -])\d{3,4}[ -]\d{4}(?!\w)/g;

// A text none of whose matches can start: every pattern above opens with (or, for PEM, needs) one of these literals.
const SECRET_OPENINGS =
  /-----BEGIN |AKIA|bearer|passw(?:or)?d|secret|api[_-]?key|token|eyJ|gh[pousr]_|github_pat_|gl[a-z]+-|GR1348941|xox|xapp-|hooks\.slack\.com\/|[sr]k[-_]|whsec_|AIza/i;

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
    if (r) out.push({ class: cls, start: r[0], end: r[1] });
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

/** The value range of an assignment match, or undefined when the value is a marker or empty. */
function assignmentValue(m: RegExpExecArray): [number, number] | undefined {
  const g = m.groups!;
  const v = g.dq ?? g.sq ?? g.bare ?? '';
  if (v.length === 0 || MARKER.test(v)) return undefined;
  const r = m.indices!.groups![g.dq !== undefined ? 'dq' : g.sq !== undefined ? 'sq' : 'bare']!;
  return [r[0], r[1]];
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

/** Options of {@link findSecrets}. */
export interface FindOptions {
  /** Only these classes (default: every secret class, no PII). */
  classes?: readonly DetectorClass[];
}

const ALL_SECRET: readonly DetectorClass[] = ['pem', 'aws-access-key', 'bearer', 'assignment', 'jwt', 'provider-token'];

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
        pushAll(ASSIGNMENT, text, c, out, assignmentValue);
        break;
      case 'jwt':
        if (text.includes('eyJ')) pushAll(JWT, text, c, out);
        break;
      case 'provider-token':
        pushAll(PROVIDER, text, c, out);
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
