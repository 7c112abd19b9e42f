/**
 * CommonJS modules (CLI bundles, generated validators) loaded through a V8 code cache made at build time
 * (docs/benchmarks.md §Profile figures behind the code). Cache file: `v8cache <n>\n`, the n-byte source, V8's data; V8
 * checks only the source's length, so the copy is compared to keep an edited module from running stale code.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { Script } from 'node:vm';

/** The cache file of a module file. */
export function codeCacheFile(file: string): string {
  return `${file}.v8cache`;
}

const NODE_CACHES = typeof (Module as { enableCompileCache?: unknown }).enableCompileCache === 'function';

function cacheHeader(length: number): Buffer {
  return Buffer.from(`v8cache ${length}\n`, 'latin1');
}

/** The module wrapper's compiled script of `source` (with `cache` when given) and a runner of it. */
function compile(file: string, source: string, cache?: Buffer): { script: Script; run(): unknown } {
  const script = new Script(Module.wrap(source), { filename: file, cachedData: cache });
  return {
    script,
    run() {
      const module = { exports: {} as unknown };
      (script.runInThisContext() as (...a: unknown[]) => void).call(
        module.exports,
        module.exports,
        createRequire(file),
        module,
        file,
        dirname(file),
      );
      return module.exports;
    },
  };
}

/** How the last {@link requireCached} call loaded its module (tests). */
export type CodeCacheUse = 'require' | 'cache' | 'rejected' | 'stale';
let lastUse: CodeCacheUse | undefined;

/** How the last {@link requireCached} call loaded its module, or `undefined` before any. */
export function lastCodeCacheUse(): CodeCacheUse | undefined {
  return lastUse;
}

/** `require(file)` through its code cache when one exists for this exact source; not put in `require.cache`. */
export function requireCached(file: string, options: { nodeCache?: boolean } = {}): unknown {
  if (recording) {
    const bytes = readFileSync(file);
    const c = compile(file, bytes.toString('utf8'));
    recording.set(file, { bytes, script: c.script });
    lastUse = 'require';
    return c.run();
  }
  let data: Buffer | undefined;
  if (!(options.nodeCache ?? NODE_CACHES)) {
    try {
      data = readFileSync(codeCacheFile(file));
    } catch {
      // no cache file: the plain path
    }
  }
  if (data === undefined) {
    lastUse = 'require';
    return createRequire(file)(file);
  }
  const bytes = readFileSync(file);
  const prefix = cacheHeader(bytes.length);
  const end = prefix.length + bytes.length;
  if (
    data.length < end ||
    !data.subarray(0, prefix.length).equals(prefix) ||
    !data.subarray(prefix.length, end).equals(bytes)
  ) {
    lastUse = 'stale';
    return compile(file, bytes.toString('utf8')).run();
  }
  const c = compile(file, bytes.toString('utf8'), data.subarray(end));
  lastUse = c.script.cachedDataRejected === true ? 'rejected' : 'cache';
  return c.run();
}

let recording: Map<string, { bytes: Buffer; script: Script }> | undefined;

/** Build time: keep each compiled script, so the caches hold what typical traffic compiled (V8 compiles lazily). */
export function recordCodeCaches(): void {
  recording = new Map();
}

/** Write the cache file of each module loaded since recordCodeCaches (that `only` accepts); returns their paths. */
export function writeRecordedCodeCaches(only: (file: string) => boolean = () => true): string[] {
  const files = [...(recording ?? new Map<string, { bytes: Buffer; script: Script }>())].filter(([file]) => only(file));
  for (const [file, { bytes, script }] of files)
    writeFileSync(codeCacheFile(file), Buffer.concat([cacheHeader(bytes.length), bytes, script.createCachedData()]));
  recording = undefined;
  return files.map(([file]) => file);
}
