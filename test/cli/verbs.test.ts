/**
 * The catalogue, fixture and pin verbs as a first-time user meets them (issue 16 items 10-16):
 * `explain`, `rules`, `fixtures` and `pin`, in-process through {@link runCli}.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { optionsFromFlags } from '../../src/api/protocols.ts';
import { REPO, runCli } from './helpers.ts';

describe('one option-to-driver mapping (src/api/protocols.ts optionsFromFlags)', () => {
  it('maps the validate flags and sidecar names to the API options', () => {
    assert.deepEqual(optionsFromFlags('aep', { rule: ['aep/ack-window'], ackWindow: 5, maxOpen: 3, maxSessions: 7, maxIds: 9, format: 'text', maxLineBytes: 100 }), {
      rules: ['aep/ack-window'],
      maxLineBytes: 100,
      stream: { ackWindowMs: 5, maxOpen: 3, maxSessions: 7, maxIds: 9 },
    });
    assert.deepEqual(optionsFromFlags('ahp', { binding: 'http', maxPending: 2, maxEvents: 4, ackWindow: 5 }), { binding: 'http', stream: { maxPending: 2, maxEvents: 4 } });
  });
  it('the CLI builds its drivers through it, not a mapping of its own', () => {
    for (const f of ['src/cli/aep.ts', 'src/cli/ahp.ts']) {
      const text = readFileSync(`${REPO}${f}`, 'utf8');
      assert.match(text, /optionsFromFlags\(/, f);
      assert.doesNotMatch(text, /\b(aepDriver|ahpDriver)\(/, f);
    }
  });
  it('--ack-window reaches the driver', async () => {
    // the ack-window fail case acks later than the default window; a wide window accepts it
    const narrow = await runCli('aep', ['validate', '--rule', 'aep/ack-window', 'conformance/aep/fail/aep.ack-window.jsonl']);
    const wide = await runCli('aep', ['validate', '--rule', 'aep/ack-window', '--ack-window', '100000000', 'conformance/aep/fail/aep.ack-window.jsonl']);
    assert.match(narrow.stdout, /aep\/ack-window/);
    assert.doesNotMatch(wide.stdout, /aep\/ack-window  /);
  });
});

describe('unknown rule ids: a real nearest match, or none', () => {
  it('suggests the nearest id for a typo and none for an unrelated word', async () => {
    const typo = await runCli('aep', ['validate', '--rule', 'aep/time-formt', 'x']);
    assert.equal(typo.code, 2);
    assert.match(typo.stderr, /did you mean aep\/time-format\?/);
    const bare = await runCli('aep', ['explain', 'line-too-long']);
    assert.match(bare.stderr, /did you mean jsonl\/line-too-long\?/);
    const bogus = await runCli('aep', ['validate', '--rule', 'bogus', 'x']);
    assert.equal(bogus.code, 2);
    assert.doesNotMatch(bogus.stderr, /did you mean/);
    assert.match(bogus.stderr, /unknown rule "bogus"/);
    const ahp = await runCli('ahp', ['explain', 'bogus']);
    assert.doesNotMatch(ahp.stderr, /did you mean/);
  });
});

describe("fixtures refuses the other protocol's layout (item 14)", () => {
  it('aep fixtures conformance/ahp and ahp fixtures conformance/aep exit 2 with a hint', async () => {
    const a = await runCli('aep', ['fixtures', 'conformance/ahp']);
    assert.equal(a.code, 2);
    assert.equal(a.stdout, '');
    assert.match(a.stderr, /holds AHP cases .*run it with "ahp fixtures"/);
    const b = await runCli('ahp', ['fixtures', 'conformance/aep']);
    assert.equal(b.code, 2);
    assert.match(b.stderr, /holds AEP cases .*run it with "aep fixtures"/);
  });
});
