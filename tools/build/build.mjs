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
 * - bundle each CLI entry (src/cli/aep.ts, src/cli/ahp.ts) with esbuild into one file,
 *   dist/cli/aep.js and dist/cli/ahp.js, replacing tsc's dist/cli/ (start-up: one module to
 *   load instead of about ninety); what loads only for some verbs (the fixture runner, the
 *   rule catalogue, the pin verbs) stays in chunks next to them, loaded by the same dynamic
 *   imports. The generated validators (dist/generated/*.cjs) are not bundled: they load on
 *   first use (src/core/schema/generated.ts). Every bundle and chunk sits in dist/cli/, one
 *   folder below dist/, like src/core/paths.ts, which resolves the package's files from there.
 *   The library's entry, dist/index.js, is likewise one ES module bundle, dist/library/index.js
 *   (one folder below dist/ for the same reason), which dist/index.js re-exports: Node 20's ES
 *   module loader took ~0.17 s to load tsc's ~320 modules one by one, the bundle ~0.05 s.
 *   Dependencies stay imports of their packages. tsc's per-module output stays beside it (its
 *   declarations type the package; the build's code-cache recording loads through it).
 * - write a V8 code cache beside each generated module (dist/generated/*.cjs.v8cache, see
 *   src/core/code-cache.ts) with this Node, holding what validating our examples (the verdict
 *   modules) and failing cases (the diagnostic ones) compiled: compiling them is most of a
 *   validation's start-up. Not packed (package.json `files`): another Node rejects it.
 * Everything is written to dist.next/ (removed first, so nothing stale survives) and swapped in
 * for dist/ at the end with two renames: the bins keep working while a build (or `npm test`,
 * which builds) runs, and a failed build leaves the previous dist/ as it was. Plain
 * JavaScript: runs before tsx exists. `--if-stale` builds only when the inputs changed since
 * the dist/ present was built (a digest of them is kept in dist/.build-inputs).
 */
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SRC = join(ROOT, 'src');
/** Where this build writes; {@link FINAL} once it is complete. */
const DIST = join(ROOT, 'dist.next');
const FINAL = join(ROOT, 'dist');
const OLD = join(ROOT, 'dist.old');

/** Every file under `dir`, as absolute paths. */
function walk(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)],
  );
}

/**
 * A digest of everything the build reads (src/, schemas/, conformance/ and examples/ for the
 * examples bundle and the code caches, this folder, package.json, the tsconfigs, the compiler
 * and esbuild versions, and this Node, whose code caches another Node rejects).
 */
function inputsDigest() {
  const { createHash } = createRequire(import.meta.url)('node:crypto');
  const h = createHash('sha256');
  const files = ['src', 'schemas', 'conformance', 'examples', 'tools/build'].flatMap((d) =>
    existsSync(join(ROOT, d)) ? walk(join(ROOT, d)) : [],
  );
  files.push(
    ...['package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json']
      .map((f) => join(ROOT, f))
      .filter((f) => existsSync(f)),
  );
  h.update(`${process.version}\0`);
  for (const f of files.sort())
    h.update(`${relative(ROOT, f)}\0`)
      .update(readFileSync(f))
      .update('\0');
  return h.digest('hex');
}
const STAMP = '.build-inputs';
const digest = inputsDigest();
// `--if-stale` (npm test): a dist/ built from these very inputs is kept, so a test run after
// `npm ci` (whose prepare built) does not build again
if (
  process.argv.includes('--if-stale') &&
  existsSync(join(FINAL, STAMP)) &&
  readFileSync(join(FINAL, STAMP), 'utf8') === digest
) {
  process.stdout.write('build: dist/ is up to date with src/ (npm run build rebuilds it anyway)\n');
  process.exit(0);
}

rmSync(DIST, { recursive: true, force: true });
rmSync(OLD, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const r = spawnSync(process.execPath, [tsc, '-p', join(ROOT, 'tsconfig.build.json'), '--outDir', DIST], {
  stdio: 'inherit',
});
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
const [{ exampleBundle, EXAMPLES_BUNDLE }, { aepRules }, { ahpRules }] = await Promise.all([
  dist('fixture-runner/examples.js'),
  dist('aep/protocol.js'),
  dist('ahp/driver.js'),
]);
const ids = (rules) => rules.map((r) => r.id);
const examples = gzipSync(
  JSON.stringify(exampleBundle({ aep: ids(aepRules()), ahp: ids(ahpRules()) }, join(ROOT, 'conformance'))),
  { level: 9 },
);
writeFileSync(join(DIST, 'fixture-runner', EXAMPLES_BUNDLE), examples);

// the validator modules' code caches, each recorded in a process of its own through the built
// library: the verdict modules' over our valid examples only, the diagnostic modules' over
// failing traffic (the broken examples and failing cases). A verdict cache recorded over more
// (failing traffic, or our passing cases) costs every later start up to 0.05 s more to run its
// module than it saves (measured with `npm run bench -- --startup`); a validator that the
// examples do not reach compiles on its first use.
const casesIn = (protocol, kinds) =>
  kinds.flatMap((kind) => {
    const dir = join(ROOT, 'conformance', protocol, kind);
    return existsSync(dir)
      ? readdirSync(dir)
          .filter((f) => /\.jsonl?$/.test(f) && !f.endsWith('.expected.json'))
          .map((f) => join(dir, f))
      : [];
  });
const recordings = [
  { modules: 'verdicts', inputs: (p) => [join(ROOT, 'examples', p, 'session.jsonl')] },
  {
    modules: 'diagnostics',
    inputs: (p) => [join(ROOT, 'examples', p, 'session-broken.jsonl'), ...casesIn(p, ['fail'])],
  },
];
let cached = 0;
for (const { modules, inputs } of recordings) {
  const plan = Object.fromEntries(['aep', 'ahp'].map((p) => [p, inputs(p).filter((f) => existsSync(f))]));
  const script = `const cc = await import(${JSON.stringify(pathToFileURL(join(DIST, 'core/code-cache.js')).href)});
cc.recordCodeCaches();
const api = await import(${JSON.stringify(pathToFileURL(join(DIST, 'api', 'validate.js')).href)});
for (const [protocol, files] of Object.entries(${JSON.stringify(plan)})) {
  // a case the API refuses (an input error) warms nothing more; the build does not judge cases
  for (const file of files) await api.validate(protocol, [file]).catch(() => undefined);
}
process.stdout.write(String(cc.writeRecordedCodeCaches((f) => f.includes('-${modules}-')).length));`;
  const w = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  if (w.status !== 0) {
    process.stderr.write(`build: recording the ${modules} modules' code caches failed (exit ${w.status})\n`);
    process.exit(1);
  }
  cached += Number(w.stdout);
}

/**
 * Built-ins the CLI bundles load on first use instead of at start-up: commander requires
 * node:child_process at load (for executable subcommands, which we do not use, and with it
 * net, dgram and the rest), chalk's colour detection node:os (read on Windows only), the
 * capture verbs node:os for the home folder: a few milliseconds of every start. Their
 * `require` gets an object that loads the module on its first property read.
 */
const LAZY_BUILTINS = /^(node:)?(child_process|os)$/;
const lazyBuiltins = {
  name: 'lazy-builtins',
  setup(b) {
    b.onResolve({ filter: LAZY_BUILTINS }, (args) => ({ path: args.path.replace(/^node:/, ''), namespace: 'lazy' }));
    b.onLoad({ filter: /.*/, namespace: 'lazy' }, (args) => ({
      contents: `let m; module.exports = new Proxy({}, { get: (_, k) => (m ??= require('node:${args.path}'))[k] });`,
      loader: 'js',
    }));
  },
};

// the CLI bundles: one CommonJS file per entry (no chunks: what only some verbs need loads on
// first use inside it), so it loads through a V8 code cache (src/core/code-cache.ts) on Node 20,
// which caches no ES module's compiled code; code-cache.cjs is that loader, for the bins
rmSync(join(DIST, 'cli'), { recursive: true, force: true });
const { build } = await import('esbuild');
/** Where esbuild breaks a bundle's line (at the next place it can: a long string literal stays whole). */
const LINE_LIMIT = 120;
const cjs = {
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  // the sources are ES modules: import.meta.url is the bundle's own file URL
  define: { 'import.meta.url': '__bundle_url' },
  legalComments: 'none',
  // less to parse at each start (comments, whitespace); names stay, so stack traces read
  minifyWhitespace: true,
  minifySyntax: true,
  // short lines: an uncaught error prints its source line, which would otherwise be a wall of code
  lineLimit: LINE_LIMIT,
  plugins: [lazyBuiltins],
  // the WebSocket client of `aep live` stays a dependency loaded on first use: it requires its own optional
  // native helpers and Node built-ins by their bare names, which a bundle would carry into every start
  external: ['ws'],
  logLevel: 'warning',
};
for (const entry of ['aep', 'ahp']) {
  await build({
    ...cjs,
    entryPoints: [join(SRC, 'cli', `${entry}.ts`)],
    outfile: join(DIST, 'cli', `${entry}.cjs`),
    banner: {
      js: `// the \`${entry}\` CLI, bundled from src/cli/${entry}.ts by tools/build/build.mjs\nconst __bundle_url = require('node:url').pathToFileURL(__filename).href;`,
    },
  });
}
await build({
  ...cjs,
  entryPoints: [join(SRC, 'core', 'code-cache.ts')],
  outfile: join(DIST, 'cli', 'code-cache.cjs'),
  banner: {
    js: `// the code cache loader of the bins, bundled from src/core/code-cache.ts by tools/build/build.mjs\nconst __bundle_url = require('node:url').pathToFileURL(__filename).href;`,
  },
});

// the library's entry: one ES module bundle (dependencies stay imports), re-exported by
// dist/index.js in place of tsc's module of re-exports
await build({
  entryPoints: [join(SRC, 'index.ts')],
  outfile: join(DIST, 'library', 'index.js'),
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  legalComments: 'none',
  minifyWhitespace: true,
  minifySyntax: true,
  lineLimit: LINE_LIMIT,
  logLevel: 'warning',
  banner: { js: '// the library, bundled from src/index.ts by tools/build/build.mjs' },
});
writeFileSync(
  join(DIST, 'index.js'),
  "// the package entry: the library's bundle (tools/build/build.mjs); its types are index.d.ts\nexport * from './library/index.js';\n",
);

// the CLI bundles' code caches: each bundle runs, in a child process with this Node, the
// commands a user runs most (validate on a valid example, --help), then saves
// what they compiled
const warmups = {
  aep: [['validate', 'examples/aep/session.jsonl'], ['--help'], ['validate', '--help']],
  ahp: [['validate', 'examples/ahp/session.jsonl'], ['--help'], ['validate', '--help']],
};
for (const [entry, runs] of Object.entries(warmups)) {
  const script = `const c = require(${JSON.stringify(join(DIST, 'cli', 'code-cache.cjs'))});
c.recordCodeCaches();
const cli = c.requireCached(${JSON.stringify(join(DIST, 'cli', `${entry}.cjs`))});
(async () => { for (const args of ${JSON.stringify(runs)}) await cli.run([process.argv[0], ${JSON.stringify(entry)}, ...args]); c.writeRecordedCodeCaches(); })();`;
  const w = spawnSync(process.execPath, ['-e', script], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, NO_COLOR: '1' },
  });
  if (w.status !== 0 || !existsSync(join(DIST, 'cli', `${entry}.cjs.v8cache`))) {
    process.stderr.write(`build: recording the code cache of dist/cli/${entry}.cjs failed (exit ${w.status})\n`);
    process.exit(1);
  }
}
const bundled = readdirSync(join(DIST, 'cli')).length;

writeFileSync(join(DIST, STAMP), digest);
// the swap: dist/ is absent only between these two renames
if (existsSync(FINAL)) renameSync(FINAL, OLD);
renameSync(DIST, FINAL);
rmSync(OLD, { recursive: true, force: true });
process.stdout.write(
  `build: dist/ written (${rewritten} declaration files' imports rewritten to .js, ${copied} other files copied from src/, ${cached} code caches, ${bundled} CLI bundle files in dist/cli/, examples bundle ${examples.length} bytes)\n`,
);
