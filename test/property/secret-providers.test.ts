/**
 * The provider credential shapes added after the issue 43 audit (npm, Hugging Face, Twilio, SendGrid, Mailgun,
 * DigitalOcean, Shopify, PyPI, Docker, Databricks, Google OAuth, Slack browser-session tokens, Groq, xAI, Replicate,
 * Vault, Sentry, age, Postman, Grafana, Supabase, 1Password, Square, Discord webhooks) and the PEM body of a
 * JSON-escaped private key: each written from its provider's documented format with a random body, flagged whole as
 * `provider-token` (hardening tier, AEP-0003 §9.4 "adapters MAY redact more") alone and inside ordinary text, redacted
 * without a trace; a near miss of each (one character short, a wrong prefix, the prefix inside a word, prose that only
 * starts so) is flagged by nothing.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { findSecrets, secretTier } from '../../src/core/secrets.ts';
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

/** A PyPI token: `pypi-` and the base64url of a macaroon (v2: bytes 02 01, the location's length, the location). */
const pypi = fc
  .tuple(fc.constantFrom('pypi.org', 'test.pypi.org'), fc.uint8Array({ minLength: 40, maxLength: 160 }))
  .map(
    ([loc, rest]) =>
      `pypi-${Buffer.concat([Buffer.from([2, 1, loc.length]), Buffer.from(loc), rest]).toString('base64url')}`,
  );

/** Each shape: a prefix and a body of the documented alphabet and length. */
const SHAPES: fc.Arbitrary<string>[] = [
  chars(ALNUM, 36).map((b) => `npm_${b}`),
  chars(UPPER + LOWER, 34).map((b) => `hf_${b}`),
  chars(HEX, 32).map((b) => `SK${b}`),
  fc.tuple(chars(B64URL, 22), chars(B64URL, 43)).map(([a, b]) => `SG.${a}.${b}`),
  chars(LOWER + DIGITS, 32).map((b) => `key-${b}`),
  chars(HEX, 64).map((b) => `dop_v1_${b}`),
  fc.tuple(fc.constantFrom('shpat', 'shpca', 'shppa', 'shpss'), chars(HEX, 32)).map(([p, b]) => `${p}_${b}`),
  pypi,
  fc.tuple(fc.constantFrom('pat', 'oat'), chars(B64URL, 27)).map(([p, b]) => `dckr_${p}_${b}`),
  fc.tuple(chars(HEX, 32), fc.constantFrom('', '-2', '-3')).map(([b, s]) => `dapi${b}${s}`),
  chars(B64URL, 28).map((b) => `GOCSPX-${b}`),
  chars(B64URL, 30, 150).map((b) => `ya29.${b}`),
  fc.tuple(fc.constantFrom('xoxc', 'xoxd'), chars(ALNUM + '-', 20, 80)).map(([p, b]) => `${p}-${b}`),
  chars(ALNUM, 52).map((b) => `gsk_${b}`),
  chars(ALNUM, 80).map((b) => `xai-${b}`),
  chars(ALNUM, 37).map((b) => `r8_${b}`),
  fc.tuple(fc.constantFrom('hvs', 'hvb', 'hvr'), chars(B64URL, 24, 120)).map(([p, b]) => `${p}.${b}`),
  chars(HEX, 64).map((b) => `sntryu_${b}`),
  fc.tuple(chars(ALNUM + '+/', 60, 120), chars(B64URL, 43)).map(([a, b]) => `sntrys_eyJ${a}_${b}`),
  chars('QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L', 58).map((b) => `AGE-SECRET-KEY-1${b}`),
  fc.tuple(chars(HEX, 24), chars(HEX, 34)).map(([a, b]) => `PMAK-${a}-${b}`),
  fc.tuple(chars(ALNUM, 32), chars(HEX, 8)).map(([a, b]) => `glsa_${a}_${b}`),
  chars(ALNUM + '+/', 40, 120).map((b) => `glc_${b}`),
  chars(HEX, 40).map((b) => `sbp_${b}`),
  chars(ALNUM + '+/', 200, 300).map((b) => `ops_eyJ${b}`),
  fc.tuple(fc.constantFrom('sq0atp', 'sq0csp'), chars(B64URL, 22, 43)).map(([p, b]) => `${p}-${b}`),
  fc
    .tuple(fc.constantFrom('', 'ptb.', 'canary.'), chars(DIGITS, 18), chars(B64URL, 68))
    .map(([h, id, t]) => `https://${h}discord.com/api/webhooks/${id}/${t}`),
  // the openings that start like common words, screened by their longer tails (src/ahp/secret-screen.ts)
  chars(B64URL + '=', 186).map((b) => `ATATT3${b}`),
  chars(ALNUM, 40).map((b) => `lin_api_${b}`),
  chars(ALNUM, 48).map((b) => `pplx-${b}`),
  chars(ALNUM, 12, 20).map((b) => `LTAI${b}`),
  fc.tuple(fc.constantFrom('dop', 'doo', 'dor'), chars(HEX, 64)).map(([p, b]) => `${p}_v1_${b}`),
  // prefix-less shapes of their own: a Telegram bot token, an Entra ID (Azure AD) client secret
  fc.tuple(chars(DIGITS, 6, 12), chars(B64URL, 33)).map(([id, b]) => `${id}:AA${b}`),
  fc.tuple(chars(ALNUM + '_~.-', 3), chars(DIGITS, 1), chars(ALNUM + '_~.-', 34)).map(([a, d, b]) => `${a}${d}Q~${b}`),
];

/** {@link context} and a URL's query parameter. */
const contexts = fc.oneof(
  context,
  fc.constant((t: string) => `https://example.com/callback?ref=${t}&page=2`),
);

test('provider tokens: each documented shape is flagged whole, in context, and redacted without a trace', () => {
  assert.equal(secretTier('provider-token'), 'hardening');
  fc.assert(
    fc.property(fc.oneof(...SHAPES), contexts, (t, wrap) => holds(wrap(t), t, 'provider-token', 6, false)),
    RUNS,
  );
});

test('near misses of the provider shapes are none: one short, a wrong prefix, the prefix inside a word, prose', () => {
  fc.assert(
    fc.property(
      fc.oneof(
        chars(ALNUM, 35).map((b) => `npm_${b}`),
        chars(ALNUM, 36).map((b) => `pnpm_${b}`),
        chars(UPPER + LOWER, 33).map((b) => `hf_${b}`),
        chars(HEX, 31).map((b) => `SK${b}`),
        chars(HEX, 32).map((b) => `TASK${b}`),
        chars(HEX, 32).map((b) => `sk${b}`),
        fc.tuple(chars(B64URL, 21), chars(B64URL, 43)).map(([a, b]) => `SG.${a}.${b}`),
        chars(LOWER + DIGITS, 31).map((b) => `key-${b}`),
        chars(LOWER + DIGITS, 32).map((b) => `monkey-${b}`),
        chars(HEX, 63).map((b) => `dop_v1_${b}`),
        chars(HEX, 64).map((b) => `dop_v2_${b}`),
        chars(HEX, 31).map((b) => `shpat_${b}`),
        chars(HEX, 32).map((b) => `shpxx_${b}`),
        chars(B64URL, 20, 49).map((b) => `pypi-AgE${b}`),
        chars(B64URL, 8, 19).map((b) => `dckr_pat_${b}`),
        chars(HEX, 31).map((b) => `dapi${b}`),
        chars(HEX, 32).map((b) => `rapidapi${b}`),
        chars(B64URL, 20, 27).map((b) => `GOCSPX-${b}`),
        chars(B64URL, 4, 19).map((b) => `ya29.${b}`),
        chars(ALNUM, 30, 47).map((b) => `gsk_${b}`),
        chars(ALNUM, 20, 69).map((b) => `xai-${b}`),
        chars(ALNUM, 36).map((b) => `r8_${b}`),
        chars(B64URL, 4, 23).map((b) => `hvs.${b}`),
        chars(HEX, 20, 39).map((b) => `sntryu_${b}`),
        chars('QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L', 57).map((b) => `AGE-SECRET-KEY-1${b}`),
        fc.tuple(chars(HEX, 23), chars(HEX, 34)).map(([a, b]) => `PMAK-${a}-${b}`),
        chars(ALNUM, 32).map((b) => `glsa_${b}`),
        chars(HEX, 39).map((b) => `sbp_${b}`),
        chars(ALNUM + '+/', 20, 199).map((b) => `ops_eyJ${b}`),
        chars(B64URL, 8, 21).map((b) => `sq0atp-${b}`),
        chars(B64URL, 68).map((b) => `https://discord.com/api/webhooks/123/${b}`),
        chars(B64URL, 100, 179).map((b) => `ATATT3${b}`),
        chars(ALNUM, 186).map((b) => `ATATT${b.replace(/^3/, 'x')}`.replace(/^ATATT3/, 'ATATTx')),
        chars(ALNUM, 39).map((b) => `lin_api_${b}`),
        chars(ALNUM, 40).map((b) => `line_api_${b}`),
        chars(ALNUM, 47).map((b) => `pplx-${b}`),
        chars(ALNUM, 48).map((b) => `apple-${b}`),
        chars(ALNUM, 11).map((b) => `LTAI${b}`),
        chars(ALNUM, 20).map((b) => `DELTAI${b}`),
        chars(HEX, 63).map((b) => `doo_v1_${b}`),
        chars(HEX, 64).map((b) => `door_v1_${b}`),
        fc.tuple(chars(DIGITS, 6, 12), chars(B64URL, 32)).map(([id, b]) => `${id}:AA${b}`),
        fc.tuple(chars(DIGITS, 6, 12), chars(B64URL, 33)).map(([id, b]) => `${id}:AB${b}`),
        chars(B64URL, 33).map((b) => `12345:AA${b}`),
        fc
          .tuple(chars(ALNUM + '_~.-', 3), chars(DIGITS, 1), chars(ALNUM + '_~.-', 33))
          .map(([a, d, b]) => `${a}${d}Q~${b}`),
        fc.tuple(chars(ALNUM + '_~.-', 3), chars(ALNUM + '_~.-', 34)).map(([a, b]) => `${a}xQ~${b}`),
        // a 40-hex git SHA and a 40-character base64 string are not AWS secret access keys without their name
        chars(HEX, 40),
        chars(ALNUM + '+/', 40),
      ),
      contexts,
      (t, wrap) => clean(wrap(t)),
    ),
    RUNS,
  );
  for (const t of [
    'the task-list-for-the-deploy-pipeline is long; ask-me-anything-about-the-release',
    'npm_config_registry=https://registry.npmjs.org/ npm_lifecycle_event=test',
    'from huggingface_hub import hf_hub_download; hf_transfer enabled',
    'msg.content.length and pkg.sg.example',
    'a key-value store keyed by key-0 and key-abc',
    'pip install pypi-simple; see pypi-AgE for the token format',
    'docker login (dckr_ tokens); dapi is a prefix; ya29. is Google',
    'Shopify shpat_ tokens; DigitalOcean dop_v1_ tokens',
    'the xai-sdk package, r8_ and gsk_ prefixes, hvs. tokens, a glc_ key, sbp_, sq0atp- and PMAK- keys',
    'AGE-SECRET-KEY-1 is how age secret keys start; the ops_eyJ prefix; see https://discord.com/api/webhooks',
    'the data, the metadata and the ATATT prefix; an online pipeline with a line_api_ helper; apply the application',
    'a delta of LTAI keys, the vendor door, dor_v1_ and doo_v1_ prefixes, pplx- keys, lin_api_ keys',
    'commit 9fceb02d0ae598e95dc970b74767f19372d61af8 (HEAD -> main), tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904',
    'the meeting is at 10:AA room, ratio 16:9, a 8Q~ marker, git log --format=%H',
  ])
    clean(t);
});

test('a JSON-escaped private key whose END line is missing is redacted to its last body line (service-account key file)', () => {
  fc.assert(
    fc.property(
      fc.array(chars(ALNUM + '+/', 64), { minLength: 1, maxLength: 6 }),
      fc.constantFrom('\\n', '\\r\\n'),
      (lines, nl) => {
        const body = lines.join(nl);
        const text = `{"type": "service_account", "private_key": "-----BEGIN PRIVATE KEY-----${nl}${body}${nl}`;
        const found = findSecrets(text);
        assert.ok(
          found.some((m) => m.class === 'pem' && m.end >= text.indexOf(body) + body.length),
          JSON.stringify(found),
        );
        for (const line of lines) assert.ok(!redactor.text(text).includes(line.slice(0, 16)), 'a body line survives');
      },
    ),
    RUNS,
  );
});

/** An AWS secret access key: 40 characters of base64. */
const awsSecret = chars(ALNUM + '+/', 40);

test('an AWS secret access key under its name is flagged whole and redacted, in every way the name is written', () => {
  fc.assert(
    fc.property(
      awsSecret,
      fc.constantFrom(
        (k: string) => `aws_secret_access_key=${k}`,
        (k: string) => `export AWS_SECRET_ACCESS_KEY=${k}`,
        (k: string) => `AWS_SECRET_ACCESS_KEY: ${k}`,
        (k: string) => `[default]\naws_secret_access_key = ${k}\nregion = eu-west-1`,
        (k: string) => `{"AccessKeyId": "ASIA0000", "SecretAccessKey": "${k}", "Expiration": "x"}`,
        (k: string) => `log: {"aws_secret_access_key": "${k}"} done`,
        (k: string) => `aws configure set aws_secret_access_key ${k}`,
        (k: string) => `https://example.com/hook?aws_secret_access_key=${k}&page=2`,
      ),
      (k, wrap) => {
        const text = wrap(k);
        const at = text.indexOf(k);
        assert.ok(
          findSecrets(text).some((m) => m.start <= at && m.end >= at + k.length),
          `not found whole in ${JSON.stringify(text)}`,
        );
        assert.ok(!redactor.text(text).includes(k.slice(0, 20)), JSON.stringify(redactor.text(text)));
      },
    ),
    RUNS,
  );
});

test('a number under a credential name in a text is the value, and the member after it stays', () => {
  fc.assert(
    fc.property(
      fc.constantFrom('password', 'api_key', 'client_secret', 'token', 'apiKey'),
      fc.bigInt({ min: 1000n, max: 99999999999999n }),
      (name, n) => {
        for (const text of [`{"${name}": ${n}, "region": "eu"}`, `{"${name}": ${n}}`, `set ${name}=${n} and go`]) {
          const at = text.indexOf(`${n}`);
          assert.ok(
            findSecrets(text).some((m) => m.class === 'assignment' && m.start === at && m.end === at + `${n}`.length),
            `${JSON.stringify(text)}: ${JSON.stringify(findSecrets(text))}`,
          );
          assert.ok(!redactor.text(text).includes(`${n}`), redactor.text(text));
        }
        assert.equal(
          redactor.text(`{"${name}": ${n}, "region": "eu"}`),
          `{"${name}": [REDACTED:secret], "region": "eu"}`,
        );
      },
    ),
    RUNS,
  );
});

test('a PIN or passcode: digits after `pin`, `pin_code` or `passcode`, in a text, JSON, an assignment and a query', () => {
  fc.assert(
    fc.property(
      fc.constantFrom('pin', 'PIN', 'pin_code', 'pinCode', 'passcode'),
      chars(DIGITS, 4, 12),
      fc.constantFrom(
        (k: string, v: string) => `${k}=${v}`,
        (k: string, v: string) => `your ${k}: ${v} was set`,
        (k: string, v: string) => `{"${k}": ${v}, "ok": true}`,
        (k: string, v: string) => `{"${k}": "${v}"}`,
        (k: string, v: string) => `https://example.com/verify?${k}=${v}&next=/`,
      ),
      (k, v, wrap) => holds(wrap(k, v), v, 'pin', 4),
    ),
    RUNS,
  );
  for (const t of [
    'pin: 3.12',
    'pin=latest',
    'pin=123',
    'spin=12345',
    'ping 12345678',
    'pinned: 20240101',
    'the pin 1234 on the map',
    'opinion=5678',
    'passcode=12ab34',
  ])
    clean(t);
});
