/**
 * gzip-compressed inputs (src/core/gzip.ts, RFC 1952): told by their magic bytes on any input
 * (a file of any name, standard input, a library stream), read decompressed with the line
 * numbers of the decompressed text; several members are one stream; a cut or damaged stream is
 * one `jsonl/gzip-corrupt` finding at the line it cut.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { constants, deflateRawSync, gzipSync } from 'node:zlib';
import { validate } from '../../src/api/validate.ts';
import { runCli } from '../cli/helpers.ts';

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
  // (zlib drops the output of the call that fails the check: a small input is cut at line 1)
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

test('gzip CLI: a .jsonl.gz file, standard input and an AHP .json.gz HTTP body', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ac-gz-'));
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
  assert.match(http.stdout, /1 event, 0 errors/);
  const cut = await runCli('aep', ['validate', '-'], gzipSync(AEP_PASS).subarray(0, 30));
  assert.equal(cut.code, 1);
  assert.match(cut.stdout, /<stdin>:\d+ +error +jsonl\/gzip-corrupt /);
});
