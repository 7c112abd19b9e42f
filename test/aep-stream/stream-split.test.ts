/**
 * AEP-0007 §6: "Emitters MUST apply the pipeline over a window spanning delta boundaries": the whole AEP-0003 §9.4
 * pipeline, so a rule (a) secret, a rule (c) home path and a rule (d) email or phone number split at any point across
 * two deltas is found, by the delta rule of its class or by the per-event rule where one delta shows it alone.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { brief, checkText, event, jsonl } from './helpers.ts';

const delta = (seq: number, text: string, capture = 'redacted') =>
  event('stream.delta', seq, { subject: 'm1', severity: 'debug', capture, data: { text } });
const stream = (parts: readonly string[], capture = 'redacted') => [
  event('stream.started', 0, { id: 'st', subject: 'm1', data: { kind: 'output' } }),
  ...parts.map((p, i) => delta(i + 1, p, capture)),
  event('stream.finished', parts.length + 1, { subject: 'm1', cause: 'st', data: { reason: 'aborted' } }),
];

/** Each text with the rules that may report it: its split rule and the per-event rule of its class. */
const CASES: readonly [string, readonly string[]][] = [
  ['key AKIAIOSFODNN7EXAMPLE done', ['aep/stream-split-leak', 'aep/redaction-leak']],
  ['the log is in /home/alice/build now', ['aep/stream-split-home-path', 'aep/redaction-home-path']],
  ['see /Users/bob/src ok', ['aep/stream-split-home-path', 'aep/redaction-home-path']],
  ['write to bob.smith@example.com today', ['aep/stream-split-pii', 'aep/redaction-leak-pii']],
  ['call +1 415 555 0134 now', ['aep/stream-split-pii', 'aep/redaction-leak-pii']],
];

async function ruleIds(parts: readonly string[], capture = 'redacted'): Promise<string[]> {
  const fs = await checkText(jsonl(stream(parts, capture)), { profile: 'aep-0007' });
  return fs.filter((f) => f.severity !== 'info').map((f) => f.ruleId);
}

test('stream split: a secret, home path or PII cut at any point across two deltas is reported by its class', async () => {
  for (const [text, rules] of CASES)
    for (let cut = 1; cut < text.length; cut++) {
      const parts = [text.slice(0, cut), text.slice(cut)];
      const ids = await ruleIds(parts);
      assert.ok(ids.length > 0, `${JSON.stringify(parts)}: nothing reported`);
      for (const id of ids) assert.ok(rules.includes(id), `${JSON.stringify(parts)}: ${id}`);
    }
});

test('stream split: the split rules fire where neither delta shows the match alone', async () => {
  assert.deepEqual(await ruleIds(['in /ho', 'me/alice/x']), ['aep/stream-split-home-path']);
  assert.deepEqual(await ruleIds(['mail bob@exa', 'mple.com ok']), ['aep/stream-split-pii']);
  assert.deepEqual(await ruleIds(['call +1 415 55', '5 0134 now']), ['aep/stream-split-pii']);
});

test('stream split: clean text cut anywhere, text at full, and other streams give no finding', async () => {
  const clean = 'build ~/src at 10:30 on 2026-11-30, git@github.com:org/repo and /srv/home/x';
  // (a fragment such as "git@github.co" may look like an address alone: that is the per-event rule's to judge)
  for (let cut = 1; cut < clean.length; cut++) {
    const ids = await ruleIds([clean.slice(0, cut), clean.slice(cut)]);
    assert.deepEqual(
      ids.filter((id) => id.startsWith('aep/stream-split')),
      [],
      `cut ${cut}`,
    );
  }
  assert.deepEqual(await ruleIds([clean]), []);
  // verbatim text claims no pipeline (AEP-0001 §8.2), so a full delta breaks the window
  assert.deepEqual(await ruleIds(['in /ho', 'me/alice/x'], 'full'), []);
  const other = [
    ...stream(['in /ho']),
    event('stream.delta', 9, { subject: 'm2', severity: 'debug', capture: 'redacted', data: { text: 'me/alice/x' } }),
  ];
  const fs = await checkText(jsonl(other), { profile: 'aep-0007' });
  assert.ok(!fs.some((f) => f.ruleId.startsWith('aep/stream-split')), brief(fs));
});
