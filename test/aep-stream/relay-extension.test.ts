/**
 * AEP-0001 §4.2: a relay "MAY add extension attributes" to the events it forwards. Over every passing case: each event
 * followed by a forwarded copy with an extension attribute added gives only aep/redelivery, one per copy, never
 * aep/id-collision or aep/seq-regression; a copy that changes an extension attribute of the first is a collision.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { AEP } from '../../src/aep/definition.ts';
import { brief, checkText } from './helpers.ts';

const PASS = fileURLToPath(new URL('../../conformance/aep/pass/', import.meta.url));

/**
 * Each line of a passing case followed by its relayed copy with `relayhop` added; with `change`, the first copy carries
 * `relayhop` and the relayed one changes its value (relays "MUST preserve" the attributes they got, §5.4).
 */
function relayed(text: string, change: boolean): { text: string; copies: number } {
  const out: string[] = [];
  let copies = 0;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    // the attribute is written into the line's text, so every literal stays as written (numbers beyond a double)
    const rest = line.trimStart().slice(1);
    out.push(change ? `{"relayhop":1,${rest}` : line);
    out.push(`{"relayhop":${change ? 2 : 1},${rest}`);
    copies++;
  }
  return { text: out.join('\n') + '\n', copies };
}

test('a copy with an extension attribute added is a redelivery, in every passing case', async () => {
  let cases = 0;
  for (const name of readdirSync(PASS).sort()) {
    // cases read with options chosen by their name (bridges, a sub-profile) are left to their own tests
    if (!name.endsWith('.jsonl') || Object.keys(AEP.caseOptions?.(name) ?? {}).length > 0) continue;
    const text = readFileSync(PASS + name, 'utf8');
    // cases about framing or JSON edge cases are not one event per line
    if (!text.split('\n').every((l) => l.trim() === '' || l.startsWith('{'))) continue;
    const parsed = relayed(text, false);
    cases++;
    const found = await checkText(parsed.text);
    assert.ok(
      found.every((f) => f.ruleId === 'aep/redelivery'),
      `${name}: ${brief(found.filter((f) => f.ruleId !== 'aep/redelivery'))}`,
    );
    assert.equal(found.length, parsed.copies, name);
    const changed = await checkText(relayed(text, true).text);
    assert.ok(
      changed.some((f) => f.ruleId === 'aep/id-collision'),
      `${name}: a changed extension value is a collision`,
    );
  }
  assert.ok(cases > 50, `only ${cases} cases`);
});
