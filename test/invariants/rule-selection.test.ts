// A rule selection (`--rule`, library `rules`) is a filter of the whole run, nothing else: over every conformance
// case of ours, each rule the case reports, run alone, gives exactly the whole run's findings of that rule plus the
// framing findings (`jsonl/*`, `json/*`) and the one finding on lines of another format, which always appear (README
// §Options of `validate`, --rule); so does a pair of rules, and a rule the case does not report. Bridge cases
// (`--from`) included: their own rules (aep/otlp-*, aep/ce-*, aep/ocsf-*) once escaped the selection.
import assert from 'node:assert/strict';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { type Finding, rules, validate } from '../../src/index.ts';
import { bridgeOfCaseName, profileOfCaseName } from '../../src/core/case-names.ts';
import type { Protocol } from '../../src/core/protocol.ts';
import { RECOMMENDED_FORM_RULES } from '../../src/aep/protocol.ts';
import { filesBelow } from '../case-files.ts';

/** Every case file below `dir` (JSONL and JSON documents; sidecars and manifests aside), sorted. */
const casesBelow = (dir: string): string[] =>
  filesBelow(dir, (name) => /\.jsonl?$/.test(name) && !name.endsWith('.expected.json') && name !== 'deviations.json');

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The options a case runs with by its name (as the fixture runner reads it). */
function caseOpts(protocol: Protocol, file: string): { from?: 'cloudevents' | 'otlp' | 'ocsf'; profile?: 'aep-0007' } {
  if (protocol !== 'aep') return {};
  const from = bridgeOfCaseName(file);
  const profile = profileOfCaseName(file);
  return { ...(from ? { from } : {}), ...(profile ? { profile } : {}) };
}

const key = (f: Finding) =>
  `${f.ruleId}|${f.severity}|${f.line ?? '-'}|${f.column ?? '-'}|${f.pointer ?? '-'}|${f.message}`;
const keys = (fs: readonly Finding[]) => fs.map(key).sort();
const isFramingId = (id: string) => id.startsWith('jsonl/') || id.startsWith('json/');
/** The findings no selection removes: framing, and the one finding on lines another tool or `--from` reads. */
const always = (f: Finding) =>
  isFramingId(f.ruleId) ||
  ((f.ruleId === 'aep/bridge-input' || f.ruleId === 'ahp/jsonrpc' || f.ruleId === 'aep/version') &&
    /not checked/.test(f.message));

for (const protocol of ['aep', 'ahp'] as const)
  test(`${protocol}: --rule X gives the whole run's X findings, framing and the other-format finding, nothing else`, async () => {
    const files = casesBelow(join(ROOT, 'conformance', protocol));
    // per case: one rule it reports, a pair of them, and a rule it does not report, each in turn (over the cases, every
    // rule reported and every rule of the catalogue is selected at least once or close to it)
    const catalogue = rules(protocol)
      .map((r) => r.id)
      .filter((id) => !isFramingId(id) && id !== 'internal/rule-error');
    let selections = 0;
    for (const [i, file] of files.entries()) {
      const o = caseOpts(protocol, file);
      const all = (await validate(protocol, { path: file }, o)).findings;
      const name = relative(ROOT, file);
      const found = [...new Set(all.filter((f) => !always(f)).map((f) => f.ruleId))];
      const absent = catalogue.filter((id) => !found.includes(id));
      const picks: string[][] = [[absent[i % absent.length]!]];
      if (found.length) picks.push([found[i % found.length]!]);
      if (found.length > 1) picks.push([found[(i + 1) % found.length]!, found[(i + 2) % found.length]!]);
      for (const selected of picks) {
        // a RECOMMENDED-form rule runs when named: what it filters is a whole run with those forms
        const base = selected.some((r) => RECOMMENDED_FORM_RULES.includes(r))
          ? (await validate(protocol, { path: file }, { ...o, stream: { forms: 'recommended' } })).findings
          : all;
        const want = base.filter((f) => always(f) || selected.includes(f.ruleId));
        const got = (await validate(protocol, { path: file }, { ...o, rules: selected as never })).findings;
        assert.deepEqual(keys(got), keys(want), `${name} --rule ${selected.join(' --rule ')}`);
        selections++;
      }
    }
    assert.ok(selections > files.length, `${selections} selections over ${files.length} cases`);
  });
