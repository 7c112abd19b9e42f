// One missing member is one finding (docs/architecture.md §Schema stage): a schema that requires a member at an object
// and again in a conditional variant of that object reports its absence once, in the mapper (src/core/schema/findings.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AHP_WORDING } from '../../src/ahp/schema/issues.ts';
import { createAjv } from '../../src/core/schema/ajv.ts';
import { prepareSchemas } from '../../src/core/schema/annotations.ts';
import { mapSchemaErrors } from '../../src/core/schema/findings.ts';

const ID = 'urn:test:required-once';

/** An object that requires `a` and, when `k` is "x", a variant that requires `a` again (as content parts did). */
function schema(): Record<string, unknown> {
  return {
    $id: ID,
    'x-rule': 'ahp/content-part',
    type: 'object',
    required: ['k', 'a'],
    properties: { k: { enum: ['x', 'y'] } },
    allOf: [
      {
        if: { required: ['k'], properties: { k: { const: 'x' } } },
        // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword
        then: { type: 'object', required: ['k', 'a'], properties: { k: { const: 'x' } } },
      },
    ],
  };
}

test('a member required twice at one object and missing is one finding', () => {
  const doc = schema();
  const index = prepareSchemas(new Map([[ID, doc]]), 'urn:test:');
  const validate = createAjv({ diagnostic: true }).compile(doc);
  const value = { k: 'x' };
  assert.equal(validate(value), false);
  // the premise: ajv reports the absence twice, worded differently (once plainly, once naming `k`)
  assert.equal(validate.errors?.filter((e) => e.keyword === 'required').length, 2);
  const findings = mapSchemaErrors(validate.errors, value, {
    index,
    wording: AHP_WORDING,
    fallbackRule: 'ahp/wire-root',
  });
  assert.deepEqual(
    findings.map((f) => [f.ruleId, f.pointer, f.args.member]),
    [['ahp/content-part', '', 'a']],
  );
});

test('different members missing at one object stay two findings', () => {
  const doc = schema();
  const index = prepareSchemas(new Map([[ID, doc]]), 'urn:test:');
  const validate = createAjv({ diagnostic: true }).compile(doc);
  assert.equal(validate({}), false);
  const findings = mapSchemaErrors(validate.errors, {}, { index, wording: AHP_WORDING, fallbackRule: 'ahp/wire-root' });
  assert.deepEqual(findings.map((f) => f.args.member).sort(), ['a', 'k']);
});
