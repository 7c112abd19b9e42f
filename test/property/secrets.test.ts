/**
 * Properties of the one secret classification (src/core/secrets.ts) and the redaction that
 * applies it (AEP-0003 §9.4: rule (a) replaces the *values*): for every generated assignment
 * shape (operators `=`, `:`, `:=`, `=>`, `::=`, `==`; double, single or no quotes; spaces and
 * line breaks around the operator; typed declarations `var NAME string = "..."`; key names
 * across the floor keywords in several spellings) the detector flags the text, and the redacted
 * text is flagged by nothing and holds no part of the value the generator put in. Likewise for
 * `Bearer `-prefixed tokens of any shape, letters-only ones included. And over random mixtures
 * of secret and ordinary pieces: whatever is flagged, the redacted text is flagged by nothing.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { createRedactor } from '../../src/aep/redact.ts';
import { findSecrets } from '../../src/core/secrets.ts';
import { runs } from '../scale.ts';

const r = createRedactor({ home: false, pii: false });
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const chars = (alphabet: string, min: number, max: number) =>
  fc.array(fc.constantFrom(...alphabet), { minLength: min, maxLength: max }).map((a) => a.join(''));
// a value of at least one digit and letters, so that no 4-character part of it is an English word of the template
const secretValue = fc
  .tuple(chars(ALNUM, 6, 24), fc.constantFrom(...'0123456789'), chars(ALNUM + '-_.+/~!@#%^&*', 0, 8))
  .map(([a, d, b]) => `${a}${d}${b}`);

const KEYS = [
  'password',
  'PASSWORD',
  'db_password',
  'passwd',
  'secret',
  'client_secret',
  'SECRET',
  'api_key',
  'API_KEY',
  'apiKey',
  'api-key',
  'token',
  'api_token',
  'GITHUB_TOKEN',
  'authToken',
  'access_token',
];
const OPS = ['=', ':', ':=', '=>', '::=', '=='];
const SPACE = ['', ' ', '  ', '\t', '\n'];

/** No 4-character part of `value` is in `out` unless the template without the value holds it too. */
function holdsPartOf(out: string, value: string, template: string): string | undefined {
  for (let i = 0; i + 4 <= value.length; i++) {
    const part = value.slice(i, i + 4);
    if (out.includes(part) && !template.includes(part)) return part;
  }
  return undefined;
}

const assignment = fc.record({
  key: fc.constantFrom(...KEYS),
  keyQuote: fc.constantFrom('', '"', "'"),
  op: fc.constantFrom(...OPS),
  before: fc.constantFrom(...SPACE),
  after: fc.constantFrom(...SPACE),
  quote: fc.constantFrom('"', "'", ''),
  value: secretValue,
  typed: fc.constantFrom('', 'var ', 'const '),
  prefix: fc.constantFrom('', 'config: ', 'export ', '{', 'set '),
  suffix: fc.constantFrom('', ' done', '; next', ',', '}', '\nmore'),
});

test('every generated assignment shape is flagged, and its redaction is flagged by nothing and keeps no part of the value', () => {
  fc.assert(
    fc.property(assignment, (a) => {
      const quotedKey = a.keyQuote ? `${a.keyQuote}${a.key}${a.keyQuote}` : a.key;
      // a typed declaration (Go `var NAME string = "..."`) takes `=` and a bare key
      const head = a.typed
        ? `${a.typed}${a.key} string${a.before}=${a.after}`
        : `${quotedKey}${a.before}${a.op}${a.after}`;
      const value = a.quote ? a.value.replace(new RegExp(`[${a.quote}\\\\]`, 'g'), '') || 'x9Y8z7W6' : a.value;
      const text = `${a.prefix}${head}${a.quote}${value}${a.quote}${a.suffix}`;
      const template = `${a.prefix}${head}${a.quote}${a.quote}${a.suffix}[REDACTED:secret]`;
      assert.ok(findSecrets(text).length > 0, `not flagged: ${JSON.stringify(text)}`);
      const out = r.text(text);
      assert.deepEqual(findSecrets(out), [], `redacted text still flagged: ${JSON.stringify(out)}`);
      const part = holdsPartOf(out, value, template);
      assert.equal(part, undefined, `${JSON.stringify(text)} -> ${JSON.stringify(out)} keeps ${JSON.stringify(part)}`);
    }),
    { numRuns: runs(2000) },
  );
});

test('a Bearer-prefixed token of any shape (letters only too) is flagged and removed; prose after "bearer" is not a token', () => {
  const letters = fc
    .tuple(
      chars('abcdefghijklmnopqrstuvwxyz', 3, 12),
      chars('ABCDEFGHIJKLMNOPQRSTUVWXYZ', 1, 3),
      chars('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ', 4, 20),
    )
    .map(([a, b, c]) => a + b + c);
  const token = fc.oneof(
    letters,
    secretValue.map((v) => v.replace(/[^A-Za-z0-9\-._~+/]/g, '') + 'Q1w2E3r4'),
    chars('abcdefghijklmnopqrstuvwxyz', 20, 40),
  );
  const context = fc.constantFrom(
    (t: string) => `auth := "Bearer ${t}"`,
    (t: string) => `curl -H 'Authorization: Bearer ${t}' https://x.test`,
    (t: string) => `headers: { authorization: "bearer ${t}" }`,
    (t: string) => `token type Bearer ${t} expires soon`,
    (t: string) => `BEARER\t${t}`,
  );
  fc.assert(
    fc.property(token, context, (t, wrap) => {
      const text = wrap(t);
      assert.ok(findSecrets(text).length > 0, `not flagged: ${JSON.stringify(text)}`);
      const out = r.text(text);
      assert.deepEqual(findSecrets(out), [], JSON.stringify(out));
      assert.equal(
        holdsPartOf(out, t, wrap('') + '[REDACTED:secret]'),
        undefined,
        `${JSON.stringify(out)} keeps part of the token`,
      );
    }),
    { numRuns: runs(1000) },
  );
  for (const prose of [
    'the bearer of good news arrived',
    'Bearer bonds and bearer instruments',
    'The Bearer of the release approves it',
    'a bearer notwithstanding the rules',
  ]) {
    assert.deepEqual(findSecrets(prose), [], prose);
  }
});

test('over random mixtures of secret and ordinary pieces, the redacted text is flagged by nothing', () => {
  const secretPiece = fc.constantFrom(
    'AKIAQ7VLM2XC9RTY4BNA',
    'password: hunter2sequel',
    'api_token := "Zx81qPlm77Tn"',
    'secret => "Qv83mmWx01"',
    'auth := "Bearer yvxpthLIcYpZweFpPOVeCOtot"',
    'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln',
    '-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIBase64\n-----END EC PRIVATE KEY-----',
    '-----BEGIN PRIVATE KEY-----\nMIIEtruncated',
    'ghp_Q7vLm2Xc9RtY4bNa8KdE3wPz6HsJ1uFo0iGk',
    'xoxe.xoxp-1-Mi0yLTM0NTY3ODkw',
    'sk_live_51Hq7TmKc9Vx2LpQ8rWz3NbY',
    'token=\n"quoted \\" escape"',
  );
  const piece = fc.oneof(
    fc.string({ maxLength: 12 }),
    fc.constantFrom('=', ':', '"', "'", ' ', '\n', 'token', 'Bearer', '=>', '[REDACTED:secret]'),
    secretPiece,
  );
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 8 }), (pieces) => {
      const text = pieces.join('');
      const out = r.text(text);
      assert.deepEqual(findSecrets(out), [], `${JSON.stringify(text)} -> ${JSON.stringify(out)}`);
      assert.equal(r.text(out), out, 'redaction is idempotent');
    }),
    { numRuns: runs(2000) },
  );
});
