/**
 * The table of hand-tuned code (docs/architecture.md §Hand-tuned code) holds: every row names a file, the schema node or
 * code it shadows (present), a guard the file exports and its test reads, and a test that imports the file; every
 * `*-fast.ts` under src/ has a row.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { REPO_DIR } from '../shared.ts';

const SECTION = '## Hand-tuned code: what it shadows and what you may change';

interface Row {
  code: string;
  shadows: string;
  guard: string;
  test: string;
}

/** The rows of the section's table (cells in backquotes). */
function rows(doc: string): Row[] {
  const at = doc.indexOf(SECTION);
  assert.ok(at >= 0, `docs/architecture.md has the section "${SECTION.slice(3)}"`);
  const body = doc.slice(at + SECTION.length).split(/\n## /)[0]!;
  const out: Row[] = [];
  for (const line of body.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    if (cells.length !== 6 || !cells[1]!.startsWith('`')) continue;
    const [code, shadows, guard, t] = cells.slice(1, 5).map((c) => c.replace(/^`|`$/g, ''));
    out.push({ code: code!, shadows: shadows!, guard: guard!, test: t! });
  }
  return out;
}

const read = (rel: string) => readFileSync(join(REPO_DIR, rel), 'utf8');
const exports = (text: string, name: string) =>
  new RegExp(`export (?:const|function|class|interface|type) ${name}\\b`).test(text);

/** Resolve a JSON Pointer (RFC 6901) in `doc`; undefined when a token is missing. */
function at(doc: unknown, pointer: string): unknown {
  let cur = doc;
  for (const raw of pointer.split('/').slice(1)) {
    const k = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (cur === null || typeof cur !== 'object' || !Object.hasOwn(cur, k)) return undefined;
    cur = (cur as Record<string, unknown>)[k];
  }
  return cur;
}

/** What is wrong with one row, each problem one sentence. */
function problems(r: Row): string[] {
  const out: string[] = [];
  for (const f of [r.code, r.test]) if (!existsSync(join(REPO_DIR, f))) out.push(`${f} does not exist`);
  if (out.length) return out;
  const [file, ref = ''] = r.shadows.split('#');
  if (!existsSync(join(REPO_DIR, file!))) out.push(`${r.code}: the shadowed ${file} does not exist`);
  else if (file!.endsWith('.json')) {
    if (at(JSON.parse(read(file!)), ref) === undefined) out.push(`${r.code}: ${r.shadows} names no schema node`);
  } else if (!exports(read(file!), ref)) out.push(`${r.code}: ${file} exports no ${ref}`);
  const code = read(r.code);
  const t = read(r.test);
  if (!exports(code, r.guard)) out.push(`${r.code} exports no guard ${r.guard}`);
  if (!new RegExp(`\\b${r.guard}\\b`).test(t)) out.push(`${r.test} does not read the guard ${r.guard}`);
  if (!t.includes(`/${r.code}'`)) out.push(`${r.test} does not import ${r.code}`);
  return out;
}

function fastFiles(dir: string): string[] {
  return readdirSync(join(REPO_DIR, dir)).flatMap((n) => {
    const rel = `${dir}/${n}`;
    return statSync(join(REPO_DIR, rel)).isDirectory() ? fastFiles(rel) : n.endsWith('-fast.ts') ? [rel] : [];
  });
}

test('hand-tuned code: each row of the table names what it shadows, its guard and its test, and each holds', () => {
  const table = rows(read('docs/architecture.md'));
  assert.ok(table.length >= 5, `${table.length} rows read`);
  assert.deepEqual(table.flatMap(problems), []);
  const listed = new Set(table.map((r) => r.code));
  assert.deepEqual(
    fastFiles('src').filter((f) => !listed.has(f)),
    [],
    'a *-fast.ts without its row in docs/architecture.md §Hand-tuned code',
  );
});

test('hand-tuned code: the check finds a row that drifted', () => {
  const good: Row = {
    code: 'src/aep/schema/envelope-fast.ts',
    shadows: 'schemas/aep/envelope.schema.json#',
    guard: 'ENVELOPE_PRINT',
    test: 'test/aep-schemas/envelope-fast.test.ts',
  };
  assert.deepEqual(problems(good), []);
  assert.equal(problems({ ...good, shadows: 'schemas/aep/envelope.schema.json#/$defs/nothing' }).length, 1);
  assert.equal(problems({ ...good, shadows: 'src/core/schema/formats.ts#NOTHING' }).length, 1);
  assert.equal(problems({ ...good, guard: 'NO_SUCH_PRINT' }).length, 2);
  assert.equal(problems({ ...good, test: 'test/core/json.test.ts' }).length, 2);
  assert.equal(problems({ ...good, code: 'src/aep/schema/gone-fast.ts' }).length, 1);
});
