/** Binary input (src/core/binary.ts): one `jsonl/binary-input` at 1:1 instead of a parse finding per stray line. */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { SNIFF_BYTES, sniffBinary } from '../../src/core/binary.ts';
import type { Finding } from '../../src/core/finding.ts';
import { validate } from '../../src/index.ts';
import { readLines } from './read-jsonl.ts';

const EVENT =
  '{"aep":"0.1","id":"b-1","type":"progress.status","time":"2026-11-30T10:00:00Z","source":"aep://h/agent/a/session/s","agent":"a","session":"s","seq":0,"message":"進捗 ünïcödé 😀"}\n';

const read = readLines;

const rules = (fs: readonly Finding[]) => fs.map((f) => `${f.ruleId}@${f.line}:${f.column}`);
/** `bytes` cut into chunks of `size` (a signature split across reads). */
const chunked = (bytes: Buffer, size: number) => {
  const out: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out;
};

const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), randomBytes(3000)]);
const samples: [string, Buffer, string][] = [
  ['PNG', PNG, 'signature'],
  ['JPEG', Buffer.concat([Buffer.from('ffd8ffe0', 'hex'), Buffer.from('\n{}\n')]), 'signature'],
  ['PDF', Buffer.from('%PDF-1.7\n%\u00e2\u00e3\n1 0 obj\n'), 'signature'],
  ['ZIP', Buffer.concat([Buffer.from('504b0304', 'hex'), Buffer.from(EVENT)]), 'compressed'],
  ['bzip2', Buffer.from('BZh91AY&SY'), 'compressed'],
  ['xz', Buffer.from('fd377a585a000004', 'hex'), 'compressed'],
  ['UTF-16 with a byte order mark', Buffer.from(`\ufeff${EVENT}`, 'utf16le'), 'utf16'],
  ['UTF-16LE without one', Buffer.from(EVENT.replace(/[^\x20-\x7e\n]/g, 'x'), 'utf16le'), 'utf16'],
  ['UTF-16BE without one', Buffer.from(EVENT.replace(/[^\x20-\x7e\n]/g, 'x'), 'utf16le').swap16(), 'utf16'],
  ['random bytes', randomBytes(4096), 'binary'],
  ['NUL padding', Buffer.alloc(600), 'binary'],
  ['a NUL-heavy first line', Buffer.concat([Buffer.alloc(200), Buffer.from(EVENT), Buffer.from(EVENT)]), 'binary'],
];

test('each kind of binary head is told, with its message; text is not', () => {
  for (const [what, bytes, messageId] of samples) assert.equal(sniffBinary(bytes)?.messageId, messageId, what);
  const texts: [string, Buffer][] = [
    ['JSONL with raw non-ASCII UTF-8', Buffer.from(EVENT.repeat(10))],
    ['CJK text only', Buffer.from('日本語のテキスト'.repeat(100))],
    ['a few Latin-1 bytes in ASCII JSONL', Buffer.from(EVENT.replace('ünïcödé', 'caf\u00e9'), 'latin1')],
    ['one NUL in a line', Buffer.from(EVENT.replace('"a"', '"\u0000"').repeat(3))],
    ['tabs, CR and a form feed', Buffer.from(`\t${EVENT.trim()}\r\n\f\n`)],
    ['an empty input', Buffer.alloc(0)],
    // the window ends with the first line, so a live stream is not held; what follows is read line by line
    ['a text first line, then NULs', Buffer.concat([Buffer.from(EVENT), Buffer.alloc(2000)])],
  ];
  for (const [what, bytes] of texts) assert.equal(sniffBinary(bytes), undefined, what);
});

test('the reader gives one finding at 1:1 for a binary input, whatever its chunks; it reads no chunk past the decision', async () => {
  for (const [what, bytes] of samples)
    for (const size of [1, 7, SNIFF_BYTES, 65536]) {
      const r = await read(chunked(bytes, size));
      assert.deepEqual(rules(r.findings), ['jsonl/binary-input@1:1'], `${what}, chunks of ${size}`);
      assert.deepEqual(r.lines, []);
      // the chunk that completed the sniffed head is the last one read (an endless source ends the run)
      const most = Math.min(bytes.length, Math.ceil(SNIFF_BYTES / size) * size);
      assert.ok(r.stats.bytes <= most && r.stats.bytes >= Math.min(bytes.length, 16), `${what}, chunks of ${size}`);
    }
  // a text input short of the sniffed window, and one split across reads, is read as before
  for (const size of [1, 5, 4096]) {
    const r = await read(chunked(Buffer.from(EVENT.repeat(3)), size));
    assert.deepEqual(r.findings, [], `chunks of ${size}`);
    assert.equal(r.lines.length, 3);
  }
  // the window is the same however the input is chunked: a text first line is text at every size
  const textThenNul = Buffer.concat([Buffer.from(EVENT), Buffer.alloc(2000)]);
  for (const size of [1, 7, 100, 65536]) {
    const r = await read(chunked(textThenNul, size));
    assert.deepEqual(rules(r.findings), ['jsonl/no-final-newline@2:undefined'], `chunks of ${size}`);
    assert.equal(r.lines.length, 2);
  }
  // a byte order mark split across reads is still one
  const bom = await read(chunked(Buffer.from(`\ufeff${EVENT}`), 1));
  assert.deepEqual(rules(bom.findings), ['jsonl/bom@1:1']);
  assert.equal(bom.lines.length, 1);
});

test('both protocols, every framing: one finding for the binary input, the other inputs still checked', async () => {
  const text = { text: EVENT, source: 'ok.jsonl' };
  for (const bytes of [PNG, gzipSync(PNG)]) {
    const { findings, summary } = await validate('aep', [{ bytes, source: 'image.jsonl' }, text]);
    assert.equal(summary.events, 1);
    assert.deepEqual(
      findings.map((f) => `${f.ruleId}@${f.source}:${f.line}`),
      ['jsonl/binary-input@image.jsonl:1'],
    );
  }
  for (const source of ['capture.jsonl', 'body.json', 'hooks.registration.json']) {
    const { findings } = await validate('ahp', { bytes: PNG, source });
    assert.deepEqual(
      findings.map((f) => `${f.ruleId}@${f.line}:${f.column}`),
      ['jsonl/binary-input@1:1'],
      source,
    );
    assert.match(findings[0]!.message, /signature of a PNG image/);
  }
});

test('property: one invalid UTF-8 byte in JSON-looking text is invalid UTF-8, never binary, at every size 1..64', async () => {
  const fc = (await import('fast-check')).default;
  // a JSON-looking line of `size` bytes (newline included) with one bad byte inside a string member
  const line = fc
    .record({ size: fc.integer({ min: 1, max: 64 }), bad: fc.constantFrom(0xff, 0xfe, 0xc0, 0x80, 0xf5) })
    .chain(({ size, bad }) =>
      fc.record({ size: fc.constant(size), bad: fc.constant(bad), at: fc.nat({ max: Math.max(0, size - 1) }) }),
    );
  await fc.assert(
    fc.asyncProperty(line, async ({ size, bad, at }) => {
      // `{"a":"x…x"}\n` when there is room for it, else a run of `x` with the bad byte at `at`
      const frame = Buffer.from('{"a":""}\n');
      const bytes =
        size >= frame.length + 1
          ? Buffer.concat([Buffer.from('{"a":"'), Buffer.alloc(size - frame.length, 'x'), Buffer.from('"}\n')])
          : Buffer.alloc(size, 'x');
      const pos = size >= frame.length + 1 ? 6 + (at % (size - frame.length)) : at;
      bytes[pos] = bad;
      assert.equal(sniffBinary(bytes), undefined, `${bytes.toString('hex')}`);
      for (const protocol of ['aep', 'ahp'] as const) {
        const { findings } = await validate(protocol, { bytes, source: 't.jsonl' });
        const ids = findings.map((f) => f.ruleId);
        assert.ok(!ids.includes('jsonl/binary-input'), `${protocol} ${bytes.toString('hex')}: ${ids}`);
        assert.ok(ids.includes('jsonl/invalid-utf8'), `${protocol} ${bytes.toString('hex')}: ${ids}`);
      }
    }),
    { numRuns: 200 },
  );
  // and a head that is mostly odd bytes is binary at every size from 2 (one byte alone is no sample)
  for (let size = 2; size <= 64; size++)
    assert.equal(sniffBinary(Buffer.alloc(size, 0))?.messageId, 'binary', `${size} NULs`);
});
