import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  ELICITATION_HEADER,
  ExtractionError,
  compareCodePoints,
  extractElicitation,
  headerOf,
  serializeLikePython,
} from '../../src/pin/extract.ts';
import { AHP_EXTRACTION_SHA, REPO_DIR, readShared, sha256 } from './helpers.ts';

const CLOSURE = [
  'BooleanSchema',
  'ElicitRequestFormParams',
  'ElicitRequestParams',
  'ElicitRequestURLParams',
  'ElicitResult',
  'LegacyTitledEnumSchema',
  'NumberSchema',
  'PrimitiveSchemaDefinition',
  'ProgressToken',
  'StringSchema',
  'TaskMetadata',
  'TitledMultiSelectEnumSchema',
  'TitledSingleSelectEnumSchema',
  'UntitledMultiSelectEnumSchema',
  'UntitledSingleSelectEnumSchema',
  'request',
  'result',
];

function countClosed(v: unknown): number {
  if (Array.isArray(v)) return v.reduce((n: number, c) => n + countClosed(c), 0);
  if (typeof v !== 'object' || v === null) return 0;
  let n = (v as Record<string, unknown>).additionalProperties === false ? 1 : 0;
  for (const c of Object.values(v)) n += countClosed(c);
  return n;
}

test('with the AHP header, the tag schema.json extracts byte-identically to the AHP golden file', async (t) => {
  const s = await readShared(t, 'tag', 'ahpExtraction');
  if (!s) return;
  const golden = s.ahpExtraction.toString('utf8');
  const out = extractElicitation(s.tag.toString('utf8'), headerOf(golden));
  assert.equal(Buffer.byteLength(out), 17205);
  assert.equal(sha256(out), AHP_EXTRACTION_SHA);
  assert.equal(out, golden);
});

test('the drifted HEAD schema.json yields the same extraction bytes', async (t) => {
  const s = await readShared(t, 'head', 'ahpExtraction');
  if (!s) return;
  const out = extractElicitation(s.head.toString('utf8'), headerOf(s.ahpExtraction.toString('utf8')));
  assert.equal(sha256(out), AHP_EXTRACTION_SHA);
});

test('the committed schemas/mcp/mcp-elicitation.schema.json equals a fresh extraction with our header', async (t) => {
  const s = await readShared(t, 'tag');
  if (!s) return;
  const committed = await readFile(join(REPO_DIR, 'schemas/mcp/mcp-elicitation.schema.json'), 'utf8');
  assert.equal(committed, extractElicitation(s.tag.toString('utf8')));
  assert.deepEqual({ ...headerOf(committed) }, { ...ELICITATION_HEADER });
  assert.match(String(ELICITATION_HEADER.$id), /agent-conformance/);
});

test('structure: 15 closure definitions plus request/result, 13 closed objects, restored numbers', async (t) => {
  const s = await readShared(t, 'tag');
  if (!s) return;
  const doc = JSON.parse(extractElicitation(s.tag.toString('utf8')));
  assert.deepEqual(Object.keys(doc), ['$schema', '$id', 'title', '$comment', '$defs']);
  assert.deepEqual(Object.keys(doc.$defs), CLOSURE);
  assert.equal(countClosed(doc.$defs), 13);
  const d = doc.$defs;
  for (const f of ['minimum', 'maximum', 'default']) assert.equal(d.NumberSchema.properties[f].type, 'number');
  for (const f of ['minLength', 'maxLength']) assert.equal(d.StringSchema.properties[f].type, 'number');
  assert.equal(d.TaskMetadata.properties.ttl.type, 'number');
  assert.deepEqual(d.ProgressToken.type, ['string', 'number']);
  assert.deepEqual(d.ElicitResult.properties.content.additionalProperties.anyOf[1].type, [
    'string',
    'number',
    'boolean',
  ]);
  assert.deepEqual(d.NumberSchema.properties.type.enum, ['integer', 'number'], 'the "integer" keyword value stays');
  assert.equal(d.ElicitRequestFormParams.additionalProperties, undefined, 'envelopes stay open');
  assert.equal(d.ElicitRequestFormParams.properties.requestedSchema.additionalProperties, false);
  assert.deepEqual(d.request, { $ref: '#/$defs/ElicitRequestParams' });
  assert.deepEqual(d.result, { $ref: '#/$defs/ElicitResult' });
});

test('extraction is deterministic and does not depend on the header object identity', async (t) => {
  const s = await readShared(t, 'tag');
  if (!s) return;
  const text = s.tag.toString('utf8');
  assert.equal(extractElicitation(text), extractElicitation(text));
  assert.equal(extractElicitation(text, {}).startsWith('{\n  "$defs": {\n'), true);
});

test('a hand-edited schema.json (a variant removed) extracts differently', async (t) => {
  const s = await readShared(t, 'tag');
  if (!s) return;
  const src = JSON.parse(s.tag.toString('utf8'));
  src.$defs.PrimitiveSchemaDefinition.anyOf = src.$defs.PrimitiveSchemaDefinition.anyOf.filter(
    (r: { $ref: string }) => !r.$ref.endsWith('/LegacyTitledEnumSchema'),
  );
  const doc = JSON.parse(extractElicitation(JSON.stringify(src)));
  assert.equal('LegacyTitledEnumSchema' in doc.$defs, false);
  assert.notEqual(extractElicitation(JSON.stringify(src)), extractElicitation(s.tag.toString('utf8')));
});

test('errors: not JSON, no $defs, a dangling $ref, a missing restoration target', async (t) => {
  assert.throws(() => extractElicitation('{'), SyntaxError);
  assert.throws(() => extractElicitation('[]'), ExtractionError);
  assert.throws(() => extractElicitation('{"definitions":{}}'), /no \$defs/);
  assert.throws(() => extractElicitation('{"$defs":{}}'), /ElicitRequestParams is referenced but not defined/);
  assert.throws(
    () => extractElicitation('{"$defs":{"ElicitRequestParams":{"$ref":"#/$defs/Nope"}}}'),
    /\$defs\/Nope is referenced but not defined/,
  );
  assert.throws(() => extractElicitation('{"$defs":{}}', { $defs: 1 }), TypeError);
  const s = await readShared(t, 'tag');
  if (!s) return;
  const src = JSON.parse(s.tag.toString('utf8'));
  src.$defs.ElicitResult.properties.content.additionalProperties.anyOf[1].type = ['string', 'number', 'boolean'];
  assert.throws(() => extractElicitation(JSON.stringify(src)), /has no "integer" to restore/);
  delete src.$defs.TaskMetadata.properties.ttl;
  assert.throws(() => extractElicitation(JSON.stringify(src)), /missing \$defs\/TaskMetadata\/properties\/ttl/);
});

test('integer-like keys are refused (their source position cannot be preserved)', async (t) => {
  const s = await readShared(t, 'tag');
  if (!s) return;
  const src = JSON.parse(s.tag.toString('utf8'));
  src.$defs.BooleanSchema.properties['10'] = { type: 'string' };
  assert.throws(() => extractElicitation(JSON.stringify(src)), /integer-like key "10"/);
});

test('serialisation follows Python json.dumps(indent=2) with ensure_ascii', () => {
  assert.equal(
    serializeLikePython({ a: [], b: {}, c: [1, true, null], d: 'é\u007f😀' }),
    '{\n  "a": [],\n  "b": {},\n  "c": [\n    1,\n    true,\n    null\n  ],\n  "d": "\\u00e9\\u007f\\ud83d\\ude00"\n}\n',
  );
  assert.equal(serializeLikePython('\u0001"\\'), '"\\u0001\\"\\\\"\n');
});

test('$defs are sorted by code point, not UTF-16 code unit', () => {
  const names = ['\uff61', '\u{1f600}', 'B', 'a'];
  assert.deepEqual([...names].sort(compareCodePoints), ['B', 'a', '\uff61', '\u{1f600}']);
  assert.equal(compareCodePoints('ab', 'a'), 1);
  assert.equal(compareCodePoints('a', 'a'), 0);
});

test('a leading BOM in schema.json is ignored, as Python json.loads(bytes) does', async (t) => {
  const s = await readShared(t, 'tag');
  if (!s) return;
  const text = s.tag.toString('utf8');
  assert.equal(extractElicitation('\ufeff' + text), extractElicitation(text));
});

test('the committed extraction compiles with Ajv 2020 and gives the notes §6 verdicts', async (t) => {
  const s = await readShared(t, 'ahpRequest', 'ahpResult');
  if (!s) return;
  const { Ajv2020 } = await import('ajv/dist/2020.js');
  const formats = (await import('ajv-formats')).default as unknown as (a: unknown) => void;
  const ajv = new Ajv2020({ strict: false });
  formats(ajv);
  const schema = JSON.parse(await readFile(join(REPO_DIR, 'schemas/mcp/mcp-elicitation.schema.json'), 'utf8'));
  ajv.addSchema(schema);
  const request = ajv.getSchema(`${schema.$id}#/$defs/request`)!;
  const result = ajv.getSchema(`${schema.$id}#/$defs/result`)!;
  assert.equal(request(JSON.parse(s.ahpRequest.toString('utf8'))), true);
  assert.equal(result(JSON.parse(s.ahpResult.toString('utf8'))), true);
  const form = (props: unknown) => ({ message: 'm', requestedSchema: { type: 'object', properties: props } });
  assert.equal(request(form({ score: { type: 'number', minimum: 0.5, maximum: 99.5, default: 95.5 } })), true);
  assert.equal(request(form({ lang: { type: 'string', enum: ['en', 'fr'], enumNames: ['English', 'French'] } })), true);
  assert.equal(request(form({ nick: { type: 'string', pattern: '^[a-z]+$' } })), false);
  assert.equal(request(form({ prio: { oneOf: [{ const: 'low', title: 'Low' }] } })), false);
  assert.equal(request({ mode: 'url', message: 'Sign in', url: 'https://example.test/connect' }), false);
  assert.equal(result({ action: 'accept', content: { r: 1.5 } }), true);
  assert.equal(result({ action: 'cancel', content: null }), false);
});
