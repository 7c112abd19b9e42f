import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readLines } from './read-jsonl.ts';

const read = readLines;

test('lines are numbered from 1 with exact byte offsets', async () => {
  const { lines, findings } = await read(['{"a":1}\n{"b":"é"}\n{"c":3}\n']);
  assert.deepEqual(
    lines.map((l) => [l.line, l.byteOffset, l.text]),
    [
      [1, 0, '{"a":1}'],
      [2, 8, '{"b":"é"}'],
      [3, 19, '{"c":3}'],
    ],
  );
  assert.deepEqual(findings, []);
});

test('CRLF is accepted when the protocol accepts it; a lone CR is not a line break', async () => {
  const { lines } = await read(['{"a":1}\r\n{"b":"x\ry"}\n'], { cr: 'accept-crlf' });
  assert.deepEqual(
    lines.map((l) => l.text),
    ['{"a":1}', '{"b":"x\ry"}'],
  );
});

test('CR is a finding when the binding rejects it, and the line is still checked', async () => {
  const { lines, findings } = await read(['{"a":1}\r\n{"b":2}\n'], { cr: 'reject' });
  assert.deepEqual(
    lines.map((l) => l.text),
    ['{"a":1}', '{"b":2}'],
  );
  assert.deepEqual(
    findings.map((f) => [f.ruleId, f.line, f.column]),
    [['jsonl/carriage-return', 1, 8]],
  );
});

test('a last line without newline is checked and noted as info', async () => {
  const { lines, findings } = await read(['{"a":1}\n{"b":2}']);
  assert.equal(lines.length, 2);
  assert.equal(lines[1].unterminated, true);
  assert.deepEqual(
    findings.map((f) => [f.ruleId, f.severity, f.line]),
    [['jsonl/no-final-newline', 'info', 2]],
  );
});

test('blank and whitespace-only lines are errors and keep line numbers', async () => {
  const { lines, findings } = await read(['{"a":1}\n\n  \n{"b":2}\n']);
  assert.deepEqual(
    lines.map((l) => l.line),
    [1, 4],
  );
  assert.deepEqual(
    findings.map((f) => [f.ruleId, f.severity, f.line]),
    [
      ['jsonl/blank-line', 'error', 2],
      ['jsonl/blank-line', 'error', 3],
    ],
  );
});

test('a UTF-8 BOM is reported and skipped; offsets still count it', async () => {
  const { lines, findings } = await read([Buffer.from([0xef, 0xbb, 0xbf]), '{"a":1}\n']);
  assert.deepEqual(
    findings.map((f) => f.ruleId),
    ['jsonl/bom'],
  );
  assert.equal(lines[0].byteOffset, 3);
  assert.equal(lines[0].text, '{"a":1}');
});

test('invalid UTF-8 is reported with its exact byte offset, never replaced', async () => {
  const bad = Buffer.concat([Buffer.from('{"a":1}\n{"b":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}\n{"c":3}\n')]);
  const { lines, findings } = await read([bad]);
  assert.deepEqual(
    lines.map((l) => l.line),
    [1, 3],
  );
  assert.equal(findings.length, 1);
  assert.equal(findings[0].ruleId, 'jsonl/invalid-utf8');
  assert.equal(findings[0].line, 2);
  assert.equal(findings[0].byteOffset, 8 + 6);
  assert.equal(findings[0].column, 7);
});

test('a multi-byte character split across chunks decodes correctly', async () => {
  const bytes = Buffer.from('{"a":"€😀"}\n');
  for (let cut = 1; cut < bytes.length; cut++) {
    const { lines, findings } = await read([bytes.subarray(0, cut), bytes.subarray(cut)]);
    assert.deepEqual(findings, [], `cut at ${cut}`);
    assert.equal(lines[0].text, '{"a":"€😀"}');
  }
});

test('an over-long line is reported once, skipped without buffering, and reading resumes', async () => {
  const long = '{"a":"' + 'x'.repeat(5000) + '"}';
  const chunks = ['{"ok":1}\n', long.slice(0, 1000), long.slice(1000, 3000), long.slice(3000) + '\n{"ok":2}\n'];
  const { lines, findings } = await read(chunks, { maxLineBytes: 100 });
  assert.deepEqual(
    lines.map((l) => [l.line, l.text]),
    [
      [1, '{"ok":1}'],
      [3, '{"ok":2}'],
    ],
  );
  assert.deepEqual(
    findings.map((f) => [f.ruleId, f.line, f.byteOffset]),
    [['jsonl/line-too-long', 2, 9]],
  );
});

test('empty input is a finding, never a silent pass', async () => {
  const { findings } = await read([]);
  assert.deepEqual(
    findings.map((f) => [f.ruleId, f.severity]),
    [['jsonl/empty-input', 'error']],
  );
  // blank lines only: the input holds no event, said after the blank lines, at the end of the input
  const blank = await read(['\n\n']);
  assert.deepEqual(
    blank.findings.map((f) => [f.ruleId, f.line, f.column, f.byteOffset]),
    [
      ['jsonl/blank-line', 1, 1, 0],
      ['jsonl/blank-line', 2, 1, 1],
      ['jsonl/empty-input', 2, undefined, 2],
    ],
  );
});

test('a line that is there but unreadable is its own finding, not also an empty input', async () => {
  const bad = Buffer.from('{"agent":"a\xff"}\n', 'latin1');
  assert.deepEqual(
    (await read([bad])).findings.map((f) => [f.ruleId, f.line, f.column]),
    [['jsonl/invalid-utf8', 1, 12]],
  );
  const long = await read(['{"a":"' + 'x'.repeat(40) + '"}\n'], { maxLineBytes: 16 });
  assert.deepEqual(
    long.findings.map((f) => f.ruleId),
    ['jsonl/line-too-long'],
  );
  const unbounded = await read(['{"a":"' + 'x'.repeat(40)], { maxLineBytes: 16 });
  assert.deepEqual(
    unbounded.findings.map((f) => f.ruleId),
    ['jsonl/line-too-long', 'jsonl/no-final-newline'],
  );
});
