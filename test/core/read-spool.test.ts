// The read-back spool (src/core/read-spool.ts): what is appended is read back by offset as from a
// file, the file leaves nothing in its folder, and an unusable folder or "off" gives no spool.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { ReadSpool } from '../../src/core/read-spool.ts';

function withSpoolDir<T>(dir: string | undefined, f: () => T): T {
  const was = process.env.AGENT_CONFORMANCE_SPOOL_DIR;
  if (dir === undefined) delete process.env.AGENT_CONFORMANCE_SPOOL_DIR;
  else process.env.AGENT_CONFORMANCE_SPOOL_DIR = dir;
  try {
    return f();
  } finally {
    if (was === undefined) delete process.env.AGENT_CONFORMANCE_SPOOL_DIR;
    else process.env.AGENT_CONFORMANCE_SPOOL_DIR = was;
  }
}

test('a spool reads back each appended line by its byte offset, CRLF and multi-byte text included', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ac-spool-'));
  try {
    const spool = withSpoolDir(dir, () => ReadSpool.open(1 << 20))!;
    assert.ok(spool);
    // unlinked at once: nothing is left in the folder while it is used, nor after
    assert.deepEqual(readdirSync(dir), []);
    const lines = ['{"a":1}', '{"é":"ü€𝄞"}\r', '', '{"last":true}'];
    const offsets: number[] = [];
    let at = 0;
    for (const [i, l] of lines.entries()) {
      offsets.push(at);
      const bytes = Buffer.from(i === lines.length - 1 ? l : `${l}\n`, 'utf8');
      // in pieces that split a line and a multi-byte character
      for (let k = 0; k < bytes.length; k += 3) assert.ok(spool.append(bytes.subarray(k, k + 3)));
      at += bytes.length;
    }
    assert.deepEqual(
      offsets.map((o) => spool.reread(o)),
      ['{"a":1}', '{"é":"ü€𝄞"}', '', '{"last":true}'],
    );
    assert.equal(spool.reread(at), undefined, 'past the end');
    spool.close();
    assert.equal(spool.reread(0), undefined, 'after close');
    assert.equal(spool.append(Buffer.from('x')), false, 'no append after close');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('no spool where it is off or its folder cannot be written', () => {
  assert.equal(
    withSpoolDir('off', () => ReadSpool.open(10)),
    undefined,
  );
  assert.equal(
    withSpoolDir(join(tmpdir(), 'ac-no-such-folder', 'deeper'), () => ReadSpool.open(10)),
    undefined,
  );
});
