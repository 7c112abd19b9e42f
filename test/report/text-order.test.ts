// The text reporter prints one line's findings by column (they arrive in check order), keeps
// lines in arrival order, and holds nothing back past the next turn of the event loop.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Finding } from '../../src/core/finding.ts';
import { textReporter } from '../../src/report/text.ts';
import { sortFindings } from '../../src/report/util.ts';
import { FINDINGS, renderValidate } from './helpers.ts';

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

test('report order: a finding at no column of a line (its end, the whole input) comes after those at a column', () => {
  const noColumn = { ...f(1, 1, 'jsonl/empty-input'), column: undefined };
  const fs = [noColumn, f(1, 126, 'jsonl/invalid-utf8'), f(1, 1, 'jsonl/bom')];
  assert.deepEqual(
    sortFindings(fs).map((x) => x.ruleId),
    ['jsonl/bom', 'jsonl/invalid-utf8', 'jsonl/empty-input'],
  );
  let out = '';
  const r = textReporter({ write: (s: string) => void (out += s) }, { protocol: 'aep', version: '0', color: false });
  for (const x of fs) r.finding(x);
  r.finish({ events: 0, inputs: 1, errors: 3, warnings: 0, infos: 0, byRule: {}, omitted: 0 } as never);
  assert.deepEqual(
    out.split('\n').flatMap((l) => (l.startsWith('a.jsonl:') ? [l.split(/\s+/)[2]] : [])),
    ['jsonl/bom', 'jsonl/invalid-utf8', 'jsonl/empty-input'],
  );
});

test('text reporter: a held line is written on the next turn of the event loop, before the end', async () => {
  let out = '';
  const r = textReporter({ write: (s: string) => void (out += s) }, { protocol: 'aep', version: '0', color: false });
  r.finding(f(5, 2, 'x/live'));
  assert.equal(out, '', 'held within the turn');
  await new Promise((resolve) => setImmediate(resolve));
  assert.match(out, /a\.jsonl:5:2 {2}error {2}x\/live/);
});

test('text reporter: a file name with a newline or an escape sequence keeps one finding a line and writes no control character', () => {
  const source = 'evil\n\u001b[31mname\r.jsonl';
  const findings = FINDINGS.map((f) => ({ ...f, source }));
  const out = renderValidate('text', {}, findings);
  assert.doesNotMatch(out, /[\u0000-\u0009\u000b-\u001f\u007f]/, 'no control character but the line ends');
  const lines = out.split('\n').filter((l) => l.startsWith('evilU+000AU+001B[31mnameU+000D.jsonl:'));
  assert.equal(lines.length, findings.filter((x) => x.line !== undefined).length, out);
});
