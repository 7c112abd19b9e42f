// readFileChunks (src/core/file-chunks.ts): the file's bytes in order, in chunks of at most the
// size asked; open and read errors thrown from the iteration; the descriptor closed at the end,
// also when the reader stops early.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { readFileChunks } from '../../src/core/file-chunks.ts';
import { gunzipIfCompressed } from '../../src/core/gzip.ts';
import { readJsonl } from '../../src/core/jsonl.ts';
import { tempDir } from '../temp.ts';

const openFds = (): number => readdirSync('/proc/self/fd').length;

test('readFileChunks: the same bytes as readFileSync, for sizes around the chunk size', async (t) => {
  const dir = tempDir(t, 'agent-conformance-chunks-');
  for (const size of [0, 1, 7, 8, 9, 64, 65, 200]) {
    const file = join(dir, `f${size}`);
    writeFileSync(file, Buffer.from(Array.from({ length: size }, (_, i) => (i * 31) & 0xff)));
    const chunks: Buffer[] = [];
    // a chunk is valid until the next is asked for (one buffer): kept chunks are copies
    for await (const c of readFileChunks(file, 8)) chunks.push(Buffer.from(c));
    assert.ok(
      chunks.every((c) => c.length > 0 && c.length <= 8),
      `size ${size}: chunk sizes ${chunks.map((c) => c.length)}`,
    );
    assert.ok(Buffer.concat(chunks).equals(readFileSync(file)), `size ${size}`);
  }
});

test('readFileChunks: errors come from the iteration; the descriptor is closed after an early stop', {
  skip: process.platform === 'linux' ? false : 'counts descriptors through /proc/self/fd',
}, async (t) => {
  const dir = tempDir(t, 'agent-conformance-chunks-');
  await assert.rejects(
    async () => {
      for await (const _ of readFileChunks(join(dir, 'absent'))) void _;
    },
    { code: 'ENOENT' },
  );
  await assert.rejects(
    async () => {
      for await (const _ of readFileChunks(dir)) void _;
    },
    { code: 'EISDIR' },
  );
  const file = join(dir, 'big');
  writeFileSync(file, Buffer.alloc(100, 1));
  const before = openFds();
  let during = 0;
  for await (const c of readFileChunks(file, 10)) {
    assert.equal(c.length, 10);
    during = openFds();
    break;
  }
  assert.equal(during, before + 1, 'the file was open while it was read');
  assert.equal(openFds(), before, 'the descriptor was closed when the iteration ended');
});

test('readFileChunks through gunzip and the JSONL reader: the same lines and findings, whatever the chunk size', async (t) => {
  const dir = tempDir(t, 'agent-conformance-chunks-');
  const text = Array.from({ length: 40 }, (_, i) => JSON.stringify({ i, s: 'é'.repeat(i % 5), pad: 'x'.repeat(i * 3) }))
    .concat(['', '{"cut": ']) // a blank line and an unterminated last line: findings with locations
    .join('\n');
  writeFileSync(join(dir, 'plain.jsonl'), text);
  writeFileSync(join(dir, 'packed.jsonl.gz'), gzipSync(text));
  const read = async (file: string, chunk: number) => {
    const lines: string[] = [];
    const findings: string[] = [];
    await readJsonl(
      gunzipIfCompressed(readFileChunks(join(dir, file), chunk), { compressed: false }),
      'in',
      (l) => lines.push(`${l.line}@${l.byteOffset}:${l.text}`),
      (f) => findings.push(`${f.ruleId}@${f.line}:${f.column}`),
    );
    return { lines, findings };
  };
  const whole = await read('plain.jsonl', 1 << 20);
  assert.equal(whole.lines.length, 41);
  assert.deepEqual(whole.findings, ['jsonl/blank-line@41:1', 'jsonl/no-final-newline@42:undefined']);
  for (const chunk of [1, 2, 3, 7, 64, 333]) {
    assert.deepEqual(await read('plain.jsonl', chunk), whole, `plain, chunks of ${chunk}`);
    assert.deepEqual(await read('packed.jsonl.gz', chunk), whole, `gzip, chunks of ${chunk}`);
  }
});
