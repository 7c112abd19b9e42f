/**
 * CommonJS modules loaded through a V8 code cache made at build time: the CLI bundles
 * (dist/cli/*.cjs) and the generated validators (src/generated/*.cjs, about 3 MB of code).
 * Compiling the AHP verdict module alone costs about 40 ms of a 0.2 s start-up, and reading its
 * compiled code back a few. Node 22.1+ caches compiled code itself (`module.enableCompileCache()`,
 * which the bins turn on), so there and whenever a module has no cache file this is a plain
 * `require`.
 *
 * A cache file `<module>.v8cache` (written by tools/build/build.mjs into dist/ only, never
 * packed) is the header `v8cache <n>\n`, the module's source as it was (n bytes), then V8's
 * cached data. V8 checks that the data is its own version's and flags' (else it compiles as
 * usual), but of the source only its length, so the copy is what keeps an edited module from
 * running stale code: comparing bytes costs far less than loading node:crypto for a digest.
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

/** The header of a cache file whose source copy is `length` bytes. */
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

/**
 * `require(file)` (an absolute path of a CommonJS module), through its code cache file when
 * there is one for this exact source; the module is not entered in `require.cache`.
 * @throws whatever loading the module throws (a missing file: `ENOENT`).
 */
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

/**
 * Build time: from now on {@link requireCached} compiles every module afresh and keeps its
 * script, so that {@link writeRecordedCodeCaches} can save what the work in between compiled
 * (V8 compiles a function on its first call: validating typical traffic puts the validators
 * that traffic reaches into the cache, not only the modules' top level).
 */
export function recordCodeCaches(): void {
  recording = new Map();
}

/**
 * Write the code cache file of every module loaded since {@link recordCodeCaches} (or of those
 * `only` accepts); returns their paths.
 */
export function writeRecordedCodeCaches(only: (file: string) => boolean = () => true): string[] {
  const files = [...(recording ?? new Map<string, { bytes: Buffer; script: Script }>())].filter(([file]) => only(file));
  for (const [file, { bytes, script }] of files)
    writeFileSync(codeCacheFile(file), Buffer.concat([cacheHeader(bytes.length), bytes, script.createCachedData()]));
  recording = undefined;
  return files.map(([file]) => file);
}
