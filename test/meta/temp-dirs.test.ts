// No test leaves a folder in the system's temporary folder: every one is made through test/temp.ts, which removes it
// (house rule "Temp files in tests: remove them"). A file that names mkdtemp or tmpdir in its code (comments and
// strings aside) makes its folders by hand, and is refused here.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { type TestContext, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { tempDir, withTempDir } from '../temp.ts';

const TEST = fileURLToPath(new URL('../', import.meta.url));
const HELPER = join(TEST, 'temp.ts');
/** The names that make or locate a temporary folder by hand. */
const BY_HAND = new Set(['mkdtemp', 'mkdtempSync', 'tmpdir']);

const walk = (dir: string): string[] =>
  readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? walk(p) : /\.(ts|mts|mjs|js)$/.test(n) ? [p] : [];
  });

/** `line: name` of each identifier of {@link BY_HAND} in the code of `text` (not in its comments or strings). */
function handMade(text: string, name = 'x.ts'): string[] {
  const sf = ts.createSourceFile(name, text, ts.ScriptTarget.Latest, true);
  const out: string[] = [];
  const visit = (n: ts.Node): void => {
    if (ts.isIdentifier(n) && BY_HAND.has(n.text))
      out.push(`${sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1}: ${n.text}`);
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

test('the check finds a folder made by hand in code, and not a word in a comment or a string', () => {
  assert.deepEqual(
    handMade("import { mkdtempSync } from 'node:fs';\nconst d = mkdtempSync(join(os.tmpdir(), 'x-'));"),
    ['1: mkdtempSync', '2: mkdtempSync', '2: tmpdir'],
  );
  assert.deepEqual(handMade("const { tmpdir } = await import('node:os');\nawait fs.mkdtemp('p');"), [
    '1: tmpdir',
    '2: mkdtemp',
  ]);
  assert.deepEqual(handMade("// mkdtempSync(tmpdir())\nconst s = 'mkdtemp tmpdir';\n/** os.tmpdir() */"), []);
});

test('no test file makes a temporary folder but through test/temp.ts', () => {
  const found = walk(TEST)
    .filter((f) => f !== HELPER)
    .flatMap((f) => handMade(readFileSync(f, 'utf8'), f).map((at) => `${relative(TEST, f)}:${at}`));
  assert.deepEqual(found, [], 'use tempDir(t, prefix), fileTempDir(prefix) or withTempDir(prefix, fn) of test/temp.ts');
});

test('tempDir: the folder lives through its test and is gone after it (its after hook, which runs passed or failed)', async (t) => {
  let dir = '';
  await t.test('inner', (st) => {
    dir = tempDir(st, 'ac-meta-temp-');
    writeFileSync(join(dir, 'f'), 'x');
    assert.ok(existsSync(join(dir, 'f')));
  });
  assert.match(dir, /ac-meta-temp-/);
  assert.equal(existsSync(dir), false, dir);
  // what node runs after a failed test too: the hook the helper registered
  const hooks: (() => void)[] = [];
  const other = tempDir({ after: (fn: () => void) => hooks.push(fn) } as unknown as TestContext, 'ac-meta-temp-');
  assert.ok(existsSync(other));
  assert.equal(hooks.length, 1);
  hooks[0]!();
  assert.equal(existsSync(other), false);
});

test('withTempDir: the folder is gone when the function returns and when it throws', () => {
  let kept = '';
  assert.equal(
    withTempDir('ac-meta-with-', (dir) => {
      kept = dir;
      writeFileSync(join(dir, 'f'), 'x');
      return 7;
    }),
    7,
  );
  assert.equal(existsSync(kept), false);
  assert.throws(() =>
    withTempDir('ac-meta-with-', (dir) => {
      kept = dir;
      throw new Error('boom');
    }),
  );
  assert.equal(existsSync(kept), false);
});

test('a process that exits or is ended by a signal removes its folders (no hook runs then)', () => {
  const helper = JSON.stringify(HELPER);
  for (const end of [
    'process.exit(0)',
    "process.kill(process.pid, 'SIGTERM')",
    "process.kill(process.pid, 'SIGINT')",
  ]) {
    // the loop kept busy, as in a test process: one about to end on its own exits 0 before a re-raised signal lands
    const script = `const { processTempDir } = await import(${helper}); console.log(processTempDir('ac-meta-exit-')); setTimeout(() => {}, 30000); ${end};`;
    const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
      cwd: join(TEST, '..'),
    });
    const dir = r.stdout.trim();
    assert.match(dir, /ac-meta-exit-/, r.stderr);
    assert.equal(existsSync(dir), false, `${end}: ${dir} left behind`);
    if (end !== 'process.exit(0)') assert.equal(r.signal, end.match(/SIG\w+/)![0], 'it still dies of the signal');
  }
});
