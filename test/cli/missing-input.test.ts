/**
 * A missing input is a usage problem said plainly (no errno code or syscall), exit 2, the same for aep and ahp and for
 * every verb that reads files.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runCli } from './helpers.ts';

const RUNS: Array<['aep' | 'ahp', string[]]> = [
  ['aep', ['validate']],
  ['aep', ['validate', '--from', 'otlp']],
  ['aep', ['redact']],
  ['aep', ['downlevel', '--ceiling', 'metadata']],
  ['aep', ['filter', '--where', '{}']],
  ['aep', ['convert', '--to', 'cloudevents']],
  ['aep', ['fixtures']],
  ['ahp', ['validate']],
  ['ahp', ['fixtures']],
];

test('a missing input file: one clear line naming it, exit 2, no raw ENOENT, for every reading verb', async () => {
  for (const [bin, args] of RUNS) {
    const r = await runCli(bin, [...args, 'no/such/input.jsonl']);
    const what = `${bin} ${args.join(' ')}`;
    assert.equal(r.code, 2, what);
    assert.equal(r.stdout, '', what);
    // one line, the same for every verb (no counts of nothing after it)
    assert.equal(r.stderr, `${bin}: cannot read no/such/input.jsonl: no such file or directory\n`, what);
  }
});
