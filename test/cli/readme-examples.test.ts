/**
 * The README's examples do what it says they do when run from a checkout: each `aep filter` example that names files
 * of the repository selects events from them (an example that selects nothing pipes an empty input into `validate`,
 * `jsonl/empty-input`, exit 1), and a filter piped into `aep validate -` passes.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { REPO, runCli } from './helpers.ts';

/** The `aep filter --where '…' FILES [| aep validate -]` lines of the README's shell blocks. */
function filterExamples(): Array<{ where: string; files: string[]; piped: boolean; line: string }> {
  const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
  const out = [];
  for (const m of readme.matchAll(/^aep filter --where '([^']+)' ([^|#\n]+?)\s*(\|\s*aep validate -)?\s*(#.*)?$/gm))
    out.push({ where: m[1]!, files: m[2]!.split(/\s+/), piped: m[3] !== undefined, line: m[0] });
  return out;
}

test('every README `aep filter` example over files of the repository selects events, and its pipe validates', async () => {
  // the one that writes a file (-o) is the CI pattern over the reader's logs, which may select nothing; every other
  // example names files of the repository, so a reader can run it as it is
  const examples = filterExamples().filter((e) => !e.files.includes('-o'));
  for (const e of examples)
    assert.ok(
      e.files.every((f) => existsSync(join(REPO, f))),
      `${e.line}: no such file here`,
    );
  assert.ok(examples.length >= 2, `README filter examples over repository files: ${examples.length}`);
  assert.ok(
    examples.some((e) => e.piped),
    'a piped example is among them',
  );
  for (const e of examples) {
    const r = await runCli('aep', ['filter', '--where', e.where, ...e.files]);
    assert.equal(r.code, 0, e.line);
    assert.notEqual(r.stdout, '', `${e.line}: selects no event`);
    if (!e.piped) continue;
    const v = await runCli('aep', ['validate', '-'], r.stdout);
    assert.equal(v.code, 0, `${e.line}: ${v.stdout}`);
  }
});

test('a filter that selects nothing exits 0 and writes nothing; validate then reports the empty input (README)', async () => {
  const r = await runCli('aep', ['filter', '--where', '{"type":["tool.denied"]}', 'examples/aep/session.jsonl']);
  assert.deepEqual([r.code, r.stdout, r.stderr], [0, '', '']);
  const v = await runCli('aep', ['validate', '-'], r.stdout);
  assert.equal(v.code, 1);
  assert.match(v.stdout, /jsonl\/empty-input/);
});

test('redact and downlevel report the per-line errors validate gives, without the stream rules and the leaks they repair (README)', async () => {
  const { AEP_EVENT_RULES, AEP_SCHEMA_RULES } = await import('../../src/aep/rules/index.ts');
  // the checks of one line alone: framing and JSON, the envelope and payload schemas, the event rules (not the
  // RECOMMENDED forms, which run only when asked for)
  const lineRules = new Set<string>([...AEP_SCHEMA_RULES, ...AEP_EVENT_RULES].map((r) => r.id));
  for (const id of ['aep/id-ulid', 'aep/source-form']) lineRules.delete(id);
  // a line of bridge output is no AEP event: the verbs name it, and refuse it (README §No secret survives)
  lineRules.add('aep/bridge-input');
  const perLineRule = (id: string) => lineRules.has(id) || id.startsWith('jsonl/') || id.startsWith('json/');
  const repaired = new Set([
    'aep/redaction-leak',
    'aep/redaction-leak-provider',
    'aep/redaction-home-path',
    'aep/redaction-leak-pii',
  ]);
  const fail = join(REPO, 'conformance/aep/fail');
  const inputs = [
    'examples/aep/session-broken.jsonl',
    ...readdirSync(fail)
      .filter((f) => f.endsWith('.jsonl'))
      .sort()
      .filter((_, i) => i % 4 === 0)
      .map((f) => join('conformance/aep/fail', f)),
  ];
  const key = (f: { ruleId: string; line?: number }) => `${f.line ?? '-'} ${f.ruleId}`;
  let left = 0;
  for (const input of inputs) {
    const v = await runCli('aep', ['validate', '-f', 'json', input]);
    const all = (JSON.parse(v.stdout) as { findings: Array<{ ruleId: string; line?: number; severity: string }> })
      .findings;
    // the verbs print errors only (warnings and infos are validate's to show)
    const perLine = all.filter((f) => f.severity === 'error' && perLineRule(f.ruleId));
    left += all.length - perLine.length;
    for (const [args, expected] of [
      [['redact', input], perLine.filter((f) => !repaired.has(f.ruleId))],
      [['downlevel', '--ceiling', 'full', input], perLine],
    ] as const) {
      const r = await runCli('aep', args);
      // `file:line:column  severity  rule` (`file:line` at no column), or `file  severity  rule` about the input
      const got = [...r.stderr.matchAll(/^(\S+?)(?::(\d+)(?::\d+)?)? {2}(?:error|warning|info) {2}(\S+)/gm)].map(
        (m) => `${m[2] ?? '-'} ${m[3]}`,
      );
      assert.deepEqual(got.sort(), expected.map(key).sort(), `${args.join(' ')}`);
    }
  }
  // findings of other rules were there to leave out (the relation is not checked on per-line findings only)
  assert.ok(left > 5, `findings left out: ${left}`);
});
