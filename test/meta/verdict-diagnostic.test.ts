// Every generated verdict validator (first error, no evaluation bookkeeping when the schemas
// have no unevaluated* keyword) gives the same answer as its diagnostic twin (all errors,
// evaluation tracked) on every object and array inside every conformance case.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { AEP_SCHEMA_BASE_ID } from '../../src/aep/schema/registry.ts';
import { AHP_SCHEMA_BASE } from '../../src/ahp/schema/schemas.ts';
import { loadGeneratedValidators } from '../../src/core/schema/generated.ts';
import { usesUnevaluated } from '../../tools/gen-validators.ts';
import { createRequire } from 'node:module';
import { sweep } from '../scale.ts';

const require = createRequire(import.meta.url);

const ROOT = new URL('../../', import.meta.url).pathname;

function caseValues(dir: string): unknown[] {
  const out: unknown[] = [];
  const visit = (v: unknown): void => {
    if (v === null || typeof v !== 'object') return;
    out.push(v);
    for (const m of Object.values(v)) visit(m);
  };
  for (const entry of readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.jsonl')) continue;
    for (const line of readFileSync(join(entry.parentPath, entry.name), 'utf8').split('\n')) {
      try {
        visit(JSON.parse(line));
      } catch {
        // framing cases: not JSON
      }
    }
  }
  return out;
}

for (const [protocol, base, dirs] of [
  ['aep', AEP_SCHEMA_BASE_ID, ['conformance/aep', 'conformance/aep-capture']],
  ['ahp', AHP_SCHEMA_BASE, ['conformance/ahp']],
] as const) {
  test(`${protocol}: each verdict validator agrees with its diagnostic twin on every value inside the conformance cases`, (t) => {
    const generated = loadGeneratedValidators(protocol, base);
    const { GROUPS } = require(`../../src/generated/${protocol}-docs.cjs`) as { GROUPS: Record<string, string> };
    const all = dirs.flatMap(caseValues);
    assert.ok(all.length > 1000, `only ${all.length} values read`);
    const values = sweep(t, all);
    let passed = 0;
    for (const key of Object.keys(GROUPS)) {
      const verdict = generated.verdict(key)!;
      const diagnostic = generated.diagnostic(key)!;
      for (const v of values) {
        const ok = verdict(v);
        if (ok) passed++;
        // the message only on a mismatch: made for every pair it was most of this test's time
        if (ok !== diagnostic(v))
          assert.fail(`${key}: verdict ${ok}, diagnostic ${!ok}, on ${JSON.stringify(v).slice(0, 200)}`);
      }
    }
    assert.ok(passed > 0, 'no value passed any validator');
  });
}

test('usesUnevaluated finds the keywords at any depth', () => {
  assert.equal(usesUnevaluated([{ $defs: { a: { allOf: [{ unevaluatedItems: false }] } } }]), true);
  assert.equal(usesUnevaluated([{ properties: { a: { unevaluatedProperties: false } } }]), true);
  assert.equal(usesUnevaluated([{ properties: { a: { type: 'object', additionalProperties: false } } }]), false);
});
