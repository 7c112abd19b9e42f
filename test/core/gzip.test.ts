/**
 * gzip-compressed inputs (src/core/gzip.ts, RFC 1952): told by their magic bytes on any input
 * (a file of any name, standard input, a library stream), read decompressed with the line
 * numbers of the decompressed text; several members are one stream; a cut or damaged stream is
 * one `jsonl/gzip-corrupt` finding at the line it cut.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { test } from 'node:test';
import { constants, deflateRawSync, gzipSync } from 'node:zlib';
import { validate } from '../../src/api/validate.ts';
import { runCli } from '../cli/helpers.ts';
import { tempDir } from '../temp.ts';

const AEP_PASS = readFileSync('conformance/aep/pass/aep.ack-cause.jsonl');
const AEP_FAIL = readFileSync('conformance/aep/fail/aep.time-format.jsonl');
const HTTP = readFileSync('conformance/ahp/pass/ahp.method-params--http.json');

const rules = (fs: readonly { ruleId: string; line?: number }[]) => fs.map((f) => `${f.ruleId}@${f.line}`).sort();

test('gzip: a compressed input gives exactly the findings of its text, with the same lines and offsets', async () => {
  for (const text of [AEP_PASS, AEP_FAIL]) {
    const plain = await validate('aep', { bytes: text, source: 'x.jsonl' });
    const gz = await validate('aep', { bytes: gzipSync(text), source: 'x.jsonl' });
    assert.deepEqual(gz.findings, plain.findings);
    assert.equal(gz.summary.events, plain.summary.events);
    assert.equal(gz.summary.bytes, text.length);
  }
  // one byte at a time: the magic split across chunks is still found
  const bytes = gzipSync(AEP_FAIL);
  const oneByOne = await validate('aep', {
    stream: (async function* () {
      for (const b of bytes) yield Uint8Array.of(b);
    })(),
    source: 'x',
  });
  assert.deepEqual(rules(oneByOne.findings), rules((await validate('aep', { bytes: AEP_FAIL, source: 'x' })).findings));
});

test('gzip: members one after another are one stream (cat a.gz b.gz)', async () => {
  const lines = AEP_FAIL.toString().split('\n');
  const a = Buffer.from(lines.slice(0, 2).join('\n') + '\n');
  const b = Buffer.from(lines.slice(2).join('\n'));
  const r = await validate('aep', { bytes: Buffer.concat([gzipSync(a), gzipSync(b)]), source: 'x' });
  assert.deepEqual(rules(r.findings), rules((await validate('aep', { bytes: AEP_FAIL, source: 'x' })).findings));
});

test('gzip: a truncated or corrupt stream is one jsonl/gzip-corrupt finding at the line it cut', async () => {
  const gz = gzipSync(AEP_PASS, { level: 1 });
  for (const cut of [10, 20, gz.length - 8, gz.length - 1]) {
    const r = await validate('aep', { bytes: gz.subarray(0, cut), source: 'x' });
    const corrupt = r.findings.filter((f) => f.ruleId === 'jsonl/gzip-corrupt');
    assert.equal(corrupt.length, 1, `cut at ${cut}: ${rules(r.findings)}`);
    assert.equal(
      r.findings.filter((f) => f.ruleId.startsWith('jsonl/') && f.ruleId !== 'jsonl/gzip-corrupt').length,
      0,
      `cut at ${cut}: ${rules(r.findings)}`,
    );
    assert.equal(r.summary.errors >= 1, true);
    // the message's counts agree: the bytes decompressed include the incomplete line it names
    const a = corrupt[0]!.args as { bytes: number; dropped: number };
    assert.ok(a.bytes >= a.dropped, `cut at ${cut}: ${corrupt[0]!.message}`);
    assert.equal(corrupt[0]!.byteOffset, a.bytes - a.dropped);
  }
  // a damaged CRC (RFC 1952 §2.3.1 CRC32): every line decompressed, the trailer is wrong
  const bad = Buffer.from(gz);
  bad[bad.length - 6] ^= 0xff;
  const crc = await validate('aep', { bytes: bad, source: 'x' });
  assert.equal(crc.findings.filter((f) => f.ruleId === 'jsonl/gzip-corrupt').length, 1);
  assert.match(crc.findings.find((f) => f.ruleId === 'jsonl/gzip-corrupt')!.message, /incorrect data check/);
  // the magic alone, then garbage
  const junk = await validate('aep', {
    bytes: Buffer.from([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 3, 0xff, 0xff, 0xff]),
    source: 'x',
  });
  assert.deepEqual(rules(junk.findings), ['jsonl/gzip-corrupt@1']);
  // raw deflate without the gzip header is not gzip: it is read as bytes (invalid UTF-8 or JSON)
  const raw = await validate('aep', { bytes: deflateRawSync(AEP_PASS, { flush: constants.Z_FINISH }), source: 'x' });
  assert.equal(
    raw.findings.some((f) => f.ruleId === 'jsonl/gzip-corrupt'),
    false,
  );
});

test('gzip CLI: a .jsonl.gz file, standard input and an AHP .json.gz HTTP body', async (t) => {
  const dir = tempDir(t, 'ac-gz-');
  writeFileSync(join(dir, 'log.jsonl.gz'), gzipSync(AEP_FAIL));
  const plain = await runCli('aep', ['validate', 'conformance/aep/fail/aep.time-format.jsonl', '-f', 'json']);
  const file = await runCli('aep', ['validate', join(dir, 'log.jsonl.gz'), '-f', 'json']);
  const stdin = await runCli('aep', ['validate', '-f', 'json'], gzipSync(AEP_FAIL));
  const strip = (s: string) => JSON.parse(s).findings.map((f: { source?: string }) => ({ ...f, source: undefined }));
  assert.equal(file.code, plain.code);
  assert.deepEqual(strip(file.stdout), strip(plain.stdout));
  assert.deepEqual(strip(stdin.stdout), strip(plain.stdout));
  writeFileSync(join(dir, 'msg.json.gz'), gzipSync(HTTP));
  const http = await runCli('ahp', ['validate', join(dir, 'msg.json.gz')]);
  assert.equal(http.code, 0, http.stdout);
  assert.match(http.stdout, /1 message, 0 errors/);
  const cut = await runCli('aep', ['validate', '-'], gzipSync(AEP_PASS).subarray(0, 30));
  assert.equal(cut.code, 1);
  assert.match(cut.stdout, /<stdin>:\d+ +error +jsonl\/gzip-corrupt /);
});

/** The one jsonl/gzip-corrupt finding of `r`, and the findings of `plain` it must keep. */
const corruptOf = (r: Awaited<ReturnType<typeof validate>>) => {
  const c = r.findings.filter((f) => f.ruleId === 'jsonl/gzip-corrupt');
  assert.equal(c.length, 1, rules(r.findings).join(' '));
  return c[0]!;
};
const LINES = AEP_PASS.toString().split('\n').length - 1;

test('gzip: bytes after the last member that are not gzip keep every line before them (RFC 1952 §2.2)', async () => {
  const plain = await validate('aep', { bytes: AEP_PASS, source: 'x' });
  const junk = Buffer.concat([gzipSync(AEP_PASS), Buffer.from('garbage\n')]);
  // whole, and one byte at a time: the member's end and the junk in one zlib call or many
  for (const stream of [false, true]) {
    const r = await validate('aep', {
      ...(stream
        ? {
            stream: (async function* () {
              for (const b of junk) yield Uint8Array.of(b);
            })(),
          }
        : { bytes: junk }),
      source: 'x',
    });
    assert.equal(r.summary.events, plain.summary.events);
    assert.deepEqual(
      r.findings.filter((f) => f.ruleId !== 'jsonl/gzip-corrupt'),
      plain.findings,
    );
    const c = corruptOf(r);
    assert.equal(c.line, LINES + 1);
    assert.equal(c.byteOffset, AEP_PASS.length);
    assert.match(
      c.message,
      new RegExp(
        `after ${AEP_PASS.length} bytes of decompressed text, the data after the last complete gzip member is not gzip.*all ${LINES} lines before it were checked`,
      ),
    );
  }
  // a last line without its newline is whole when its member is: checked, not dropped as cut
  const open = AEP_PASS.subarray(0, -1);
  const r = await validate('aep', { bytes: Buffer.concat([gzipSync(open), Buffer.from('xx')]), source: 'x' });
  assert.equal(r.summary.events, plain.summary.events);
  assert.deepEqual(rules(r.findings), [`jsonl/gzip-corrupt@${LINES + 1}`, `jsonl/no-final-newline@${LINES}`]);
});

test('gzip: junk between two members; NUL padding; a cut second member', async () => {
  const lines = AEP_PASS.toString().split('\n');
  const a = Buffer.from(`${lines.slice(0, 2).join('\n')}\n`);
  const b = Buffer.from(lines.slice(2).join('\n'));
  // junk in the middle: the first member's lines are checked, the second member is not read
  const mid = await validate('aep', {
    bytes: Buffer.concat([gzipSync(a), Buffer.from([0x1f, 0x8c, 1, 2]), gzipSync(b)]),
    source: 'x',
  });
  assert.equal(mid.summary.events, 2);
  const c = corruptOf(mid);
  assert.equal(c.line, 3);
  assert.match(c.message, new RegExp(`after ${a.length} bytes .* all 2 lines before it were checked`));
  // NUL bytes after the last member are padding (tar, dd blocks): the text is read as if they were not there
  const plain = await validate('aep', { bytes: AEP_PASS, source: 'x' });
  const padded = await validate('aep', {
    bytes: Buffer.concat([gzipSync(a), gzipSync(b), Buffer.alloc(1024)]),
    source: 'x',
  });
  assert.deepEqual(padded.findings, plain.findings);
  // but NUL bytes and then junk are junk, not padding
  const padJunk = await validate('aep', {
    bytes: Buffer.concat([gzipSync(AEP_PASS), Buffer.alloc(512), Buffer.from('junk')]),
    source: 'x',
  });
  assert.equal(padJunk.summary.events, plain.summary.events);
  assert.equal(corruptOf(padJunk).line, LINES + 1);
  // a second member cut short: still the damage of a truncated stream, after the first member's lines
  const gb = gzipSync(b);
  const cut = await validate('aep', {
    bytes: Buffer.concat([gzipSync(a), gb.subarray(0, gb.length - 4)]),
    source: 'x',
  });
  assert.match(corruptOf(cut).message, /truncated or corrupt \(zlib: unexpected end of file\)/);
  assert.equal(cut.summary.events >= 2, true);
});

test('gzip: a damaged CRC or length leaves every complete line checked (RFC 1952 §2.3.1)', async () => {
  const plain = await validate('aep', { bytes: AEP_PASS, source: 'x' });
  const gz = gzipSync(AEP_PASS);
  for (const [at, reason] of [
    [gz.length - 6, 'incorrect data check'],
    [gz.length - 2, 'incorrect length check'],
  ] as const) {
    const bad = Buffer.from(gz);
    bad[at] ^= 0xff;
    const r = await validate('aep', { bytes: bad, source: 'x' });
    assert.equal(r.summary.events, plain.summary.events);
    const c = corruptOf(r);
    assert.match(c.message, new RegExp(`zlib: ${reason}\\) after ${AEP_PASS.length} bytes`));
    assert.equal(c.line, LINES + 1);
  }
});

test('gzip CLI: trailing junk gives the same finding from a .gz file and standard input, every event checked', async (t) => {
  const dir = tempDir(t, 'ac-gz-');
  const bytes = Buffer.concat([gzipSync(AEP_PASS), Buffer.from('garbage\n')]);
  writeFileSync(join(dir, 'tail.gz'), bytes);
  const file = await runCli('aep', ['validate', join(dir, 'tail.gz'), '-f', 'json']);
  const stdin = await runCli('aep', ['validate', '-f', 'json'], bytes);
  const api = await validate('aep', { path: join(dir, 'tail.gz'), source: 'x' });
  const strip = (s: string) => JSON.parse(s).findings.map((f: { source?: string }) => ({ ...f, source: undefined }));
  assert.equal(file.code, 1);
  assert.deepEqual(strip(file.stdout), strip(stdin.stdout));
  assert.deepEqual(
    strip(file.stdout),
    api.findings.map((f) => ({ ...f, source: undefined })),
  );
  assert.equal(JSON.parse(file.stdout).summary.events, LINES);
  assert.deepEqual(rules(api.findings), [`jsonl/gzip-corrupt@${LINES + 1}`]);
  // a single-document input (an AHP HTTP body): the document is checked, the bytes after it one finding besides
  writeFileSync(join(dir, 'msg.json.gz'), Buffer.concat([gzipSync(HTTP), Buffer.from('junk')]));
  const http = await runCli('ahp', ['validate', join(dir, 'msg.json.gz'), '-f', 'json']);
  const report = JSON.parse(http.stdout) as { summary: { events: number }; findings: { ruleId: string }[] };
  assert.equal(report.summary.events, 1);
  assert.deepEqual(
    report.findings.map((f) => f.ruleId),
    ['jsonl/gzip-corrupt'],
  );
  assert.match(JSON.stringify(report.findings), /the document before it was checked/);
});

test('gzip: a member with every optional header field (RFC 1952 §2.3.1 FEXTRA, FNAME, FCOMMENT, FHCRC)', async () => {
  const { crc32 } = await import('node:zlib');
  const head = Buffer.concat([
    Buffer.from([0x1f, 0x8b, 8, 2 | 4 | 8 | 16, 0, 0, 0, 0, 0, 3, 4, 0]),
    Buffer.from('abcdname.jsonl\0a comment\0'),
  ]);
  const hcrc = Buffer.alloc(2);
  hcrc.writeUInt16LE(crc32(head) & 0xffff);
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc32(AEP_PASS), 0);
  trailer.writeUInt32LE(AEP_PASS.length, 4);
  const member = Buffer.concat([head, hcrc, deflateRawSync(AEP_PASS), trailer]);
  const plain = await validate('aep', { bytes: AEP_PASS, source: 'x' });
  assert.deepEqual((await validate('aep', { bytes: member, source: 'x' })).findings, plain.findings);
  const junk = await validate('aep', { bytes: Buffer.concat([member, Buffer.from('junk')]), source: 'x' });
  assert.equal(junk.summary.events, plain.summary.events);
  assert.equal(corruptOf(junk).line, LINES + 1);
  const bad = Buffer.from(member);
  bad[head.length] ^= 1;
  assert.match(corruptOf(await validate('aep', { bytes: bad, source: 'x' })).message, /header crc mismatch/);
});

test('gzip: a line past the line cap is passed on as it comes, not held to its newline (bounded memory, issue 39 item 2)', async () => {
  const { gunzipIfCompressed } = await import('../../src/core/gzip.ts');
  const text = `{"a":"${'x'.repeat(4 << 20)}"}\n{"b":1}\n`;
  const pieces = async (bytes: Buffer, cap: number, state = { compressed: false }) => {
    const out: Buffer[] = [];
    const source = (async function* () {
      yield bytes;
    })();
    for await (const p of gunzipIfCompressed(source, state, cap)) out.push(Buffer.from(p as Uint8Array));
    return out;
  };
  const whole = await pieces(gzipSync(text), 64 << 10);
  assert.equal(Buffer.concat(whole).toString(), text, 'every byte, in order');
  const largest = Math.max(...whole.map((p) => p.length));
  assert.ok(largest <= 64 << 10, `the largest piece is ${largest} bytes`);
  // under the cap a line is still held to its newline: a line a cut stream ends in is dropped, not checked
  const cut = gzipSync(`{"a":1}\n{"b":"${'y'.repeat(1000)}`).subarray(0, -12);
  const state = { compressed: false } as import('../../src/core/gzip.ts').GzipState;
  assert.equal(Buffer.concat(await pieces(cut, 1 << 20, state)).toString(), '{"a":1}\n');
  assert.ok(state.corrupt && state.corrupt.droppedBytes > 0);
});

test('gzip: an over-long line gives the finding of the plain route, at the same line, and the lines after it are checked', async () => {
  const text = `${AEP_PASS.toString().split('\n')[0]}\n{"a":"${'x'.repeat(300_000)}"}\n${AEP_PASS.toString()}`;
  const plain = await validate('aep', { text, source: 'a.jsonl' }, { maxLineBytes: 100_000 });
  const gz = await validate('aep', { bytes: gzipSync(text), source: 'a.jsonl' }, { maxLineBytes: 100_000 });
  assert.ok(rules(plain.findings).includes('jsonl/line-too-long@2'), rules(plain.findings).join(' '));
  assert.deepEqual(rules(gz.findings), rules(plain.findings));
  // cut inside the over-long line: the line is over the cap whatever came after, and the stream is reported cut
  const noisy = `${AEP_PASS.toString().split('\n')[0]}\n{"a":"${randomBytes(150_000).toString('hex')}"}\n`;
  const packed = gzipSync(noisy);
  const cut = await validate(
    'aep',
    { bytes: packed.subarray(0, Math.floor(packed.length * 0.8)), source: 'a.jsonl' },
    { maxLineBytes: 100_000 },
  );
  assert.deepEqual(
    rules(cut.findings).filter((r) => r.startsWith('jsonl/')),
    ['jsonl/gzip-corrupt@2', 'jsonl/line-too-long@2'],
  );
});
