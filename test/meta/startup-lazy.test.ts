// `--version` and `--help` load no schema validator (issue 13: start-up), and `aep validate`
// loads only the AEP ones: the generated modules load on first validation, which module-level
// flags of their loaders report. Each test file runs in its own process, so nothing before
// this file has validated anything.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { aepValidatorsLoaded } from '../../src/aep/payload.ts';
import { ahpValidatorsLoaded } from '../../src/ahp/schemas.ts';
import { runCli } from '../cli/helpers.ts';

test('importing the CLIs loads no validator', () => {
  assert.equal(aepValidatorsLoaded(), false);
  assert.equal(ahpValidatorsLoaded(), false);
});

test('aep/ahp --version and --help load no validator', async () => {
  for (const bin of ['aep', 'ahp'] as const) {
    for (const args of [['--version'], ['--help'], ['validate', '--help']]) {
      const r = await runCli(bin, args);
      assert.equal(r.code, 0, `${bin} ${args.join(' ')}`);
      assert.equal(aepValidatorsLoaded(), false, `${bin} ${args.join(' ')} loaded the AEP validators`);
      assert.equal(ahpValidatorsLoaded(), false, `${bin} ${args.join(' ')} loaded the AHP validators`);
    }
  }
});

test('aep validate loads the AEP validators only; ahp validate the AHP ones', async () => {
  const aep = await runCli('aep', ['validate', 'examples/aep/session.jsonl']);
  assert.equal(aep.code, 0);
  assert.equal(aepValidatorsLoaded(), true);
  assert.equal(ahpValidatorsLoaded(), false, 'aep validate loaded the AHP validators');
  const ahp = await runCli('ahp', ['validate', 'examples/ahp/session.jsonl']);
  assert.equal(ahp.code, 0);
  assert.equal(ahpValidatorsLoaded(), true);
});
