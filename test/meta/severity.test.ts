// Severity belongs to the rule: every finding on every case we have (our conformance cases,
// the examples, the upstream corpora in ../shared) carries exactly the severity its rule
// declares in the catalogue (`aep rules` / `ahp rules`, RULES.md), before --strict. A finding
// whose id is not in the catalogue fails too.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runFixtures } from '../../src/fixture-runner/index.ts';
import type { Finding } from '../../src/core/finding.ts';
import type { ProtocolDefinition } from '../../src/core/protocol.ts';
import { PROTOCOLS } from '../../src/run/protocols.ts';
import { runInputs } from '../../src/run/run.ts';
import { needShared, sharedPath } from '../shared.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Every file below `dir` whose name ends with one of `exts`, sorted. */
function filesBelow(dir: string, exts: readonly string[]): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...filesBelow(p, exts));
    else if (exts.some((e) => name.endsWith(e)) && name !== 'manifest.json' && !name.endsWith('.expected.json'))
      out.push(p);
  }
  return out;
}

/** The findings of one file checked alone, as `validate FILE` would check it (default options). */
async function findingsOf(def: ProtocolDefinition, path: string, base: string): Promise<Finding[]> {
  const source = relative(base, path).replace(/\\/g, '/');
  const bytes = readFileSync(path);
  const findings: Finding[] = [];
  await runInputs(
    def,
    [
      {
        source,
        open: async function* () {
          yield bytes;
        },
        framing: def.framing(source, {}),
      },
    ],
    {},
    { finding: (f) => void findings.push(f) },
  );
  return findings;
}

const SETS: { cli: ProtocolDefinition; ours: string[]; upstream: string; exts: string[] }[] = [
  {
    cli: PROTOCOLS.aep,
    ours: ['conformance/aep', 'examples/aep'],
    upstream: 'corpus/aep/conformance/fixtures',
    exts: ['.jsonl'],
  },
  {
    cli: PROTOCOLS.ahp,
    ours: ['conformance/ahp', 'examples/ahp'],
    upstream: 'corpus/ahp/fixtures/draft',
    exts: ['.jsonl', '.json'],
  },
];

for (const s of SETS) {
  const catalogue = new Map(s.cli.rules().map((r) => [r.id, r.severity]));
  const check = async (dirs: string[], base: string) => {
    let files = 0;
    let checked = 0;
    for (const dir of dirs) {
      for (const path of filesBelow(dir, s.exts)) {
        files++;
        for (const f of await findingsOf(s.cli, path, base)) {
          checked++;
          assert.ok(
            catalogue.has(f.ruleId),
            `${f.source}:${f.line}: ${f.ruleId} is not in the ${s.cli.name} rules catalogue`,
          );
          assert.equal(
            f.severity,
            catalogue.get(f.ruleId),
            `${f.source}:${f.line}: ${f.ruleId} reported as ${f.severity}, catalogued as ${catalogue.get(f.ruleId)}`,
          );
        }
      }
    }
    return { files, checked };
  };

  test(`${s.cli.name}: every finding on our cases and examples has its rule's catalogued severity`, async () => {
    const { files, checked } = await check(
      s.ours.map((d) => join(ROOT, d)),
      ROOT,
    );
    // the fail cases alone hold findings of every rule: an empty walk would prove nothing
    assert.ok(files > 50 && checked > 100, `only ${files} files and ${checked} findings were checked`);
  });

  test(`${s.cli.name}: every finding on the upstream corpus has its rule's catalogued severity`, async (t) => {
    if (!needShared(t, s.upstream)) return;
    const dir = sharedPath(s.upstream);
    // the corpus is run the way `fixtures DIR` runs it (its cases are not all plain files); every
    // protocol finding of every case is seen on its way from the checker, whatever the verdict
    let checked = 0;
    const def = s.cli;
    const watched: ProtocolDefinition = {
      ...def,
      checker: (o, out) =>
        def.checker(o, {
          ...out,
          sink: (f) => {
            checked++;
            assert.ok(
              catalogue.has(f.ruleId),
              `${f.source}:${f.line}: ${f.ruleId} is not in the ${s.cli.name} rules catalogue`,
            );
            assert.equal(
              f.severity,
              catalogue.get(f.ruleId),
              `${f.source}:${f.line}: ${f.ruleId} reported as ${f.severity}, catalogued as ${catalogue.get(f.ruleId)}`,
            );
            out.sink(f);
          },
        }),
    };
    const fp = { def: watched, options: {} };
    const run = await runFixtures(fp, dir, { failOn: 'error', strict: false, cwd: ROOT });
    assert.ok(!run.cases.some((c) => c.status === 'error'), 'a corpus case could not be run');
    assert.ok(
      run.cases.length > 10 && checked > 10,
      `only ${run.cases.length} cases and ${checked} findings were checked`,
    );
  });
}
