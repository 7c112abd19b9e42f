import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  findSecrets,
  firstFloorSecret,
  mayHoldSecret,
  replaceMatches,
  SECRET_MARK,
  type DetectorClass,
} from '../../src/core/secrets.ts';
import { optionalShared } from '../shared.ts';
import { TEXT_SECRET_CLASSES } from '../secret-classes.ts';

const classes = (t: string, c?: DetectorClass[]) =>
  findSecrets(t, c ? { classes: c } : {}).map((m) => [m.class, t.slice(m.start, m.end)]);

test('secrets: each rule (a) class is found, with the range of the secret itself', () => {
  assert.deepEqual(classes('x -----BEGIN RSA PRIVATE KEY-----\nMIIE\nabc\n-----END RSA PRIVATE KEY----- y'), [
    ['pem', '-----BEGIN RSA PRIVATE KEY-----\nMIIE\nabc\n-----END RSA PRIVATE KEY-----'],
  ]);
  assert.deepEqual(classes('use AKIAIOSFODNN7EXAMPLE now'), [['aws-access-key', 'AKIAIOSFODNN7EXAMPLE']]);
  assert.deepEqual(classes('Authorization: Bearer abc123.DEF-456_ghi~789'), [['bearer', 'abc123.DEF-456_ghi~789']]);
  assert.deepEqual(classes('export API_KEY=sk_live_1 && run'), [['assignment', 'sk_live_1']]);
  assert.deepEqual(classes('password : hunter2'), [['assignment', 'hunter2']]);
  assert.deepEqual(classes('{"token": "tok_9f8e"}'), [['assignment', 'tok_9f8e']]);
  assert.deepEqual(classes('token=\nZX12'), [['assignment', 'ZX12']]);
  assert.deepEqual(classes('s eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.Sfl d'), [
    ['jwt', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.Sfl'],
  ]);
  assert.equal(firstFloorSecret('passwd=x1'), 'assignment');
});

test('secrets: the value of an assignment is the whole value, wherever it starts (issue 43 item 1)', () => {
  const tok = 'Zx81qPlm77TnQwErTy12';
  assert.deepEqual(classes(`NAME_TOKEN: Scheme1 ${tok}`), [['assignment', `Scheme1 ${tok}`]]);
  assert.deepEqual(classes(`"client_secret": Ctor{Kind: K, Create: '${tok}'}, next`), [
    ['assignment', `Ctor{Kind: K, Create: '${tok}'}`],
  ]);
  assert.deepEqual(classes(`api_token = "api_token = "${tok}""`), [['assignment', `api_token = "${tok}`]]);
  assert.deepEqual(classes(`secret_value = "${tok}" is_secret = true`), [
    ['assignment', tok],
    ['assignment', 'true'],
  ]);
  assert.deepEqual(classes(`AWS_SECRET_ACCESS_KEY=${tok}`), [['assignment', tok]]);
  // a `KEY: value` line: the rest of the line, up to a comment or a shell separator
  assert.deepEqual(classes('db_password: correct horse battery staple'), [
    ['assignment', 'correct horse battery staple'],
  ]);
  assert.deepEqual(classes('  export API_TOKEN=a1 b2 # note\nnext'), [['assignment', 'a1 b2']]);
  assert.deepEqual(classes('API_KEY=sk_live_x1 && run'), [['assignment', 'sk_live_x1']]);
  // `; ` ends the value though the bare word holds the `;`: the next command is no part of it, on a key line or not
  for (const [line, value] of [
    ['export DEPLOY_TOKEN=abc123xyz; curl -H x', 'abc123xyz'],
    ['token=abc123xyz;', 'abc123xyz'],
    ['run token=abc123xyz; curl x', 'abc123xyz'],
    ['TOKEN=a;b c', 'a;b c'],
  ] as const) {
    assert.deepEqual(classes(line), [['assignment', value]], line);
    const out = replaceMatches(line, findSecrets(line, {}), SECRET_MARK);
    assert.deepEqual(findSecrets(out, {}), [], out); // what is written is not found again
  }
  // in prose, after a colon, the value is the words up to the end of the sentence or clause (a passphrase of several
  // words, `password: correct horse battery staple`); redacting more than a secret is allowed (AEP-0003 §9.4)
  assert.deepEqual(classes('Rotate the token: now read from the keychain'), [
    ['assignment', 'now read from the keychain'],
  ]);
  for (const [line, value] of [
    ['I typed password: correct horse battery staple for the box', 'correct horse battery staple for the box'],
    ['use password: correct horse battery staple. Then log in', 'correct horse battery staple'],
    ['use password: correct horse battery staple! Then', 'correct horse battery staple'],
    ['use password: correct horse battery staple, then log in', 'correct horse battery staple'],
    ['use password: correct horse battery staple; then', 'correct horse battery staple'],
    ['say password: correct horse battery staple\nnext line', 'correct horse battery staple'],
    ['note password: correct horse user: bob', 'correct horse'],
    ['note password: correct horse path=/x', 'correct horse'],
    ['note password: correct horse # comment', 'correct horse'],
    ['note password: correct horse "quoted"', 'correct horse'],
    [`note password: correct horse ${SECRET_MARK}`, 'correct horse'],
    ['note password: a b c d e f g h i j k l m n o', 'a b c d e f g h i j k l'],
    ['ok password: hunter2, thanks', 'hunter2,'],
    ['x api_key=abc123 more words', 'abc123'],
  ] as const) {
    assert.deepEqual(classes(line), [['assignment', value]], line);
    const out = replaceMatches(line, findSecrets(line, {}), SECRET_MARK);
    assert.deepEqual(findSecrets(out, {}), [], out);
  }
  // names that hold no secret, and marks, stay unflagged
  assert.deepEqual(classes('token_count: 5, secret_name: db, tokens_used: 80, max_tokens: 100'), []);
  assert.deepEqual(classes(`token: Bearer ${SECRET_MARK}, api_token = "${SECRET_MARK}""`), []);
});

test('secrets: hardening and PII classes', () => {
  assert.deepEqual(classes('clone ghp_AbCdEfGhIjKlMnOpQrStUvWxYz012345 now'), [
    ['provider-token', 'ghp_AbCdEfGhIjKlMnOpQrStUvWxYz012345'],
  ]);
  assert.deepEqual(classes('task-abcdefghijklmnopqrstuvwxyz'), []); // "sk-" inside a word is no key
  assert.deepEqual(classes('mail jane.doe+t@example.co.uk, call +1 (555) 123-4567', ['email', 'phone']), [
    ['email', 'jane.doe+t@example.co.uk'],
    ['phone', '+1 (555) 123-4567'],
  ]);
  assert.deepEqual(classes('node 22.11.0 and pnpm 9.14.2, 2026-12-01', ['email', 'phone']), []);
  assert.equal(firstFloorSecret('ghp_AbCdEfGhIjKlMnOpQrStUvWxYz012345'), undefined); // not a floor class
});

test('secrets: prose and redaction markers are not secrets', () => {
  assert.deepEqual(classes('the bearer of good news arrived; bearer instruments'), []);
  assert.deepEqual(classes('ran 42 tests, max_tokens: 100'), []);
  assert.deepEqual(classes(`token=${SECRET_MARK}, password: "${SECRET_MARK}" Bearer ${SECRET_MARK} secret=***`), []);
  assert.equal(firstFloorSecret('authorization: bearer abcdefghij'), 'bearer'); // letters only, but after Authorization:
});

test('secrets: a paging or sync position named ...token is no credential; a credential named ...token still is', () => {
  for (const name of [
    'next_page_token',
    'nextPageToken',
    'page-token',
    'continuationToken',
    'sync_token',
    'resumeToken',
    'cursor_token',
    'paginationToken',
    'NextToken', // AWS list APIs
    'next_token',
    'nextToken',
    'skipToken', // Azure $skipToken
  ])
    for (const text of [`${name}=CAUQAAxyz12345`, `"${name}": "CAUQAAxyz12345"`])
      assert.deepEqual(classes(text), [], text);
  for (const name of [
    'token',
    'access_token',
    'refresh_token',
    'session_token',
    'csrf_token',
    'id_token',
    'pageTokenSecret',
  ])
    assert.notDeepEqual(classes(`${name}=CAUQAAxyz12345`), [], name);
});

test('secrets: a PEM block without its END line still covers its body', () => {
  const t = 'a\n-----BEGIN PRIVATE KEY-----\nMIIEabc\nQQQ=\n\nafter';
  assert.deepEqual(classes(t), [['pem', '-----BEGIN PRIVATE KEY-----\nMIIEabc\nQQQ=']]);
});

test('secrets: replaceMatches merges overlapping ranges', () => {
  const t = 'Authorization: Bearer abc123def456 token=Bearer';
  const out = replaceMatches(t, findSecrets(t), SECRET_MARK);
  assert.equal(out, `Authorization: Bearer ${SECRET_MARK} token=${SECRET_MARK}`);
  assert.equal(replaceMatches('abc', [], SECRET_MARK), 'abc');
});

test('secrets: scans of long adversarial strings finish (linear patterns)', { timeout: 60_000 }, () => {
  const n = 200_000;
  const inputs = [
    'a'.repeat(n),
    'a@'.repeat(n / 2),
    'a@' + 'bbbb.'.repeat(n / 5) + '!',
    'eyJ'.repeat(n / 3),
    'eyJa.'.repeat(n / 5),
    '-----BEGIN X-----\n'.repeat(n / 18),
    'token'.repeat(n / 5),
    'token ' + ' '.repeat(n),
    'bearer '.repeat(n / 7),
    'sk-'.repeat(n / 3),
    '1 '.repeat(n / 2),
    '(555) '.repeat(n / 6),
    'AKIA'.repeat(n / 4),
    // issue 43: whole values, the new classes
    `token="a"b${')'.repeat(n)}x`,
    `token=Ctor{${'('.repeat(n)}`,
    'token={'.repeat(n / 7),
    'token="a"b '.repeat(n / 11),
    'token: Scheme '.repeat(n / 14),
    'secret_value='.repeat(n / 13),
    'Basic '.repeat(n / 6),
    `Basic ${'A'.repeat(n)}`,
    'authorization: '.repeat(n / 15),
    `authorization: x ${'a'.repeat(n)}`,
    'ASIA'.repeat(n / 4),
    'JQQJ99'.repeat(n / 6),
    `${'a'.repeat(n)}JQQJ99`,
    'azure_key='.repeat(n / 10),
    `openai${'_'.repeat(n)}key`,
    // the prefix-less shapes, the PIN and the AWS secret after its name
    '1234567:AA'.repeat(n / 10),
    `${'1'.repeat(n)}:AA${'A'.repeat(33)}`,
    `bot${'1'.repeat(n)}`,
    'abc8Q~'.repeat(n / 6),
    `${'a'.repeat(n)}8Q~`,
    'pin= '.repeat(n / 5),
    `pin${' '.repeat(n)}=`,
    'secret_access_key '.repeat(n / 18),
    `secret_access_key${' '.repeat(n)}x`,
    'ATATT3'.repeat(n / 6),
    'LTAI'.repeat(n / 4),
    'lin_api_'.repeat(n / 8),
    'eyJaaaa.eyJaaaa.'.repeat(n / 16),
    'glpat-'.repeat(n / 6),
  ];
  const start = Date.now();
  for (const t of inputs) {
    const m = findSecrets(t, { classes: [...TEXT_SECRET_CLASSES, 'email', 'phone'] });
    assert.ok(Array.isArray(m));
  }
  assert.ok(Date.now() - start < 20_000, `${Date.now() - start} ms`);
  // a real secret after a long run is still found
  assert.equal(firstFloorSecret('x'.repeat(n) + ' AKIAIOSFODNN7EXAMPLE'), 'aws-access-key');
});

/** Every string inside the JSON and JSONL files under `dir` (conformance cases, examples, the upstream corpus). */
function stringsUnder(dir: string, out: string[]): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return; // an absent corpus
  }
  const walk = (v: unknown): void => {
    if (typeof v === 'string') out.push(v);
    else if (v !== null && typeof v === 'object') for (const x of Object.values(v)) walk(x);
  };
  for (const n of names) {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) stringsUnder(p, out);
    else if (/\.jsonl?$/.test(n))
      for (const line of readFileSync(p, 'utf8').split('\n'))
        try {
          walk(JSON.parse(line));
        } catch {
          // not a JSON line
        }
  }
}

test('secrets: mayHoldSecret is false only where no secret class matches (corpus strings, vectors, splices)', (t) => {
  const root = fileURLToPath(new URL('../../', import.meta.url));
  const texts: string[] = [];
  for (const d of ['conformance', 'examples']) stringsUnder(join(root, d), texts);
  const upstream = optionalShared(t, 'corpus');
  if (upstream) stringsUnder(upstream, texts);
  const vectors = [
    '-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----',
    'AKIAIOSFODNN7EXAMPLE',
    'Authorization: Bearer abc123.DEF-456_ghi~789',
    'PASSWD=x1',
    'Api-Key: "v"',
    'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.Sfl',
    'ghp_AbCdEfGhIjKlMnOpQrStUvWxYz012345',
    'github_pat_AbCdEfGhIjKlMnOpQrStUvWx',
    'glpat-AbCdEfGhIjKlMnOpQrStUv',
    'GR1348941AbCdEfGhIjKlMnOpQrStUv',
    'xoxb-1234567890-abc',
    'xoxe.xoxp-1234567890',
    'xapp-1-A0123456789',
    'https://hooks.slack.com/services/T000/B000/XXXXXXXXXXXXXXXX',
    'sk-ant-api03-AbCdEfGhIjKlMnOp',
    'rk_live_AbCdEfGhIjKlMnOp',
    'whsec_AbCdEfGhIjKlMnOpQrStUvWx',
    'AIzaSyA-AbCdEfGhIjKlMnOpQrStUvWxYz0123',
    'ASIAIOSFODNN7EXAMPLE',
    'A3TXIOSFODNN7EXAMPLE',
    'Authorization: Basic dXNlcjpwYXNzd29yZA==',
    'Proxy-Authorization: Digest Zx81qPlm77Tn',
    'eyJhbGciOiJub25lIn0.eyJzdWIiOiIxMjM0In0',
    'glrtr-AbCdEfGhIjKlMnOpQrStUv.01.0a1b2c3d4',
    'ek_test_AbCdEfGhIjKlMnOp',
    'AZURE_OPENAI_KEY=0123456789abcdef0123456789abcdef',
    'Ocp-Apim-Subscription-Key: 0123456789abcdef0123456789abcdef',
    `${'Ab1'.repeat(17)}cJQQJ99BCAbCdEfGhIjKlMnOpAZb3Nc5V`,
    'secret_value = "x1"',
  ];
  // each vector alone, inside prose, and cut by one unit at every place (a cut must not hide a match the scan finds)
  for (const v of vectors) {
    texts.push(v, `see ${v} here`);
    for (let i = 0; i < v.length; i++) texts.push(v.slice(0, i) + v.slice(i + 1), v.slice(0, i) + ' ' + v.slice(i));
  }
  const classes: DetectorClass[] = [...TEXT_SECRET_CLASSES];
  // findSecrets screens only when asked for no PII class: asking for email too runs every pattern
  const unscreened = [...classes, 'email'] as DetectorClass[];
  for (const v of vectors) assert.ok(findSecrets(v, { classes }).length > 0, `screened findSecrets misses ${v}`);
  let screened = 0;
  let found = 0;
  for (const t of texts) {
    const hits = findSecrets(t, { classes: unscreened }).filter((m) => m.class !== 'email').length;
    if (hits > 0) found++;
    if (mayHoldSecret(t)) continue;
    screened++;
    assert.equal(hits, 0, `mayHoldSecret screened out ${JSON.stringify(t)}, which holds a secret`);
  }
  assert.ok(screened > 1000 && found > 100, `${screened} screened out, ${found} with a secret`);
});
