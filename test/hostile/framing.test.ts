/**
 * Hostile framing: BOM, CR/CRLF, line separators inside strings, blank lines, missing final
 * newline, truncated last line, invalid UTF-8, characters split across read chunks and lines
 * over the length cap. Each gives one clear finding with an exact location (or none), through
 * the whole AEP pipeline, never an exception or a silent change of meaning.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Finding } from '../../src/core/finding.ts';
import { readJsonl, type JsonlLine } from '../../src/core/jsonl.ts';
import { aepEvent, brief, ids, jsonl, run } from './helpers.ts';

const ok1 = aepEvent('progress.status', 0);
const ok2 = aepEvent('progress.status', 1);
const ok3 = aepEvent('progress.status', 2);

test('a UTF-8 BOM is one jsonl/bom at line 1, column 1, byte 0; the first event is still checked', async () => {
  const text = jsonl([ok1, ok2]);
  const { findings, stats } = await run([Buffer.from([0xef, 0xbb, 0xbf]), text]);
  assert.deepEqual(brief(findings), ['jsonl/bom@1:1']);
  assert.equal(findings[0].byteOffset, 0);
  assert.equal(stats.events, 2);
  assert.equal(stats.bytes, 3 + Buffer.byteLength(text));
});

test('a BOM split across read chunks (1-byte chunks) is still one jsonl/bom, and offsets count it', async () => {
  const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(jsonl([ok1, '{"broken"']))]);
  const whole = await run(bytes);
  for (const cut of [[1], [2], [1, 2], [1, 3], [2, 4]]) {
    const parts: Buffer[] = [];
    let at = 0;
    for (const c of cut) {
      parts.push(bytes.subarray(at, c));
      at = c;
    }
    parts.push(bytes.subarray(at));
    const split = await run(parts);
    assert.deepEqual(split.findings, whole.findings, `cut at ${cut.join(',')}`);
  }
  assert.deepEqual(ids(whole.findings), ['jsonl/bom', 'jsonl/invalid-json']);
  const lineStart = 3 + Buffer.byteLength(JSON.stringify(ok1)) + 1;
  assert.equal(whole.findings[1].line, 2);
  assert.equal(whole.findings[1].byteOffset, lineStart + '{"broken"'.length);
});

test('input of only the first bytes of a BOM is a line, not a crash', async () => {
  for (const bytes of [[0xef], [0xef, 0xbb]]) {
    const { findings } = await run([Buffer.from(bytes)]);
    assert.deepEqual(ids(findings), ['jsonl/invalid-utf8', 'jsonl/no-final-newline']);
    assert.equal(findings[0].byteOffset, 0);
  }
});

test('AEP accepts CRLF line ends: no finding, same events and line numbers as LF', async () => {
  const lf = jsonl([ok1, ok2, ok3]);
  const crlf = lf.replace(/\n/g, '\r\n');
  const a = await run(lf);
  const b = await run(crlf);
  assert.deepEqual(a.findings, []);
  assert.deepEqual(b.findings, []);
  assert.equal(b.stats.lines, 3);
  assert.equal(b.stats.events, 3);
});

test('a CRLF split between two read chunks is still one line end', async () => {
  const text = jsonl([ok1, ok2]).replace(/\n/g, '\r\n');
  const at = text.indexOf('\r') + 1;
  const { findings, stats } = await run([text.slice(0, at), text.slice(at)]);
  assert.deepEqual(findings, []);
  assert.equal(stats.lines, 2);
});

test('a lone CR is never a line break: as JSON whitespace it is accepted, inside a string it is invalid JSON at its column', async () => {
  const asWs = JSON.stringify(ok1).replace(',"type"', ',\r"type"');
  const inStr = JSON.stringify(aepEvent('progress.status', 1, { data: { message: 'a\rb' } })).replace('a\\rb', 'a\rb');
  const { findings, stats } = await run(jsonl([asWs, inStr, ok3]));
  assert.equal(stats.lines, 3);
  assert.deepEqual(brief(findings), [`jsonl/invalid-json@2:${inStr.indexOf('\r') + 1}`]);
  assert.match(findings[0].message, /control character U\+000D/);
});

test('two events joined by a lone CR (old Mac line ends) are one invalid line whose message names the CR', async () => {
  const joined = `${JSON.stringify(ok1)}\r${JSON.stringify(ok3)}`;
  const { findings, stats } = await run(jsonl([joined]));
  assert.equal(stats.lines, 1);
  assert.deepEqual(brief(findings), [`jsonl/invalid-json@1:${joined.indexOf('\r') + 2}`]);
  assert.match(findings[0].message, /a carriage return \(CR\) before it ends one value and another begins/);
  // a CR that is only whitespace inside the value says nothing of it (previous test); nor does other invalid JSON
  const other = await run(jsonl([`${JSON.stringify(ok1)} {"b":2}`]));
  assert.doesNotMatch(other.findings[0].message, /carriage return/);
});

test('U+2028, U+2029 and NEL raw inside strings are data, not line breaks', async () => {
  const raw = aepEvent('progress.status', 0, {
    capture: 'redacted',
    data: { message: 'one\u2028two\u2029three\u0085four' },
  });
  const text = jsonl([raw, ok2]);
  assert.ok(text.includes('\u2028') && text.includes('\u2029') && text.includes('\u0085'));
  const lines: JsonlLine[] = [];
  await readJsonl(
    [text],
    't',
    (l) => lines.push(l),
    () => {},
  );
  assert.equal(lines.length, 2);
  assert.equal(
    (JSON.parse(lines[0].text) as { data: { message: string } }).data.message,
    'one\u2028two\u2029three\u0085four',
  );
  assert.equal(lines[1].byteOffset, Buffer.byteLength(JSON.stringify(raw)) + 1);
  const { findings, stats } = await run(text);
  assert.deepEqual(findings, []);
  assert.equal(stats.lines, 2);
});

test('blank and whitespace-only lines are errors that keep the line numbering', async () => {
  const { findings, stats } = await run(`${JSON.stringify(ok1)}\n\n \t\n${JSON.stringify({ ...ok2, seq: 'x' })}\n`);
  assert.deepEqual(brief(findings).slice(0, 2), ['jsonl/blank-line@2:1', 'jsonl/blank-line@3:1']);
  assert.equal(findings[2].line, 4, 'the event after the blank lines keeps its physical line number');
  assert.equal(stats.lines, 4);
});

test('a last line without newline is checked and noted once as info', async () => {
  const text = jsonl([ok1, ok2]).slice(0, -1);
  const { findings, stats } = await run(text);
  assert.deepEqual(
    findings.map((f) => [f.ruleId, f.severity, f.line, f.byteOffset]),
    [['jsonl/no-final-newline', 'info', 2, Buffer.byteLength(text)]],
  );
  assert.equal(stats.events, 2);
});

test('a truncated last line is invalid JSON at its end, named as looking truncated', async () => {
  const full = JSON.stringify(ok2);
  const cut = full.slice(0, 40);
  const { findings } = await run(`${JSON.stringify(ok1)}\n${cut}`);
  assert.deepEqual(brief(findings), [`jsonl/invalid-json@2:${cut.length + 1}`, 'jsonl/no-final-newline@2:-']);
  assert.match(findings[0].message, /truncated/);
  assert.equal(findings[0].byteOffset, Buffer.byteLength(JSON.stringify(ok1)) + 1 + cut.length);
});

test('invalid UTF-8 is one finding at the exact byte offset of the first bad byte; the next line is checked', async () => {
  const before = Buffer.from(
    JSON.stringify(aepEvent('progress.status', 0, { data: { message: 'é€ ' } })).replace('"}}', ''),
  );
  for (const bad of [[0xff], [0xc3, 0x28], [0xe2, 0x82], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xc0, 0xaf]]) {
    const line2 = Buffer.concat([before, Buffer.from(bad), Buffer.from('"}}')]);
    const first = Buffer.from(JSON.stringify(ok1) + '\n');
    const bytes = Buffer.concat([first, line2, Buffer.from('\n' + JSON.stringify(ok2) + '\n')]);
    const { findings, stats } = await run(bytes);
    assert.deepEqual(ids(findings), ['jsonl/invalid-utf8'], `bytes ${bad.join(' ')}`);
    assert.equal(findings[0].line, 2);
    assert.equal(findings[0].byteOffset, first.length + before.length, `bytes ${bad.join(' ')}`);
    assert.equal(findings[0].column, before.toString('utf8').length + 1);
    assert.equal(stats.events, 2);
  }
});

test('every split of a multi-byte, multi-line input into read chunks gives the same lines, offsets and findings', async () => {
  const text = jsonl([
    aepEvent('progress.status', 0, { data: { message: 'ä€😀\u2028x' } }),
    '{"a":"😀"',
    '',
    aepEvent('progress.status', 1, { data: { message: '𝄞' } }),
  ]);
  const bytes = Buffer.from(text);
  const collect = async (chunks: Buffer[]) => {
    const lines: JsonlLine[] = [];
    const findings: Finding[] = [];
    await readJsonl(
      chunks,
      't',
      (l) => lines.push(l),
      (f) => findings.push(f),
    );
    return { lines, findings };
  };
  const whole = await collect([bytes]);
  assert.equal(whole.lines.length, 3);
  for (const size of [1, 2, 3, 5, 7]) {
    const chunks: Buffer[] = [];
    for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size));
    assert.deepEqual(await collect(chunks), whole, `chunk size ${size}`);
  }
  for (let cut = 1; cut < bytes.length; cut++) {
    assert.deepEqual(await collect([bytes.subarray(0, cut), bytes.subarray(cut)]), whole, `cut at ${cut}`);
  }
});

test('a line over --max-line-bytes is one finding; reading resumes on the next line with exact numbers', async () => {
  const long = JSON.stringify(aepEvent('progress.status', 1, { data: { message: 'x'.repeat(5000) } }));
  const text = jsonl([ok1, long, ok3]);
  for (const chunk of [16, 1000, 1 << 20]) {
    const bytes = Buffer.from(text);
    const chunks: Buffer[] = [];
    for (let i = 0; i < bytes.length; i += chunk) chunks.push(bytes.subarray(i, i + chunk));
    const { findings, stats } = await run(chunks, { maxLineBytes: 1024 });
    assert.deepEqual(brief(findings), ['jsonl/line-too-long@2:1'], `chunk ${chunk}`);
    assert.equal(findings[0].byteOffset, JSON.stringify(ok1).length + 1);
    assert.equal(stats.lines, 3);
    assert.equal(stats.events, 2);
  }
});

test('an over-long line streamed in many chunks is skipped without buffering it', async () => {
  const cap = 64 * 1024;
  const piece = Buffer.alloc(16 * 1024, 0x61); // reused: the reader must copy what it keeps
  const total = 64 * 1024 * 1024;
  let peak = 0;
  const base = process.memoryUsage().arrayBuffers;
  async function* input() {
    yield Buffer.from('{"a":"');
    for (let sent = 0; sent < total; sent += piece.length) {
      yield piece;
      if (sent % (1 << 20) === 0) peak = Math.max(peak, process.memoryUsage().arrayBuffers - base);
    }
    yield Buffer.from('"}\n{"b":1}\n');
  }
  const lines: JsonlLine[] = [];
  const findings: Finding[] = [];
  const st = await readJsonl(
    input(),
    't',
    (l) => lines.push(l),
    (f) => findings.push(f),
    { maxLineBytes: cap },
  );
  assert.deepEqual(brief(findings), ['jsonl/line-too-long@1:1']);
  assert.deepEqual(
    lines.map((l) => [l.line, l.text]),
    [[2, '{"b":1}']],
  );
  assert.equal(lines[0].byteOffset, 6 + total + 3);
  assert.equal(st.bytes, 6 + total + 11);
  assert.ok(peak < 8 * 1024 * 1024, `the reader held ${peak} bytes of a 64 MiB line with a 64 KiB cap`);
});

test('an over-long last line without newline is reported, and so is the missing newline', async () => {
  const { findings } = await run([JSON.stringify(ok1) + '\n', 'y'.repeat(3000)], { maxLineBytes: 1024 });
  assert.deepEqual(brief(findings), ['jsonl/line-too-long@2:1', 'jsonl/no-final-newline@2:-']);
});

test('empty input and input of only blank lines are reported, never a silent pass', async () => {
  assert.deepEqual(ids((await run([])).findings), ['jsonl/empty-input']);
  assert.deepEqual(ids((await run('')).findings), ['jsonl/empty-input']);
  assert.deepEqual(ids((await run('\n\n')).findings), ['jsonl/blank-line', 'jsonl/blank-line', 'jsonl/empty-input']);
});
