// The shipped bundles keep short lines (tools/build/build.mjs lineLimit): an uncaught library error prints its
// source line, which must be a line of code, not the whole bundle.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { REPO } from '../cli/helpers.ts';

test('the bundles have no line over 1,000 characters, and an uncaught library error prints a short one', () => {
  for (const f of ['dist/library/index.js', 'dist/cli/aep.cjs', 'dist/cli/ahp.cjs']) {
    const longest = Math.max(
      ...readFileSync(`${REPO}/${f}`, 'utf8')
        .split('\n')
        .map((l) => l.length),
    );
    assert.ok(longest <= 1000, `${f}: a line of ${longest} characters`);
  }
  const r = spawnSync(
    process.execPath,
    ['--input-type=module', '-e', "const { formatReport } = await import('./dist/index.js'); formatReport([], {});"],
    { cwd: REPO, encoding: 'utf8' },
  );
  assert.match(r.stderr, /TypeError: the summary needs inputs/);
  assert.ok(Math.max(...r.stderr.split('\n').map((l) => l.length)) <= 1000, r.stderr.slice(0, 300));
});
