/**
 * Our bridge cases (conformance/aep/), read through the `--from` decorator as `aep
 * validate --from cloudevents|otlp` will read them: `<stem>.ce.jsonl` as CloudEvents,
 * `<stem>.otlp.jsonl` as OTLP/JSON. Every pass case gives no finding at all; every fail case
 * gives exactly the findings of its sidecar `<stem>.<kind>.expected.json` (multiset on
 * ruleId, line, pointer).
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { briefFindings, checkBridgeText } from './helpers.ts';

const DIR = fileURLToPath(new URL('../../conformance/aep/', import.meta.url));

const cases = (group: 'pass' | 'fail') =>
  readdirSync(DIR + group)
    .filter((f) => /\.(ce|otlp|ocsf)\.jsonl$/.test(f))
    .sort();
const fromOf = (name: string) =>
  name.endsWith('.ce.jsonl') ? 'cloudevents' : name.endsWith('.ocsf.jsonl') ? 'ocsf' : 'otlp';

test('conformance/aep-bridges has cases of both kinds', () => {
  for (const g of ['pass', 'fail'] as const)
    for (const k of ['.ce.jsonl', '.otlp.jsonl'])
      assert.ok(
        cases(g).some((f) => f.endsWith(k)),
        `${g}/*${k}`,
      );
});

for (const name of cases('pass')) {
  test(`pass/${name}: no finding at all`, async () => {
    const fs = await checkBridgeText(readFileSync(DIR + 'pass/' + name), fromOf(name), { source: name });
    assert.equal(fs.length, 0, briefFindings(fs));
  });
}

for (const name of cases('fail')) {
  test(`fail/${name}: exactly the findings of its sidecar`, async () => {
    const side = DIR + 'fail/' + name.replace(/\.jsonl$/, '.expected.json');
    assert.ok(existsSync(side), `no sidecar ${side}`);
    const want = (
      JSON.parse(readFileSync(side, 'utf8')) as { findings: { ruleId: string; line?: number; pointer?: string }[] }
    ).findings;
    assert.ok(want.length > 0);
    const fs = await checkBridgeText(readFileSync(DIR + 'fail/' + name), fromOf(name), { source: name });
    const key = (x: { ruleId: string; line?: number; pointer?: string }) => `${x.ruleId}@${x.line}${x.pointer}`;
    assert.deepEqual(fs.map(key).sort(), want.map(key).sort());
    // the case is named after a rule it provokes (`aep.<rule>--<variant>`, as the other cases)
    const rule = name
      .replace(/\.(ce|otlp|ocsf)\.jsonl$/, '')
      .replace(/--[^.]*$/, '')
      .replace('.', '/');
    assert.ok(
      fs.some((f) => f.ruleId === rule),
      `${rule} not reported: ${briefFindings(fs)}`,
    );
  });
}
