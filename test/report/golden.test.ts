/**
 * Golden files pin the text (no colour), junit and github output of the reporters for a small
 * fixed input (test/report/helpers.ts). Regenerate after a deliberate change with
 * `UPDATE=1 npm test` and review the diff.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { test } from 'node:test';
import { renderFixtures, renderValidate } from './helpers.ts';

const GOLDEN = new URL('./golden/', import.meta.url);

function golden(name: string, actual: string): void {
  const file = new URL(name, GOLDEN);
  if (process.env.UPDATE === '1' || !existsSync(file)) {
    writeFileSync(file, actual);
    if (process.env.UPDATE !== '1') assert.fail(`golden ${name} did not exist; written now, review and commit it`);
    return;
  }
  assert.equal(actual, readFileSync(file, 'utf8'), `${name} differs from its golden (UPDATE=1 regenerates)`);
}

for (const [name, format] of [
  ['validate.txt', 'text'],
  ['validate.junit.xml', 'junit'],
  ['validate.github.txt', 'github'],
] as const) {
  test(`golden: validate --format ${format}`, () => golden(name, renderValidate(format)));
}

for (const [name, format] of [
  ['fixtures.txt', 'text'],
  ['fixtures.junit.xml', 'junit'],
  ['fixtures.github.txt', 'github'],
] as const) {
  test(`golden: fixtures --format ${format}`, () => golden(name, renderFixtures(format)));
}

test('text output has no escape codes without colour, and has them with colour', () => {
  assert.doesNotMatch(renderValidate('text'), /\x1b\[/);
  assert.doesNotMatch(renderFixtures('text'), /\x1b\[/);
  assert.match(renderValidate('text', { color: true }), /\x1b\[/);
});

test('text --quiet hides findings below --fail-on but keeps the summary', () => {
  const quiet = renderValidate('text', { quiet: true });
  assert.doesNotMatch(quiet, /aep\/type-reserved {2}/);
  assert.doesNotMatch(quiet, /jsonl\/no-final-newline {2}/);
  assert.match(quiet, /aep\/time-format/);
  assert.match(quiet, /3 errors, 1 warning, 1 info/);
  const warn = renderValidate('text', { quiet: true, failOn: 'warning' });
  assert.match(warn, /aep\/type-reserved {2}/);
});

test('github annotations escape per the workflow-command rules', () => {
  const out = renderValidate('github');
  // message: %, CR, LF escaped; properties: also : and ,
  assert.match(
    out,
    /::error file=logs\/a b\.jsonl,line=2,col=101,title=aep\/time-format::Line one,%0Aline two: time is not RFC 3339\. \(at \/time\) \[AEP-0001 §5\.1\]\n/,
  );
  assert.match(out, /100%25 <draft>/);
  assert.match(out, /::notice file=logs\/a b\.jsonl,line=5,title=jsonl\/no-final-newline::/);
  // stdin has no file property
  assert.match(out, /::error title=jsonl\/empty-input::Input is empty/);
  for (const line of out.trimEnd().split('\n')) assert.ok(!line.includes('\r'));
});

test('junit: one testcase per rule and input; failures only at or above --fail-on; XML escaped', () => {
  const out = renderValidate('junit');
  assert.match(out, /<testsuite name="logs\/a b\.jsonl" tests="3" failures="1" errors="0" skipped="0">/);
  assert.match(
    out,
    /<testsuite name="clean\.jsonl" tests="1" failures="0"[^>]*>\n {4}<testcase classname="clean\.jsonl" name="conformance"\/>/,
  );
  assert.match(out, /&quot;A&amp;B&quot;/);
  assert.match(out, /It&apos;s wrong again/);
  const warn = renderValidate('junit', { failOn: 'warning' });
  assert.match(warn, /<testsuite name="logs\/a b\.jsonl" tests="3" failures="2"/);
});

test('github annotations keep the spec citation, as every other format does', () => {
  const out = renderValidate('github');
  const lines = out.split('\n').filter((l) => l.startsWith('::'));
  assert.ok(lines.length > 0);
  for (const l of lines) assert.match(l, / \[(AEP|AHP|RFC|JSON|agent-conformance)[^\]]*\]$/, l);
});
