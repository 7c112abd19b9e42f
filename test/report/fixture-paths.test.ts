/**
 * Fixture reports name case files the same way for both protocols: as the fixture folder was given, so relative to the
 * working directory when it was (`../shared/...`), for the AHP manifest (whose case paths it resolves) as for AEP.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { runCli } from '../cli/helpers.ts';
import { tempDir } from '../temp.ts';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

test('JUnit file= and SARIF uri of an AHP manifest case outside the working directory are relative, as for AEP', async (t) => {
  const root = tempDir(t, 'ac-fixture-paths-');
  // the AHP manifest layout: <root>/ahp/fixtures/draft/manifest.json naming fixtures/draft/stdio/<case>
  const draft = join(root, 'ahp', 'fixtures', 'draft');
  mkdirSync(join(draft, 'stdio'), { recursive: true });
  // a case said valid that is not (an invalid line): SARIF lists only cases that did not pass
  const bytes = Buffer.concat([
    readFileSync(join(REPO, 'conformance/ahp/fail/ahp.attention-shape.jsonl')),
    Buffer.from('{\n'),
  ]);
  writeFileSync(join(draft, 'stdio', 'one.valid.jsonl'), bytes);
  const c = {
    id: 'stdio.one.valid',
    path: 'fixtures/draft/stdio/one.valid.jsonl',
    binding: 'stdio-jsonl',
    schema: 'schema/draft/observe-notification.schema.json',
    expectedValid: true,
    sha256: createHash('sha256').update(bytes).digest('hex'),
  };
  writeFileSync(join(draft, 'manifest.json'), JSON.stringify({ cases: [c] }));
  // our AEP layout beside it
  const aep = join(root, 'aep');
  mkdirSync(join(aep, 'pass'), { recursive: true });
  // a pass case that fails (an invalid line), as the AHP one does
  writeFileSync(
    join(aep, 'pass', 'aep.one.jsonl'),
    `${readFileSync(join(REPO, 'examples/aep/session.jsonl'), 'utf8')}{\n`,
  );

  const cwd = process.cwd();
  const ahpDir = relative(cwd, draft);
  const aepDir = relative(cwd, aep);
  assert.ok(ahpDir.startsWith('..'), 'the folders are outside the working directory');
  const files = async (bin: 'aep' | 'ahp', dir: string, format: 'junit' | 'sarif') => {
    const r = await runCli(bin, ['fixtures', dir, '-f', format], '', { cwd });
    assert.ok(r.code === 0 || r.code === 1, r.stderr);
    return format === 'junit'
      ? [...r.stdout.matchAll(/ file="([^"]*)"/g)].map((m) => m[1]!)
      : [...r.stdout.matchAll(/"uri": ?"([^"]*)"/g)].map((m) => m[1]!);
  };
  const want = {
    ahp: join(ahpDir, 'stdio', 'one.valid.jsonl').split('\\').join('/'),
    aep: join(aepDir, 'pass', 'aep.one.jsonl').split('\\').join('/'),
  };
  for (const format of ['junit', 'sarif'] as const) {
    assert.ok((await files('aep', aepDir, format)).includes(want.aep), `aep ${format}`);
    const ahp = await files('ahp', ahpDir, format);
    assert.ok(ahp.includes(want.ahp), `ahp ${format}: ${ahp.join(', ')}`);
    assert.ok(!ahp.some((f) => f.startsWith(root)), `ahp ${format}: no absolute path`);
  }
});
