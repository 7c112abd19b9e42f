/**
 * JSON output validates against schemas/report.schema.json (draft 2020-12): the fixed input
 * of test/report/helpers.ts, and real runs of the CLI library on the bundled examples and on
 * our conformance cases. Also the aep-conformance-report shape and its invariants.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { aepCli } from '../../src/cli/aep.ts';
import { runValidate, type CliIO, type ValidateOptions } from '../../src/cli/program.ts';
import { runFixturesVerb } from '../../src/cli/verbs.ts';
import { renderFixtures, renderValidate, readRepoJson } from './helpers.ts';

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  a: Ajv2020,
) => Ajv2020;
const ajv = new Ajv2020({ allErrors: true, strict: true });
addFormats(ajv);
const validate = ajv.compile(readRepoJson('schemas/report.schema.json') as object);
const REPO = fileURLToPath(new URL('../../', import.meta.url));

function assertValid(doc: unknown): void {
  assert.ok(validate(doc), JSON.stringify(validate.errors?.slice(0, 5), null, 1));
}

function io(): CliIO & { out: () => string; err: () => string } {
  let out = '';
  let err = '';
  return {
    stdout: { write: (s) => void (out += s) },
    stderr: { write: (s) => void (err += s) },
    stdin: (async function* () {})(),
    env: {},
    stdoutIsTTY: false,
    stderrIsTTY: false,
    cwd: REPO,
    out: () => out,
    err: () => err,
  };
}

test('the schema rejects what it must (the validator is live)', () => {
  assert.equal(
    validate({
      schemaVersion: 1,
      kind: 'validate',
      tool: { name: 'agent-conformance', version: '1', protocol: 'aep' },
    }),
    false,
  );
  const doc = JSON.parse(renderValidate('json')) as { findings: Array<Record<string, unknown>> };
  doc.findings[0]!.severity = 'fatal';
  assert.equal(validate(doc), false);
});

test('validate --format json (fixed input) matches the schema, sorted by source and line', () => {
  const doc = JSON.parse(renderValidate('json')) as { findings: Array<{ source: string; line?: number }> };
  assertValid(doc);
  assert.deepEqual(
    doc.findings.map((f) => `${f.source}:${f.line ?? ''}`),
    ['logs/a b.jsonl:2', 'logs/a b.jsonl:3', 'logs/a b.jsonl:4', 'logs/a b.jsonl:5', '<stdin>:'],
  );
});

test('fixtures --format json (fixed cases) matches the schema', () => {
  assertValid(JSON.parse(renderFixtures('json')));
});

test('real output: aep validate --format json on the bundled examples matches the schema', async () => {
  const t = io();
  const opts = {
    format: 'json',
    failOn: 'error',
    strict: false,
    maxLineBytes: 1 << 20,
    maxDepth: 256,
    quiet: false,
    progress: false,
  } as ValidateOptions;
  const code = await runValidate(
    aepCli.def,
    [REPO + 'examples/aep/session.jsonl', REPO + 'examples/aep/session-broken.jsonl'],
    opts,
    t,
  );
  assert.equal(code, 1, t.err());
  const doc = JSON.parse(t.out()) as { findings: unknown[]; summary: { events: number; coverage?: unknown } };
  assertValid(doc);
  assert.ok(doc.findings.length > 0);
  assert.ok(doc.summary.events > 0 && doc.summary.coverage);
});

test('real output: aep fixtures conformance/aep --format json matches the schema', async () => {
  const t = io();
  const code = await runFixturesVerb(
    aepCli.def,
    REPO + 'conformance/aep',
    { format: 'json', failOn: 'error', strict: false, quiet: false, progress: false },
    t,
  );
  const doc = JSON.parse(t.out()) as { cases: unknown[]; summary: { total: number } };
  assertValid(doc);
  assert.equal(doc.cases.length, doc.summary.total);
  assert.ok([0, 1].includes(code), t.err());
});

test('aep-report: the aep-conformance-report shape and its invariants', () => {
  const doc = JSON.parse(renderFixtures('aep-report')) as {
    format: string;
    formatVersion: number;
    aep: string;
    tool: string;
    target: null;
    checks: Array<{ name: string; status: string; detail?: string }>;
    summary: { pass: number; fail: number; skip: number; total: number };
    ok: boolean;
  };
  assert.equal(doc.format, 'aep-conformance-report');
  assert.equal(doc.formatVersion, 1);
  assert.equal(doc.aep, '0.1');
  assert.equal(doc.tool, 'agent-conformance');
  assert.equal(doc.target, null);
  assert.equal(doc.summary.total, doc.checks.length);
  assert.equal(doc.ok, doc.summary.fail === 0);
  assert.deepEqual(
    doc.checks.map((c) => c.status),
    ['pass', 'fail', 'fail', 'skip', 'skip', 'fail'],
  );
  assert.equal(doc.checks[0]!.detail, undefined, 'a passing check carries no detail');
  assert.match(doc.checks[2]!.detail!, /^known deviation: /);
  assert.deepEqual(doc.summary, { pass: 1, fail: 3, skip: 2, total: 6 });
});

test('real output: ahp pin verify --format json matches the schema and says kind "pin-verify"', async () => {
  const { run } = await import('../../src/cli/ahp.ts');
  const t = io();
  // the package's own pin folder: the upstream bytes are not committed, so absent files are warnings
  await run(['node', 'ahp', 'pin', 'verify', '--allow-missing', '--format', 'json'], t);
  const doc = JSON.parse(t.out()) as { kind: string; findings: unknown[] };
  assertValid(doc);
  assert.equal(doc.kind, 'pin-verify');
  assert.ok(doc.findings.length > 0, 'absent pinned files are reported');
});
