// src/aep/rules/ holds only rules, one per file named after its id, and src/aep/rules/index.ts
// is the one list of every AEP rule (docs/architecture.md §How to add a rule).
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { test } from 'node:test';
import { AEP_BRIDGE_RULES } from '../../src/aep/bridges/rules.ts';
import { AEP_EVENT_RULES, AEP_RULES, AEP_SCHEMA_RULES, AEP_STREAM_RULES } from '../../src/aep/rules/index.ts';
import type { RuleMeta } from '../../src/core/rule.ts';

const DIR = new URL('../../src/aep/rules/', import.meta.url);
const files = readdirSync(DIR)
  .filter((f) => f.endsWith('.ts') && f !== 'index.ts')
  .sort();

const isRule = (v: unknown): v is RuleMeta =>
  typeof v === 'object' && v !== null && typeof (v as RuleMeta).id === 'string' && 'severity' in v;

test('every file in src/aep/rules/ exports exactly one rule, whose id is aep/<file name>', async () => {
  assert.ok(files.length > 0);
  for (const f of files) {
    const mod = (await import(new URL(f, DIR).href)) as Record<string, unknown>;
    const exported = Object.values(mod);
    assert.equal(exported.length, 1, `${f} exports ${Object.keys(mod).join(', ')}`);
    assert.ok(isRule(exported[0]), `${f} does not export a rule`);
    assert.equal(exported[0].id, `aep/${f.slice(0, -3)}`, f);
  }
});

test('the one list holds each rule file once, the schema rules and the bridge rules, and nothing else', async () => {
  const fileRules: RuleMeta[] = [];
  for (const f of files) fileRules.push(...(Object.values(await import(new URL(f, DIR).href)) as RuleMeta[]));
  const ids = AEP_RULES.map((r) => r.id);
  assert.equal(new Set(ids).size, ids.length, 'an id is listed twice');
  const want = [...AEP_SCHEMA_RULES, ...fileRules, ...AEP_BRIDGE_RULES];
  assert.deepEqual(new Set(AEP_RULES), new Set(want));
  assert.equal(AEP_RULES.length, want.length);
  // one rule shape per file rule: a per-event rule (check) or a stream rule (onEvent/onEnd)
  assert.deepEqual(new Set([...AEP_EVENT_RULES, ...AEP_STREAM_RULES]), new Set(fileRules));
  // the list is in catalogue order: schema rules first, bridge rules last
  assert.deepEqual(AEP_RULES.slice(0, AEP_SCHEMA_RULES.length), [...AEP_SCHEMA_RULES]);
  assert.deepEqual(AEP_RULES.slice(-AEP_BRIDGE_RULES.length), [...AEP_BRIDGE_RULES]);
});

test("every AEP rule declares its message templates (a schema rule may have only the schema stage's shared table)", () => {
  for (const r of AEP_RULES) {
    const own = Object.keys(r.messages ?? {}).length;
    const shared = Object.keys(r.sharedMessages ?? {}).length;
    assert.ok(own > 0 || shared > 0, `${r.id} has no message templates`);
  }
});
