/**
 * The secret screen (src/core/secret-patterns.ts SECRET_OPENINGS) is written grouped by first letter for speed: it
 * answers as the flat list of the literals the detector's patterns open with, string for string.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mayHoldSecret, SECRET_OPENINGS } from '../../src/core/secret-patterns.ts';

const FLAT =
  /-----BEGIN |AKIA|ASIA|ABIA|ACCA|A3T|bearer|basic|authorization|passw(?:or)?d|secret|api[_-]?key|token|eyJ|gh[pousr]_|github_pat_|gl[a-z]+-|GR1348941|xox|xapp-|hooks\.slack\.com\/|[sre]k[-_]|whsec_|AIza|JQQJ9|azure|openai|cognitive|ocp-apim|:\/\/|pypi-AgE|sk[0-9a-f]{32}|sg\.[A-Za-z0-9_-]{22}\.|shp(?:at|ca|pa|ss)_|gocspx-|hf_|ya29\.|npm_|key-[0-9a-z]{32}|dop_v1_|dckr_|dapi[0-9a-f]|gsk_|xai-|r8_|hv[sbr]\.|sntry[su]_|pmak-|gl(?:sa|c)_|sbp_|sq0(?:atp|csp)-/i;

/** Each literal in the forms its alternative allows, and near misses of each. */
const OPENINGS = [
  '-----BEGIN ',
  '-----begin ',
  '-----BEGIN',
  '----BEGIN ',
  'AKIA',
  'akia',
  'AKI',
  'ASIA',
  'ABIA',
  'ACCA',
  'ACC',
  'A3T',
  'a3t',
  'A3',
  'bearer',
  'BEARER',
  'beare',
  'basic',
  'Basic',
  'basi',
  'authorization',
  'Authorizatio',
  'passwd',
  'password',
  'PASSWORD',
  'passwod',
  'passw',
  'secret',
  'Secre',
  'apikey',
  'api_key',
  'api-key',
  'API-KEY',
  'api.key',
  'api__key',
  'token',
  'TOKEN',
  'toke',
  'eyJ',
  'EYJ',
  'ey',
  'ghp_',
  'gho_',
  'ghu_',
  'ghs_',
  'ghr_',
  'GHP_',
  'gha_',
  'ghp',
  'github_pat_',
  'github_pat',
  'glpat-',
  'gl-',
  'glA-',
  'GLX-',
  'gl1-',
  'GR1348941',
  'gr1348941',
  'GR134894',
  'xox',
  'XOX',
  'xo',
  'xapp-',
  'xapp',
  'hooks.slack.com/',
  'hooks.slack.com',
  'HOOKS.SLACK.COM/',
  'hooksxslack.com/',
  'sk-',
  'sk_',
  'SK-',
  'rk_',
  'ek-',
  'tk-',
  'sk',
  'whsec_',
  'whsec',
  'AIza',
  'aiza',
  'AIz',
  'JQQJ9',
  'jqqj9',
  'JQQJ',
  'azure',
  'Azur',
  'openai',
  'OpenA',
  'cognitive',
  'cognitiv',
  'ocp-apim',
  'ocp_apim',
  '://',
  ':/',
  ':\\/\\/',
  '\u212aKIA',
  'pypi-AgE',
  'PYPI-AGE',
  'pypi-Ag',
  'pypi_AgE',
  `SK${'0a1b2c3d4e5f6789'.repeat(2)}`,
  `sk${'ABCDEF0123456789'.repeat(2)}`,
  `SK${'0a1b2c3d4e5f678'.repeat(2)}9`.slice(0, 33),
  `SK${'0a1b2c3d4e5f6789'.repeat(2)}`.replace('e', 'g'),
  `SG.${'aB3_-'.repeat(4)}xy.`,
  `sg.${'aB3_-'.repeat(4)}xy.`,
  `SG.${'aB3_-'.repeat(4)}x.`,
  `SG.${'aB3_-'.repeat(4)}xy,`,
  'shpat_',
  'shpca_',
  'shppa_',
  'SHPSS_',
  'shpat',
  'shpxx_',
  'GOCSPX-',
  'gocspx-',
  'GOCSPX',
  'hf_',
  'HF_',
  'hf',
  'hf-',
  'ya29.',
  'YA29.',
  'ya29',
  'ya2.',
  'npm_',
  'NPM_',
  'npm-',
  `key-${'a1b2c3d4'.repeat(4)}`,
  `KEY-${'A1B2C3D4'.repeat(4)}`,
  `key-${'a1b2c3d4'.repeat(4)}`.slice(0, 35),
  `key_${'a1b2c3d4'.repeat(4)}`,
  'dop_v1_',
  'DOP_V1_',
  'doo_v1_',
  'dop_v2_',
  'dox_v1_',
  'gsk_',
  'GSK_',
  'gsk-',
  'xai-',
  'XAI-',
  'xai',
  'r8_',
  'R8_',
  'r8-',
  'hvs.',
  'hvb.',
  'HVR.',
  'hvx.',
  'hvs',
  'sntrys_',
  'sntryu_',
  'sntryx_',
  'PMAK-',
  'pmak-',
  'PMAK',
  'glsa_',
  'glc_',
  'GLC_',
  'glx_',
  'sbp_',
  'SBP_',
  'sbp',
  'sq0atp-',
  'sq0csp-',
  'SQ0ATP-',
  'sq0abc-',
  'dckr_',
  'DCKR_',
  'dckr',
  'dapi0',
  'DAPIF',
  'dapig',
  'dapi',
];
const NOISE = ['', 'a', 'x', '-', '_', ' ', '3', ':', '/', '.', 'K', 'é', '\u0130', '\n', 'claude-code', 't_124'];

function* cases(): Generator<string> {
  for (const o of OPENINGS) for (const n of NOISE) for (const m of NOISE) yield n + o + m;
  for (const a of OPENINGS) for (const b of OPENINGS) yield a.slice(0, 3) + b.slice(1);
  let seed = 7;
  const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  const alphabet = '-BEGINbeginAKISBCTaki3tbrpswdcokenyJghpousr_tlx:/@ 0123456789QJ9zfmv.';
  for (let k = 0; k < 20000; k++) {
    let s = '';
    const n = Math.floor(rnd() * 14);
    for (let i = 0; i < n; i++) s += alphabet[Math.floor(rnd() * alphabet.length)];
    yield s;
  }
}

test('secret screen: the grouped SECRET_OPENINGS answers as the flat list of openings, string for string', () => {
  let held = 0;
  let total = 0;
  for (const s of cases()) {
    const want = FLAT.test(s);
    assert.equal(SECRET_OPENINGS.test(s), want, JSON.stringify(s));
    assert.equal(mayHoldSecret(s), want, JSON.stringify(s));
    if (want) held++;
    total++;
  }
  // both answers occur many times: the cases reach every alternative and its near misses
  assert.ok(held > 5000 && total - held > 5000, `${held} of ${total}`);
});
