/**
 * CloudEvents JSON format §2.2 writes an Integer as "number, only the integer component optionally prefixed with a
 * minus sign is permitted" (clarified for https://github.com/cloudevents/spec/issues/738 by cloudevents/spec#745;
 * cloudevents/sdk-java#358 calls decimals there "invalid per spec"): `2.0` and `1E3` are integral values, yet no
 * CloudEvents Integer spelling. A replay of those reports against `--from cloudevents`.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeCloudEvents, toCloudEvent } from '../../src/aep/bridges/cloudevents.ts';
import { runCli } from '../cli/helpers.ts';

const aep = {
  aep: '0.1',
  id: 'e1',
  type: 'progress.status',
  time: '2026-11-30T10:00:00Z',
  source: 'aep://h/agent/a/session/s',
  agent: 'a',
  session: 's',
  seq: 7,
  epoch: 0,
};
const ce = JSON.stringify(toCloudEvent(aep));

/** The CE text with the `aepsequence` literal replaced by `lit`. */
const withSeq = (lit: string) => ce.replace('"aepsequence":7', `"aepsequence":${lit}`);

const literalIssues = (text: string) =>
  decodeCloudEvents(JSON.parse(text), { text }).issues.filter((i) => i.messageId === 'int-literal');

test('an attribute integer written with a fraction or an exponent is no CloudEvents Integer; its digits alone are', () => {
  assert.ok(ce.includes('"aepsequence":7'), ce);
  for (const lit of ['7', '-0', '0']) assert.deepEqual(literalIssues(withSeq(lit)), [], lit);
  for (const lit of ['7.0', '7.00', '7e0', '7E0', '70e-1', '0.7e1', '7E+0', '-0.0'])
    assert.deepEqual(
      literalIssues(withSeq(lit)).map((i) => i.pointer),
      ['/aepsequence'],
      lit,
    );
});

test('relation: over integral values and spellings, the finding is there exactly when the spelling has . e or E', () => {
  for (const n of [0, 1, 42, 2147483647])
    for (const spell of [String(n), `${n}.0`, `${n}e0`, `${n}E0`, `${n * 10}e-1`, `${n}.000`]) {
      const text = ce.replace('"aepsequence":7', `"aepsequence":${spell}`).replace('"e1"', '"e2"');
      const found = literalIssues(text).length > 0;
      assert.equal(found, /[.eE]/.test(spell), spell);
      // the same value spelled as digits maps to the same event: only the spelling is judged
      assert.equal(JSON.parse(text).aepsequence, n);
    }
  // a float in `data` is a JSON value of the payload (§3.1.1: "unrestricted"), not an attribute
  const withData = JSON.stringify({ ...JSON.parse(ce), data: { ratio: 1.0, n: 2e3 } }).replace(
    '"ratio":1',
    '"ratio":1.0',
  );
  assert.deepEqual(literalIssues(withData), []);
});

test('aep validate --from cloudevents reports the spelling at the attribute, in a batch too', async () => {
  const batch = `[${ce},${withSeq('8.0').replace('"e1"', '"e2"')}]\n`;
  const r = await runCli('aep', ['validate', '--from', 'cloudevents', '-'], batch);
  assert.equal(r.code, 1, r.stdout);
  assert.match(
    r.stdout,
    /error {2}aep\/ce-attribute-type {2}Extension attribute aepsequence writes its integer with a fraction/,
  );
  assert.match(r.stdout, /\/1\/aepsequence/);
  const ok = await runCli('aep', ['validate', '--from', 'cloudevents', '-'], `${ce}\n`);
  assert.doesNotMatch(ok.stdout, /ce-attribute-type/);
});
