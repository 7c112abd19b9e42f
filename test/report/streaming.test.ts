/**
 * The json, sarif and junit reporters sort findings through a spool (src/report/spool.ts) that
 * writes sorted runs to a temporary file past a memory limit. Relations over random findings:
 * the output is the same bytes whatever the limit (spilled or not); the json and sarif output is
 * exactly the pretty-print of the document it parses to, with the findings in report order
 * (src/report/util.ts `sortFindings`), as the whole-document rendering gave.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { Finding } from '../../src/core/finding.ts';
import { FindingSpool } from '../../src/report/spool.ts';
import { findingOrder, sortFindings } from '../../src/report/util.ts';
import { renderValidate, RULES, SOURCES, SUMMARY } from './helpers.ts';
import { runs } from '../scale.ts';

const text = fc.oneof(
  fc.constantFrom('', 'a', 'b', '/x', '<&>"\'', '\uD800 lone', 'line\nbreak', '100%'),
  fc.string({ maxLength: 6 }),
);
const finding: fc.Arbitrary<Finding> = fc.record(
  {
    ruleId: fc.constantFrom(
      'aep/time-format',
      'aep/type-reserved',
      'jsonl/no-final-newline',
      'x/not-in-catalogue',
      'a/other',
    ),
    severity: fc.constantFrom('error', 'warning', 'info'),
    message: text,
    spec: fc.constantFrom('AEP-0001 §5.1', 'AEP-0003 §3.1'),
    source: fc.constantFrom(...SOURCES, 'extra.jsonl', ''),
    line: fc.integer({ min: 1, max: 6 }),
    column: fc.integer({ min: 1, max: 4 }),
    byteOffset: fc.nat(500),
    pointer: fc.constantFrom('', '/a', '/b/0'),
    related: fc.array(fc.record({ source: fc.constantFrom(...SOURCES), line: fc.integer({ min: 1, max: 6 }) }), {
      maxLength: 2,
    }),
    messageId: fc.constantFrom('default', 'other'),
    args: fc.dictionary(fc.constantFrom('k', 'n'), fc.oneof(fc.integer(), text)),
  },
  { requiredKeys: ['ruleId', 'severity', 'message', 'spec', 'source'] },
) as fc.Arbitrary<Finding>;

test('the spool gives a stable sort of what it was given, whatever its memory limit', () => {
  fc.assert(
    fc.property(fc.array(finding, { maxLength: 60 }), fc.integer({ min: 1, max: 9 }), (fs, limit) => {
      const order = findingOrder(SOURCES);
      const spool = new FindingSpool(order, limit);
      for (const f of fs) spool.add(f);
      const out: Finding[] = [];
      spool.drain((f) => out.push(f));
      assert.deepEqual(JSON.parse(JSON.stringify(out)), JSON.parse(JSON.stringify(sortFindings(fs, SOURCES))));
    }),
    { numRuns: runs(150) },
  );
});

test('json, sarif and junit: the same bytes spilled or held in memory', () => {
  fc.assert(
    fc.property(
      fc.array(finding, { maxLength: 40 }),
      fc.integer({ min: 1, max: 5 }),
      fc.constantFrom('error', 'warning', 'info'),
      (fs, limit, failOn) => {
        for (const format of ['json', 'sarif', 'junit'] as const) {
          const held = renderValidate(format, { failOn }, fs, SUMMARY);
          assert.equal(renderValidate(format, { failOn, memoryFindings: limit }, fs, SUMMARY), held, format);
        }
      },
    ),
    { numRuns: runs(80) },
  );
});

test('json and sarif are the pretty-print of their document, findings in report order', () => {
  fc.assert(
    fc.property(fc.array(finding, { maxLength: 30 }), (fs) => {
      const json = renderValidate('json', { memoryFindings: 3 }, fs, SUMMARY);
      const doc = JSON.parse(json) as { findings: Finding[]; sources: string[] };
      assert.equal(json, JSON.stringify(doc, null, 2) + '\n');
      assert.deepEqual(doc.findings, JSON.parse(JSON.stringify(sortFindings(fs, SOURCES))));
      const sarif = renderValidate('sarif', { memoryFindings: 3 }, fs, SUMMARY);
      const log = JSON.parse(sarif) as {
        runs: [
          {
            results: { ruleId: string; ruleIndex: number; message: { text: string } }[];
            tool: { driver: { rules: { id: string }[] } };
          },
        ];
      };
      assert.equal(sarif, JSON.stringify(log, null, 2) + '\n');
      const run = log.runs[0];
      assert.deepEqual(
        run.results.map((r) => [r.ruleId, r.message.text]),
        sortFindings(fs, SOURCES).map((f) => [f.ruleId, JSON.parse(JSON.stringify(f.message)) as string]),
      );
      for (const r of run.results) assert.equal(run.tool.driver.rules[r.ruleIndex]!.id, r.ruleId);
      // the catalogue first, then rules outside it in the order they were first reported
      const extra = [...new Set(fs.map((f) => f.ruleId).filter((id) => !RULES.some((r) => r.id === id)))];
      assert.deepEqual(
        run.tool.driver.rules.map((r) => r.id),
        [...RULES.map((r) => r.id), ...extra],
      );
    }),
    { numRuns: runs(80) },
  );
});

test('an empty report is still one document', () => {
  const json = renderValidate('json', {}, [], SUMMARY);
  assert.match(json, /"findings": \[\],\n/);
  assert.equal(json, JSON.stringify(JSON.parse(json), null, 2) + '\n');
  const sarif = renderValidate('sarif', {}, [], SUMMARY);
  assert.match(sarif, /"results": \[\]\n/);
});

test('--max-findings still caps json, sarif and junit', async () => {
  const { runCli } = await import('../cli/helpers.ts');
  const args = ['validate', '--max-findings', '2', 'examples/aep/session-broken.jsonl'];
  const json = JSON.parse((await runCli('aep', [...args, '-f', 'json'])).stdout) as {
    findings: unknown[];
    summary: { errors: number; omitted: number };
  };
  assert.equal(json.findings.length, 2);
  assert.equal(json.summary.omitted, json.summary.errors - 2);
  const sarif = JSON.parse((await runCli('aep', [...args, '-f', 'sarif'])).stdout) as {
    runs: [{ results: unknown[] }];
  };
  assert.equal(sarif.runs[0].results.length, 2);
  const junit = (await runCli('aep', [...args, '-f', 'junit'])).stdout;
  assert.equal(junit.match(/<testcase /g)?.length, 2);
});
