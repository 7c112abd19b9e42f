/**
 * The packaging smoke test: the build is current, `npm pack` holds only the files of the
 * `files` list, publint and attw find no problem in the tarball, and a project outside the
 * repository that installs the tarball can run `aep` and `ahp` through node_modules/.bin,
 * import the API from .mjs and from .cjs (require of ES modules), run the README's library
 * example, and type-check TypeScript consumers (node16, bundler; CommonJS .cts under node16 and nodenext).
 * README §Install, §Library API, §What the package contains.
 *
 * The temporary project lives under os.tmpdir(): the checkout's node_modules is not visible
 * to it; `npm install` of the tarball fetches the runtime dependencies (from the npm cache when
 * it has them). Skipped only when npm itself cannot run.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { tempDir } from '../temp.ts';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const TSC = join(REPO, 'node_modules/typescript/bin/tsc');
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** The file of a dev dependency's command (its package.json `bin`), in the checkout. */
function devBin(pkg: string, name: string): string {
  const dir = join(REPO, 'node_modules', pkg);
  const bin = (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { bin: Record<string, string> }).bin;
  return join(dir, bin[name]!);
}

/** The environment for child processes: no npm lifecycle variables, no test-runner context, no colour. */
function childEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env))
    if (!/^npm_/i.test(k) && k !== 'NODE_TEST_CONTEXT' && k !== 'NODE_OPTIONS' && k !== 'INIT_CWD') env[k] = v;
  env.NO_COLOR = '1';
  return env;
}

function run(cmd: string, args: readonly string[], cwd: string, input?: string): SpawnSyncReturns<string> {
  return spawnSync(cmd, args, { cwd, env: childEnv(), encoding: 'utf8', input, timeout: 120_000, maxBuffer: 64 << 20 });
}

/** {@link run} without waiting: for steps that may run side by side. */
function runAsync(cmd: string, args: readonly string[], cwd: string): Promise<SpawnSyncReturns<string>> {
  return new Promise((resolve) => {
    const p = spawn(cmd, args, { cwd, env: childEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    p.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    p.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    p.on('error', (error) => resolve({ pid: 0, output: [], stdout, stderr, status: null, signal: null, error }));
    p.on('close', (status, signal) => resolve({ pid: p.pid ?? 0, output: [], stdout, stderr, status, signal }));
  });
}

function ok(r: SpawnSyncReturns<string>, what: string, code = 0): string {
  assert.equal(r.error, undefined, `${what}: ${r.error?.message}`);
  assert.equal(
    r.status,
    code,
    `${what} exited ${r.status} (expected ${code})\nstdout:\n${r.stdout}\nstderr:\n${r.stderr}`,
  );
  return r.stdout;
}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)],
  );
}

const npmVersion = spawnSync(NPM, ['--version'], { encoding: 'utf8', env: childEnv() });
const skip =
  npmVersion.status === 0
    ? false
    : `npm is not available (${npmVersion.error?.message ?? `exit ${npmVersion.status}`}): the packaging smoke test needs it`;

/** Files the tarball may hold (package-relative paths); see package.json `files`. */
const ALLOWED = [
  /^package\.json$/,
  /^README\.md$/,
  /^RULES\.md$/,
  /^LICENSE$/,
  /^bin\/(aep|ahp|launch)\.js$/,
  /^bin\/package\.json$/,
  /^dist\//,
  /^schemas\/.+\.json$/,
  /^upstream\/mcp\/2025-11-25\/(pin\.json|README\.md)$/,
];

/** The library's bundle (tools/build/build.mjs), which dist/index.js re-exports. */
const LIBRARY_BUNDLE = 'library/index.js';

/** What tools/build/build.mjs writes to dist/cli/: a CommonJS bundle per CLI, its code cache, and the bins' cache loader. */
const CLI_FILES = ['cli/aep.cjs', 'cli/ahp.cjs', 'cli/aep.cjs.v8cache', 'cli/ahp.cjs.v8cache', 'cli/code-cache.cjs'];

test('the build in dist/ is current: every src module has its .js and .d.ts (src/cli/: one bundle per CLI), none is older than its source, other files are copied, none is left over', () => {
  const src = join(REPO, 'src');
  const dist = join(REPO, 'dist');
  assert.ok(existsSync(dist), 'dist/ is missing: run `npm run build` (npm test and npm ci run it)');
  const problems: string[] = [];
  const sources = new Set<string>();
  let newestSource = 0;
  for (const file of walk(src)) {
    const rel = relative(src, file);
    if (!rel.endsWith('.ts') || rel.endsWith('.d.ts')) {
      // data and committed generated modules are copied as they are
      const p = join(dist, rel);
      if (!existsSync(p)) problems.push(`dist/${rel} is missing`);
      else if (!readFileSync(p).equals(readFileSync(file))) problems.push(`dist/${rel} differs from src/${rel}`);
      continue;
    }
    newestSource = Math.max(newestSource, statSync(file).mtimeMs);
    // the CLI modules are bundled (below), not emitted one by one
    if (rel.startsWith(`cli${sep}`)) continue;
    const stem = rel.slice(0, -3);
    sources.add(stem);
    for (const out of [`${stem}.js`, `${stem}.d.ts`]) {
      const p = join(dist, out);
      if (!existsSync(p)) problems.push(`dist/${out} is missing`);
      else if (statSync(p).mtimeMs < statSync(file).mtimeMs) problems.push(`dist/${out} is older than src/${rel}`);
    }
  }
  // each CLI is one bundle of every module it loads (it requires only node built-ins, `ws` and protobufjs on first use, and
  // ajv's runtime pieces through the generated validators, which are not bundled), newer than every source
  for (const entry of ['aep', 'ahp']) {
    const p = join(dist, 'cli', `${entry}.cjs`);
    if (!existsSync(p)) {
      problems.push(`dist/cli/${entry}.cjs is missing`);
      continue;
    }
    if (statSync(p).mtimeMs < newestSource) problems.push(`dist/cli/${entry}.cjs is older than a source in src/`);
    if (!existsSync(`${p}.v8cache`)) problems.push(`dist/cli/${entry}.cjs.v8cache is missing`);
    const requires = [...readFileSync(p, 'utf8').matchAll(/\brequire\((['"])([^'"]+)\1\)|^\s*import\b/gm)].map(
      (m) => m[2] ?? 'import',
    );
    // `ws` (the WebSocket client of `aep live`) and protobufjs (`--from otlp` over protobuf) are runtime dependencies
    // kept external, loaded on first use
    const foreign = requires.filter((r) => !r.startsWith('node:') && r !== 'ws' && r !== 'protobufjs/light');
    if (foreign.length > 0) problems.push(`dist/cli/${entry}.cjs is not bundled: it loads ${foreign.join(', ')}`);
  }
  // the library's entry is one ES module bundle (tools/build/build.mjs) that dist/index.js re-exports
  const library = join(dist, LIBRARY_BUNDLE);
  if (!existsSync(library)) problems.push(`dist/${LIBRARY_BUNDLE} is missing`);
  else {
    if (statSync(library).mtimeMs < newestSource)
      problems.push(`dist/${LIBRARY_BUNDLE} is older than a source in src/`);
    const relativeImports = [...readFileSync(library, 'utf8').matchAll(/\bfrom\s*(['"])(\.[^'"]*)\1/g)].map(
      (m) => m[2],
    );
    if (relativeImports.length > 0)
      problems.push(`dist/${LIBRARY_BUNDLE} is not bundled: it imports ${relativeImports.join(', ')}`);
    if (!/export \* from '\.\/library\/index\.js'/.test(readFileSync(join(dist, 'index.js'), 'utf8')))
      problems.push(`dist/index.js does not re-export dist/${LIBRARY_BUNDLE}`);
  }
  for (const file of walk(dist)) {
    const rel = relative(dist, file);
    if (rel.split(sep).join('/') === LIBRARY_BUNDLE) continue;
    if (rel.split(sep).join('/').startsWith('cli/')) {
      if (!CLI_FILES.includes(rel.split(sep).join('/')))
        problems.push(`dist/${rel} is not a CLI bundle, its code cache or the cache loader`);
      continue;
    }
    const stem = rel.replace(/(\.d\.ts|\.js)$/, '');
    if (stem !== rel && !sources.has(stem) && !existsSync(join(src, rel)))
      problems.push(`dist/${rel} has no source in src/`);
  }
  assert.deepEqual(problems, [], 'dist/ is stale: run `npm run build`');
});

test('npm pack -> install into a project outside the repository -> bins, .mjs, .cjs, README example, TypeScript (node16, bundler)', {
  skip,
  // a bound against a hung npm, not a speed check: under load 20 (other test runs) the steps took 185 s
  timeout: 420_000,
}, async (t) => {
  let last = Date.now();
  /** Time of each step, in the test's diagnostics. */
  const step = (name: string) => {
    const now = Date.now();
    t.diagnostic(`${name}: ${((now - last) / 1000).toFixed(1)} s`);
    last = now;
  };
  const tmp = tempDir(t, 'agent-conformance-pack-');
  // 1. pack the current build (npm test built it just before): prepack strips `scripts` from
  //    the packed package.json (so prepare does not run again here) and postpack restores it
  const manifestBefore = readFileSync(join(REPO, 'package.json'));
  const packed = JSON.parse(
    ok(run(NPM, ['pack', '--json', '--pack-destination', tmp], REPO), 'npm pack').replace(/^[^[]*/, ''),
  ) as { filename: string; entryCount: number; files: { path: string }[] }[];
  assert.ok(readFileSync(join(REPO, 'package.json')).equals(manifestBefore), 'npm pack left package.json changed');
  assert.equal(existsSync(join(REPO, '.package.json.prepack')), false, 'npm pack left the kept package.json');
  const tarball = join(tmp, packed[0]!.filename);
  const files = packed[0]!.files.map((f) => f.path);
  const stray = files.filter((f) => !ALLOWED.some((re) => re.test(f)));
  assert.deepEqual(stray, [], 'the tarball holds files outside the files list');
  for (const must of [
    'LICENSE',
    'README.md',
    'RULES.md',
    'bin/aep.js',
    'bin/ahp.js',
    'bin/launch.js',
    'bin/package.json',
    'dist/index.js',
    'dist/index.d.ts',
    'dist/cli/aep.cjs',
    'dist/cli/ahp.cjs',
    'dist/cli/code-cache.cjs',
    'dist/generated/spec-anchors.json',
    'dist/fixture-runner/examples.json.gz',
    'upstream/mcp/2025-11-25/pin.json',
    'schemas/mcp/mcp-elicitation.schema.json',
  ])
    assert.ok(files.includes(must), `the tarball lacks ${must}`);
  assert.ok(
    !files.some(
      (f) =>
        /^(src|test|tools|conformance|examples|docs)\//.test(f) || /^upstream\/mcp\/[^/]+\/schema\.(json|ts)$/.test(f),
    ),
    'sources, tests, tools or upstream bytes were packed',
  );

  step('npm pack');
  // 2. publint and attw on the tarball (attw: an ESM-only package; require() of it works
  //    on Node >= 20.19 through require(esm), so only cjs-resolves-to-esm is not a problem)
  const lint = ok(run(process.execPath, [devBin('publint', 'publint'), 'run', tarball, '--strict'], REPO), 'publint');
  assert.match(lint, /All good!/, `publint: ${lint}`);
  const attw = run(
    process.execPath,
    [devBin('@arethetypeswrong/cli', 'attw'), tarball, '--format', 'json', '--ignore-rules', 'cjs-resolves-to-esm'],
    REPO,
  );
  const attwJson = JSON.parse(attw.stdout) as { problems?: Record<string, unknown[]> | unknown[] };
  const problems = Array.isArray(attwJson.problems) ? attwJson.problems : Object.values(attwJson.problems ?? {}).flat();
  const remaining = problems.filter((p) => (p as { kind?: string }).kind !== 'CJSResolvesToESM');
  assert.deepEqual(remaining, [], 'attw reports problems');
  assert.equal(attw.status, 0, `attw exited ${attw.status}: ${attw.stderr}`);

  step('publint, attw');
  // 3. a consumer project outside the repository, with the tarball and the examples
  const proj = join(tmp, 'consumer');
  mkdirSync(proj);
  writeFileSync(
    join(proj, 'package.json'),
    JSON.stringify({ name: 'consumer', version: '1.0.0', private: true, type: 'module' }, null, 2),
  );
  const typesNode = (
    JSON.parse(readFileSync(join(REPO, 'node_modules/@types/node/package.json'), 'utf8')) as { version: string }
  ).version;
  ok(
    run(
      NPM,
      [
        'install',
        '--no-audit',
        '--no-fund',
        '--prefer-offline',
        '--ignore-scripts',
        tarball,
        `@types/node@${typesNode}`,
      ],
      proj,
    ),
    'npm install of the tarball',
  );
  step('npm install');
  cpSync(join(REPO, 'examples'), join(proj, 'examples'), { recursive: true });
  const pkgDir = join(proj, 'node_modules/agent-conformance');
  // nothing to run on install (npm 11 lists a prepare as an install script to approve)
  assert.equal(
    (JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')) as { scripts?: unknown }).scripts,
    undefined,
    'the packed package.json has scripts',
  );
  const before = walk(pkgDir).sort();

  // 4. the bins through node_modules/.bin (shebang and exec bit as installed)
  const bin = (name: string) => join(proj, 'node_modules/.bin', name);
  const [good, bad, ahpGood, ahpBad] = await Promise.all([
    runAsync(bin('aep'), ['validate', 'examples/aep/session.jsonl'], proj),
    runAsync(bin('aep'), ['validate', '--format', 'json', 'examples/aep/session-broken.jsonl'], proj),
    runAsync(bin('ahp'), ['validate', 'examples/ahp/session.jsonl'], proj),
    runAsync(bin('ahp'), ['validate', 'examples/ahp/session-broken.jsonl'], proj),
  ]);
  assert.match(ok(good, 'aep validate'), /0 errors/);
  const broken = JSON.parse(ok(bad, 'aep validate (broken)', 1)) as { summary: { errors: number } };
  assert.ok(broken.summary.errors > 0);
  assert.match(ok(ahpGood, 'ahp validate'), /0 errors/);
  ok(ahpBad, 'ahp validate (broken)', 1);
  assert.match(
    ok(
      run(bin('aep'), ['validate', '-'], proj, readFileSync(join(proj, 'examples/aep/session.jsonl'), 'utf8')),
      'aep validate -',
    ),
    /0 errors/,
  );
  assert.equal(
    ok(run(bin('aep'), ['--version'], proj), 'aep --version').trim(),
    (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string }).version,
  );
  const explain = ok(run(bin('aep'), ['explain', 'aep/time-format'], proj), 'aep explain');
  assert.match(explain, /AEP-0001/);
  // the examples come from the bundle the build writes (conformance/ is not shipped)
  assert.match(
    explain,
    /Failing example \(conformance\/aep\/fail\/aep\.time-format\.jsonl in the repository; a copy is bundled with this package\)/,
  );

  step('bins');
  // 5. pin verbs in an installed package: verify its own pin read-only; refresh refuses to write there
  // the package ships pin.json, not the upstream bytes: verify says so, and that nothing was verified (exit 1)
  const verify = run(bin('ahp'), ['pin', 'verify'], proj);
  ok(verify, 'ahp pin verify', 1);
  assert.match(verify.stderr, /installed package/);
  assert.match(verify.stdout, /nothing verified/);
  const refresh = run(bin('ahp'), ['pin', 'refresh'], proj);
  ok(refresh, 'ahp pin refresh', 2);
  assert.match(refresh.stderr, /installed package .* --dir/);
  assert.deepEqual(walk(pkgDir).sort(), before, 'a pin verb wrote inside the installed package');

  step('pin verbs');
  // 6. the API from JavaScript: ES module and CommonJS (require of ES modules)
  writeFileSync(
    join(proj, 'use.mjs'),
    `import { validate, checkEvent, rules, formatReport, VERSION } from 'agent-conformance';
const { findings, summary } = await validate('aep', 'examples/aep/session-broken.jsonl');
const sarif = JSON.parse(formatReport(findings, summary, { protocol: 'aep', format: 'sarif' }));
const one = checkEvent('ahp', { jsonrpc: '2.0' });
console.log(JSON.stringify({ n: findings.length, errors: summary.errors, sarif: sarif.version, one: one.length > 0, rules: rules('ahp').length, VERSION }));
`,
  );
  writeFileSync(
    join(proj, 'use.cjs'),
    `const { validate, rules } = require('agent-conformance');
validate('ahp', ['examples/ahp/session.jsonl']).then(({ summary }) => console.log(JSON.stringify({ errors: summary.errors, events: summary.events, rules: rules('aep').length })));
`,
  );
  const mjs = JSON.parse(ok(run(process.execPath, ['use.mjs'], proj), 'use.mjs')) as Record<string, unknown>;
  assert.equal(mjs.errors, broken.summary.errors);
  assert.equal(mjs.sarif, '2.1.0');
  assert.equal(mjs.one, true);
  const cjs = run(process.execPath, ['use.cjs'], proj);
  t.diagnostic(`use.cjs stderr: ${JSON.stringify(cjs.stderr)}`);
  const cjsOut = JSON.parse(ok(cjs, 'use.cjs')) as Record<string, number>;
  assert.equal(cjsOut.errors, 0);
  assert.ok(cjsOut.events! > 0 && cjsOut.rules! > 0);

  step('.mjs, .cjs');
  // 7. the README's library example, as written there
  const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
  const example = /<!-- library-example -->\s*```js\n([\s\S]*?)```/.exec(readme);
  assert.ok(example, 'README has no block marked <!-- library-example -->');
  writeFileSync(join(proj, 'readme-example.mjs'), example[1]!);
  const shown = ok(run(process.execPath, ['readme-example.mjs'], proj), 'the README example');
  assert.match(shown, /aep\/time-format/);

  step('README example');
  // 8. TypeScript consumers, resolved through the consumer's node_modules
  writeFileSync(
    join(proj, 'consumer.ts'),
    `import { validate, validateStream, createSession, checkEvent, formatReport, rules, ruleCatalogue, runFixtures, downlevel, redactEvent, type AepRuleId, type Finding, type Severity, type Summary, type ValidationResult } from 'agent-conformance';
const ids: AepRuleId[] = ['aep/time-format', 'jsonl/invalid-json'];
// @ts-expect-error: not an AEP rule id
const wrong: AepRuleId = 'aep/no-such-rule';
const result: ValidationResult = await validate('aep', ['examples/aep/session.jsonl'], { rules: ids, strict: true });
const summary: Summary = result.summary;
const severities: Severity[] = result.findings.map((f: Finding) => f.severity);
const run = validateStream('ahp', { text: '{}\\n', source: 'x.jsonl' }, { binding: 'stdio', stream: { maxPending: 10 } });
for await (const f of run) console.log(f.ruleId, f.line);
const s = createSession('aep');
const perEvent: Finding[] = s.check({ aep: '0.1' });
const text: string = formatReport(perEvent, s.summary(), { protocol: 'aep', format: 'junit' });
console.log(summary.errors, severities.length, checkEvent('ahp', {}).length, text.length, rules('aep')[0]?.id, wrong, typeof runFixtures);
// an emitter's own event interface (no index signature) and the catalogue's severity union
interface MyEvent { aep: '0.1'; id: string; type: string; data?: { text: string } }
const mine: MyEvent = { aep: '0.1', id: 'e1', type: 'message.user' };
const rowSeverity: Severity | undefined = ruleCatalogue('ahp')[0]?.severity;
console.log(downlevel(mine, 'metadata'), redactEvent(mine), rowSeverity);
`,
  );
  // README §Library API on CommonJS TypeScript: node16 takes a dynamic import and a type import with its
  // resolution-mode; nodenext (TypeScript >= 5.8) takes the static import, compiled to require()
  writeFileSync(
    join(proj, 'consumer-dynamic.cts'),
    `import type { Finding } from 'agent-conformance' with { 'resolution-mode': 'import' };
export async function check(): Promise<Finding[]> {
  const { checkEvent } = await import('agent-conformance');
  return checkEvent('aep', { aep: '0.1' });
}
`,
  );
  writeFileSync(
    join(proj, 'consumer-static.cts'),
    `import { checkEvent, type Finding } from 'agent-conformance';
export const found: Finding[] = checkEvent('aep', { aep: '0.1' });
`,
  );
  const base = {
    strict: true,
    noEmit: true,
    target: 'ES2022',
    lib: ['ES2023'],
    types: ['node'],
    skipLibCheck: false,
  };
  writeFileSync(
    join(proj, 'tsconfig.node16.json'),
    JSON.stringify({
      compilerOptions: { ...base, module: 'node16', moduleResolution: 'node16' },
      files: ['consumer.ts', 'consumer-dynamic.cts'],
    }),
  );
  writeFileSync(
    join(proj, 'tsconfig.nodenext.json'),
    JSON.stringify({
      compilerOptions: { ...base, skipLibCheck: true, module: 'nodenext', moduleResolution: 'nodenext' },
      files: ['consumer-static.cts'],
    }),
  );
  // the declarations themselves are checked once (node16); bundler checks the consumer against them
  writeFileSync(
    join(proj, 'tsconfig.bundler.json'),
    JSON.stringify({
      compilerOptions: { ...base, skipLibCheck: true, module: 'esnext', moduleResolution: 'bundler' },
      files: ['consumer.ts'],
    }),
  );
  const [node16, bundler, nodenext] = await Promise.all([
    runAsync(process.execPath, [TSC, '-p', 'tsconfig.node16.json'], proj),
    runAsync(process.execPath, [TSC, '-p', 'tsconfig.bundler.json'], proj),
    runAsync(process.execPath, [TSC, '-p', 'tsconfig.nodenext.json'], proj),
  ]);
  ok(node16, 'tsc (moduleResolution node16)');
  ok(bundler, 'tsc (moduleResolution bundler)');
  ok(nodenext, 'tsc (module nodenext, a CommonJS .cts importing statically)');
  step('tsc node16, bundler, nodenext');
  assert.equal(cjs.stderr.includes('Error'), false, `use.cjs wrote an error: ${cjs.stderr}`);
});
