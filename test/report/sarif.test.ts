/**
 * SARIF output validates against the SARIF 2.1.0 JSON schema.
 *
 * The schema comes from the npm package @microsoft/jest-sarif (dev dependency), which ships
 * `lib/schemas/sarif-2.1.0-rtm.5.json` (the 2.1.0 schema as published at OASIS
 * standardisation). That file declares draft-04, so it is compiled with ajv-draft-04 (ajv's
 * draft-04 class); `unicodeRegExp: false` because its `language` pattern is not a valid
 * Unicode-mode regular expression. No npm package we found ships the OASIS draft-07
 * `sarif-schema-2.1.0.json` as a file.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import addFormatsModule from 'ajv-formats';
import type { ValidateFunction } from 'ajv';
import { specUrl } from '../../src/report/spec-links.ts';
import { sarifUri } from '../../src/report/sarif.ts';
import { FINDINGS, RULES, renderFixtures, renderValidate } from './helpers.ts';

const require = createRequire(import.meta.url);

function sarifValidator(): ValidateFunction {
  const AjvDraft04 = require('ajv-draft-04') as new (o: object) => { compile(s: object): ValidateFunction };
  const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
    a: unknown,
  ) => void;
  const schemaPath = require.resolve('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json');
  const schema = JSON.parse(readFileSync(schemaPath, 'utf8')) as object;
  const ajv = new AjvDraft04({ allErrors: true, strict: false, unicodeRegExp: false });
  addFormats(ajv);
  return ajv.compile(schema);
}

const validate = sarifValidator();

function assertValid(doc: unknown): void {
  const ok = validate(doc);
  assert.ok(ok, JSON.stringify(validate.errors?.slice(0, 5), null, 1));
}

interface SarifLog {
  $schema: string;
  version: string;
  runs: Array<{
    tool: {
      driver: { name: string; rules: Array<{ id: string; helpUri?: string; defaultConfiguration: { level: string } }> };
    };
    results: Array<{
      ruleId: string;
      ruleIndex: number;
      level: string;
      kind?: string;
      message: { text: string };
      locations?: Array<{
        physicalLocation: { artifactLocation: { uri: string }; region?: { startLine?: number; startColumn?: number } };
        logicalLocations?: Array<{ fullyQualifiedName: string }>;
      }>;
      properties?: { pointer?: string };
      suppressions?: unknown[];
    }>;
  }>;
}

test('the schema rejects a broken log (the validator is live)', () => {
  assert.equal(validate({ version: '2.1.0' }), false);
  assert.equal(
    validate({
      version: '2.1.0',
      runs: [{ tool: { driver: { name: 'x' } }, results: [{ message: { text: 'm' }, level: 'fatal' }] }],
    }),
    false,
  );
});

test('validate --format sarif: valid SARIF 2.1.0 with rules, locations and pointers', () => {
  const doc = JSON.parse(renderValidate('sarif')) as SarifLog;
  assertValid(doc);
  assert.equal(doc.version, '2.1.0');
  const run = doc.runs[0]!;
  assert.deepEqual(
    run.tool.driver.rules.map((r) => r.id),
    RULES.map((r) => r.id),
  );
  const tf = run.tool.driver.rules.find((r) => r.id === 'aep/time-format')!;
  assert.equal(tf.helpUri, specUrl('AEP-0001 §5.1'));
  assert.match(tf.helpUri!, /AEP-0001-core-and-envelope\.md#51-context-attributes$/);
  assert.equal(
    run.tool.driver.rules.find((r) => r.id === 'jsonl/no-final-newline')!.defaultConfiguration.level,
    'note',
  );
  assert.equal(run.results.length, FINDINGS.length);
  const first = run.results[0]!;
  // sorted: source order, line
  assert.equal(first.ruleId, 'aep/time-format');
  assert.equal(run.tool.driver.rules[first.ruleIndex]!.id, first.ruleId);
  assert.deepEqual(first.locations![0]!.physicalLocation.region, { startLine: 2, startColumn: 101 });
  assert.equal(first.locations![0]!.physicalLocation.artifactLocation.uri, 'logs/a%20b.jsonl');
  assert.equal(first.locations![0]!.logicalLocations![0]!.fullyQualifiedName, '/time');
  assert.equal(first.properties!.pointer, '/time');
  const stdin = run.results.find((r) => r.ruleId === 'jsonl/empty-input')!;
  assert.equal(stdin.locations![0]!.physicalLocation.region, undefined);
});

test("validate --format sarif: a rule's detail is its fullDescription, and help carries detail, citation and quote", () => {
  const rule = {
    id: 'aep/time-format',
    severity: 'error' as const,
    description: 'The time attribute is an RFC 3339 date-time with an offset.',
    detail: 'A date without an offset is refused.',
    spec: 'AEP-0001 §5.1 #5',
    quote: 'time is an RFC 3339 timestamp',
  };
  const doc = JSON.parse(renderValidate('sarif', { rules: [rule] })) as SarifLog;
  assertValid(doc);
  const got = doc.runs[0]!.tool.driver.rules[0] as unknown as {
    shortDescription: { text: string };
    fullDescription?: { text: string };
    help: { text: string };
  };
  assert.equal(got.shortDescription.text, rule.description);
  assert.equal(got.fullDescription?.text, `${rule.description} ${rule.detail}`);
  assert.equal(got.help.text, `${rule.description} ${rule.detail} Spec: ${rule.spec} ("${rule.quote}").`);
  const plain = JSON.parse(renderValidate('sarif')) as SarifLog;
  const tf = plain.runs[0]!.tool.driver.rules.find((r) => r.id === 'aep/time-format') as unknown as Record<
    string,
    unknown
  >;
  assert.equal(tf.fullDescription, undefined, 'no detail, no fullDescription');
});

test('validate --format sarif with no findings is valid', () => {
  assertValid(
    JSON.parse(
      renderValidate('sarif', {}, [], {
        ...JSON.parse(
          JSON.stringify({
            inputs: 1,
            bytes: 0,
            lines: 0,
            events: 0,
            errors: 0,
            warnings: 0,
            infos: 0,
            byRule: {},
            omitted: 0,
          }),
        ),
      }),
    ),
  );
});

test('fixtures --format sarif: a result per case that did not pass, under a rule that names what happened', () => {
  const doc = JSON.parse(renderFixtures('sarif')) as SarifLog;
  assertValid(doc);
  const results = doc.runs[0]!.results;
  // the passing case is no result (a clean run has none, as a clean validate run); the counts keep it
  assert.deepEqual(
    results.map((r) => [r.ruleId, r.kind, r.level]),
    [
      ['fixtures/case-mismatch', 'fail', 'error'],
      ['fixtures/case-mismatch', 'fail', 'error'],
      ['fixtures/case-not-run', 'notApplicable', 'none'],
      ['fixtures/case-not-run', 'notApplicable', 'none'],
      ['fixtures/harness-error', 'fail', 'error'],
    ],
  );
  assert.equal(results[1]!.suppressions?.length, 1, 'a known deviation is a suppressed mismatch');
  // relation: no result of a case says a rule of failure about a case that passed
  const rules = doc.runs[0]!.tool.driver.rules.map((r) => r.id);
  for (const r of results) assert.ok(rules.includes(r.ruleId), r.ruleId);
  assert.ok(!JSON.stringify(results).includes('"status":"pass"'));
});

test('a SARIF artifact URI resolves to the file it names (RFC 3986 §4.2: a colon in the first segment is not a scheme)', () => {
  const base = 'file:///work/base/';
  for (const name of [
    'x:y.jsonl',
    'logs/a b.jsonl',
    'd:/e.jsonl',
    'a:b/c:d.jsonl',
    '100%.jsonl',
    'ünï/çødé.jsonl',
    '#1?.jsonl',
  ]) {
    const uri = sarifUri(name);
    const url = new URL(uri, base);
    assert.equal(url.protocol, 'file:', `${name} -> ${uri}`);
    const want = /^[A-Za-z]:\//.test(name) ? `/${name}` : `/work/base/${name}`;
    assert.equal(decodeURIComponent(url.pathname), want, `${name} -> ${uri}`);
  }
  assert.equal(sarifUri('x:y.jsonl'), './x:y.jsonl');
  assert.equal(sarifUri('C:\\logs\\a.jsonl'), 'file:///C:/logs/a.jsonl');
  // an absolute path: a file: URI, which GitHub code scanning makes relative to its checkout
  assert.equal(sarifUri('/abs/a b.jsonl'), 'file:///abs/a%20b.jsonl');
});
