/**
 * One detector, one verdict: the same corpus of strings (our own token shapes, written from
 * the providers' documented prefixes with bodies from a seeded generator; the AEP-0003 §9.4(a)
 * floor shapes; credentials between percent-encoded separators; ordinary text, encoded URLs and
 * public key material) goes through `aep validate` (the string in a `redacted`-gated field of an
 * event at capture `redacted`), `ahp validate` (the string as a `config.change.after` summary,
 * which `ahp/config-managed-secret` reads, and in a `tool.before` event's `native` payload, which
 * `ahp/event-secret` reads) and `aep redact`.
 * The three flag exactly the same strings; AEP's rule follows the tier (the §9.4(a) floor is
 * `aep/redaction-leak`, the shapes beyond it `aep/redaction-leak-provider`), and the severity is
 * one for one string: an error in both protocols (issue 43: a user gating CI on both gets one
 * answer); and what `aep redact` writes is flagged by neither protocol.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findSecrets, secretTier } from '../../src/core/secrets.ts';
import { validate } from '../../src/index.ts';
import { runCli } from '../cli/helpers.ts';
import { observeLine } from '../ahp/helpers.ts';
import { prng } from '../../tools/bench/generate-aep.ts';

// a deterministic generator (tools/bench/generate-aep.ts's mulberry32) so that the corpus is the same at every run
const rnd = prng(0x2f6b9c1d);
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const body = (n: number, alphabet = ALNUM) =>
  Array.from({ length: n }, () => alphabet[Math.floor(rnd() * alphabet.length)]).join('');
const digits = (n: number) => body(n, '0123456789');

/** Bare provider tokens: six providers, their documented prefixes, realistic lengths. */
const PROVIDER: string[] = [
  ...['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'].flatMap((p) => [p + body(36), p + body(36)]),
  `github_pat_11${body(20)}_${body(59)}`,
  `github_pat_11${body(20)}_${body(59)}`,
  ...['glpat-', 'gldt-', 'glrt-', 'glptt-', 'glft-', 'glsoat-', 'glcbt-', 'glimt-', 'gloas-'].map(
    (p) => p + body(20, ALNUM + '_-'),
  ),
  `glpat-${body(20)}`,
  `GR1348941${body(20, ALNUM + '_-')}`,
  `xoxb-${digits(11)}-${digits(13)}-${body(24)}`,
  `xoxb-${digits(12)}-${digits(12)}-${body(24)}`,
  `xoxp-${digits(11)}-${digits(11)}-${digits(13)}-${body(32, 'abcdef0123456789')}`,
  `xoxp-${digits(12)}-${digits(12)}-${digits(13)}-${body(32, 'abcdef0123456789')}`,
  `xoxa-2-${digits(11)}-${digits(13)}-${body(32, 'abcdef0123456789')}`,
  `xoxr-${digits(11)}-${body(40)}`,
  `xoxs-${digits(11)}-${digits(12)}-${body(32, 'abcdef0123456789')}`,
  `xoxe.xoxp-1-${body(140)}`,
  `xoxe-1-${body(140)}`,
  `xapp-1-A${body(10, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789')}-${digits(13)}-${body(64, 'abcdef0123456789')}`,
  `https://hooks.slack.com/services/T${body(8, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789')}/B${body(10, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789')}/${body(24)}`,
  `sk-${body(48)}`,
  `sk-${body(48)}`,
  `sk-proj-${body(156, ALNUM + '_-')}`,
  `sk-proj-${body(74, ALNUM + '_-')}`,
  `sk-svcacct-${body(74, ALNUM + '_-')}`,
  `sk-admin-${body(74, ALNUM + '_-')}`,
  `sk-None-${body(48)}`,
  `sk-ant-api03-${body(93, ALNUM + '_-')}AA`,
  `sk-ant-api03-${body(93, ALNUM + '_-')}AA`,
  `sk-ant-api03-${body(93, ALNUM + '_-')}AA`,
  `sk-ant-admin01-${body(93, ALNUM + '_-')}AA`,
  `sk-ant-oat01-${body(93, ALNUM + '_-')}AA`,
  `sk-ant-sid01-${body(93, ALNUM + '_-')}AA`,
  ...['sk_live_', 'sk_test_', 'rk_live_', 'rk_test_'].flatMap((p) => [p + body(24), p + '51' + body(97)]),
  `whsec_${body(32)}`,
  `whsec_${body(32)}`,
  // issue 43: AWS key ids beyond AKIA, Basic credentials, unsigned JWTs, Azure AI keys, Stripe ephemeral keys
  ...['ASIA', 'ABIA', 'ACCA', 'A3TZ'].map((p) => p + body(16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567')),
  `Authorization: Basic ${Buffer.from(`deploy:${body(12)}`).toString('base64')}`,
  `Authorization: Token ${body(40)}`,
  `eyJhbGciOiJub25lIn0.eyJzdWIiOiJjaSIsImlhdCI6${body(6)}`,
  `${body(52)}JQQJ99BC${body(16)}A${body(7)}`,
  `AZURE_OPENAI_KEY=${body(32, 'abcdef0123456789')}`,
  `ek_live_${body(24)}`,
  `glpat-${body(27, ALNUM + '_-')}.01.${body(9, 'abcdefghijklmnopqrstuvwxyz0123456789')}`,
];

/** The §9.4(a) floor shapes, among them the operator, typed-declaration and letters-only Bearer cases. */
const FLOOR: string[] = [
  'password = "rootpasswd"',
  'api_token := "Zx81qPlm77Tn"',
  'secret => "Qv83mmWx01"',
  'token ::= Zx81abcd',
  'var password string = "hunter2sequel"',
  'auth := "Bearer yvxpthLIcYpZweFpPOVeCOtot"',
  'curl -H "Authorization: Bearer abc123.DEF-456_ghi~789"',
  'export API_KEY=not-a-real-key-42',
  '{"passwd": "correct horse battery"}',
  'deploy with AKIAQ7VLM2XC9RTY4BNA now',
  'session eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJjYXNlIn0.c2lnbmF0dXJl done',
  'key -----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjE\n-----END OPENSSH PRIVATE KEY-----',
  'truncated -----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA',
  'Rotate the deploy token: now read from the keychain.',
];

/** Credentials between percent-encoded separators (a URL-encoded query or redirect), either hex case, escaped twice. */
const ENCODED: string[] = [
  `cb?redirect=%2Fhome%3Fid_token%3DeyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ${body(8)}.${body(20)}`,
  `cb?next=%2Fhome%3Ftoken%3Dghp_${body(36)}%26pw%3Dhunter2`,
  `q%3dxoxb-${digits(12)}-${body(24)}%26page%3d2`,
  `next%3Dgithub_pat_11${body(20)}_${body(59)}`,
  'r%3Fpassword%3Dhunter2%26x%3D1',
  `login?next=%252Fcb%253Fapi_key%253D${body(16)}`,
  `h%3DBearer%20${body(30)}`,
  `Authorization%3A+Bearer+${body(30)}`,
  // a form's `+` for every space and line break, no escape anywhere; escaped three times; after UTF-8 escapes
  `k=-----BEGIN+RSA+PRIVATE+KEY-----+MIIE${body(40)}+QUFB+-----END+RSA+PRIVATE+KEY-----&n=1`,
  `key=-----BEGIN+OPENSSH+PRIVATE+KEY-----+b3Bl${body(40)}`,
  `login?next=%25252Fcb%25253Fapi_key%25253D${body(16)}`,
  `x%C0%AFghp_${body(36)}`,
  `r%E2%80%94sk-proj-${body(40)}`,
  `https://app.example/cb?user=ann&password=${body(12)}&lang=en`,
];

/** Strings no consumer flags. */
const CLEAN: string[] = [
  'ran 42 tests, 0 failures, in 3.1s',
  'the bearer of good news arrived',
  'The Bearer of the release approves it.',
  'max_tokens: 100, tokens_used: 80',
  'task-abcdefghijklmnopqrstuvwxyz finished',
  'signing key -----BEGIN PGP PUBLIC KEY BLOCK-----\nmQINBGXpublicpart\n-----END PGP PUBLIC KEY BLOCK-----',
  '-----BEGIN CERTIFICATE-----\nMIIDcertpart\n-----END CERTIFICATE-----',
  '-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\n-----END PUBLIC KEY-----',
  `publishable pk_live_${body(24)}`,
  'token = "[REDACTED:secret]" and Bearer [REDACTED:secret]',
  'Rotate the deploy token; it is now read from the keychain.',
  'rotated the Stripe key (sk_live_...) and the GitHub PAT',
  // near misses of the issue 43 shapes, hashes and ids
  'ASIAPACIFICHEADQUARTERS; role AROAQ7VLM2XC3RTY4BNA',
  'md5 9e107d9d372bb6826bd81d3542a419d6, sha1 2fd4e1c67a2d28fced849ee1bb76e7391b93eb12',
  'request 3f2a9c1e-4b7d-4e2a-9c1f-0a1b2c3d4e5f done',
  'Basic authentication is off; authorization: none required',
  'payload eyJfoo.bar and version v1.2.3',
  `publishable pk_test_${body(24)}`,
  // ordinary percent-encoded URLs
  'q%3Dhello%20world and %2Fhome%2Fuser',
  'https%3A%2F%2Fexample.com%2Fsearch%3Fq%3Drotate%2520the%2520token%26lang%3Den',
  'cb?next=%2Fsettings%2Fpasswords%3Ftab%3Dsecurity, 100%25 done',
  // ordinary `+` in prose and queries; a value already redacted ends at a plain `&`; an over-long `=` is no `=`
  'C++ and a+b=c; search?q=rotate+the+token&lang=en; 3+4=7; -----BEGIN+ is a header',
  'https://app.example/cb?password=[REDACTED:secret]&next=/home',
  'password%C0%BDhunter2 and %E2%80%94 q%3Dcaf%C3%A9',
];

const CORPUS = [...PROVIDER, ...FLOOR, ...ENCODED, ...CLEAN];
const HEAD = {
  aep: '0.1',
  time: '2026-11-30T10:00:00Z',
  source: 'aep://h/agent/d/session/s',
  agent: 'd',
  session: 's',
  run: 'r1',
  capture: 'redacted',
};
const aepLine = (s: string, i: number) =>
  JSON.stringify({ ...HEAD, id: `v${i}`, type: 'progress.status', seq: i, data: { message: s } });
const ahpLine = (s: string, i: number) =>
  observeLine({
    id: `evt_${i}`,
    source: 'urn:uuid:7e2a3b4c-1d5f-4e6a-8b9c-0a1b2c3d4e5f',
    time: '2026-09-15T12:00:00Z',
    type: 'config.change.after',
    session: { id: 'sess' },
    turn: { id: 'turn_1' },
    change: { source: 'user-settings', scope: 'user', settings: ['profiles.staging'], summary: s },
  });
const ahpEventLine = (s: string, i: number) =>
  observeLine({
    id: `evt_${i}`,
    source: 'urn:uuid:7e2a3b4c-1d5f-4e6a-8b9c-0a1b2c3d4e5f',
    time: '2026-09-15T12:00:00Z',
    type: 'tool.before',
    session: { id: 'sess' },
    turn: { id: 'turn_1' },
    tool: { name: 'sh' },
    native: { provider: 'p', eventName: 'E', payload: { url: s } },
  });
const LEAK_RULES = new Set(['aep/redaction-leak', 'aep/redaction-leak-provider']);

test('one detector, one verdict: aep validate, ahp validate and aep redact flag the same strings, and redaction leaves nothing', async () => {
  assert.ok(PROVIDER.length >= 57, `${PROVIDER.length} provider tokens`);
  const aepText = CORPUS.map(aepLine).join('\n') + '\n';
  const aep = await validate('aep', { text: aepText, source: 'corpus.jsonl' });
  const aepFlags = new Map<number, Set<string>>();
  for (const f of aep.findings) {
    if (!LEAK_RULES.has(f.ruleId)) continue;
    assert.equal(f.pointer, '/data/message');
    const set = aepFlags.get(f.line! - 1) ?? new Set();
    set.add(f.ruleId);
    aepFlags.set(f.line! - 1, set);
  }
  const ahp = await validate('ahp', { text: CORPUS.map(ahpLine).join('\n') + '\n', source: 'corpus.jsonl' });
  const ahpFlags = new Set(
    ahp.findings.filter((f) => f.ruleId === 'ahp/config-managed-secret').map((f) => f.line! - 1),
  );
  const ahpEvent = await validate('ahp', { text: CORPUS.map(ahpEventLine).join('\n') + '\n', source: 'events.jsonl' });
  const eventFlags = new Set(ahpEvent.findings.filter((f) => f.ruleId === 'ahp/event-secret').map((f) => f.line! - 1));
  const red = await runCli('aep', ['redact', '--no-pii', '--home', '/nonexistent-home', '-'], aepText);
  assert.equal(red.code, 0, red.stderr);
  const outLines = red.stdout.trimEnd().split('\n');
  assert.equal(outLines.length, CORPUS.length);
  const redacted = outLines.map((l) => (JSON.parse(l) as { data: { message: string } }).data.message);

  const rows = CORPUS.map((s, i) => {
    const expected = PROVIDER.includes(s) || FLOOR.includes(s) || ENCODED.includes(s);
    const ahp = ahpFlags.has(i);
    return { i, s, expected, aep: aepFlags.has(i), ahp, event: eventFlags.has(i), redact: redacted[i] !== s };
  });
  const wrong = rows.filter(
    (r) => r.aep !== r.expected || r.ahp !== r.expected || r.event !== r.expected || r.redact !== r.expected,
  );
  assert.deepEqual(
    wrong.map(
      (r) =>
        `${JSON.stringify(r.s.slice(0, 40))}: expected ${r.expected}, aep ${r.aep}, ahp ${r.ahp} event ${r.event}, redact ${r.redact}`,
    ),
    [],
  );

  // the severity follows the tier of what was found
  for (const [i, rules] of aepFlags) {
    const tiers = new Set(findSecrets(CORPUS[i]!).map((m) => secretTier(m.class)));
    assert.deepEqual(
      [...rules].sort(),
      [...tiers].map((t) => (t === 'floor' ? 'aep/redaction-leak' : 'aep/redaction-leak-provider')).sort(),
      CORPUS[i],
    );
  }
  assert.ok(
    PROVIDER.every((_, i) => aepFlags.get(i)?.has('aep/redaction-leak-provider')),
    'bare provider tokens are the hardening tier',
  );
  // one severity for one string: every flag is an error in both protocols
  const severities = new Set([
    ...aep.findings.filter((f) => LEAK_RULES.has(f.ruleId)).map((f) => `aep ${f.severity}`),
    ...ahp.findings.filter((f) => f.ruleId === 'ahp/config-managed-secret').map((f) => `ahp ${f.severity}`),
  ]);
  assert.deepEqual([...severities].sort(), ['aep error', 'ahp error']);

  // what aep redact writes is flagged by nothing, in either protocol
  const after = await validate('aep', { text: red.stdout, source: 'redacted.jsonl' });
  assert.deepEqual(
    after.findings.filter((f) => LEAK_RULES.has(f.ruleId)),
    [],
  );
  const ahpAfter = await validate('ahp', { text: redacted.map(ahpLine).join('\n') + '\n', source: 'redacted.jsonl' });
  assert.deepEqual(
    ahpAfter.findings.filter((f) => f.ruleId === 'ahp/config-managed-secret'),
    [],
  );
});
