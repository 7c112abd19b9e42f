/**
 * Our AHP conformance cases and the upstream AHP manifest, run through the fixture runner the
 * way `ahp fixtures` runs them: every `conformance/ahp/pass/*` case gives no finding at all,
 * every `fail/*` case exactly the findings of its sidecar; the upstream manifest agrees on every
 * present case, `contextualExpectedValid` (the edit-context verdict) included. The manifest part
 * is skipped with a message when the shared corpus is absent.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { AHP_STREAM_RULES } from '../../src/ahp/rules/index.ts';
import { ahpCli, bindingByName, bindingFor } from '../../src/cli/ahp.ts';
import { checkBytes } from '../../src/fixture-runner/check.ts';
import { runFixtures } from '../../src/fixture-runner/index.ts';
import { AHP_CORPUS_DIR, REPO_DIR } from './helpers.ts';
import { needShared, SHARED } from '../shared.ts';

const POLICY = { strict: false, failOn: 'error' as const };
const ahp = { def: ahpCli.def, options: {} };
const DIR = join(REPO_DIR, 'conformance/ahp');

test('case files are read by name: .registration.json = registration document, .json = HTTP message, else stdio', () => {
  assert.equal(bindingByName('fail/ahp.registration--doc.registration.json'), 'registration');
  assert.equal(bindingByName('pass/ahp.method-params--http.json'), 'http');
  assert.equal(bindingByName('pass/ahp.jsonrpc.jsonl'), 'stdio');
  assert.equal(bindingByName('-'), 'stdio');
  assert.equal(bindingFor('x.registration.json', {}), 'registration');
  assert.equal(bindingFor('x.registration.json', { binding: 'http' }), 'http', '--binding still wins');
});

test('conformance/ahp: every case passes', async () => {
  const run = await runFixtures(ahp, DIR, { ...POLICY, cwd: REPO_DIR });
  const bad = run.cases.filter((c) => c.status !== 'pass').map((c) => `${c.id}: ${c.status} ${c.detail ?? ''}`);
  assert.deepEqual(bad, []);
  assert.ok(run.cases.length > 100, `only ${run.cases.length} cases`);
});

test('conformance/ahp: every fail case expects the rule it is named after', () => {
  for (const f of readdirSync(join(DIR, 'fail')).filter((n) => n.endsWith('.expected.json'))) {
    const slug = f.replace(/\.expected\.json$/, '').replace(/--.*$/, '');
    const rule = slug.replace('.', '/');
    const side = JSON.parse(readFileSync(join(DIR, 'fail', f), 'utf8')) as { findings: { ruleId: string }[] };
    assert.ok(
      side.findings.some((x) => x.ruleId === rule),
      `${f} does not expect ${rule}`,
    );
  }
});

test('upstream AHP manifest: every present case agrees, contextual verdicts included', async (t) => {
  if (!needShared(t, `${SHARED.ahpCorpus}/manifest.json`)) return;
  const deviations = join(DIR, 'deviations.json');
  const run = await runFixtures(ahp, AHP_CORPUS_DIR, {
    ...POLICY,
    cwd: REPO_DIR,
    ...(existsSync(deviations) ? { deviations } : {}),
  });
  const c = run.summary.counts;
  t.diagnostic(
    `AHP manifest: ${run.summary.total} cases; ${c.pass} pass, ${c.fail} fail, ${c.deviation} deviations, ${c.skip} skipped (absent)`,
  );
  assert.deepEqual(
    run.cases.filter((x) => x.status === 'fail' || x.status === 'error').map((x) => `${x.id}: ${x.detail}`),
    [],
  );
  const contextual = run.cases.filter((x) => /contextualExpectedValid/.test(x.expected ?? '') && x.status === 'pass');
  assert.ok(contextual.length >= 9, `contextual cases checked: ${contextual.length}`);
  assert.ok(
    contextual.every((x) => /contextualExpectedValid (true|false)/.test(x.actual ?? '')),
    'the contextual verdict is computed, not skipped',
  );
});

test("every stream-rule finding on every case has its rule's catalogued severity (no per-finding override)", async () => {
  const severityOf = new Map(AHP_STREAM_RULES.map((r) => [r.id as string, r.severity]));
  const files = ['pass', 'fail'].flatMap((d) =>
    readdirSync(join(DIR, d))
      .filter((f) => !f.endsWith('.expected.json'))
      .map((f) => join(DIR, d, f)),
  );
  files.push(...readdirSync(join(REPO_DIR, 'examples/ahp')).map((f) => join(REPO_DIR, 'examples/ahp', f)));
  const seen = new Set<string>();
  for (const file of files) {
    const sidecar = file.replace(/\.jsonl?$/, '.expected.json');
    const options = existsSync(sidecar)
      ? ((JSON.parse(readFileSync(sidecar, 'utf8')) as { options?: Record<string, unknown> }).options ?? {})
      : {};
    const run = await checkBytes(ahp, file, readFileSync(file), POLICY, { flags: options });
    for (const f of run.findings) {
      const want = severityOf.get(f.ruleId);
      if (want === undefined) continue;
      seen.add(f.ruleId);
      assert.equal(f.severity, want, `${file}:${f.line} ${f.ruleId}`);
    }
  }
  // every stream rule but the one that needs a file changing during the run is exercised
  assert.deepEqual(
    [...severityOf.keys()].filter((id) => !seen.has(id)),
    ['ahp/event-id-unverifiable'],
  );
});
