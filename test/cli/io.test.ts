/**
 * The command line's inputs and output (issue 16 items 1-9; framing of single-document inputs):
 * each test drives the CLI in-process (test/cli/helpers.ts) unless it needs a real process.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runCli } from './helpers.ts';

test('a single-document input over --max-line-bytes is jsonl/line-too-long, never a clean pass', async () => {
  // 3 MiB of one JSON object, read as one HTTP body from stdin, under a 1 MiB cap
  const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'hooks/observe', params: { pad: 'x'.repeat(3 << 20) } }));
  const r = await runCli('ahp', ['validate', '--binding', 'http', '--max-line-bytes', String(1 << 20), '-'], body);
  assert.equal(r.code, 1, r.stdout);
  assert.match(r.stdout, /^<stdin>:1:1 +error +jsonl\/line-too-long +Document is \d+ bytes long, over the cap of 1048576 bytes/m);
  assert.match(r.stdout, /0 events, 1 error/);
  // a registration document the same
  const reg = await runCli('ahp', ['validate', '--binding', 'registration', '--max-line-bytes', '100', '-'], Buffer.from(JSON.stringify({ pad: 'y'.repeat(200) })));
  assert.equal(reg.code, 1);
  assert.match(reg.stdout, /jsonl\/line-too-long/);
});
