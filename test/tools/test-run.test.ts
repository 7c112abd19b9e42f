/**
 * The test step (tools/test-run.mjs): every file runs exactly once, heavy and own-process files alone and first, the
 * light ones in groups of about even weight; in a group each file's tests sit under a suite named by its path, and a
 * file that throws while it loads is a failed test, not a silent "cancelled".
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
// @ts-expect-error: a plain JavaScript tool without declarations
import { groupSource, plan } from '../../tools/test-run.mjs';
import { tempDir } from '../temp.ts';

type Plan = { heavy: string[]; groups: string[][] };
const planOf = plan as (files: string[], w: Record<string, number>, own?: (f: string) => boolean) => Plan;

test('plan: each file once; heavy and own-process files alone, heaviest first; groups of about even weight', () => {
  const files = Array.from({ length: 60 }, (_, i) => `test/x/f${i}.test.ts`);
  const w: Record<string, number> = {};
  files.forEach((f, i) => {
    if (i % 7 !== 0) w[f] = (i * 37) % 7; // some files unweighted
  });
  w['test/x/f1.test.ts'] = 30;
  w['test/x/f2.test.ts'] = 12;
  const own = (f: string) => f === 'test/x/f3.test.ts';
  const { heavy, groups } = planOf(files, w, own);
  assert.deepEqual(heavy, ['test/x/f1.test.ts', 'test/x/f2.test.ts', 'test/x/f3.test.ts']);
  const all = [...heavy, ...groups.flat()];
  assert.equal(all.length, files.length);
  assert.deepEqual(new Set(all), new Set(files));
  const weightOf = (g: string[]) => g.reduce((s, f) => s + (w[f] ?? 1), 0);
  const ws = groups.map(weightOf);
  assert.ok(groups.length > 1, `${groups.length} groups`);
  assert.deepEqual(
    ws,
    [...ws].sort((a, b) => b - a),
    'groups heaviest first',
  );
  assert.ok(ws[0]! - ws.at(-1)! <= 10, `group weights ${ws.join(', ')}`);
});

test('a group: each file a suite named by its path; a file that throws while loading is a failed test', (t) => {
  const dir = tempDir(t, 'ac-test-run-');
  writeFileSync(join(dir, 'a.test.mjs'), "import { test } from 'node:test';\ntest('one', () => {});\n");
  writeFileSync(join(dir, 'b.test.mjs'), "throw new Error('cannot load');\n");
  writeFileSync(
    join(dir, 'group.mjs'),
    (groupSource as (f: string[], r: string) => string)(['a.test.mjs', 'b.test.mjs'], dir),
  );
  const r = spawnSync(process.execPath, ['--test', '--test-reporter=tap', join(dir, 'group.mjs')], {
    encoding: 'utf8',
    // not as a child of this test run (node:test reads NODE_TEST_CONTEXT, set or not)
    env: Object.fromEntries(
      Object.entries(process.env).filter(([k]) => k !== 'NODE_TEST_CONTEXT' && k !== 'NODE_OPTIONS'),
    ),
  });
  assert.equal(r.status, 1, r.stdout + r.stderr);
  assert.match(r.stdout, /^# Subtest: a\.test\.mjs$/m);
  assert.match(r.stdout, /^ {4}ok 1 - one$/m);
  assert.match(r.stdout, /^ {4}not ok 1 - loads$/m);
  assert.match(r.stdout, /^# pass 1$/m);
  assert.match(r.stdout, /^# fail 1$/m);
});
