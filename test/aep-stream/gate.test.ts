/**
 * `gateFormValues(fields, values, ceiling)` (src/aep/forms.ts, exported from src/index.ts)
 * returns `expect` for every upstream capture-gating case (aep-rules.md §7.3, incl. case 5:
 * structural values pass at `none`), and treats prototype member names as ordinary keys.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { gateFormValues, type FormFieldSpec } from '../../src/index.ts';
import { fieldsOfSketch, formSketch } from '../../src/aep/downlevel.ts';
import { compileForm } from '../../src/aep/forms.ts';
import type { AepCaptureLevel } from '../../src/aep/schema/registry.ts';
import { CORPUS_DIR } from './helpers.ts';
import { needShared, SHARED } from '../shared.ts';

interface GateCase {
  name: string;
  fields: FormFieldSpec[];
  values: Record<string, unknown>;
  ceiling: AepCaptureLevel;
  expect: Record<string, unknown>;
}

test('capture-gating/cases.json: gateFormValues returns expect for every case', (t) => {
  if (!needShared(t, SHARED.aepCorpus)) return;
  const { cases } = JSON.parse(readFileSync(join(CORPUS_DIR, 'capture-gating/cases.json'), 'utf8')) as {
    cases: GateCase[];
  };
  assert.ok(cases.length >= 6, `expected at least 6 cases, got ${cases.length}`);
  for (const c of cases) {
    const before = JSON.stringify(c.values);
    assert.deepStrictEqual(gateFormValues(c.fields, c.values, c.ceiling), c.expect, c.name);
    assert.equal(JSON.stringify(c.values), before, `${c.name}: values were modified`);
  }
});

test('gateFormValues: prototype member names are ordinary field ids and keys', () => {
  const fields: FormFieldSpec[] = [
    { id: '__proto__', type: 'number', label: '1' },
    { id: 'constructor', type: 'string', label: '2' },
    { id: 'toString', type: 'select', label: '3', choices: [{ id: 'valueOf', label: 'valueOf' }] },
  ];
  const values = JSON.parse(
    '{"__proto__": 5, "constructor": "free text", "toString": "valueOf", "hasOwnProperty": true}',
  ) as Record<string, unknown>;
  const meta = gateFormValues(fields, values, 'metadata');
  assert.deepStrictEqual(Object.keys(meta), ['__proto__', 'toString']);
  assert.equal(Object.getPrototypeOf(meta), Object.prototype, 'the prototype was not replaced');
  assert.equal(Object.getOwnPropertyDescriptor(meta, '__proto__')?.value, 5);
  const red = gateFormValues(fields, values, 'redacted');
  assert.deepStrictEqual(Object.keys(red), ['__proto__', 'constructor', 'toString']);
  // keys naming no field are never looked up on Object.prototype
  assert.deepStrictEqual(gateFormValues([], { constructor: 1, toString: true }, 'full'), {});
});

test('gateFormValues: below redacted, entries whose JSON type does not fit their field are dropped', () => {
  const fields: FormFieldSpec[] = [
    { id: 'n', type: 'number', label: 'n' },
    { id: 'b', type: 'boolean', label: 'b' },
    { id: 's', type: 'select', label: 's', multi: true, choices: [{ id: '1', label: '1' }] },
  ];
  assert.deepStrictEqual(gateFormValues(fields, { n: 'three', b: 1, s: ['1', 'other'] }, 'metadata'), {});
  assert.deepStrictEqual(gateFormValues(fields, { n: 3, b: false, s: ['1'] }, 'none'), { n: 3, b: false, s: ['1'] });
  assert.deepStrictEqual(gateFormValues(fields, { n: 'three' }, 'full'), { n: 'three' });
});

test('formSketch: the sketch of any fields compiles to the same form and gates every answer alike', () => {
  const id = fc.constantFrom('a', 'b', '__proto__', 'x y', '');
  const choice = fc.oneof(fc.record({ id, label: fc.string() }), fc.constant(null), fc.record({ id: fc.integer() }));
  const field = fc.oneof(
    fc.record(
      {
        id: fc.oneof(id, fc.integer()),
        type: fc.oneof(fc.constantFrom('string', 'number', 'boolean', 'select'), fc.integer()),
        label: fc.string(),
        required: fc.oneof(fc.boolean(), fc.constant('true')),
        multi: fc.boolean(),
        other: fc.boolean(),
        choices: fc.oneof(fc.array(choice, { maxLength: 4 }), fc.constant('a')),
      },
      { requiredKeys: ['id'] },
    ),
    fc.constant(null),
    fc.string(),
  );
  const value = fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.array(id, { maxLength: 3 }), fc.constant(null));
  fc.assert(
    fc.property(fc.array(field, { maxLength: 6 }), fc.dictionary(id, value), (fields, values) => {
      const back = fieldsOfSketch(formSketch(fields));
      assert.deepStrictEqual(compileForm(back), compileForm(fields));
      for (const ceiling of ['none', 'metadata', 'redacted', 'full'] as const)
        assert.deepStrictEqual(
          gateFormValues(back, values, ceiling),
          gateFormValues(fields as FormFieldSpec[], values, ceiling),
        );
    }),
    { numRuns: 400 },
  );
});
