/**
 * What a first-time user met (issue 37 follow-up): the coverage line under `--profile aep-0007`, and the counts
 * `aep convert` prints.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { runCli } from './helpers.ts';

const STREAM_CASE = 'conformance/aep/pass/aep.stream-kind.aep-0007.jsonl';

test('--profile aep-0007: its stream.* types are known types in the coverage, not other types', async () => {
  const types = [...readFileSync(STREAM_CASE, 'utf8').matchAll(/"type":"(stream\.[a-z]+)"/g)].map((m) => m[1]!);
  assert.ok(types.length > 0);
  const r = await runCli('aep', ['validate', '--profile', 'aep-0007', '--format', 'json', STREAM_CASE]);
  const cov = (JSON.parse(r.stdout) as { summary: { coverage: { seen: object; unknown: object; known: number } } })
    .summary.coverage;
  for (const t of types) {
    assert.ok(t in cov.seen, `${t} counted as seen`);
    assert.ok(!(t in cov.unknown), `${t} not counted as unknown`);
  }
  const plain = await runCli('aep', ['validate', '--format', 'json', STREAM_CASE]);
  const base = (JSON.parse(plain.stdout) as { summary: { coverage: { known: number; unknown: object } } }).summary
    .coverage;
  // without the profile they are not AEP 0.1 registry types
  for (const t of types) assert.ok(t in base.unknown, `${t} unknown without the profile`);
  assert.equal(cov.known, base.known + 3);
});
