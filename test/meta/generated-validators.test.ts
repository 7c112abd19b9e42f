// The generated schema validators (src/generated/) are what `npm run validators:gen` would
// write now: regenerated in memory from schemas/ and compared byte for byte (fails when stale).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { RULES_GENERATED } from '../../tools/gen-rules.ts';
import { buildValidatorModules, GENERATED_DIR } from '../../tools/gen-validators.ts';

test('src/generated validators are current (run `npm run validators:gen` after changing a schema)', () => {
  const built = buildValidatorModules();
  assert.deepEqual(
    readdirSync(GENERATED_DIR)
      .filter((n) => !RULES_GENERATED.includes(n))
      .sort(),
    [...built.keys()].sort(),
    'src/generated holds exactly the generated files',
  );
  for (const [name, text] of built) {
    assert.ok(
      readFileSync(join(GENERATED_DIR, name), 'utf8') === text,
      `src/generated/${name} is stale: run \`npm run validators:gen\` and commit the result`,
    );
  }
});
