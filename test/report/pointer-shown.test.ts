// The text reporter shows a long JSON Pointer with its middle elided; the machine formats keep it whole.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { shownPointer } from '../../src/report/util.ts';
import { runCli } from '../cli/helpers.ts';

test('a pointer up to 160 characters or 8 segments is shown whole; a longer one keeps 3 segments each side', () => {
  for (const p of ['', '/a', '/data/tool/call_id', `/${'k'.repeat(300)}`, '/a/b/c/d/e/f/g'])
    assert.equal(shownPointer(p), p);
  const deep = '/0'.repeat(257);
  assert.equal(shownPointer(deep), '/0/0/0/…(251 more)…/0/0/0');
  const named = ['', ...Array.from({ length: 40 }, (_, i) => `member${i}`)].join('/');
  const shown = shownPointer(named);
  assert.equal(shown, '/member0/member1/member2/…(34 more)…/member37/member38/member39');
  assert.equal(3 + 34 + 3, 40);
});

test('text elides the jsonl/max-depth pointer; json keeps it whole', async () => {
  const deep = `${'['.repeat(300)}${']'.repeat(300)}\n`;
  const text = await runCli('aep', ['validate', '-'], deep);
  assert.match(text.stdout, /jsonl\/max-depth .* \/0\/0\/0\/…\(\d+ more\)…\/0\/0\/0 {2}\[/);
  const json = await runCli('aep', ['validate', '-', '--format', 'json'], deep);
  const f = (JSON.parse(json.stdout) as { findings: { ruleId: string; pointer: string }[] }).findings[0]!;
  assert.equal(f.ruleId, 'jsonl/max-depth');
  assert.equal(f.pointer, '/0'.repeat(f.pointer.length / 2));
  assert.ok(f.pointer.length > 160);
});
