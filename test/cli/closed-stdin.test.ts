/**
 * A closed standard input (`validate - <&-`) cannot be read: exit 2 with one line saying so, as other I/O errors, for
 * both bins; an empty one (`< /dev/null`) is still jsonl/empty-input, exit 1. Real processes: the shell closes fd 0.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { REPO } from './helpers.ts';

const linux = process.platform === 'linux';

test('validate - with standard input closed: exit 2, "standard input is closed"; with /dev/null: empty input, exit 1', {
  skip: linux ? false : 'a closed stdin is told apart through /proc (Linux)',
}, () => {
  for (const bin of ['aep', 'ahp'] as const) {
    const run = (redirect: string) =>
      spawnSync('sh', ['-c', `exec "${process.execPath}" bin/${bin}.js validate -f json - ${redirect}`], {
        cwd: REPO,
        encoding: 'utf8',
      });
    const closed = run('<&-');
    assert.equal(closed.status, 2, `${bin}: ${closed.stderr}`);
    assert.match(closed.stderr, new RegExp(`^${bin}: cannot read <stdin>: standard input is closed`));
    assert.equal(closed.stdout, '');
    const empty = run('< /dev/null');
    assert.equal(empty.status, 1, `${bin}: ${empty.stderr}`);
    assert.deepEqual(
      JSON.parse(empty.stdout).findings.map((f: { ruleId: string }) => f.ruleId),
      ['jsonl/empty-input'],
    );
  }
});
