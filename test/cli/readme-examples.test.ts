/**
 * The README's examples do what it says they do when run from a checkout: each `aep filter` example that names files
 * of the repository selects events from them (an example that selects nothing pipes an empty input into `validate`,
 * `jsonl/empty-input`, exit 1), and a filter piped into `aep validate -` passes.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
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
