/**
 * The CI-gate contract of the CLI: exit codes 0/1/2, `--fail-on`, `--strict`, `--max-findings`,
 * `--output`, `--quiet`, stdin via `-`, every `--format`, and the `fixtures`, `rules` and
 * `explain` verbs. Driven in-process through `main` (test/cli/helpers.ts); test/cli/smoke.test.ts
 * checks the same contract through the real bins.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fixtureSample, runCli as run } from './helpers.ts';
import { needShared, SHARED, sharedPath } from '../shared.ts';
import { tempDir } from '../temp.ts';

const AEP_CORPUS = sharedPath(SHARED.aepCorpus);
const AHP_MANIFEST = sharedPath(SHARED.ahpCorpus);

const GOOD =
  '{"aep":"0.1","id":"e1","type":"agent.heartbeat","time":"2026-01-01T00:00:00Z","source":"aep://h/a","agent":"a"}\n';
const BAD_TIME =
  '{"aep":"0.1","id":"e2","type":"agent.heartbeat","time":"yesterday","source":"aep://h/a","agent":"a"}\n';
// a repeated payload member with equal copies is a warning (aep/payload-duplicate-key); no final newline is an info,
// and so is a repeated event (aep/redelivery: legal at-least-once delivery, AEP-0001 §7 rule 2)
const WARN_ONLY = GOOD.replace('"agent":"a"}', '"agent":"a","data":{"n":1,"n":1}}');
const REDELIVERED = GOOD + GOOD;
const INFO_ONLY = GOOD.trimEnd();

test('validate: exit 0 clean, 1 findings at/above --fail-on, 2 usage and I/O', async () => {
  assert.equal((await run('aep', ['validate', '-'], GOOD)).code, 0);
  const bad = await run('aep', ['validate', '-'], GOOD + BAD_TIME);
  assert.equal(bad.code, 1);
  assert.match(bad.stdout, /<stdin>:2:\d+ {2}error {2}aep\/time-format/);
  assert.match(bad.stdout, /✖ 2 events, 1 error, 0 warnings, 0 infos/);
  assert.equal((await run('aep', ['validate', 'no/such/file.jsonl'])).code, 2);
  assert.equal((await run('aep', ['validate', '--format', 'yaml', '-'], GOOD)).code, 2);
  assert.equal((await run('aep', ['validate', '--fail-on', 'fatal', '-'], GOOD)).code, 2);
  assert.equal((await run('aep', ['frobnicate'])).code, 2);
});

test('validate: --fail-on and --strict move the threshold', async () => {
  assert.equal((await run('aep', ['validate', '-'], WARN_ONLY)).code, 0);
  assert.equal((await run('aep', ['validate', '--fail-on', 'warning', '-'], WARN_ONLY)).code, 1);
  assert.equal((await run('aep', ['validate', '--strict', '-'], WARN_ONLY)).code, 1);
  assert.equal((await run('aep', ['validate', '--fail-on', 'warning', '-'], INFO_ONLY)).code, 0);
  // the README's CI gate passes a legal stream: a redelivery is an info
  assert.equal((await run('aep', ['validate', '--fail-on', 'warning', '-'], REDELIVERED)).code, 0);
  assert.equal((await run('aep', ['validate', '--fail-on', 'info', '-'], REDELIVERED)).code, 1);
  assert.equal((await run('aep', ['validate', '--fail-on', 'info', '-'], INFO_ONLY)).code, 1);
});

test('validate: --max-findings, --quiet, --output, --format json|sarif|junit|github', async (t) => {
  const dir = tempDir(t, 'ac-cli-');
  const many = GOOD + BAD_TIME + BAD_TIME.replace('"e2"', '"e4"') + BAD_TIME.replace('"e2"', '"e5"');
  const capped = await run('aep', ['validate', '--max-findings', '1', '-'], many);
  assert.equal(capped.code, 1, 'counting continues past the cap');
  assert.equal(capped.stdout.match(/aep\/time-format {2}/g)?.length, 1);
  assert.match(capped.stdout, /3 errors.*\(2 more not shown: --max-findings\)/);
  const quiet = await run('aep', ['validate', '--quiet', '-'], WARN_ONLY);
  assert.doesNotMatch(quiet.stdout, /aep\/payload-duplicate-key/);
  assert.match(quiet.stdout, /1 warning/);
  const out = join(dir, 'report.sarif');
  const toFile = await run('aep', ['validate', '--format', 'sarif', '--output', out, '-'], many);
  assert.equal(toFile.code, 1);
  assert.equal(toFile.stdout, '');
  const sarif = JSON.parse(readFileSync(out, 'utf8')) as { version: string; runs: Array<{ results: unknown[] }> };
  assert.equal(sarif.version, '2.1.0');
  assert.equal(sarif.runs[0]!.results.length, 3);
  const json = JSON.parse((await run('aep', ['validate', '-f', 'json', '-'], many)).stdout) as {
    summary: { errors: number };
  };
  assert.equal(json.summary.errors, 3);
  assert.match(
    (await run('aep', ['validate', '-f', 'junit', '-'], many)).stdout,
    /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<testsuites name="aep validate" tests="1" failures="1"/,
  );
  assert.match(
    (await run('aep', ['validate', '-f', 'github', '-'], many)).stdout,
    /^::error line=2,col=\d+,title=aep\/time-format::/,
  );
  assert.equal((await run('aep', ['validate', '--output', join(dir, 'no/such/dir/x'), '-'], GOOD)).code, 2);
});

test('rules and explain', async () => {
  const rules = await run('aep', ['rules']);
  assert.equal(rules.code, 0);
  assert.match(rules.stdout, /^ID\s+SEVERITY\s+SPEC\s+DESCRIPTION\n/);
  assert.match(rules.stdout, /\naep\/time-format\s+error\s+/);
  const asJson = JSON.parse((await run('aep', ['rules', '--format', 'json'])).stdout) as Array<{
    id: string;
    url?: string;
  }>;
  assert.ok(asJson.some((r) => r.id === 'aep/time-format' && r.url?.includes('AEP-0001')));
  const explain = await run('aep', ['explain', 'aep/time-format']);
  assert.equal(explain.code, 0);
  assert.match(explain.stdout, /Failing example \(conformance\/aep\/fail\/aep\.time-format\.jsonl\)/);
  const unknown = await run('aep', ['explain', 'aep/time-formatt']);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /unknown rule "aep\/time-formatt"/);
});

test('fixtures: conformance/aep exits 0; verdict mismatch 1; unknown layout and bad deviations 2', async (t) => {
  const ours = await run('aep', ['fixtures', 'conformance/aep', '--quiet']);
  assert.equal(ours.code, 0, ours.stdout + ours.stderr);
  assert.match(ours.stdout, /✔ \d+ cases: \d+ passed, 0 failed, 0 skipped \(file absent\), 0 known deviations\n$/);
  const dir = tempDir(t, 'ac-cli-fx-');
  assert.equal((await run('aep', ['fixtures', dir])).code, 2, 'no known layout');
  writeFileSync(join(dir, 'dev.json'), '{"not":"a list"}');
  assert.equal((await run('aep', ['fixtures', 'conformance/aep', '--deviations', join(dir, 'dev.json')])).code, 2);
  writeFileSync(join(dir, 'dev.json'), '[{"id":"pass/never-existed.jsonl","reason":"stale on purpose"}]');
  // what the stale deviation and the JUnit file do is the same on a few of our cases
  const sample = fixtureSample('aep');
  const stale = await run('aep', [
    'fixtures',
    sample,
    '--quiet',
    '--deviations',
    join(dir, 'dev.json'),
    '--format',
    'github',
  ]);
  assert.equal(stale.code, 1);
  assert.match(stale.stdout, /::error file=.*dev\.json,title=fixture failed%3A pass\/never-existed\.jsonl::/);
  const junit = await run('aep', ['fixtures', sample, '--format', 'junit', '--output', join(dir, 'j.xml')]);
  assert.equal(junit.code, 0);
  assert.match(readFileSync(join(dir, 'j.xml'), 'utf8'), /<testsuite name="pass" tests="\d+" failures="0"/);
});

test('fixtures: the upstream AEP corpus exits 0 and writes an aep-conformance-report', async (t) => {
  if (!needShared(t, SHARED.aepCorpus)) return;
  const r = await run('aep', ['fixtures', AEP_CORPUS, '--format', 'aep-report']);
  assert.equal(r.code, 0, r.stderr);
  const doc = JSON.parse(r.stdout) as {
    format: string;
    ok: boolean;
    summary: { pass: number; fail: number; skip: number; total: number };
    checks: Array<{ name: string; status: string }>;
  };
  assert.equal(doc.format, 'aep-conformance-report');
  assert.equal(doc.ok, true);
  assert.equal(doc.summary.fail, 0);
  assert.ok(doc.checks.some((c) => c.name.startsWith('ce-roundtrip/') && c.status === 'pass'));
  assert.ok(!doc.checks.some((c) => c.status === 'skip'));
});

test('ahp: fixtures on the upstream manifest, rules, and aep-report refused', async (t) => {
  assert.equal((await run('ahp', ['rules'])).code, 0);
  assert.equal((await run('ahp', ['fixtures', 'conformance/ahp', '--format', 'aep-report'])).code, 2);
  if (!needShared(t, SHARED.ahpCorpus)) return;
  const r = await run('ahp', ['fixtures', AHP_MANIFEST, '--quiet']);
  t.diagnostic(
    r.stdout
      .split('\n')
      .filter((l) => l.startsWith('✖') || l.startsWith('✔'))
      .join('\n'),
  );
  assert.ok(r.code === 0 || r.code === 1, r.stderr);
});

test('junit names its testsuites after the verb that ran (PROTOCOL VERB), pin verbs included', async () => {
  const { createReporter } = await import('../../src/report/index.ts');
  const name = (kind: 'validate' | 'live' | 'pin-verify' | 'pin-refresh') => {
    let xml = '';
    const r = createReporter(
      'junit',
      { write: (s) => void (xml += s) },
      { protocol: 'ahp', kind, version: '0', color: false },
    );
    r.finish({ events: 0, errors: 0, warnings: 0, infos: 0, byRule: {}, types: {} } as never);
    return /<testsuites name="([^"]*)"/.exec(xml)?.[1];
  };
  assert.deepEqual((['validate', 'live', 'pin-verify', 'pin-refresh'] as const).map(name), [
    'ahp validate',
    'ahp live',
    'ahp pin verify',
    'ahp pin refresh',
  ]);
  // through the command: `ahp pin verify -f junit`
  const pin = await run('ahp', ['pin', 'verify', '--allow-missing', '-f', 'junit']);
  assert.match(pin.stdout, /<testsuites name="ahp pin verify"/);
});
