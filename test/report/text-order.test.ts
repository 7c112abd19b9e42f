// The text reporter prints one line's findings by column (they arrive in check order), keeps
// lines in arrival order, and holds nothing back past the next turn of the event loop.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Finding } from '../../src/core/finding.ts';
import { textReporter } from '../../src/report/text.ts';

const f = (line: number, column: number, ruleId: string): Finding =>
  ({ ruleId, severity: 'error', message: ruleId, source: 'a.jsonl', line, column, spec: 's' }) as Finding;

test('text reporter: findings of one line by column, lines in arrival order', () => {
  let out = '';
  const r = textReporter({ write: (s: string) => void (out += s) }, { protocol: 'aep', version: '0', color: false });
  for (const x of [f(12, 532, 'x/late'), f(12, 88, 'x/early'), f(3, 9, 'x/three'), f(13, 1, 'x/end')]) r.finding(x);
  r.finish({ events: 3, inputs: 1, errors: 4, warnings: 0, infos: 0, byRule: {}, omitted: 0 } as never);
  const locations = out
    .split('\n')
    .filter((l) => l.startsWith('a.jsonl:'))
    .map((l) => l.split(/\s+/)[0]);
  assert.deepEqual(locations, ['a.jsonl:12:88', 'a.jsonl:12:532', 'a.jsonl:3:9', 'a.jsonl:13:1']);
});

test('text reporter: a held line is written on the next turn of the event loop, before the end', async () => {
  let out = '';
  const r = textReporter({ write: (s: string) => void (out += s) }, { protocol: 'aep', version: '0', color: false });
  r.finding(f(5, 2, 'x/live'));
  assert.equal(out, '', 'held within the turn');
  await new Promise((resolve) => setImmediate(resolve));
  assert.match(out, /a\.jsonl:5:2 {2}error {2}x\/live/);
});
