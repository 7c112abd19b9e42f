// A verb or option only the other bin has (`ahp live`, `aep validate --binding`) is a usage error that names the bin
// that has it (new-user trial); an unknown name of neither bin gets no such pointer.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runCli } from './helpers.ts';

test('a verb of the other bin is a usage error naming it', async () => {
  for (const [bin, argv, other] of [
    ['ahp', ['live', 'http://127.0.0.1:1'], '`aep live`'],
    ['ahp', ['redact', 'x.jsonl'], '`aep redact`'],
    ['ahp', ['convert', '--to', 'otlp', 'x.jsonl'], '`aep convert`'],
    ['aep', ['pin', 'verify'], '`ahp pin`'],
  ] as const) {
    const r = await runCli(bin, [...argv]);
    assert.equal(r.code, 2, r.stderr);
    assert.ok(r.stderr.includes(`it is a verb of ${other.slice(1, 4)} (${other})`), r.stderr);
  }
  const r = await runCli('ahp', ['lvie']);
  assert.equal(r.code, 2);
  assert.doesNotMatch(r.stderr, /verb of aep/);
});

test('an option of the other bin is a usage error naming it; an unknown option of neither is not', async () => {
  for (const [bin, option, other] of [
    ['aep', '--binding', 'ahp'],
    ['ahp', '--from', 'aep'],
    ['ahp', '--profile', 'aep'],
  ] as const) {
    const r = await runCli(bin, ['validate', option, 'x', 'y.jsonl']);
    assert.equal(r.code, 2, r.stderr);
    assert.ok(r.stderr.includes(`; ${option} is an option of ${other}`), r.stderr);
  }
  // an option both bins have on some verb (`aep fixtures --require-all`) is no pointer to the other
  for (const option of ['--bogus', '--require-all']) {
    const r = await runCli('aep', ['validate', option, 'x.jsonl']);
    assert.equal(r.code, 2);
    assert.doesNotMatch(r.stderr, /is an option of/);
  }
});

test('aep live: an empty or misspelt check name, validate flags, and a base URL that is the discovery URL', async () => {
  const empty = await runCli('aep', ['live', 'http://127.0.0.1:9', '--checks', 'fanout,']);
  assert.equal(empty.code, 2);
  assert.match(empty.stderr, /an empty check name in the list/);
  const typo = await runCli('aep', ['live', 'http://127.0.0.1:9', '--checks', 'fanuot']);
  assert.equal(typo.code, 2);
  assert.match(typo.stderr, /unknown check fanuot \(did you mean fanout\?\)/);
  // port 9 (discard) is closed on loopback: the run ends at discovery, after the flags and the note
  const r = await runCli('aep', ['live', 'http://127.0.0.1:9/aep/events', '--no-progress', '--checks', 'discovery']);
  assert.doesNotMatch(r.stderr, /unknown option/);
  assert.match(r.stderr, /note: discovery is asked at http:\/\/127\.0\.0\.1:9\/aep\/events\/events;/);
  const plain = await runCli('aep', ['live', 'http://127.0.0.1:9/aep', '--checks', 'discovery']);
  assert.doesNotMatch(plain.stderr, /note: discovery/);
});
