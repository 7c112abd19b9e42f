/**
 * Percent-encoded separators read as the separators they encode (src/core/secret-encoded.ts): the decoded view maps
 * back to the text as written, code unit for code unit; every secret class is found between encoded separators, in
 * either hex case, escaped up to three times, after UTF-8 escapes, or with `+` for a space, and replaced up to the
 * encoded value's end; a plain `&` ends a query's value; escaped emails and phone numbers are found; ordinary encoded
 * URLs and prose with `+` stay clean.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { createRedactor } from '../../src/aep/redact.ts';
import { encodedView } from '../../src/core/secret-encoded.ts';
import { mayHoldPii, mayHoldSecret } from '../../src/core/secret-patterns.ts';
import { findSecrets, hostColonAt } from '../../src/core/secrets.ts';
import { runs } from '../scale.ts';

const redactor = createRedactor({ home: false, pii: false });
const found = (t: string) => findSecrets(t).map((m) => [m.class, t.slice(m.start, m.end)]);

/** The bytes of a run of escapes as written (`%C3%A9`, `%25253D`), each escape's `25` prefixes dropped. */
const escapeBytes = (raw: string): number[] =>
  raw
    .split('%')
    .slice(1)
    .map((e) => Number.parseInt(e.slice(-2), 16));

/** What one run of the text as written that the view reads as one (a character or an escape sequence) decodes to. */
function decodeRun(raw: string, plus: boolean): string {
  if (raw.length === 1) return raw === '+' && plus ? ' ' : raw;
  const bytes = escapeBytes(raw);
  if (bytes.length === 1 && bytes[0] === 0x26) return raw.length === 3 ? '\n' : raw;
  // a URL decoder's UTF-8 decode: an invalid sequence, an over-long form among them, is U+FFFD (WHATWG Encoding)
  return bytes[0]! < 0x80 ? String.fromCharCode(bytes[0]!) : new TextDecoder().decode(Uint8Array.from(bytes));
}

// an escape the view decodes: ASCII punctuation, space, tab, line breaks (not `%` itself), past ASCII; `&` only once;
// up to three times escaped
const DECODED =
  /%(?:25){0,2}(?:0[9aAdD]|2[0-47-9a-fA-F]|3[a-fA-F]|40|5[b-fB-F]|60|7[b-eB-E]|[89a-fA-F][0-9a-fA-F])|%26/;

test('the view: each of its code units is what the text as written holds at the offsets it maps to', () => {
  const piece = fc.constantFrom(
    ...['a', 'Z', '9', '_', '-', '%', '%3D', '%3d', '%20', '%26', '%2F', '%0A', '%253D', '%2526', '%25', '%zz'],
    ...['%41', '%7E', '%7f', '+', 'é', '%2', '%25 ', '%2525', '%25253D', '%252526', '%2525253D'],
    // UTF-8: valid (two, three, four bytes; escaped twice), over-long, a stray continuation, a cut sequence
    ...['%C3%A9', '%E2%80%94', '%F0%9F%98%80', '%25C3%25A9', '%C0%BD', '%C0%AF', '%BD', '%E2%80', '%ED%A0%80', '%FF'],
  );
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 30 }), fc.boolean(), (parts, plus) => {
      const text = parts.join('');
      const view = encodedView(text, plus);
      if (view === undefined) {
        assert.ok(!DECODED.test(text) && !(plus && text.includes('+')), JSON.stringify(text));
        return;
      }
      assert.equal(view.from.length, view.text.length + 1);
      assert.equal(view.from[view.text.length], text.length);
      // the code units that map to one offset (a surrogate pair's two) stand for one run of the text as written
      for (let i = 0; i < view.text.length; ) {
        let j = i + 1;
        while (j < view.text.length && view.from[j] === view.from[i]) j++;
        const raw = text.slice(view.from[i], view.from[j]);
        assert.ok(raw.length === 1 || /^(?:%(?:25){0,2}[0-9A-Fa-f]{2})+$/.test(raw), JSON.stringify(raw));
        assert.equal(
          decodeRun(raw, plus),
          view.text.slice(i, j),
          `${JSON.stringify(text)} at ${i}: ${JSON.stringify(raw)}`,
        );
        i = j;
      }
    }),
    { numRuns: runs(400) },
  );
  assert.equal(encodedView('no escapes here', true), undefined);
  assert.equal(encodedView('100%25, %41%42 and %zz', true), undefined); // `%`, letters, no hex: none decoded
  assert.equal(encodedView('q%3Dv%26w%253D%2526x+y', true)?.text, 'q=v\nw=%2526x y');
  assert.equal(encodedView('a+b', false), undefined);
  assert.equal(encodedView('q%3dv%2fw', true)?.text, 'q=v/w');
  // three times escaped, not four; UTF-8 as a URL decoder reads it: an over-long `=` is U+FFFD per byte, never `=`
  assert.equal(encodedView('a%25253Db%2525253Dc', true)?.text, 'a=b%2525253Dc');
  assert.equal(encodedView('caf%C3%A9%C0%BD%E2%80x', true)?.text, 'café\ufffd\ufffd\ufffdx');
});

const GHP = `ghp_${'Qw8'.repeat(12)}`;
const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJlcw';
/** The secrets of the new-user trial, each in the place it was left in, and what must be replaced of each. */
const TRIAL: [text: string, secret: string][] = [
  [`token%3D${GHP}`, GHP],
  [`x%20${GHP}`, GHP],
  [`next%3Dgithub_pat_11${'A'.repeat(22)}_${'b'.repeat(59)}`, `github_pat_11${'A'.repeat(22)}_${'b'.repeat(59)}`],
  [`key%3Dsk-proj-${'Ab1'.repeat(10)}`, `sk-proj-${'Ab1'.repeat(10)}`],
  ['q%3Dxoxb-123456789012-abcdefghijKLM', 'xoxb-123456789012-abcdefghijKLM'],
  [`tok%3D${JWT}`, JWT],
  ['password%3Dhunter2', 'hunter2'],
  ['api_key%3Dabcdef123456', 'abcdef123456'],
  ['Bearer%20abcdefghijklmnop1234567890', 'abcdefghijklmnop1234567890'],
  ['id%3DAKIAIOSFODNN7EXAMPLE', 'AKIAIOSFODNN7EXAMPLE'],
  [`cb?redirect=%2Fhome%3Fid_token%3D${JWT}`, JWT],
  [`cb?redirect=%2Fhome%3Ftoken%3D${GHP}%26pw%3Dx`, GHP],
  // escaped twice (and, by the variants below, three times); after a UTF-8 escape, valid or over-long
  [`cb?r=%252Fhome%253Ftoken%253D${GHP}`, GHP],
  [`x%C0%AF${GHP}`, GHP],
  [`q%E2%80%94${JWT}`, JWT],
];

test('the trial: a credential after an encoded `=`, space or `?` is found and replaced, the encoded text around it kept', () => {
  for (const [text, secret] of TRIAL)
    for (const t of [text, text.replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase()), text.replaceAll('%', '%25')]) {
      assert.ok(findSecrets(t).length > 0, `not found: ${t}`);
      assert.ok(mayHoldSecret(t), t);
      const out = redactor.text(t);
      // escaped twice, an `&` (`%2526`) may be part of a value, which then runs on over it (secret-encoded.ts)
      if (t.includes('%2526')) assert.ok(out.startsWith(t.slice(0, t.indexOf(secret)) + '[REDACTED:secret]'), out);
      else assert.equal(out, t.replace(secret, '[REDACTED:secret]'), t);
      assert.deepEqual(findSecrets(out), [], out);
    }
});

test('a value ends at its encoded end: the next encoded `&`, space, quote or comma; `+` reads as a space', () => {
  assert.deepEqual(found('cb?r=%2Fhome%3Fpassword%3Dhunter2%26next%3D%2Fx'), [['assignment', 'hunter2']]);
  assert.deepEqual(found('r%3fpassword%3dhunter2%26next%3d1'), [['assignment', 'hunter2']]);
  assert.deepEqual(found('%7B%22password%22%3A%22hunter2%22%2C%22n%22%3A1%7D'), [['assignment', 'hunter2']]);
  assert.deepEqual(found('x%3Fapi_key%3Dabc123def%20and%20more'), [['assignment', 'abc123def']]);
  // `+` a space: a Bearer token after it (as written, `+` is a token character, and the header's value runs on over it)
  assert.deepEqual(found('x%3Fh%3DBearer+abcdefghijklmnop1234567890%26x%3D1'), [
    ['bearer', 'abcdefghijklmnop1234567890'],
  ]);
  assert.ok(found('Authorization%3A+Bearer+abcdefghijklmnop1234567890').some((m) => m[0] === 'bearer'));
  // escaped twice, the inner `&` (`%2526`) is part of a value: it runs on, as a literal `&` does
  assert.deepEqual(found('r%253Fpassword%253Dhun%2526ter'), [['assignment', 'hun%2526ter']]);
  // a plain `&` ends a value in a query (its name after `?` or `&`), as an encoded one does; elsewhere it is the value's
  assert.deepEqual(found('https://h/cb?password=hunter2&next=/home'), [['assignment', 'hunter2']]);
  assert.deepEqual(found('user=ann&db_password=hunter2&x=1'), [['assignment', 'hunter2']]);
  assert.deepEqual(found('x?api_key=abc123def&token=[REDACTED:secret]&n=1'), [['assignment', 'abc123def']]);
  assert.deepEqual(found('cb%3Fx%3D1%26secret%3Da%26b'), [['assignment', 'a']]);
  assert.deepEqual(found('PASSWORD=p&ssw0rd'), [['assignment', 'p&ssw0rd']]);
  assert.deepEqual(found('run: password=p&ssw0rd'), [['assignment', 'p&ssw0rd']]);
  // `+` for every space and line break, no escape anywhere: a form-encoded private key, whole or cut
  const pem = '-----BEGIN+RSA+PRIVATE+KEY-----+MIIEabc+-----END+RSA+PRIVATE+KEY-----';
  assert.deepEqual(found(`k=${pem}&n=1`), [['pem', pem]]);
  const cut = `-----BEGIN+EC+PRIVATE+KEY-----+MHcCAQEEI${'Ab1'.repeat(6)}+${'Ab1'.repeat(4)}+QUFB`;
  assert.deepEqual(found(`k=${cut}&n=1`), [['pem', cut]]);
  // the same body collapsed onto one line, as written
  assert.deepEqual(found(`k: ${cut.replaceAll('+', ' ')}. Done`), [['pem', cut.replaceAll('+', ' ')]]);
  // each class, after an encoded separator
  assert.deepEqual(found('u=https%3A%2F%2Fadmin%3As3cr3tPass%40db.example%2Fapp'), [['url-credentials', 's3cr3tPass']]);
  assert.deepEqual(found('your%20pin%3A%20123456'), [['pin', '123456']]);
  assert.deepEqual(found('export%20MYSQL_PWD%3D%27abcdefgh1234%27'), [['secret-name', 'abcdefgh1234']]);
  assert.deepEqual(found('k%3D-----BEGIN%20RSA%20PRIVATE%20KEY-----%0AMIIEabc%0A-----END%20RSA%20PRIVATE%20KEY-----'), [
    ['pem', '-----BEGIN%20RSA%20PRIVATE%20KEY-----%0AMIIEabc%0A-----END%20RSA%20PRIVATE%20KEY-----'],
  ]);
  assert.deepEqual(found('x%3Fsv%3D2020%26sig%3DabcdefghijklmnopqrstuvwxyzABCDEF%3D%26se%3D1'), [
    ['provider-token', 'abcdefghijklmnopqrstuvwxyzABCDEF%3D'],
  ]);
});

test('ordinary percent-encoded text is flagged by nothing, and costs no view without an escape', () => {
  for (const t of [
    'q%3Dhello%20world',
    '%2Fhome%2Fuser%2Fproject',
    'https://example.com/search?q=tokens%20used%26page%3D2',
    'https%3A%2F%2Fexample.com%2Fa%3Fq%3Drotate%2520the%2520token%26lang%3Den',
    'cb?next=%2Fsettings%2Fpasswords%3Ftab%3Dsecurity',
    'sort%3Dcreated%2Cdesc%3Bfilter%3Dbasic%20plan',
    '100%25 done, 50%20off, %zz, a+b+c',
    'bearer%20of%20good%20news',
    // an escape's hex digits are no part of a token: a 5-digit bot id, `%0A` and `KIA...`
    `say%2012345:AA${'b'.repeat(33)}`,
    'x%0AKIAABCDEFGHIJKLMNOP',
    // three times escaped ordinary text; UTF-8 escapes; an over-long `=` (`%C0%BD`) is no `=` to a URL decoder
    'https%25253A%25252F%25252Fexample.com%25252Fa%25253Fq%25253Drotate',
    'caf%C3%A9%20au%20lait%E2%80%94ok',
    'password%C0%BDhunter2 and token%C0%BDabcdef123456',
    // ordinary `+`: prose, a form's query, a public key
    'C++ and a+b=c; search?q=reset+my+password&lang=en; 3+4=7',
    '-----BEGIN+CERTIFICATE-----+MIIBcertpart+-----END+CERTIFICATE-----',
  ])
    assert.deepEqual(findSecrets(t), [], t);
  assert.deepEqual(found(`say%20123456:AA${'b'.repeat(33)}`), [['provider-token', `123456:AA${'b'.repeat(33)}`]]);
});

test('an email address or phone number behind escapes is found as written, the text around it kept', () => {
  const pii = (t: string) =>
    findSecrets(t, { classes: ['email', 'phone'] }).map((m) => [m.class, t.slice(m.start, m.end)]);
  assert.deepEqual(pii('mailto%3Ajane.doe%40example.com%26x%3D1'), [['email', 'jane.doe%40example.com']]);
  assert.deepEqual(pii('to=jane%2Bci%2540example.com'), [['email', 'jane%2Bci%2540example.com']]);
  assert.deepEqual(pii('u%252540x%3Djane%252540example.org'), [['email', 'jane%252540example.org']]);
  assert.deepEqual(pii('tel%3D%2B1%20555%20123%204567'), [['phone', '%2B1%20555%20123%204567']]);
  assert.deepEqual(pii('tel=%2B44+20+7946+0958&x=1'), [['phone', '%2B44+20+7946+0958']]);
  // a host is no mailbox to the PII rules, escaped colon or not; a `+` alone is read as written (no phone number in sums)
  const m = findSecrets('ssh%3A%2F%2Fgit%40example.com%253A22', { classes: ['email'] });
  assert.ok(m.length === 1 && hostColonAt('ssh%3A%2F%2Fgit%40example.com%253A22', m[0]!.end));
  assert.deepEqual(pii('100+200+3000 and 1+555+123+4567'), []);
  assert.ok(mayHoldPii('a%40b.io') && mayHoldPii('555%20123%204567') && !mayHoldPii('q%3Dhello%20world'));
});
