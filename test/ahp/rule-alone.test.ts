/**
 * Every AHP per-message rule run alone (the driver's rule selection) over its failing
 * conformance cases (`conformance/ahp/fail/ahp.<name>[--variant].{jsonl,json}`) reports exactly
 * the findings its `.expected.json` lists for it: the same line and pointer multiset, nothing of
 * another rule (framing findings, always on, aside). Schema-stage rules are included: with a
 * selection their findings are filtered, not the stage.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { test } from 'node:test';
import { AHP_EVENT_RULES, AHP_MESSAGE_RULES } from '../../src/ahp/rules/index.ts';
import type { Finding } from '../../src/core/finding.ts';
import { REPO_DIR, runStdio } from './helpers.ts';
import { ahpDriver, runPipeline } from '../run.ts';

const FAIL_DIR = REPO_DIR + 'conformance/ahp/fail/';
const isFraming = (id: string) => id.startsWith('jsonl/') || id.startsWith('json/');

/** Case files of rule `id` (`ahp/x` -> `ahp.x.jsonl`, `ahp.x--doc.registration.json`, ...). */
function casesOf(id: string): string[] {
  const stem = id.replace('/', '.');
  return readdirSync(FAIL_DIR).filter(
    (f) => !f.endsWith('.expected.json') && (f.startsWith(stem + '.') || f.startsWith(stem + '--')),
  );
}

/** Run one case file with only `id` selected, the binding chosen by name as `ahp validate` does, under its sidecar's `maxDepth` when it has one. */
async function runAlone(file: string, id: string): Promise<Finding[]> {
  const binding = file.endsWith('.registration.json') ? 'registration' : file.endsWith('.json') ? 'http' : 'stdio';
  const findings: Finding[] = [];
  const text = readFileSync(FAIL_DIR + file, 'utf8');
  const sidecar = FAIL_DIR + file.replace(/\.(jsonl|json)$/, '.expected.json');
  const maxDepth = existsSync(sidecar)
    ? (JSON.parse(readFileSync(sidecar, 'utf8')) as { options?: { maxDepth?: number } }).options?.maxDepth
    : undefined;
  await runPipeline(
    [
      {
        source: file,
        framing: binding === 'stdio' ? 'jsonl' : 'document',
        open: async function* () {
          yield text;
        },
      },
    ],
    ahpDriver({ rules: new Set([id]), binding: () => binding, ...(maxDepth !== undefined ? { maxDepth } : {}) }),
    (f) => findings.push(f),
    { maxDepth },
  );
  return findings;
}

const key = (f: { ruleId: string; line?: number; pointer?: string }) =>
  `${f.ruleId}@${f.line ?? '-'}${f.pointer ?? ''}`;

test('each AHP per-message rule alone reports exactly its expected findings on its fail cases', async (t) => {
  const perEvent = new Set<string>(AHP_EVENT_RULES.map((r) => r.id));
  let checked = 0;
  for (const rule of AHP_MESSAGE_RULES) {
    const cases = casesOf(rule.id);
    if (perEvent.has(rule.id)) assert.ok(cases.length > 0, `per-event rule ${rule.id} has no fail case`);
    for (const file of cases) {
      const expected = (
        JSON.parse(readFileSync(FAIL_DIR + file.replace(/\.(jsonl|json)$/, '.expected.json'), 'utf8')) as {
          findings: { ruleId: string; line?: number; pointer?: string }[];
        }
      ).findings;
      const want = expected
        .filter((f) => f.ruleId === rule.id)
        .map(key)
        .sort();
      assert.ok(want.length > 0, `${file}: lists no ${rule.id} finding`);
      const got = (await runAlone(file, rule.id)).filter((f) => !isFraming(f.ruleId));
      assert.deepEqual(got.map(key).sort(), want, `${file} with only ${rule.id} selected`);
      for (const f of got) assert.equal(f.severity, rule.severity, `${file}: ${f.ruleId} keeps its rule's severity`);
      checked++;
    }
  }
  t.diagnostic(`${checked} fail cases checked rule by rule`);
  assert.ok(checked >= AHP_EVENT_RULES.length, `checked ${checked} cases`);
});

test('a selection without the per-message rules reports none of them', async () => {
  const ids = new Set(AHP_MESSAGE_RULES.map((r) => r.id));
  for (const file of casesOf('ahp/elicitation-body').concat(casesOf('ahp/registration-literal-secret'))) {
    const got = (await runAlone(file, 'ahp/parent-cycle')).filter((f) => ids.has(f.ruleId));
    assert.deepEqual(got, [], file);
  }
});

test('the schema stage gates the stream whether or not its rules are selected', async () => {
  const caps = { effects: ['deny'] };
  const event = {
    id: 'e1',
    source: 'urn:test:h',
    time: '2026-07-03T10:16:01Z',
    type: 'turn.start',
    session: { id: 's1' },
  };
  const request = {
    jsonrpc: '1.0',
    id: 'e1',
    method: 'hooks/intercept',
    params: { protocolVersion: 'draft', event, capabilities: caps },
  };
  const response = { jsonrpc: '2.0', id: 'e1', result: { protocolVersion: 'draft', effects: [] } };
  const text = `${JSON.stringify(request)}\n${JSON.stringify(response)}\n`;
  const brief = (fs: Finding[]) => fs.map((f) => `${f.ruleId}@${f.line}`);
  const all = brief(await runStdio(text));
  assert.ok(all.includes('ahp/jsonrpc@1'), all.join(', '));
  const unmatched = all.filter((f) => f.startsWith('ahp/response-'));
  assert.ok(unmatched.length > 0, `the request with a broken JSON-RPC shape is not pending: ${all.join(', ')}`);
  // with only the stream rule selected the stage's finding is not reported, but it still gates
  const alone = brief(await runStdio(text, new Set(unmatched.map((f) => f.slice(0, f.indexOf('@'))))));
  assert.deepEqual(alone, unmatched);
});
