// Rule metadata stays short where it is printed on every finding and every catalogue line (issue 41 item 3): a
// description is one sentence of at most 200 characters, what the rule checks; a citation is a reference (document and
// section) of at most 80. The rest belongs in `detail` (and a cited sentence in `quote`), which `explain`, RULES.md and
// `rules --format json` show. Every rule table is read, so a rule added in any of them is held too.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { validateRuleTables } from './rule-tables.ts';
import { RULE_ERROR, type RuleMeta } from '../../src/core/rule.ts';
import { LIVE_RULES } from '../../src/live/rules.ts';
import { PIN_RULES } from '../../src/pin/rules.ts';

const MAX_DESCRIPTION = 200;
const MAX_SPEC = 80;

/** Every rule of every table, each (id, description, spec) once. */
function allRules(): RuleMeta[] {
  const tables: Iterable<RuleMeta>[] = [...validateRuleTables(), [RULE_ERROR], LIVE_RULES, PIN_RULES];
  const seen = new Map<string, RuleMeta>();
  for (const table of tables) for (const r of table) seen.set(`${r.id}\u0000${r.description}\u0000${r.spec}`, r);
  return [...seen.values()];
}

/**
 * Where a description holds a second sentence: a full stop, `!` or `?` (maybe closing a quote or bracket), then a
 * space and an upper-case letter; `e.g.` and `i.e.` are no sentence end.
 */
function secondSentence(text: string): number {
  const m = /(?<!\be\.g|\bi\.e)[.!?]["')\]]?\s+[A-Z]/.exec(text);
  return m ? m.index + 1 : -1;
}

test('the tables are read: both protocols, live, pin, schema and bridge rules', () => {
  const ids = new Set(allRules().map((r) => r.id));
  for (const id of [
    'aep/envelope-required',
    'ahp/open-at-end',
    'aep/ce-attribute-type',
    'aep/live-discovery',
    'json/duplicate-key',
  ])
    assert.ok(ids.has(id), `${id} is among the rules read`);
  assert.ok(
    [...ids].some((id) => id.startsWith('pin/')),
    'the pin rules are read',
  );
});

test(`every description is one sentence of at most ${MAX_DESCRIPTION} characters`, () => {
  const long: string[] = [];
  const notOne: string[] = [];
  for (const r of allRules()) {
    if (r.description.length > MAX_DESCRIPTION) long.push(`${r.id}: ${r.description.length} characters`);
    const at = secondSentence(r.description);
    if (at >= 0) notOne.push(`${r.id}: a second sentence at character ${at + 1}: "${r.description.slice(at).trim()}"`);
    else if (!/[.)]$/.test(r.description)) notOne.push(`${r.id}: does not end a sentence`);
  }
  assert.deepEqual(
    long,
    [],
    `descriptions over ${MAX_DESCRIPTION} characters (say what the rule checks in one sentence; move the rest to \`detail\`):\n  ${long.join('\n  ')}`,
  );
  assert.deepEqual(
    notOne,
    [],
    `descriptions that are not one sentence (move the rest to \`detail\`):\n  ${notOne.join('\n  ')}`,
  );
});

test(`every citation is a reference of at most ${MAX_SPEC} characters`, () => {
  const long = allRules()
    .filter((r) => r.spec.length > MAX_SPEC)
    .map((r) => `${r.id}: ${r.spec.length} characters`);
  assert.deepEqual(
    long,
    [],
    `citations over ${MAX_SPEC} characters (keep "DOC §section"; move quoted sentences to \`quote\`, further citations to \`detail\`):\n  ${long.join('\n  ')}`,
  );
});

test('a detail or quote, where present, is not empty and does not repeat the description', () => {
  for (const r of allRules()) {
    if (r.detail !== undefined) {
      assert.ok(r.detail.trim().length > 0, `${r.id}: empty detail`);
      assert.notEqual(r.detail, r.description, `${r.id}: detail repeats the description`);
    }
    if (r.quote !== undefined) assert.ok(r.quote.trim().length > 0, `${r.id}: empty quote`);
  }
});

test('the checks catch what they are for', () => {
  assert.equal(secondSentence('One sentence, e.g. "USD" and i.e. this.'), -1);
  assert.ok(secondSentence('First. Second.') > 0);
  assert.ok(secondSentence('A quote "ends." Then more.') > 0);
});
