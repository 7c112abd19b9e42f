/**
 * The classes of the credential and PII detector (secrets.ts, AEP-0003 §9.4): their tiers, their words in messages,
 * and the marks that replace what they match.
 */

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
  | 'url-credentials'
  | 'pin'
  | 'secret-name';
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
  'pin',
  'secret-name',
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
    'a provider access token or key of a documented shape (GitHub, GitLab, Slack, OpenAI/Anthropic sk-, Stripe, Google, Azure, npm, PyPI, Docker, Hugging Face and others)',
  'aws-key-id': 'an AWS temporary or other access key id (ASIA..., ABIA..., ACCA..., A3T...)',
  authorization: 'HTTP Authorization credentials (Basic user:password, or another scheme)',
  'jwt-unsigned': 'an unsigned two-segment JWT (eyJ....eyJ...)',
  'url-credentials': "a password in a URL's userinfo (scheme://user:password@host)",
  pin: 'a PIN or passcode (digits after `pin`, `pincode`, `passcode`)',
  'secret-name':
    'a value assigned to a well-known secret name beyond the §9.4(a) words (passphrase, *_PWD, DB_PASS and other service *_PASS, AWS_SK and other *_SK, a private, signing, encryption or master key, SSHPASS, REDISCLI_AUTH, .npmrc _auth)',
  email: 'an email address',
  phone: 'a phone number',
};

/** The replacement text of rule (a) and (b). */
export const SECRET_MARK = '[REDACTED:secret]';
/** The replacement text of rule (d). */
export const PII_MARK = '[REDACTED:pii]';

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
