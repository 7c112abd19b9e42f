/**
 * AEP-0001 §4.2: a relay "MAY add extension attributes" to the events it forwards. Over every passing case: each event
 * and a forwarded copy with an extension attribute added, in either order (§7 rule 2: copies arrive in any order), or
 * two copies each with another one added (two relays), give only aep/redelivery, one per copy, by file and by stdin,
 * never aep/id-collision or aep/seq-regression; a copy that changes an extension attribute of the first is a collision.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { AEP } from '../../src/aep/definition.ts';
import { bothRoutes, brief, checkText } from './helpers.ts';

const PASS = fileURLToPath(new URL('../../conformance/aep/pass/', import.meta.url));

/** How the two copies of each line carry extension attributes (first copy, second copy). */
const SHAPES = {
  added: ['', '"relayhop":1,'],
  first: ['"relayhop":1,', ''],
  both: ['"relaya":1,', '"relayb":true,'],
  change: ['"relayhop":1,', '"relayhop":2,'],
} as const;

/**
 * Each line of a passing case followed by a copy, the two carrying the attributes of `shape`; `change` alters an
 * attribute the first copy carried (relays "MUST preserve" the attributes they got, §5.4).
 */
function relayed(text: string, shape: keyof typeof SHAPES): { text: string; copies: number } {
  const out: string[] = [];
  let copies = 0;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    // the attribute is written into the line's text, so every literal stays as written (numbers beyond a double)
    const rest = line.trimStart().slice(1);
    for (const added of SHAPES[shape]) out.push(`{${added}${rest}`);
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
    cases++;
    for (const shape of ['added', 'first', 'both'] as const) {
      const parsed = relayed(text, shape);
      const found = await checkText(parsed.text);
      assert.ok(
        found.every((f) => f.ruleId === 'aep/redelivery'),
        `${name} (${shape}): ${brief(found.filter((f) => f.ruleId !== 'aep/redelivery'))}`,
      );
      assert.equal(found.length, parsed.copies, `${name} (${shape})`);
      // read back from a file, the first copies are compared by their lines, not by digests: the same verdicts
      assert.equal((await bothRoutes(parsed.text)).length, parsed.copies, `${name} (${shape}, file)`);
    }
    const changed = await checkText(relayed(text, 'change').text);
    assert.ok(
      changed.some((f) => f.ruleId === 'aep/id-collision'),
      `${name}: a changed extension value is a collision`,
    );
  }
  assert.ok(cases > 50, `only ${cases} cases`);
});
