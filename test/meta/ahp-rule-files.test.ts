/**
 * The AHP rule list and the rule files agree (docs/architecture.md §How to add a rule): every
 * file of src/ahp/rules/ but index.ts exports exactly one rule, whose id is `ahp/<file name>`;
 * AHP_RULES holds each of them once and nothing else but the schema stage's table; every rule
 * words its findings with templates, and every stream rule but `ahp/state-cap` is gated `on` facts.
 */
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { AhpStreamModel } from '../../src/ahp/analyzers/model.ts';
import { DEFAULT_AHP_STREAM_OPTIONS } from '../../src/ahp/analyzers/options.ts';
import { AHP_EVENT_RULES, AHP_RULES, AHP_STREAM_RULES } from '../../src/ahp/rules/index.ts';
import { AHP_SCHEMA_RULES } from '../../src/ahp/schema/rules.ts';
import type { RuleMeta } from '../../src/core/rule.ts';

const DIR = new URL('../../src/ahp/rules/', import.meta.url);
const isRule = (v: unknown): v is RuleMeta =>
  typeof v === 'object' && v !== null && typeof (v as RuleMeta).id === 'string' && 'severity' in v;

test('each rule file exports exactly one rule, named after its id, listed once', async () => {
  const files = readdirSync(DIR)
    .filter((f) => f.endsWith('.ts') && f !== 'index.ts')
    .sort();
  assert.ok(files.length >= 40, `found ${files.length} rule files`);
  const listed = AHP_RULES.map((r) => r.id as string);
  const fromFiles = new Set<string>();
  for (const f of files) {
    const mod = (await import(pathToFileURL(new URL(f, DIR).pathname).href)) as Record<string, unknown>;
    const rules = Object.values(mod).filter(isRule);
    assert.equal(rules.length, 1, `${f} exports ${rules.length} rules`);
    assert.equal(Object.keys(mod).length, 1, `${f} exports only its rule`);
    const id = rules[0]!.id;
    assert.equal(id, `ahp/${f.slice(0, -3)}`, `${f} holds ${id}`);
    assert.equal(listed.filter((x) => x === id).length, 1, `${id} is in AHP_RULES once`);
    assert.ok(AHP_RULES.includes(rules[0] as never), `${id}: AHP_RULES holds the exported object`);
    fromFiles.add(id);
  }
  const schema = new Set(Object.keys(AHP_SCHEMA_RULES));
  const others = listed.filter((id) => !fromFiles.has(id));
  assert.deepEqual(
    others.filter((id) => !schema.has(id)),
    [],
    'AHP_RULES holds nothing but rule files and schema rules',
  );
  assert.deepEqual(others.sort(), [...schema].sort(), 'every schema rule is in AHP_RULES, once');
  assert.equal(new Set(listed).size, listed.length);
});

test('the engine lists are AHP_RULES by kind, in its order', () => {
  const ids = AHP_RULES.map((r) => r.id as string);
  const order = (rs: readonly RuleMeta[]) => rs.map((r) => ids.indexOf(r.id));
  for (const rs of [AHP_EVENT_RULES, AHP_STREAM_RULES]) {
    const o = order(rs);
    assert.deepEqual(
      o,
      [...o].sort((a, b) => a - b),
    );
  }
  const schema = Object.keys(AHP_SCHEMA_RULES).length;
  assert.equal(AHP_EVENT_RULES.length + AHP_STREAM_RULES.length + schema, AHP_RULES.length);
  assert.equal(AHP_STREAM_RULES.at(-1)!.id, 'ahp/state-cap');
});

test('every rule words its findings with templates; every stream rule but ahp/state-cap is gated', () => {
  const bits = new AhpStreamModel(DEFAULT_AHP_STREAM_OPTIONS).factBits;
  // a schema rule's templates may all be the schema stage's shared table
  for (const r of AHP_RULES)
    assert.ok(Object.keys({ ...r.messages, ...r.sharedMessages }).length > 0, `${r.id} has templates`);
  for (const r of AHP_STREAM_RULES) {
    if (!r.onEvent || r.id === 'ahp/state-cap') {
      assert.equal(r.on, undefined, r.id);
      continue;
    }
    assert.ok(r.on && r.on.length > 0, `${r.id} declares on`);
    for (const name of r.on) assert.ok(Object.hasOwn(bits, name), `${r.id}: ${name} is a fact bit`);
  }
});
