// The bundled example streams: the clean ones pass through the real CLI entry (the README's
// first command), and their broken twins are reported on exactly the broken lines.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';

const root = fileURLToPath(new URL('../../', import.meta.url));

function run(bin: string, file: string) {
  const r = spawnSync(process.execPath, [`bin/${bin}.js`, 'validate', '--format', 'json', file], { cwd: root, encoding: 'utf8' });
  const report = JSON.parse(r.stdout) as { findings: { ruleId: string; line: number; severity: string }[]; summary: { errors: number; warnings: number } };
  return { status: r.status, report };
}

test('examples/aep/session.jsonl is clean (the README quick-start command exits 0)', () => {
  const { status, report } = run('aep', 'examples/aep/session.jsonl');
  assert.equal(status, 0);
  assert.deepEqual(report.findings, []);
});

test('examples/aep/session-broken.jsonl names every broken line, once each', () => {
  const { status, report } = run('aep', 'examples/aep/session-broken.jsonl');
  assert.equal(status, 1);
  assert.deepEqual(
    report.findings.map((f) => [f.line, f.ruleId]),
    [
      [2, 'aep/scope-session'],
      [3, 'aep/time-format'],
      [4, 'aep/seq-regression'],
      [6, 'aep/form-values-capture'],
      [7, 'aep/payload-schema'],
      [8, 'aep/extension-name'],
    ],
  );
});

test('examples/ahp/session.jsonl is clean through the CLI, and its twin fails', () => {
  assert.equal(run('ahp', 'examples/ahp/session.jsonl').status, 0);
  const broken = run('ahp', 'examples/ahp/session-broken.jsonl');
  assert.equal(broken.status, 1);
  assert.ok(broken.report.summary.errors > 0);
});

test('the finding lines the README shows are what the CLI prints', () => {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const shown = readme.split('\n').filter((l) => l.startsWith('examples/aep/session-broken.jsonl:'));
  assert.ok(shown.length >= 3, 'the README shows example findings');
  const r = spawnSync(process.execPath, ['bin/aep.js', 'validate', '--no-color', 'examples/aep/session-broken.jsonl'], { cwd: root, encoding: 'utf8' });
  const printed = r.stdout.split('\n');
  for (const line of shown) assert.ok(printed.includes(line), `README line not printed by the CLI:\n${line}`);
});
