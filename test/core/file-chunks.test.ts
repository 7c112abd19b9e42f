// readFileChunks (src/core/file-chunks.ts): the file's bytes in order, in chunks of at most the
// size asked; open and read errors thrown from the iteration; the descriptor closed at the end,
// also when the reader stops early.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { readFileChunks } from '../../src/core/file-chunks.ts';

const openFds = (): number => readdirSync('/proc/self/fd').length;

test('readFileChunks: the same bytes as readFileSync, for sizes around the chunk size', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'agent-conformance-chunks-'));
  try {
    for (const size of [0, 1, 7, 8, 9, 64, 65, 200]) {
      const file = join(dir, `f${size}`);
      writeFileSync(file, Buffer.from(Array.from({ length: size }, (_, i) => (i * 31) & 0xff)));
      const chunks: Buffer[] = [];
      for await (const c of readFileChunks(file, 8)) chunks.push(c);
      assert.ok(
        chunks.every((c) => c.length > 0 && c.length <= 8),
        `size ${size}: chunk sizes ${chunks.map((c) => c.length)}`,
      );
      assert.ok(Buffer.concat(chunks).equals(readFileSync(file)), `size ${size}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('readFileChunks: errors come from the iteration; the descriptor is closed after an early stop', {
  skip: process.platform === 'linux' ? false : 'counts descriptors through /proc/self/fd',
}, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'agent-conformance-chunks-'));
  try {
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
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
