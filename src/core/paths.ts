/**
 * The package's own files from one base: this module sits one folder below the code folder in `src/`, `dist/` and the
 * bundled CLI (`dist/cli/`, inlined by tools/build/build.mjs), so the same relative URLs hold in all three.
 */

/** The code folder: `src/` or `dist/` (with a trailing slash). */
export const CODE_DIR: URL = new URL('../', import.meta.url);

/** The package root (the folder of package.json, with a trailing slash). */
export const PACKAGE_ROOT: URL = new URL('../../', import.meta.url);

/** `rel` (a `/`-separated path) under the package root, e.g. `schemas/aep/`. */
export function packageUrl(rel: string): URL {
  return new URL(rel, PACKAGE_ROOT);
}

/** `rel` (a `/`-separated path, no extension change) under the code folder, e.g. `generated/aep-docs.cjs`. */
export function codeUrl(rel: string): URL {
  return new URL(rel, CODE_DIR);
}
