/**
 * The screen before SECRET_OPENINGS (src/ahp/secret-screen.ts) says exactly what `mayHoldSecret` says (the expression,
 * on the text as written or with its percent-encoded separators decoded): on strings made of opening fragments in both
 * cases, percent-encoded separators, near misses, code units past ASCII that upper-case to ASCII letters, and noise;
 * and it turns itself off for an expression it cannot take apart.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mayHoldSecret, SECRET_OPENINGS } from '../../src/core/secret-patterns.ts';
import { mayHoldSecretScreened, openingWindows, SECRET_SCREEN_ON } from '../../src/ahp/secret-screen.ts';

const FRAGMENTS = [
  // percent-encoded separators, which the detector reads decoded (src/core/secret-encoded.ts)
  '%3D',
  '%3a',
  '%20',
  '%2F%2F',
  '%253D',
  '-----BEGIN%20',
  '-----BEGIN+',
  'pin%3D',
  'sig%3d',
  '-----BEGIN ',
  '-----begin ',
  '----BEGIN ',
  'AKIA',
  'akIa',
  'ASIA',
  'ABIA',
  'ACCA',
  'A3T',
  'a3t',
  'A3',
  'bearer',
  'BEARER',
  'Basic',
  'authorization',
  'password',
  'passwd',
  'PassWord',
  'passw',
  'secret',
  'api_key',
  'api-key',
  'apikey',
  'APIKEY',
  'api key',
  'token',
  'eyJ',
  'EYJ',
  'ey',
  'ghp_',
  'gho_',
  'ghx_',
  'github_pat_',
  'glpat-',
  'gl-',
  'GR1348941',
  'GR134',
  'xox',
  'xo',
  'xapp-',
  'hooks.slack.com/',
  'hooks.slack.com',
  'sk-',
  'rk_',
  'ek-',
  'sk=',
  'whsec_',
  'AIza',
  'JQQJ9',
  'azure',
  'openai',
  'cognitive',
  'ocp-apim',
  'npm_',
  'NPM-',
  'hf_',
  'ya29.',
  'ya2',
  'GOCSPX-',
  'SK0123456789abcdef0123456789ABCDEF',
  'sk0123456789abcdef0123456789abcde',
  'SG.abcdefghijklmnopqrstuv.',
  'SG.abc.',
  'key-0123456789abcdefghijklmnopqrstuv',
  'key-value',
  'shpat_',
  'shpxx_',
  'pypi-AgE',
  'pypi-',
  'dop_v1_',
  'doo_v1_',
  'dor_v1_',
  'door_v1',
  'ATATT3',
  'atatt',
  'data',
  'pplx-',
  'pplx',
  'application',
  'lin_api_',
  'lin_ap',
  'line',
  'LTAI',
  'delta',
  'altair',
  '7Q~',
  'Q~',
  ':AA',
  'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
  '-----BEG',
  'tok',
  'toke',
  'ope',
  'openai',
  'dckr_',
  'dapi0',
  'dapix',
  'gsk_',
  'xai-',
  'r8_',
  'hvs.',
  'sntrys_',
  'pmak-',
  'glsa_',
  'glc_',
  'sbp_',
  'sq0atp-',
  'passphrase',
  'pass-phras',
  'private_key',
  'privat',
  'signing-key',
  'encryptionKey',
  'master_key',
  'maste',
  'sshpass',
  'rediscli_auth',
  'aws_sk',
  'aws-s',
  '_auth',
  '_au',
  '_SK',
  '-pwd',
  '_PASS',
  '_pa',
  '://',
  ':/',
  '\u017fecret',
  '\u212aey',
  '\u0130',
  '\u0131',
  '\u0000',
  '\u00e9',
  ' ',
  'a',
  'b',
  'g',
  'h',
  'k',
  'l',
  'o',
  's',
  'x',
  '-',
  '_',
  ':',
  '/',
  '3',
];

test('the screen is on for the current openings and agrees with the expression on made-up strings', () => {
  assert.equal(SECRET_SCREEN_ON, true);
  let x = 7;
  const r = (n: number): number => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return (x >>> 8) % n;
  };
  let holding = 0;
  for (let i = 0; i < 200_000; i++) {
    let s = '';
    for (let k = 1 + r(5); k > 0; k--)
      s += r(3) === 0 ? String.fromCharCode(32 + r(95)) : FRAGMENTS[r(FRAGMENTS.length)];
    const want = mayHoldSecret(s);
    assert.equal(mayHoldSecretScreened(s), want, JSON.stringify(s));
    if (!s.includes('%')) assert.equal(want, SECRET_OPENINGS.test(s), JSON.stringify(s));
    if (want) holding++;
  }
  assert.ok(holding > 20_000 && holding < 180_000, `both verdicts are exercised (${holding})`);
  for (const s of ['', 'ab', 'Bash', 'tool.before', '2026-08-24T08:00:01Z', 'see https://x', 'GHP_'])
    assert.equal(mayHoldSecretScreened(s), SECRET_OPENINGS.test(s), s);
});

test('an expression grouped by first letter reads as its flat list (groups spelled out, an optional one both ways)', () => {
  const t = (w: string) => (w.charCodeAt(0) << 14) | (w.charCodeAt(1) << 7) | w.charCodeAt(2);
  const grouped = openingWindows(/a(?:bc|x[yz])|p(?:q)?rs|(?:ab)c/i)!;
  for (const w of ['abc', 'axy', 'axz', 'prs', 'pqr']) assert.ok(grouped.triples.has(t(w)), w);
  assert.equal(grouped.triples.size, 5);
});

test('an expression the screen cannot take apart turns it off', () => {
  for (const re of [/a?bc/i, /(?:ab)+c/i, /\dab/i, /ab/i, /abc/g, /a+bc/i, /ab[^c]/i, /abc|d/i, /ab.c/i])
    assert.equal(openingWindows(re), undefined, String(re));
  const w = openingWindows(/abc|xa[a-c]+-|:\/\//i)!;
  assert.ok(w.triples.has((120 << 14) | (98 << 7) | 45) === false && w.triples.has((97 << 14) | (98 << 7) | 99));
  assert.ok(w.triples.has((120 << 14) | (97 << 7) | 98) && w.triples.has((58 << 14) | (47 << 7) | 47));
});

test('an opening that goes on past three characters keeps its literal tail; one that stops at three or is quantified has none', () => {
  const t = (w: string) => (w.charCodeAt(0) << 14) | (w.charCodeAt(1) << 7) | w.charCodeAt(2);
  const w = openingWindows(/token|lin_api_x|abc|abd+e|xy[a-c]q?r|-----begin /i)!;
  assert.deepEqual(
    w.tails.get(t('tok'))!.map((tail) => tail.map((set) => String.fromCharCode(set.indexOf(1)))),
    [['e', 'n']],
  );
  // at most five tail characters: `lin_api_x` is screened by `lin` and `_api_`
  assert.equal(w.tails.get(t('lin'))![0]!.length, 5);
  for (const bare of ['abc', 'abd', 'xya', 'xyc']) assert.ok(w.bare.has(t(bare)) && !w.tails.has(t(bare)), bare);
  assert.equal(w.tails.get(t('---'))![0]!.length, 5);
});

test('a string with the first three characters of an opening but not its tail is screened out without the expression', () => {
  for (const s of ['the data table', 'a delta of lines', 'an application', 'the vendor door', 'open the token'])
    assert.equal(mayHoldSecretScreened(s), SECRET_OPENINGS.test(s), s);
  assert.equal(mayHoldSecretScreened('the data table, a delta of lines, an online application'), false);
  assert.equal(mayHoldSecretScreened('see lin_api_ keys'), true);
});
