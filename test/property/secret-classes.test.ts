/**
 * Issue 43 item 2: the credential shapes of src/core/secrets.ts, each written from its provider's
 * documented format (prefix, alphabet, length) with a random body, are flagged whole, in the
 * class they belong to, alone and inside ordinary text; `redact` leaves no part of them; and a
 * near miss of each (a wrong prefix, a body one character short, a public key kind, a word that
 * only starts so) is flagged by nothing. Ordinary text (prose, hashes, UUIDs, versions, paths)
 * is never flagged: false alarms must not rise with the classes.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { findSecrets, secretTier } from '../../src/core/secrets.ts';
import { runs } from '../scale.ts';
import {
  ALNUM,
  B64URL,
  chars,
  clean,
  context,
  DIGITS,
  HEX,
  holds,
  LOWER,
  redactor,
  RUNS,
  UPPER,
} from './secret-shapes.ts';

const b64 = (s: string) => Buffer.from(s).toString('base64');
const b64url = (s: string) => Buffer.from(s).toString('base64url');

test('AWS key ids: AKIA (the floor) and ASIA, ABIA, ACCA, A3T? (hardening); near misses are none', () => {
  const body = chars(UPPER + DIGITS, 16);
  fc.assert(
    fc.property(fc.constantFrom('AKIA', 'ASIA', 'ABIA', 'ACCA', 'A3TX', 'A3T7'), body, context, (p, b, wrap) => {
      const key = p + b;
      holds(wrap(key), key, p === 'AKIA' ? 'aws-access-key' : 'aws-key-id');
    }),
    RUNS,
  );
  fc.assert(
    fc.property(
      fc.oneof(
        // one character short or long, as a whole word
        fc.tuple(fc.constantFrom('ASIA', 'ABIA', 'ACCA'), chars(UPPER + DIGITS, 15)).map(([p, b]) => p + b),
        fc.tuple(fc.constantFrom('ASIA', 'ABIA', 'ACCA'), chars(UPPER + DIGITS, 17)).map(([p, b]) => p + b),
        // inside a longer word, or lower case
        fc.tuple(chars(UPPER, 1), chars(UPPER + DIGITS, 16)).map(([a, b]) => `${a}ASIA${b}`),
        chars(LOWER + DIGITS, 16).map((b) => `asia${b}`),
        // IAM unique ids that are no credential: users, roles, groups, policies
        fc
          .tuple(fc.constantFrom('AIDA', 'AROA', 'AGPA', 'ANPA', 'ANVA', 'APKA'), chars(UPPER + DIGITS, 16))
          .map(([p, b]) => p + b),
      ),
      context,
      (t, wrap) => clean(wrap(t)),
    ),
    RUNS,
  );
  clean('ASIAPACIFICHEADQUARTERS and ASIA PACIFIC');
});

test('Authorization: Basic <base64 of user:password> and other schemes; near misses are none', () => {
  const part = chars(ALNUM + '._-!', 3, 16);
  fc.assert(
    fc.property(
      part,
      part,
      fc.constantFrom(
        (c: string) => `Authorization: Basic ${c}`,
        (c: string) => `curl -H 'authorization: basic ${c}' https://api.test`,
        (c: string) => `{"Authorization": "Basic ${c}"}`,
        (c: string) => `header Basic ${c} sent`,
        (c: string) => `Proxy-Authorization: Basic ${c}`,
      ),
      (u, p, wrap) => {
        const cred = b64(`${u}:${p}`);
        // lower-case letters alone read as a word away from an Authorization header (src/core/secrets.ts)
        fc.pre(!/^[a-z]+$/.test(cred) || wrap('').includes('uthorization'));
        holds(wrap(cred), cred, 'authorization');
      },
    ),
    RUNS,
  );
  fc.assert(
    fc.property(
      fc.constantFrom('Token', 'Digest', 'ApiKey', 'SSWS', 'Negotiate'),
      chars(ALNUM, 6, 30).map((s) => `${s}9Xq`),
      (scheme, tok) => holds(`Authorization: ${scheme} ${tok}`, tok, 'authorization'),
    ),
    RUNS,
  );
  // a base64 word after "Basic" that is no user:password, away from an Authorization header, is prose
  fc.assert(
    fc.property(chars(LOWER, 4, 14), (w) => clean(`the Basic ${w} of it, basic ${w}`)),
    RUNS,
  );
  // one that decodes to a printable user:password pair by chance ("j:Zi")
  clean('the Basic ajpaaa of it');
  for (const t of [
    'Basic authentication is disabled',
    'basic usage: run the tool',
    'Authorization: Basic',
    'Authorization: none required',
    'authorization: see the docs',
    `Authorization: Basic [REDACTED:secret]`,
    'the basic idea, BASIC programming',
  ])
    clean(t);
});

test('unsigned two-segment JWTs (eyJ....eyJ...); the three-segment floor shape stays the floor class; near misses are none', () => {
  const claims = fc.record({ sub: chars(ALNUM, 1, 12), iat: fc.nat() });
  fc.assert(
    fc.property(fc.constantFrom('none', 'HS256'), claims, context, (alg, c, wrap) => {
      const head = b64url(JSON.stringify({ alg, typ: 'JWT' }));
      const jwt = `${head}.${b64url(JSON.stringify(c))}`;
      holds(wrap(jwt), jwt, 'jwt-unsigned');
      holds(wrap(`${jwt}.sig`), `${jwt}.sig`, 'jwt');
      assert.equal(secretTier('jwt-unsigned'), 'hardening');
    }),
    RUNS,
  );
  fc.assert(
    fc.property(chars(B64URL, 4, 20), chars(LOWER, 1, 10), (a, b) => {
      clean(`eyJ${a}.${b}`); // the second segment is no JSON object
      clean(`x${b}.eyJ${a}`);
    }),
    RUNS,
  );
  clean('see v1.2.3 and eyJ. and eyJa.eyJ');
});

test('GitHub tokens: ghp_, gho_, ghu_, ghs_, ghr_ and fine-grained github_pat_; near misses are none', () => {
  fc.assert(
    fc.property(fc.constantFrom('ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'), chars(ALNUM, 36), context, (p, b, wrap) =>
      holds(wrap(p + b), p + b, 'provider-token'),
    ),
    RUNS,
  );
  fc.assert(
    fc.property(chars(ALNUM, 22), chars(ALNUM, 59), context, (a, b, wrap) => {
      const t = `github_pat_${a}_${b}`;
      holds(wrap(t), t, 'provider-token');
    }),
    RUNS,
  );
  fc.assert(
    fc.property(
      fc.oneof(
        chars(ALNUM, 36).map((b) => `ghx_${b}`),
        fc.tuple(fc.constantFrom('ghp_', 'gho_', 'ghs_'), chars(ALNUM, 8, 19)).map(([p, b]) => p + b),
        chars(ALNUM, 36).map((b) => `sighp_${b}`),
        chars(ALNUM, 10, 19).map((b) => `github_pat_${b}`),
      ),
      context,
      (t, wrap) => clean(wrap(t)),
    ),
    RUNS,
  );
});

test('GitLab tokens: every documented prefix, the routable .version.crc form, an instance prefix; near misses are none', () => {
  const PREFIXES = ['glpat-', 'gloas-', 'gldt-', 'glrt-', 'glrtr-', 'glcbt-', 'glptt-', 'glft-', 'glimt-', 'glagent-'];
  const MORE = ['glsoat-', 'glffct-', 'glwt-'];
  fc.assert(
    fc.property(fc.constantFrom(...PREFIXES, ...MORE), chars(B64URL, 20, 40), context, (p, b, wrap) =>
      holds(wrap(p + b), p + b, 'provider-token'),
    ),
    RUNS,
  );
  fc.assert(
    fc.property(
      chars(B64URL, 27, 40),
      chars(LOWER + DIGITS, 9),
      fc.constantFrom('', 'SIE-', 'acme-'),
      (b, crc, inst) => {
        const t = `glpat-${b}.01.${crc}`;
        holds(`token ${inst}${t} used`, t, 'provider-token');
        holds(`GR1348941${b}`, `GR1348941${b}`, 'provider-token');
      },
    ),
    RUNS,
  );
  fc.assert(
    fc.property(
      fc.oneof(
        fc.tuple(fc.constantFrom(...PREFIXES), chars(B64URL, 8, 19)).map(([p, b]) => p + b),
        chars(B64URL, 20, 30).map((b) => `glob-${b}`),
        chars(B64URL, 20, 30).map((b) => `xglpat-${b}`),
      ),
      context,
      (t, wrap) => clean(wrap(t)),
    ),
    RUNS,
  );
});

test('Stripe keys: sk_ and rk_ live and test, ek_, whsec_; publishable pk_ and near misses are none', () => {
  fc.assert(
    fc.property(
      fc.constantFrom('sk_live_', 'sk_test_', 'rk_live_', 'rk_test_', 'ek_live_', 'ek_test_'),
      fc.oneof(
        chars(ALNUM, 24),
        chars(ALNUM, 97).map((b) => `51${b}`),
      ),
      context,
      (p, b, wrap) => holds(wrap(p + b), p + b, 'provider-token'),
    ),
    RUNS,
  );
  fc.assert(
    fc.property(
      fc.oneof(
        fc.tuple(fc.constantFrom('pk_live_', 'pk_test_'), chars(ALNUM, 24, 99)).map(([p, b]) => p + b),
        fc.tuple(fc.constantFrom('sk_live_', 'rk_test_'), chars(ALNUM, 4, 15)).map(([p, b]) => p + b),
        chars(ALNUM, 24).map((b) => `sk_prod_${b}`),
        chars(ALNUM, 24).map((b) => `disk_live_${b}`),
      ),
      context,
      (t, wrap) => clean(wrap(t)),
    ),
    RUNS,
  );
});

test('Azure AI / Azure OpenAI keys: the 84-character identifiable key, a 32-hex key under its name; a bare hash is none', () => {
  const identifiable = fc
    .tuple(
      chars(ALNUM, 52),
      chars(ALNUM, 1),
      chars('ABCDEFGHIJKL', 1),
      chars(ALNUM, 16),
      chars(UPPER + LOWER, 1),
      chars(ALNUM, 7),
    )
    .map(([a, b, c, d, e, f]) => `${a}JQQJ99${b}${c}${d}${e}${f}`);
  fc.assert(
    fc.property(identifiable, context, (k, wrap) => {
      assert.equal(k.length, 84);
      holds(wrap(k), k, 'provider-token');
    }),
    RUNS,
  );
  fc.assert(
    fc.property(
      chars(HEX, 32),
      fc.constantFrom(
        (k: string) => `AZURE_OPENAI_KEY=${k}`,
        (k: string) => `Ocp-Apim-Subscription-Key: ${k}`,
        (k: string) => `{"azureOpenAIKey": "${k}"}`,
        (k: string) => `openai_key = '${k}'`,
      ),
      (k, wrap) => holds(wrap(k), k, 'provider-token'),
    ),
    RUNS,
  );
  fc.assert(
    fc.property(identifiable, chars(HEX, 32), (k, h) => {
      clean(k.replace('JQQJ99', 'JQQJ98')); // no signature
      clean(`md5 ${h}, AZURE_OPENAI_ENDPOINT=https://x.openai.azure.com azure_deployment=${h}`);
    }),
    RUNS,
  );
});

test('Azure Storage / Service Bus connection-string keys and SAS signatures; a name or a short value is none', () => {
  const B64 = ALNUM + '+/';
  fc.assert(
    fc.property(
      chars(B64, 86).map((k) => `${k}==`),
      fc.constantFrom(
        (k: string) =>
          `DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=${k};EndpointSuffix=core.windows.net`,
        (k: string) => `Endpoint=sb://ns.servicebus.windows.net/;SharedAccessKeyName=Root;SharedAccessKey=${k}`,
      ),
      context,
      (k, conn, wrap) => holds(wrap(conn(k)), k, 'provider-token'),
    ),
    RUNS,
  );
  fc.assert(
    fc.property(chars(ALNUM, 43), context, (sig, wrap) => {
      const enc = `${sig}%3D`;
      holds(wrap(`https://acct.blob.core.windows.net/c/b?sv=2021-08-06&sr=b&sp=r&sig=${enc}`), enc, 'provider-token');
    }),
    RUNS,
  );
  for (const t of [
    'AccountName=acct;AccountKey=;EndpointSuffix=core.windows.net',
    'SharedAccessKeyName=RootManageSharedAccessKey',
    'AccountKey=short==',
    'https://example.com/?sig=abc&design=1',
    'the signature (sig=) parameter',
  ])
    clean(t);
});

test("a URL's userinfo password (scheme://user:password@host); a reference, a placeholder, no password and scp paths are none", () => {
  fc.assert(
    fc.property(
      fc.constantFrom('https', 'postgres', 'mysql', 'redis', 'amqp', 'mongodb+srv', 'ftp'),
      // an empty user too: `redis://:password@host` is the Redis URI form
      chars(LOWER + DIGITS + '_.-', 0, 12),
      chars(ALNUM + '!$&*-._~%', 1, 24),
      chars(LOWER, 1, 10).map((h) => `${h}.example`),
      context,
      (scheme, user, pass, host, wrap) => {
        fc.pre(!/^(?:\$\{?[A-Za-z_][A-Za-z0-9_]*\}?|\*+|%s)$/.test(pass));
        const text = wrap(`${scheme}://${user}:${pass}@${host}:5432/db`);
        const at = text.indexOf(`:${pass}@`) + 1;
        assert.ok(
          findSecrets(text).some((m) => m.class === 'url-credentials' && m.start === at && m.end === at + pass.length),
          `the password is not found in ${JSON.stringify(text)}`,
        );
        const out = redactor.text(text);
        assert.ok(
          out.includes(`${user}:[REDACTED:secret]@${host}`),
          `${JSON.stringify(text)} -> ${JSON.stringify(out)}`,
        );
        assert.deepEqual(findSecrets(out), []);
      },
    ),
    RUNS,
  );
  for (const t of [
    'git@github.com:org/repo.git',
    'ssh://git@host.example:22/repo',
    'https://example.com/a:b@c',
    'https://user:$' + '{DB_PASSWORD}@db.example/x',
    'https://user:$PASS@db.example/x',
    'https://user:<password>@db.example/x',
    'https://user:***@db.example/x',
    'https://user@db.example/x',
    'mailto:ops@example.com',
    'http://[::1]:8080/health',
  ])
    clean(t);
});

test('ordinary text is never flagged: prose, hex hashes, UUIDs, versions, paths, base64 blobs', () => {
  const WORDS = ['the', 'deploy', 'ran', 'tests', 'token', 'secret', 'basic', 'key', 'Asia', 'Stripe', 'GitHub', 'of'];
  const uuid = fc.uuid();
  const hash = fc.oneof(chars(HEX, 32), chars(HEX, 40), chars(HEX, 64));
  const version = fc.tuple(fc.nat(30), fc.nat(30), fc.nat(300)).map(([a, b, c]) => `v${a}.${b}.${c}`);
  const path = fc
    .array(chars(LOWER + DIGITS + '_-', 1, 12), { minLength: 1, maxLength: 5 })
    .map((p) => `/${p.join('/')}.ts`);
  const blob = fc.uint8Array({ minLength: 8, maxLength: 48 }).map((b) => Buffer.from(b).toString('base64'));
  const prose = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 12 }).map((w) => w.join(' ') + '.');
  fc.assert(
    fc.property(fc.array(fc.oneof(uuid, hash, version, path, prose, blob), { minLength: 1, maxLength: 6 }), (parts) =>
      clean(parts.join(' ')),
    ),
    { numRuns: runs(1000) },
  );
});
