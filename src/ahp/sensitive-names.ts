/**
 * Does a name ask for a credential or card data (MCP 2025-11-25 elicitation §Form Mode Security, §Safe URL Handling)?
 * Names, never values, split into whole lower-case words (`secretary`, `tokenizer` do not match; `tokens` is a usage
 * figure). Also the phrase of the credential a string carries, a URL's userinfo and named parameters included.
 */
import { CLASS_DESCRIPTIONS, credentialIn } from '../core/secrets.ts';
import { TextMemo } from '../core/text-memo.ts';

/** Credential words and their category (what the message says is asked for). */
const WORDS: ReadonlyMap<string, string> = new Map([
  ...['password', 'passwd', 'passphrase', 'passcode', 'pincode'].map((w) => [w, 'a password'] as const),
  ...['secret', 'secrets', 'clientsecret', 'secretkey'].map((w) => [w, 'a secret'] as const),
  ...['apikey', 'apikeys', 'accesskey', 'privatekey', 'signingkey', 'sshkey'].map(
    (w) => [w, 'an API or private key'] as const,
  ),
  ...[
    'accesstoken',
    'authtoken',
    'bearertoken',
    'refreshtoken',
    'apitoken',
    'idtoken',
    'sessiontoken',
    'accesstokens',
    'apitokens',
  ].map((w) => [w, 'an access token'] as const),
  ...['credential', 'credentials'].map((w) => [w, 'a credential'] as const),
  ...['otp', 'totp'].map((w) => [w, 'a one-time authentication code'] as const),
  ...['cardnumber', 'creditcard', 'debitcard', 'cvv', 'cvv2', 'cvc', 'cvc2', 'ccv'].map(
    (w) => [w, 'payment-card data'] as const,
  ),
]);

/** Names of members holding a credential (capability-auth.md §Authentication bindings): lower case, no `-`/`_`. */
const CREDENTIAL_MEMBERS = [
  'token',
  'accesstoken',
  'bearertoken',
  'idtoken',
  'refreshtoken',
  'password',
  'secret',
  'clientsecret',
  'apikey',
  'authorization',
];
/** Where a credential member name is read: any event member, or a registration's authentication block. */
export type CredentialScope = 'event' | 'authentication';
const CREDENTIAL_MEMBER_SETS: Readonly<Record<CredentialScope, ReadonlySet<string>>> = {
  event: new Set(CREDENTIAL_MEMBERS),
  // an authentication block names its key material and credential objects too (a `privateKey`, `credentials`)
  authentication: new Set([...CREDENTIAL_MEMBERS, 'privatekey', 'credential', 'credentials']),
};

// member names recur on every event: their verdicts are kept (a bounded number), one bit per scope
const verdicts = new Map<string, number>();
const SCOPE_BIT: Readonly<Record<CredentialScope, number>> = { event: 1, authentication: 2 };

/** True when a member named `name` holds a credential value in `scope` (`client_secret`, not `tokenEnv` / `*Ref`). */
export function isCredentialMember(name: string, scope: CredentialScope): boolean {
  let bits = verdicts.get(name);
  if (bits === undefined) {
    const n = name.toLowerCase().replace(/[-_]/g, '');
    bits = (CREDENTIAL_MEMBER_SETS.event.has(n) ? 1 : 0) | (CREDENTIAL_MEMBER_SETS.authentication.has(n) ? 2 : 0);
    if (verdicts.size >= 4096) verdicts.clear();
    verdicts.set(name, bits);
  }
  return (bits & SCOPE_BIT[scope]) !== 0;
}

/**
 * True when an event member named `name` holds a credential: a credential member name, or a name the detector reads as
 * the key of a credential assignment (`aws_secret_access_key`, `client_secret`, `id_token`, `AWS_SK`: one verdict for
 * `name=value` in a text and `"name": value` in an event).
 */
export function namesCredential(name: string): boolean {
  if (isCredentialMember(name, 'event')) return true;
  const cls = credentialIn(`${JSON.stringify(name)}: "1234"`)?.class;
  return cls === 'assignment' || cls === 'pin' || cls === 'secret-name';
}

/** Extra words that make a URL query parameter a credential (signed or keyed URLs), but not a form field. */
const URL_ONLY: ReadonlyMap<string, string> = new Map([
  ['key', 'an API key'],
  ['sig', 'a URL signature'],
  ['signature', 'a URL signature'],
]);

/** Words that make `token` a usage figure or a description of a token rather than the credential itself. */
const TOKEN_ABOUT = new Set([
  'count',
  'counts',
  'limit',
  'limits',
  'budget',
  'usage',
  'used',
  'max',
  'min',
  'maximum',
  'minimum',
  'total',
  'number',
  'estimate',
  'estimated',
  'size',
  'length',
  'rate',
  'per',
  'cost',
  'price',
  'remaining',
  'type',
  'kind',
  'expires',
  'expiry',
  'endpoint',
  'url',
  'uri',
]);

/** Split a name or title into lower-case words */
export function nameWords(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/([a-zA-Z])([0-9])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0);
}

// names and titles repeat from message to message: their verdicts are kept, a bounded number of them; '' for none
const askedByName = new TextMemo<string>(4096);
const askedByUrlName = new TextMemo<string>(4096);
const askedOfName = (text: string): string => askedOf(text, false) ?? '';
const askedOfUrlName = (text: string): string => askedOf(text, true) ?? '';

/** What credential a field name, title or query parameter asks for ("a password"), or undefined. */
export function credentialAsked(text: string, url = false): string | undefined {
  return (url ? askedByUrlName.of(text, askedOfUrlName) : askedByName.of(text, askedOfName)) || undefined;
}

function askedOf(text: string, url: boolean): string | undefined {
  const words = nameWords(text);
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    const hit =
      WORDS.get(w) ??
      (url ? URL_ONLY.get(w) : undefined) ??
      (i + 1 < words.length ? WORDS.get(w + words[i + 1]) : undefined);
    if (hit) return hit;
    if (w === 'token' && !words.some((x) => TOKEN_ABOUT.has(x))) return 'an access token';
  }
  return undefined;
}

/** The query-like parameter names of a URL: its query and a fragment written as `name=value&...`. */
function urlParamNames(u: URL): string[] {
  const names = [...u.searchParams.keys()];
  const frag = u.hash.slice(1);
  if (frag.includes('=')) for (const k of new URLSearchParams(frag).keys()) names.push(k);
  return names;
}

/**
 * The credential the shared detector (src/core/secrets.ts) sees in URL `text`, as a phrase, or undefined: in the text
 * as written, or in a percent-decoded query or fragment parameter (`?ref=Bearer%20...`); a parameter's name alone is
 * {@link urlSecrets}' question. Email addresses are PII, not credentials (`login_hint`), and random-looking PKCE
 * `code_challenge`, `state` and `nonce` values have no credential shape.
 */
export function urlCredentialIn(text: string, parsed?: URL | null): string | undefined {
  let m = credentialIn(text);
  if (!m) {
    const u = parsed === undefined ? parseUrl(text) : parsed;
    const frag = u?.hash.slice(1) ?? '';
    const params = u ? [...u.searchParams, ...(frag.includes('=') ? new URLSearchParams(frag) : [])] : [];
    for (const [k, v] of params) {
      m = credentialIn(v === '' ? k : `${k}=${v}`);
      if (m) break;
    }
  }
  return m ? CLASS_DESCRIPTIONS[m.class] : undefined;
}

/** `text` parsed as a URL, or null when no URL parser takes it. */
export function parseUrl(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}

/** What secrets a parsed URL carries, as phrases for a message (never the values). */
export function urlSecrets(u: URL): string[] {
  const out: string[] = [];
  if (u.username !== '' || u.password !== '')
    out.push(`userinfo (${u.password !== '' ? 'a user name and password' : 'a user name'} before \`@\`)`);
  const seen = new Set<string>();
  for (const name of urlParamNames(u)) {
    const asked = credentialAsked(name, true);
    if (!asked || seen.has(name)) continue;
    seen.add(name);
    out.push(
      `${/^[\w.-]{1,64}$/.test(name) ? `the parameter \`${name}\`` : 'a parameter'}, whose name asks for ${asked}`,
    );
  }
  return out;
}

const URL_WITH_AUTHORITY = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;

/**
 * The credential `text` carries, as a phrase (never the value): URL userinfo or a credential-named parameter when a
 * URL (`asUrl`, or it reads as one), else a credential-shaped value (src/core/secrets.ts; in a URL also in a
 * percent-decoded parameter, {@link urlCredentialIn}); or undefined.
 */
export function secretIn(text: string, asUrl: boolean): string | undefined {
  if (asUrl || URL_WITH_AUTHORITY.test(text)) {
    const u = parseUrl(text);
    const found = u ? urlSecrets(u) : [];
    if (found.length) return found[0];
    if (u) return urlCredentialIn(text, u);
  }
  const m = credentialIn(text);
  return m ? CLASS_DESCRIPTIONS[m.class] : undefined;
}

// an event `source` repeats a few values per input: their verdicts are kept, a bounded number of them ('' for none)
const sourceVerdicts = new TextMemo<string>(512);
const urlSecretIn = (text: string): string => secretIn(text, true) ?? '';

/** {@link secretIn} of an event `source` read as a URL, kept for the sources that recur. */
export function sourceSecretIn(source: string): string | undefined {
  return sourceVerdicts.of(source, urlSecretIn) || undefined;
}
