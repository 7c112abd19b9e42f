/**
 * The per-message rule catalogue: each rule has an id, a severity, a description and a citation; every rule id in
 * our sources and schemas is catalogued; the files of test/ahp-rules/ together cover every per-message rule.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { AHP_MESSAGE_RULES, AHP_RULES } from '../../src/ahp/rules/index.ts';
import { REPO_DIR } from '../ahp/helpers.ts';

const HERE = fileURLToPath(new URL('./', import.meta.url));

describe('rule catalogue', () => {
  test('each rule has an id, severity, description and citation', () => {
    const ids = AHP_MESSAGE_RULES.map((r) => r.id);
    assert.equal(new Set(ids).size, ids.length);
    for (const r of AHP_MESSAGE_RULES) {
      assert.match(r.id, /^ahp\/[a-z][a-z0-9-]*$/);
      assert.ok(['error', 'warning', 'info'].includes(r.severity));
      assert.ok(r.description.length > 20 && r.spec.length > 5, r.id);
    }
  });
  test('every rule id in our sources and schemas is catalogued', () => {
    const listed = new Set<string>(AHP_RULES.map((r) => r.id));
    const found = new Set<string>();
    for (const dir of ['src/ahp/', 'src/ahp/schema/', 'src/ahp/analyzers/', 'src/ahp/rules/']) {
      for (const f of readdirSync(REPO_DIR + dir)) {
        if (!f.endsWith('.ts')) continue;
        for (const m of readFileSync(REPO_DIR + dir + f, 'utf8').matchAll(/'(ahp\/[a-z-]+)'/g)) found.add(m[1]!);
      }
    }
    for (const f of readdirSync(REPO_DIR + 'schemas/ahp')) {
      for (const m of readFileSync(REPO_DIR + 'schemas/ahp/' + f, 'utf8').matchAll(/"x-rule": "(ahp\/[a-z-]+)"/g))
        found.add(m[1]!);
    }
    assert.ok(found.size >= AHP_MESSAGE_RULES.length, 'the scan found the rule ids');
    for (const id of found) assert.ok(listed.has(id), `${id} is emitted but not in AHP_RULES`);
  });
  test('the files of this folder together cover every per-message rule (each file checks its own)', () => {
    const covered = new Set<string>();
    const files = readdirSync(HERE).filter((f) => f.endsWith('.test.ts') && f !== 'catalogue.test.ts');
    assert.ok(files.length >= 10, `${files.length} rule files`);
    for (const f of files) {
      const calls = [...readFileSync(HERE + f, 'utf8').matchAll(/ruleRows\(\[([^\]]*)\]\)/g)];
      assert.equal(calls.length, 1, `${f} calls ruleRows([...]) once, with the ids written out`);
      for (const m of calls[0]![1]!.matchAll(/'([a-z]+\/[a-z0-9-]+)'/g)) covered.add(m[1]!);
    }
    assert.deepEqual(
      AHP_MESSAGE_RULES.map((r) => r.id).filter((id) => !covered.has(id)),
      [],
      'a per-message rule no file of test/ahp-rules/ covers: give it its own file',
    );
  });
});
