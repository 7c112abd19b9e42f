// `--version` and `--help` load no schema validator (issue 13: start-up), and `aep validate`
// loads only the AEP ones: the generated modules load on first validation, which module-level
// flags of their loaders report. test-run: own process (tools/test-run.mjs), so nothing before
// this file has validated anything.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { test } from 'node:test';
import { aepValidatorsLoaded } from '../../src/aep/schema/validators.ts';
import { ahpValidatorsLoaded } from '../../src/ahp/schema/schemas.ts';
import { fileURLToPath } from 'node:url';
import { REPO, runCli } from '../cli/helpers.ts';

test('importing the CLIs loads no validator', () => {
  assert.equal(aepValidatorsLoaded(), false);
  assert.equal(ahpValidatorsLoaded(), false);
});

test('aep/ahp --version and --help load no validator', async () => {
  for (const bin of ['aep', 'ahp'] as const) {
    for (const args of [['--version'], ['--help'], ['validate', '--help']]) {
      const r = await runCli(bin, args);
      assert.equal(r.code, 0, `${bin} ${args.join(' ')}`);
      assert.equal(aepValidatorsLoaded(), false, `${bin} ${args.join(' ')} loaded the AEP validators`);
      assert.equal(ahpValidatorsLoaded(), false, `${bin} ${args.join(' ')} loaded the AHP validators`);
    }
  }
});

test('aep validate loads the AEP validators only; ahp validate the AHP ones', async () => {
  const aep = await runCli('aep', ['validate', 'examples/aep/session.jsonl']);
  assert.equal(aep.code, 0);
  assert.equal(aepValidatorsLoaded(), true);
  assert.equal(ahpValidatorsLoaded(), false, 'aep validate loaded the AHP validators');
  const ahp = await runCli('ahp', ['validate', 'examples/ahp/session.jsonl']);
  assert.equal(ahp.code, 0);
  assert.equal(ahpValidatorsLoaded(), true);
});

// The same through the built bins (what a user runs: one bundle per CLI, tools/build/build.mjs),
// observed from outside: the files a run reads (fs.readFileSync, which the CommonJS loader and
// the code cache loader both use) and the Node built-ins it loads.
const HOOK = `data:text/javascript,${encodeURIComponent(`import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
const read = fs.readFileSync;
const files = [];
fs.readFileSync = function (p, ...rest) { if (typeof p === 'string' || p instanceof URL) files.push(String(p)); return read.call(this, p, ...rest); };
syncBuiltinESMExports();
process.on('exit', () => fs.writeSync(2, '\\n@@load ' + JSON.stringify({ files, builtins: process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice(13)) }) + '\\n'));`)}`;

/** What `node bin/<bin>.js args` read and loaded. */
function loadsOf(bin: 'aep' | 'ahp', args: string[]): { code: number | null; files: string[]; builtins: string[] } {
  const r = spawnSync(process.execPath, ['--import', HOOK, `bin/${bin}.js`, ...args], {
    cwd: REPO,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1', NODE_OPTIONS: '' },
  });
  const m = /@@load (.*)/.exec(r.stderr);
  assert.ok(m, `${bin} ${args.join(' ')}: no load report (exit ${r.status}): ${r.stderr}`);
  const { files, builtins } = JSON.parse(m[1]!) as { files: string[]; builtins: string[] };
  return {
    code: r.status,
    files: files.map((f) =>
      relative(REPO, f.startsWith('file:') ? fileURLToPath(f) : f)
        .split(sep)
        .join('/'),
    ),
    builtins,
  };
}

test('the built bins: --version and --help read no schema, no AEP registry and no generated validator, and load neither node:crypto nor node:child_process', {
  skip: existsSync(join(REPO, 'dist/cli/aep.cjs')) ? false : 'no build in dist/: run `npm run build`',
}, () => {
  for (const bin of ['aep', 'ahp'] as const) {
    for (const args of [['--version'], ['--help'], ['validate', '--help']]) {
      const r = loadsOf(bin, args);
      assert.equal(r.code, 0, `${bin} ${args.join(' ')}`);
      assert.deepEqual(
        r.files.filter((f) => f.startsWith('schemas/') || f.startsWith('dist/generated/')),
        [],
        `${bin} ${args.join(' ')} read schemas, the AEP registry or validators`,
      );
      // (`ahp --help` lists the pin verbs, whose modules load node:crypto on their first digest)
      assert.deepEqual(
        r.builtins.filter((b) => b === 'crypto' || b === 'child_process'),
        [],
        `${bin} ${args.join(' ')} loaded`,
      );
    }
  }
});

test('the built bins: aep validate reads the AEP validators only, ahp validate the AHP ones', {
  skip: existsSync(join(REPO, 'dist/cli/aep.cjs')) ? false : 'no build in dist/: run `npm run build`',
}, () => {
  const aep = loadsOf('aep', ['validate', 'examples/aep/session.jsonl']);
  assert.equal(aep.code, 0);
  assert.ok(aep.files.includes('dist/generated/aep-verdicts-all.cjs'), `aep validate read ${aep.files.join(', ')}`);
  assert.deepEqual(
    aep.files.filter((f) => /^dist\/generated\/ahp-|^schemas\/(ahp|mcp)\//.test(f)),
    [],
  );
  assert.deepEqual(
    aep.builtins.filter((b) => b === 'child_process'),
    [],
    'aep validate loaded node:child_process',
  );
  const ahp = loadsOf('ahp', ['validate', 'examples/ahp/session.jsonl']);
  assert.equal(ahp.code, 0);
  assert.ok(ahp.files.includes('dist/generated/ahp-verdicts-all.cjs'), `ahp validate read ${ahp.files.join(', ')}`);
  assert.deepEqual(
    ahp.files.filter((f) => /^dist\/generated\/aep-|^schemas\/aep\//.test(f)),
    [],
  );
  // valid input: the diagnostic validators never load
  assert.deepEqual(
    [...aep.files, ...ahp.files].filter((f) => f.includes('-diagnostics-')),
    [],
  );
});

// ICU's data: the first Intl object (or `Intl.supportedValuesOf`) of a process maps and touches ~7 MB of it, which
// every run paid while a module built its formatter at load (docs/benchmarks.md §Memory); only a run that needs one
// builds one
const INTL_HOOK = `data:text/javascript,${encodeURIComponent(`import fs from 'node:fs';
const used = [];
for (const k of Object.getOwnPropertyNames(Intl)) {
  const v = Intl[k];
  if (typeof v !== 'function') continue;
  Intl[k] = new Proxy(v, { construct(t, a, n) { used.push(k); return Reflect.construct(t, a, n); }, apply(t, s, a) { used.push(k); return Reflect.apply(t, s, a); } });
}
for (const [o, m] of [[Number.prototype, 'toLocaleString'], [String.prototype, 'localeCompare'], [Date.prototype, 'toLocaleString']]) {
  const f = o[m];
  o[m] = function (...a) { used.push(m); return f.apply(this, a); };
}
process.on('exit', () => fs.writeSync(2, '\\n@@intl ' + JSON.stringify(used) + '\\n'));`)}`;

test('the built bins: validate of a valid example uses no Intl (ICU data stays unread)', {
  skip: existsSync(join(REPO, 'dist/cli/aep.cjs')) ? false : 'no build in dist/: run `npm run build`',
}, () => {
  for (const bin of ['aep', 'ahp'] as const) {
    for (const format of ['text', 'json']) {
      const r = spawnSync(
        process.execPath,
        ['--import', INTL_HOOK, `bin/${bin}.js`, 'validate', `examples/${bin}/session.jsonl`, '--format', format],
        { cwd: REPO, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', NODE_OPTIONS: '' } },
      );
      assert.equal(r.status, 0, `${bin} validate --format ${format}: ${r.stderr}`);
      const m = /@@intl (.*)/.exec(r.stderr);
      assert.ok(m, `${bin} validate: no report: ${r.stderr}`);
      assert.deepEqual(JSON.parse(m[1]!), [], `${bin} validate --format ${format} used Intl`);
    }
  }
});

test('the built CLI bundles are ASCII (one other character makes V8 keep the whole source at two bytes a unit)', {
  skip: existsSync(join(REPO, 'dist/cli/aep.cjs')) ? false : 'no build in dist/: run `npm run build`',
}, () => {
  for (const bin of ['aep', 'ahp', 'code-cache']) {
    const text = readFileSync(join(REPO, `dist/cli/${bin}.cjs`), 'latin1');
    const at = text.search(/[^\x00-\x7f]/);
    assert.equal(
      at,
      -1,
      `dist/cli/${bin}.cjs: a non-ASCII byte at ${at}: ${JSON.stringify(text.slice(at - 60, at + 20))}`,
    );
  }
});
