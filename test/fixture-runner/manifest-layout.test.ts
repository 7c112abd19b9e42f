/**
 * The upstream AHP manifest names its cases from two folders above it (`fixtures/draft/...`): a copy kept as
 * `.../fixtures/draft` runs them; a copy under another name gets, for each case, a harness error that says which
 * layout is expected (not only that the path is outside the folder).
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../cli/helpers.ts';
import { fileTempDir } from '../temp.ts';

const TMP = fileTempDir('ac-manifest-layout-');
const MESSAGE = '{"jsonrpc":"2.0","method":"notifications/initialized"}\n';

/** A one-case manifest folder at `dir`, its case under `dir/stdio/`, named as upstream names it. */
function manifestAt(dir: string, schema = 'schema/draft/intercept-request.schema.json'): void {
  mkdirSync(join(dir, 'stdio'), { recursive: true });
  writeFileSync(join(dir, 'stdio', 'one.jsonl'), MESSAGE);
  const sha256 = createHash('sha256').update(MESSAGE).digest('hex');
  const one = {
    id: 'one',
    path: 'fixtures/draft/stdio/one.jsonl',
    binding: 'stdio-jsonl',
    schema,
    expectedValid: true,
    sha256,
  };
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ cases: [one] }));
}

test('ahp fixtures: a manifest copy outside .../fixtures/draft is told the layout it needs; kept so, its cases run', async () => {
  const good = join(TMP, 'repo', 'fixtures', 'draft');
  const moved = join(TMP, 'elsewhere', 'D');
  manifestAt(good);
  manifestAt(moved);
  const ok = await runCli('ahp', ['fixtures', '-f', 'json', good]);
  const okCase = JSON.parse(ok.stdout).cases[0];
  assert.notEqual(okCase.status, 'error', JSON.stringify(okCase));
  const bad = await runCli('ahp', ['fixtures', '-f', 'json', moved]);
  assert.equal(bad.code, 2);
  const badCase = JSON.parse(bad.stdout).cases[0];
  assert.equal(badCase.status, 'error');
  assert.match(
    badCase.detail,
    /Case path "fixtures\/draft\/stdio\/one\.jsonl" is not inside the fixture folder: the manifest's paths start two folders above it, so the folder must be \.\.\.\/fixtures\/draft .* ends in elsewhere\/D; copy it to a folder named fixtures\/draft\./,
  );
});

test('ahp fixtures: a manifest case naming a schema AHP does not have is a harness error for that case, not a crash', async () => {
  const dir = join(TMP, 'unknown-schema', 'fixtures', 'draft');
  manifestAt(dir, 'schema/draft/no-such-thing.schema.json');
  const r = await runCli('ahp', ['fixtures', '-f', 'json', dir]);
  assert.equal(r.code, 2, r.stderr);
  assert.doesNotMatch(r.stderr, /internal error/);
  const c = JSON.parse(r.stdout).cases[0];
  assert.equal(c.status, 'error');
  assert.match(c.detail, /names schema "schema\/draft\/no-such-thing\.schema\.json", which is none of AHP's schemas/);
});

test('ahp fixtures: two deny effects are invalid (expectedValid) yet aggregate-valid (the wire root schema), while validate reports them', async () => {
  const dir = join(TMP, 'two-denies', 'fixtures', 'draft');
  mkdirSync(join(dir, 'stdio'), { recursive: true });
  const deny = '{"type":"deny","reason":"no"}';
  const line = `{"jsonrpc":"2.0","id":"evt_1","result":{"protocolVersion":"draft","effects":[${deny},${deny}]}}\n`;
  writeFileSync(join(dir, 'stdio', 'two.jsonl'), line);
  const common = {
    path: 'fixtures/draft/stdio/two.jsonl',
    binding: 'stdio-jsonl',
    schema: 'schema/draft/intercept-deny-response.schema.json',
    expectedValid: false,
    sha256: createHash('sha256').update(line).digest('hex'),
  };
  // the manifest's own pair of verdicts; a case that claims aggregate-invalid shows the aggregate verdict is computed
  const cases = [
    { id: 'two', aggregateExpectedValid: true, ...common },
    { id: 'two-claimed-invalid', aggregateExpectedValid: false, ...common },
  ];
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ cases }));
  const r = await runCli('ahp', ['fixtures', '-f', 'json', dir]);
  const [two, claimed] = JSON.parse(r.stdout).cases;
  assert.equal(two.status, 'pass', JSON.stringify(two));
  assert.equal(claimed.status, 'fail', JSON.stringify(claimed));
  const v = await runCli('ahp', ['validate', '--no-color', join(dir, 'stdio', 'two.jsonl')]);
  assert.equal(v.code, 1, v.stdout + v.stderr);
  assert.match(
    v.stdout,
    /1:\d+ {2}error {2}ahp\/effect {2}A second `deny` effect in one response.*\/result\/effects\/1/,
  );
});
