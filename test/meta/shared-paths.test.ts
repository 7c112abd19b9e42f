/**
 * Tests reach ../shared (the read-only checkout beside the repository) through test/shared.ts only, so that every
 * test skips with its one wording, and never crashes, where ../shared is absent.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { REPO_DIR } from '../shared.ts';

const TEST_DIR = join(REPO_DIR, 'test');
/** A path to ../shared written in code: a URL or path segment `shared` one level above the repository. */
const REACH = /(\.\.\/)+shared\/?['`]|\.\.\/shared\/|['"]\.\.['"],\s*['"]shared['"]/;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? sources(p) : /\.(ts|mjs|js)$/.test(n) ? [p] : [];
  });
}

test('only test/shared.ts names the path of ../shared', () => {
  const files = sources(TEST_DIR);
  assert.ok(files.length > 100, `${files.length} test sources`);
  const reaching = files.filter((f) => {
    if (f === join(TEST_DIR, 'shared.ts') || f === join(TEST_DIR, 'meta', 'shared-paths.test.ts')) return false;
    // comments may name ../shared; code may not
    const code = readFileSync(f, 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/^\s*\/\/.*$/gm, '');
    return REACH.test(code);
  });
  assert.deepEqual(
    reaching.map((f) => relative(REPO_DIR, f)),
    [],
    'reach ../shared through test/shared.ts (sharedPath, needShared, optionalShared)',
  );
});

test('the check finds a path to ../shared written in code', () => {
  for (const code of [
    "new URL('../../../shared/', import.meta.url)",
    "join(ROOT, '..', 'shared')",
    "const p = '../shared/corpus';",
  ])
    assert.ok(REACH.test(code), code);
  assert.ok(!REACH.test("sharedPath(SHARED.aepCorpus, 'golden')"));
});
