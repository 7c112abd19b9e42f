// The generated schema validators (src/generated/) are what `npm run validators:gen` would
// write now: regenerated in memory from schemas/ and compared byte for byte (fails when stale).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { test } from 'node:test';
import { RULES_GENERATED } from '../../tools/gen-rules.ts';
import { buildValidatorModules, GENERATED_DIR } from '../../tools/gen-validators.ts';

const built = buildValidatorModules();

test('src/generated validators are current (run `npm run validators:gen` after changing a schema)', () => {
  assert.deepEqual(
    readdirSync(GENERATED_DIR)
      .filter((n) => !RULES_GENERATED.includes(n))
      .sort(),
    [...built.keys()].sort(),
    'src/generated holds exactly the generated files',
  );
  for (const [name, text] of built) {
    assert.ok(
      readFileSync(join(GENERATED_DIR, name), 'utf8') === text,
      `src/generated/${name} is stale: run \`npm run validators:gen\` and commit the result`,
    );
  }
});

test('generation is deterministic: a second generation gives the same bytes', () => {
  const again = buildValidatorModules();
  assert.deepEqual([...again.keys()], [...built.keys()]);
  for (const [name, text] of again)
    assert.ok(text === built.get(name), `src/generated/${name} differs between two generations`);
});

test('the generated code is one statement per line: no line of src/generated is longer than 2000 characters', () => {
  for (const [name, text] of built) {
    const longest = Math.max(...text.split('\n').map((l) => l.length));
    assert.ok(longest <= 2000, `src/generated/${name} has a line of ${longest} characters`);
  }
});

test('identical validators are written once: no two functions of a generated module have the same code', () => {
  for (const [name, text] of built) {
    if (!name.endsWith('.cjs') || name.includes('-docs')) continue;
    // each function's code (to the next one) with its own name read as SELF
    const bodies = text
      .split(/\n(?=function validate\d+\()/)
      .slice(1)
      .map((f) => f.replaceAll(new RegExp(`\\b${/^function (validate\d+)/.exec(f)![1]}\\b`, 'g'), 'SELF'));
    assert.ok(bodies.length > 0, `src/generated/${name} holds validators`);
    assert.equal(new Set(bodies).size, bodies.length, `src/generated/${name} writes a validator twice`);
  }
});

test('the documents module lists the schema files the code reads, each with its $id', () => {
  for (const protocol of ['aep', 'ahp']) {
    const { DOCUMENTS } = createRequire(import.meta.url)(join(GENERATED_DIR, `${protocol}-docs.cjs`)) as {
      DOCUMENTS: { file: string; id: string; length: number }[];
    };
    assert.ok(DOCUMENTS.length > 0);
    for (const d of DOCUMENTS) {
      const text = readFileSync(new URL(`../../${d.file}`, import.meta.url), 'utf8').replaceAll('\r\n', '\n');
      assert.equal(text.length, d.length, d.file);
      assert.equal((JSON.parse(text) as { $id?: string }).$id ?? d.id, d.id, d.file);
    }
  }
});
