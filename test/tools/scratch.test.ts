// tools/bench/scratch.ts: an interrupted bench removes the scratch folders it does not keep, and dies of the signal.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const SCRATCH = fileURLToPath(new URL('../../tools/bench/scratch.ts', import.meta.url));

/** The folder a child made with `scratchDir(prefix, keep)` before it sent itself `signal`, and how it ended. */
function interrupted(keep: boolean, signal: NodeJS.Signals): { dir: string; signal: NodeJS.Signals | null } {
  // the loop kept busy, as in a bench mid-run
  const script = `const { scratchDir } = await import(${JSON.stringify(SCRATCH)}); console.log(scratchDir('ac-scratch-', ${keep})); setTimeout(() => {}, 30000); process.kill(process.pid, '${signal}');`;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
  const dir = r.stdout.trim();
  assert.match(dir, /ac-scratch-/, r.stderr);
  return { dir, signal: r.signal };
}

test('an interrupted bench removes its scratch folder and still dies of the signal; --keep keeps it', (t) => {
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    const r = interrupted(false, signal);
    assert.equal(existsSync(r.dir), false, `${signal}: ${r.dir} left behind`);
    assert.equal(r.signal, signal);
  }
  const kept = interrupted(true, 'SIGTERM');
  t.after(() => rmSync(kept.dir, { recursive: true, force: true }));
  assert.equal(existsSync(kept.dir), true, 'a kept folder stays');
  assert.equal(kept.signal, 'SIGTERM');
});
