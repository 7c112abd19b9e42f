// The requirements matrix (conformance/requirements/, format in its README) holds to the code:
// every row's rules exist, follow its level or say why not, and have a failing and a passing case;
// every rule of `aep rules` / `ahp rules` enforces at least one row; quotes and sections are the
// spec's own (checked where ../shared is present). The second test shows each check can fail, on
// the real matrix with one thing broken. The third holds the files rendered from it to it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { renderExplain } from '../../src/report/catalogue.ts';
import { aepRules } from '../../src/aep/protocol.ts';
import {
  buildReadme,
  buildRequirementsJson,
  buildRequirementsMarkdown,
  README_MD,
  REQUIREMENTS_JSON,
  REQUIREMENTS_MD,
} from '../../tools/gen-rules.ts';
import { defaultContext, checkMatrix, liveCases } from '../../tools/requirements-check.ts';
import { LIVE_RULES } from '../../src/live/rules.ts';
import { LIVE_CASES } from '../live/cases.ts';
import { loadMatrix, matrixProblems, type Requirement } from '../../tools/requirements.ts';
import { needShared } from '../shared.ts';

test('requirements matrix: no problem (rules, levels, cases, sections, quotes, every rule named)', () => {
  const { rows, problems } = checkMatrix();
  assert.ok(rows.length > 0, 'conformance/requirements/ holds rows');
  assert.deepEqual(problems, []);
});

test('requirements matrix: each check fails when the matrix breaks it', (t) => {
  const ctx = defaultContext();
  const rows = loadMatrix().rows;
  const enforced = rows.find(
    (r) => r.verdict === 'enforced' && r.rules.some((id) => ctx.catalogue[r.protocol].get(id) === 'error'),
  )!;
  const rule = enforced.rules.find((id) => ctx.catalogue[enforced.protocol].get(id) === 'error')!;
  const swap = (next: Requirement) => rows.map((r) => (r === enforced ? next : r));
  const has = (list: string[], re: RegExp) =>
    assert.ok(
      list.some((p) => re.test(p)),
      `expected a problem matching ${re}:\n${list.join('\n')}`,
    );
  // a rule losing its every row
  has(
    matrixProblems(
      rows.filter((r) => !r.rules.includes(rule) && !r.companions.includes(rule)),
      ctx,
    ),
    new RegExp(`^${rule}: no requirement row`),
  );
  // a checkable row losing its rule
  has(matrixProblems(swap({ ...enforced, rules: [], companions: [] }), ctx), /is enforced but names no rule/);
  // a severity that does not follow the level, with no reason
  has(matrixProblems(swap({ ...enforced, level: 'SHOULD', note: '' }), ctx), /is a SHOULD \(warning\) but/);
  // a rule that does not exist
  has(
    matrixProblems(swap({ ...enforced, rules: ['aep/no-such-rule'] }), ctx),
    /"aep\/no-such-rule", which is not a rule/,
  );
  // a runtime-only row without its reason, a MAY that claims enforcement, a repeated id
  has(
    matrixProblems(swap({ ...enforced, verdict: 'runtime-only', rules: [], companions: [], note: '' }), ctx),
    /runtime-only: its note must say/,
  );
  has(matrixProblems(swap({ ...enforced, level: 'MAY' }), ctx), /is a MAY/);
  has(matrixProblems([...rows, { ...enforced, at: 'x.tsv:9' }], ctx), /repeats the row at/);
  // a rule without a failing case
  has(
    matrixProblems(rows, {
      ...ctx,
      cases: { ...ctx.cases!, [enforced.protocol]: { ...ctx.cases![enforced.protocol], fail: [] } },
    }),
    /has no failing case/,
  );
  if (!needShared(t, '.')) return;
  has(matrixProblems(swap({ ...enforced, quote: 'words no specification contains' }), ctx), /the quote's words/);
  has(matrixProblems(swap({ ...enforced, section: '§no such heading' }), ctx), /is no heading of/);
});

test('requirements matrix: an aep live rule has its cases in test/live/cases.ts, a broken variant of the test endpoint, not a file', () => {
  const ctx = defaultContext();
  const rows = loadMatrix().rows;
  // every live rule is in the catalogue the matrix is held to, and has a variant failing it
  for (const r of LIVE_RULES) {
    assert.equal(ctx.catalogue.aep.get(r.id), r.severity, r.id);
    assert.ok((liveCases().get(r.id) ?? []).length > 0, `${r.id} has a broken variant in test/live/cases.ts`);
  }
  // the variants are distinct, each a case test/live/live.test.ts runs
  assert.equal(new Set(LIVE_CASES.map((c) => c.variant)).size, LIVE_CASES.length);
  const row = rows.find((r) => r.verdict === 'enforced' && r.rules.includes('aep/live-eviction'))!;
  assert.ok(row, 'a row names aep/live-eviction');
  // a live rule losing its broken variant is a problem; its missing conformance files are not
  const cases = new Map(ctx.serviceCases);
  cases.set('aep/live-eviction', []);
  const problems = matrixProblems(rows, { ...ctx, serviceCases: cases });
  assert.deepEqual(
    problems.filter((p) => p.includes('aep/live-eviction')),
    rows
      .filter((r) => r.verdict === 'enforced' && r.rules.includes('aep/live-eviction'))
      .map((r) => `${r.at}: ${r.id}'s rule aep/live-eviction has no broken variant failing it in test/live/cases.ts`),
  );
  // without the table, a live rule would need conformance files it cannot have
  assert.ok(
    matrixProblems(rows, { ...ctx, serviceCases: new Map() }).some((p) =>
      /rule aep\/live-eviction has no passing case in conformance\/aep\/pass\//.test(p),
    ),
  );
});

test('requirements matrix: docs/requirements.md, src/generated/requirements.json and the README table are fresh (npm run rules:gen)', () => {
  assert.equal(readFileSync(REQUIREMENTS_MD, 'utf8'), buildRequirementsMarkdown());
  assert.equal(readFileSync(REQUIREMENTS_JSON, 'utf8'), buildRequirementsJson());
  const readme = readFileSync(README_MD, 'utf8');
  assert.ok(readme.includes('<!-- requirements:begin'), 'README.md has the completeness table');
  assert.equal(readme, buildReadme(readme));
});

test('explain names the requirements a rule enforces', () => {
  const rule = aepRules().find((r) => r.id === 'aep/version')!;
  const text = renderExplain(rule, { fail: [], pass: [] }, { protocol: 'aep' });
  const rows = loadMatrix().rows.filter((r) => r.verdict === 'enforced' && r.rules.includes('aep/version'));
  assert.ok(rows.length > 0, 'aep/version enforces a row');
  assert.match(text, /Requirements it enforces/);
  for (const r of rows) assert.ok(text.includes(r.id), r.id);
});

test('the form-values rules name only the half of the MUST-reject sentence each enforces (AEP-0002 §5.3, AEP-0006)', () => {
  // the sentence joins two conditions: uncovered required fields, and a non-choice string on a closed select
  const rows = loadMatrix().rows.filter((r) => /MUST reject|non-choices/.test(r.quote));
  assert.ok(rows.length >= 4, `${rows.length} rows`);
  for (const r of rows) {
    const required = /required: true/.test(r.quote);
    const choice = /non-choices/.test(r.quote);
    for (const id of r.rules) {
      if (/values-choice$/.test(id)) assert.ok(choice, `${r.id} names ${id}, which enforces no required field`);
      if (/values-required$/.test(id)) assert.ok(required, `${r.id} names ${id}, which enforces no choice`);
    }
  }
});
