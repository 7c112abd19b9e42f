// An AHP schema rule lists the schema stage's shared templates (explain: "the schema stage's N templates it shares")
// only when a schema of schemas/ahp names it in `x-rule`, so an ajv error can be reported under it (trial 14 item 7:
// the stream-level info rules ahp/protocol-version-offered and ahp/http-status-unverifiable listed them).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { AHP_SCHEMA_RULES } from '../../src/ahp/schema/rules.ts';

function xRules(dir: string, into = new Set<string>()): Set<string> {
  for (const e of readdirSync(dir, { withFileTypes: true }))
    if (e.isDirectory()) xRules(join(dir, e.name), into);
    else if (e.name.endsWith('.json'))
      for (const m of readFileSync(join(dir, e.name), 'utf8').matchAll(/"x-rule"\s*:\s*"([^"]+)"/g)) into.add(m[1]!);
  return into;
}

test('an AHP schema rule shares the schema templates exactly when a schema names it in x-rule', () => {
  const named = xRules('schemas/ahp');
  for (const r of Object.values(AHP_SCHEMA_RULES))
    assert.equal(r.sharedMessages !== undefined, named.has(r.id), `${r.id}: shared templates vs x-rule`);
  assert.ok(named.has('ahp/effect'));
});
