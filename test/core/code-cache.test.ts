// The code cache of the generated validators (src/core/code-cache.ts): a module loads from its
// cache file only when the file was made from the same source; an edited module (even one of the
// same length, which V8 alone would not notice) or cached data V8 refuses compile afresh, and a
// module without a cache file is a plain require.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  codeCacheFile,
  lastCodeCacheUse,
  recordCodeCaches,
  requireCached,
  writeRecordedCodeCaches,
} from '../../src/core/code-cache.ts';
import { tempDir } from '../temp.ts';

/** The header and source copy a cache file of `file`'s current source starts with. */
function header(file: string): Buffer {
  const source = readFileSync(file);
  return Buffer.concat([Buffer.from(`v8cache ${source.length}\n`, 'latin1'), source]);
}

test('requireCached: cache, stale, rejected and plain paths all return the module of the current source', (t) => {
  const dir = tempDir(t, 'agent-conformance-code-cache-');
  const file = join(dir, 'm.cjs');
  writeFileSync(file, "'use strict';\nmodule.exports = function f(x) { return x + 1; };\n");
  // no cache file yet: a plain require
  assert.equal((requireCached(file, { nodeCache: false }) as (x: number) => number)(1), 2);
  assert.equal(lastCodeCacheUse(), 'require');

  recordCodeCaches();
  const f = requireCached(file, { nodeCache: false }) as (x: number) => number;
  assert.equal(f(2), 3, 'the recorded module runs');
  assert.deepEqual(writeRecordedCodeCaches(), [file]);
  assert.ok(
    readFileSync(codeCacheFile(file)).subarray(0, header(file).length).equals(header(file)),
    'the cache file starts with its header and the source',
  );

  assert.equal((requireCached(file, { nodeCache: false }) as (x: number) => number)(3), 4);
  assert.equal(lastCodeCacheUse(), 'cache');

  // the same length, other code: the source copy, not V8, refuses the cache
  writeFileSync(file, "'use strict';\nmodule.exports = function f(x) { return x + 2; };\n");
  assert.equal((requireCached(file, { nodeCache: false }) as (x: number) => number)(3), 5);
  assert.equal(lastCodeCacheUse(), 'stale');

  // a cache of the right source whose data V8 refuses (a source this process has not
  // compiled yet: V8 would take one it has from memory and not read the data at all)
  writeFileSync(file, "'use strict';\nmodule.exports = function f(x) { return x + 3; };\n");
  writeFileSync(codeCacheFile(file), Buffer.concat([header(file), Buffer.alloc(2000, 7)]));
  assert.equal((requireCached(file, { nodeCache: false }) as (x: number) => number)(4), 7);
  assert.equal(lastCodeCacheUse(), 'rejected');

  // where Node caches compiled code itself, the cache file is not read: a plain require
  const other = join(dir, 'other.cjs');
  writeFileSync(other, "'use strict';\nmodule.exports = 42;\n");
  writeFileSync(codeCacheFile(other), 'not a cache');
  assert.equal(requireCached(other, { nodeCache: true }), 42);
  assert.equal(lastCodeCacheUse(), 'require');
});
