// The read-back spool (src/core/read-spool.ts): what is appended is read back by offset as from a
// file, the file leaves nothing in its folder, and an unusable folder or "off" gives no spool.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { test } from 'node:test';
import { ReadSpool } from '../../src/core/read-spool.ts';
import { tempDir } from '../temp.ts';

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

test('a spool reads back each appended line by its byte offset, CRLF and multi-byte text included', (t) => {
  const dir = tempDir(t, 'ac-spool-');
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
});

test('no spool where it is off or its folder cannot be written', () => {
  assert.equal(
    withSpoolDir('off', () => ReadSpool.open(10)),
    undefined,
  );
  assert.equal(
    withSpoolDir('/nonexistent/agent-conformance-spool/deeper', () => ReadSpool.open(10)),
    undefined,
  );
});

test('appendLine gives each line its UTF-8 bytes and a LF, read back by offset across gathered and written blocks', (t) => {
  const dir = tempDir(t, 'ac-spool-');
  const spool = withSpoolDir(dir, () => ReadSpool.open(1 << 20))!;
  assert.ok(spool);
  // short lines, multi-byte and lone-surrogate text, lines longer than a gathered block, and plain appends between
  const long = 'x'.repeat(70_000);
  const texts = ['{"a":1}', '{"é":"ü€𝄞"}', `{"s":"\ud800"}`, long, '', `{"b":"${'é'.repeat(30_000)}"}`];
  const expected: string[] = [];
  const offsets: number[] = [];
  let at = 0;
  for (let i = 0; i < 300; i++) {
    const text = `${texts[i % texts.length]}${i}`;
    offsets.push(at);
    const n = spool.appendLine(text);
    assert.equal(n, Buffer.byteLength(text, 'utf8') + 1, `line ${i}: its bytes and the LF`);
    expected.push(Buffer.from(text, 'utf8').toString('utf8'));
    at += n;
    if (i % 7 === 0) {
      const extra = Buffer.from(`{"appended":${i}}\n`, 'utf8');
      offsets.push(at);
      assert.ok(spool.append(extra));
      expected.push(`{"appended":${i}}`);
      at += extra.length;
    }
    // read back before the end as well: what is gathered is written first
    if (i % 50 === 49)
      assert.equal(spool.reread(offsets[offsets.length - 1]!), expected[expected.length - 1], `line ${i} at once`);
  }
  assert.deepEqual(
    offsets.map((o) => spool.reread(o)),
    expected,
  );
  assert.equal(spool.reread(at), undefined, 'past the end');
  spool.close();
  assert.equal(spool.appendLine('x'), -1, 'no append after close');
});
