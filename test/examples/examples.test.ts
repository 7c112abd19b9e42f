// The bundled example streams: the clean ones pass through the CLI (the README's first command;
// in-process through `main`, and through the real bin in test/cli/smoke.test.ts), and their
// broken twins are reported on exactly the broken lines.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { runCli } from '../cli/helpers.ts';

async function run(bin: 'aep' | 'ahp', file: string) {
  const r = await runCli(bin, ['validate', '--format', 'json', file]);
  const report = JSON.parse(r.stdout) as {
    findings: { ruleId: string; line: number; severity: string }[];
    summary: { errors: number; warnings: number };
  };
  return { status: r.code, report };
}

test('examples/aep/session.jsonl is clean (the README quick-start command exits 0)', async () => {
  const { status, report } = await run('aep', 'examples/aep/session.jsonl');
  assert.equal(status, 0);
  assert.deepEqual(report.findings, []);
});

test('examples/aep/session-broken.jsonl names every broken line, once each', async () => {
  const { status, report } = await run('aep', 'examples/aep/session-broken.jsonl');
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

test('examples/ahp/session.jsonl is clean through the CLI, and its twin fails', async () => {
  assert.equal((await run('ahp', 'examples/ahp/session.jsonl')).status, 0);
  const broken = await run('ahp', 'examples/ahp/session-broken.jsonl');
  assert.equal(broken.status, 1);
  assert.ok(broken.report.summary.errors > 0);
});

test('the finding lines the README shows are what the CLI prints, piped and on a terminal', async () => {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  // each example block: its command line, then what it prints
  const blocks = readme
    .split('```')
    .filter((b) => b.includes('$ ./bin/aep.js validate examples/aep/session-broken.jsonl'));
  assert.equal(blocks.length, 2, 'the README shows the piped and the terminal form');
  for (const block of blocks) {
    const [command, ...lines] = block.trim().split('\n');
    const columns = /(\d+)-column terminal/.exec(command!)?.[1];
    const r = await runCli(
      'aep',
      ['validate', '--no-color', 'examples/aep/session-broken.jsonl'],
      '',
      columns ? { stdoutIsTTY: true, columns: Number(columns) } : {},
    );
    if (columns)
      assert.equal(
        r.stdout.split('\n').slice(0, lines.length).join('\n'),
        lines.join('\n'),
        'the terminal example is the start of what the CLI prints',
      );
    else {
      assert.ok(lines.length >= 3, 'the README shows example findings');
      const printed = r.stdout.split('\n');
      for (const line of lines) assert.ok(printed.includes(line), `README line not printed by the CLI:\n${line}`);
    }
  }
});
