#!/usr/bin/env node
/**
 * `npm run build` (also run by `prepare`, so `npm ci` and `npm pack` build): compile src/ to
 * dist/ with tsc (tsconfig.build.json: JavaScript, declarations, relative `.ts` imports
 * rewritten to `.js`), then
 * - rewrite the relative `.ts` specifiers that tsc keeps in declaration files to `.js`, so a
 *   consumer's tsc resolves them without `allowImportingTsExtensions`;
 * - copy every other file under src/ (JSON data, committed generated `.js` with its `.d.ts`)
 *   to the same place under dist/, since modules read or import them relative to themselves.
 * - write dist/fixture-runner/examples.json.gz: the first failing and passing conformance case
 *   of every rule (src/fixture-runner/examples.ts `exampleBundle`), so `explain` shows examples
 *   in an installed package, which ships no conformance/ folder.
 * dist/ is removed first, so nothing stale survives. Plain JavaScript: runs before tsx exists.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SRC = join(ROOT, 'src');
const DIST = join(ROOT, 'dist');

/** Every file under `dir`, as absolute paths. */
function walk(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));
}

rmSync(DIST, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const r = spawnSync(process.execPath, [tsc, '-p', join(ROOT, 'tsconfig.build.json')], { stdio: 'inherit' });
if (r.status !== 0) {
  process.stderr.write('build: tsc failed\n');
  process.exit(r.status ?? 1);
}

// `from './x.ts'`, `import('./x.ts')` and `declare module './x.ts'` in declarations
const TS_SPECIFIER = /((?:from|import\(|module)\s*)(['"])(\.\.?\/[^'"]*?)\.ts\2/g;
let rewritten = 0;
let copied = 0;
for (const file of walk(DIST)) {
  if (!file.endsWith('.d.ts')) continue;
  const text = readFileSync(file, 'utf8');
  const out = text.replace(TS_SPECIFIER, (_, head, q, path) => `${head}${q}${path}.js${q}`);
  if (out !== text) {
    writeFileSync(file, out);
    rewritten++;
  }
}
for (const file of walk(SRC)) {
  if (file.endsWith('.ts') && !file.endsWith('.d.ts')) continue;
  const to = join(DIST, relative(SRC, file));
  mkdirSync(dirname(to), { recursive: true });
  copyFileSync(file, to);
  copied++;
}
// the examples bundle, from the compiled modules just written
const dist = (p) => import(pathToFileURL(join(DIST, p)).href);
const [{ exampleBundle, EXAMPLES_BUNDLE }, { aepRules }, { ahpRules }] = await Promise.all([dist('fixture-runner/examples.js'), dist('aep/protocol.js'), dist('ahp/driver.js')]);
const ids = (rules) => rules.map((r) => r.id);
const examples = gzipSync(JSON.stringify(exampleBundle({ aep: ids(aepRules()), ahp: ids(ahpRules()) }, join(ROOT, 'conformance'))), { level: 9 });
writeFileSync(join(DIST, 'fixture-runner', EXAMPLES_BUNDLE), examples);
process.stdout.write(`build: dist/ written (${rewritten} declaration files' imports rewritten to .js, ${copied} other files copied from src/, examples bundle ${examples.length} bytes)\n`);
