/**
 * `-q` means quiet (README §Options of `validate`): passing inputs and passing fixture cases
 * print nothing, failing ones print what failed, and the total line stays.
 */
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { test } from 'node:test';
import { fixtureSample, runCli } from './helpers.ts';

const PASS = readdirSync(new URL('../../conformance/aep/pass/', import.meta.url))
  .filter((f) => f.endsWith('.jsonl'))
  .slice(0, 4)
  .map((f) => `conformance/aep/pass/${f}`);

test('validate -q --each: passing inputs print nothing, a failing one its findings and its line, then the total', async () => {
  const clean = await runCli('aep', ['validate', '-q', '--each', ...PASS]);
  assert.equal(clean.code, 0, clean.stderr);
  assert.deepEqual(clean.stdout.trimEnd().split('\n'), [
    `✔ ${PASS.length} inputs: ${clean.stdout.match(/(\d+ events)/)![1]}, 0 errors, 0 warnings, 0 infos`,
  ]);
  assert.equal(clean.stderr, '');
  const mixed = await runCli('aep', ['validate', '-q', '--each', ...PASS, 'examples/aep/session-broken.jsonl']);
  assert.equal(mixed.code, 1);
  for (const p of PASS) assert.doesNotMatch(mixed.stdout, new RegExp(p.replace(/\./g, '\\.')));
  assert.match(mixed.stdout, /^✖ examples\/aep\/session-broken\.jsonl: /m);
  assert.match(mixed.stdout, /\n\n✖ \d+ inputs: /);
  // without -q every input has its line
  const loud = await runCli('aep', ['validate', '--each', ...PASS]);
  for (const p of PASS) assert.match(loud.stdout, new RegExp(`^✔ ${p.replace(/\./g, '\\.')}: `, 'm'));
});

test('fixtures -q: passing cases print nothing; without -q each case names its file once', async () => {
  const dir = fixtureSample('aep');
  const quiet = await runCli('aep', ['fixtures', '-q', dir]);
  assert.equal(quiet.code, 0, quiet.stderr);
  assert.deepEqual(quiet.stdout.trim().split('\n'), [quiet.stdout.trim().split('\n')[0]!]);
  assert.match(quiet.stdout, /^\n?✔ \d+ cases: \d+ passed, 0 failed/);
  const loud = await runCli('aep', ['fixtures', dir]);
  const lines = loud.stdout.split('\n').filter((l) => l.includes('pass/'));
  assert.equal(lines.length, 3, loud.stdout);
  for (const line of lines) assert.ok(/^✔ pass +\S+\/pass\/\S+\.jsonl$/.test(line) && line.includes(dir), line);
});
