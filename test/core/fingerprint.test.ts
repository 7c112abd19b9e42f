// The line fingerprint of the identity analyzers (src/core/canonical.ts `lineFingerprint`):
// short lines are hashed whole; long ones by their length, their ends and an even stride of
// samples between, so that an edit there is seen and one elsewhere is documented as unseen.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fnv32, lineFingerprint } from '../../src/core/canonical.ts';

const edit = (s: string, i: number): string => s.slice(0, i) + (s[i] === 'x' ? 'y' : 'x') + s.slice(i + 1);

test('lineFingerprint: a line of up to 96 code units is hashed whole: any one-character edit changes it', () => {
  const line = '{"id":"e1","type":"progress.status","data":{"message":"hello there, line"}}';
  assert.ok(line.length <= 96);
  for (let i = 0; i < line.length; i++)
    assert.notEqual(lineFingerprint(edit(line, i)), lineFingerprint(line), `edit at ${i}`);
});

test('lineFingerprint: a long line: its length, its first and last 32 code units and the stride samples count; other places do not', () => {
  const line = `{"id":"e1","data":{"message":"${'abcdefghij'.repeat(40)}"}}`;
  const n = line.length;
  const fp = lineFingerprint(line);
  assert.equal(lineFingerprint(line), fp, 'deterministic');
  assert.notEqual(lineFingerprint(`${line} `), fp, 'longer');
  assert.notEqual(lineFingerprint(line.slice(0, -1)), fp, 'shorter');
  const stride = (n - 64) / 32;
  const sampled = new Set<number>();
  for (let i = 0; i < 32; i++) sampled.add(i).add(n - 1 - i);
  for (let k = 0; k < 32; k++) sampled.add(32 + Math.floor(k * stride));
  for (const i of sampled) assert.notEqual(lineFingerprint(edit(line, i)), fp, `edit at sampled ${i}`);
  const unsampled = [...Array(n).keys()].filter((i) => !sampled.has(i));
  assert.ok(unsampled.length > 0);
  for (const i of unsampled)
    assert.equal(lineFingerprint(edit(line, i)), fp, `edit at unsampled ${i} (the documented limit)`);
});

test('fnv32 with a lead code unit is fnv32 of the string with that unit prepended', () => {
  for (const s of ['', 'a', 'tool.before', 'sess_1', '\u00e9\ud83d\ude00', 'x'.repeat(300)]) {
    for (const lead of [0x73, 0x6f, 0, 0xffff])
      assert.equal(fnv32(s, lead), fnv32(String.fromCharCode(lead) + s), `${lead} ${s}`);
  }
});
