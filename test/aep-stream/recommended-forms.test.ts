/**
 * AEP-0001 §5.1's RECOMMENDED forms (ULID ids, the aep:// source form) are checked only with `--forms recommended`
 * (`stream.forms`): off by default, since the upstream golden stream uses neither and must stay accepted; on, their
 * passing cases stay silent and their failing cases give exactly their sidecars' findings.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { checkText, CORPUS_DIR } from './helpers.ts';
import { needShared, SHARED } from '../shared.ts';

const CASES = new URL('../../conformance/aep/', import.meta.url);
const RULES = ['aep/id-ulid', 'aep/source-form'];

for (const rule of RULES) {
  const slug = rule.replace('/', '.');
  const fail = readFileSync(new URL(`fail/${slug}.jsonl`, CASES), 'utf8');
  const pass = readFileSync(new URL(`pass/${slug}.jsonl`, CASES), 'utf8');
  test(`${rule}: off by default, on with forms "recommended"`, async () => {
    const off = await checkText(fail);
    assert.deepEqual(
      off.filter((f) => RULES.includes(f.ruleId)),
      [],
    );
    const on = await checkText(fail, { stream: { forms: 'recommended' } });
    assert.ok(on.length > 0 && on.every((f) => f.ruleId === rule && f.severity === 'warning'));
    assert.deepEqual(await checkText(pass, { stream: { forms: 'recommended' } }), []);
  });
}

test('the upstream golden stream uses neither recommended form (why the check is opt-in)', async (t) => {
  if (!needShared(t, `${SHARED.aepCorpus}/golden/golden.jsonl`)) return;
  const golden = join(CORPUS_DIR, 'golden/golden.jsonl');
  const text = readFileSync(golden, 'utf8');
  assert.deepEqual(
    (await checkText(text)).filter((f) => f.severity !== 'info'),
    [],
  );
  const on = await checkText(text, { stream: { forms: 'recommended' } });
  assert.ok(on.some((f) => f.ruleId === 'aep/id-ulid'));
});
