// Every rule `validate` can report has a spec citation, a description, a failing case and a
// passing case in conformance/<protocol>/ (slug = rule id with "/" replaced by ".").
// The fixture runner checks that each case produces exactly its expected findings.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { aepRules } from '../../src/aep/protocol.ts';
import { ahpRules } from '../../src/ahp/driver.ts';
import type { RuleMeta } from '../../src/core/rule.ts';

const root = new URL('../../', import.meta.url);

/** Rules of each protocol and the folder holding their cases. */

const PROTOCOLS: {
  name: string;
  rules: () => readonly RuleMeta[];
  dir: URL;
  skip?: Set<string>;
  noFailCase?: Set<string>;
  kinds?: string[];
}[] = [
  // the bridge rules' cases are bridge inputs (`<slug>.ce.jsonl`, `<slug>.otlp.jsonl`), read
  // `--from` by their names (AEP.caseOptions), the AEP-0007 cases (`<slug>.aep-0007.jsonl`) `--profile aep-0007`
  // internal/rule-error needs a rule that throws, which no input of a correct checker provokes:
  // test/invariants/aep.test.ts breaks a rule on purpose
  {
    name: 'aep',
    kinds: ['.ce', '.otlp', '.aep-0007'],
    rules: aepRules,
    dir: new URL('conformance/aep/', root),
    skip: new Set(['internal/rule-error']),
  },
  // ahp/wire-root is reported only for a value that is not a JSON object (an array, a string,
  // null), which the reader already reports as jsonl/not-object before the AHP checker sees it
  // ahp/event-id-unverifiable needs the input file to change while it is checked, which a static
  // case cannot do: test/ahp-stream/identity-reread.test.ts rewrites a file during a run instead
  {
    name: 'ahp',
    rules: ahpRules,
    dir: new URL('conformance/ahp/', root),
    skip: new Set(['ahp/wire-root', 'internal/rule-error']),
    noFailCase: new Set(['ahp/event-id-unverifiable']),
  },
];

for (const p of PROTOCOLS) {
  test(`${p.name}: every rule has an id, severity, description and spec citation`, () => {
    const ids = new Set<string>();
    for (const r of p.rules()) {
      assert.match(r.id, /^(aep|ahp|jsonl|json|pin|internal)\/[a-z0-9-]+$/, `bad rule id ${r.id}`);
      assert.ok(!ids.has(r.id), `rule ${r.id} is listed twice`);
      ids.add(r.id);
      assert.ok(['error', 'warning', 'info'].includes(r.severity), `${r.id}: severity`);
      assert.ok(r.description.length > 10, `${r.id}: description`);
      assert.ok(r.spec.length > 2, `${r.id}: spec citation`);
    }
  });

  test(`${p.name}: every rule has a failing and a passing conformance case`, () => {
    const pass = readdirSync(new URL('pass/', p.dir)).filter((f) => f.endsWith('.jsonl') || f.endsWith('.json'));
    const failDir = new URL('fail/', p.dir);
    const fail = readdirSync(failDir).filter(
      (f) => (f.endsWith('.jsonl') || f.endsWith('.json')) && !f.endsWith('.expected.json'),
    );
    const missing: string[] = [];
    for (const r of p.rules()) {
      if (p.skip?.has(r.id)) continue;
      const slug = r.id.replace('/', '.');
      const matches = (f: string) =>
        f === `${slug}.jsonl` ||
        f === `${slug}.json` ||
        f.startsWith(`${slug}--`) ||
        (p.kinds ?? []).some((k) => f === `${slug}${k}.jsonl`);
      if (!pass.some(matches)) missing.push(`${r.id}: no pass/${slug}*.jsonl`);
      if (p.noFailCase?.has(r.id)) continue;
      const fails = fail.filter(matches);
      if (!fails.length) {
        missing.push(`${r.id}: no fail/${slug}*.jsonl`);
        continue;
      }
      const reported = fails.some((f) => {
        const side = new URL(f.replace(/\.jsonl?$/, '.expected.json'), failDir);
        if (!existsSync(side)) return false;
        const exp = JSON.parse(readFileSync(side, 'utf8')) as { findings: { ruleId: string }[] };
        return exp.findings.some((x) => x.ruleId === r.id);
      });
      if (!reported) missing.push(`${r.id}: no fail case whose expected findings include it`);
    }
    assert.deepEqual(missing, []);
  });
}
