import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { splitLines, unifiedDiff } from '../../src/pin/diff.ts';
import { runs } from '../scale.ts';

const L = { oldLabel: 'a/f', newLabel: 'b/f' };

/** Apply a unified diff produced by unifiedDiff to `oldText` (strict: context must match). */
function applyPatch(oldText: string, patch: string): string {
  if (patch === '') return oldText;
  const old = splitLines(oldText);
  const lines = patch.split('\n');
  assert.equal(lines[0], '--- a/f');
  assert.equal(lines[1], '+++ b/f');
  const out: string[] = [];
  let pos = 0;
  let i = 2;
  let lastNewSide = -1;
  while (i < lines.length && lines[i] !== '') {
    const m = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@$/.exec(lines[i]);
    assert.ok(m, `hunk header expected: ${lines[i]}`);
    const oldCount = m[2] === undefined ? 1 : Number(m[2]);
    const oldStart = oldCount === 0 ? Number(m[1]) : Number(m[1]) - 1;
    assert.ok(oldStart >= pos, 'hunks are ordered and do not overlap');
    while (pos < oldStart) out.push(old[pos++]);
    i++;
    let seenOld = 0;
    let seenNew = 0;
    while (i < lines.length && /^[ +\-\\]/.test(lines[i])) {
      const l = lines[i];
      if (l.startsWith('\\')) {
        assert.equal(l, '\\ No newline at end of file');
        if (lastNewSide >= 0) out[lastNewSide] = out[lastNewSide].replace(/\n$/, '');
        i++;
        continue;
      }
      const body = l.slice(1) + '\n';
      lastNewSide = -1;
      if (l[0] === ' ' || l[0] === '-') {
        assert.equal(old[pos].replace(/\n?$/, '\n'), body, 'context/removed line matches the old text');
        pos++;
        seenOld++;
      }
      if (l[0] === ' ' || l[0] === '+') {
        out.push(body);
        lastNewSide = out.length - 1;
        seenNew++;
      }
      i++;
    }
    assert.equal(seenOld, oldCount);
    assert.equal(seenNew, m[4] === undefined ? 1 : Number(m[4]));
  }
  while (pos < old.length) out.push(old[pos++]);
  return out.join('');
}

test('equal texts give an empty diff', () => {
  assert.equal(unifiedDiff('a\nb\n', 'a\nb\n', L), '');
});

test('a one-line change with context', () => {
  const a = 'l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\n';
  const b = 'l1\nl2\nl3\nl4\nX\nl6\nl7\nl8\n';
  assert.equal(unifiedDiff(a, b, L), '--- a/f\n+++ b/f\n@@ -2,7 +2,7 @@\n l2\n l3\n l4\n-l5\n+X\n l6\n l7\n l8\n');
});

test('insertion into an empty file, deletion to empty, and a missing final newline', () => {
  assert.equal(unifiedDiff('', 'x\n', L), '--- a/f\n+++ b/f\n@@ -0,0 +1 @@\n+x\n');
  assert.equal(unifiedDiff('x\ny\n', '', L), '--- a/f\n+++ b/f\n@@ -1,2 +0,0 @@\n-x\n-y\n');
  assert.equal(unifiedDiff('x\n', 'x', L), '--- a/f\n+++ b/f\n@@ -1 +1 @@\n-x\n+x\n\\ No newline at end of file\n');
});

test('distant changes give separate hunks, near ones merge', () => {
  const a = Array.from({ length: 30 }, (_, i) => `line ${i}\n`).join('');
  const far = a.replace('line 2\n', 'two\n').replace('line 25\n', 'twenty-five\n');
  assert.equal((unifiedDiff(a, far, L).match(/^@@/gm) ?? []).length, 2);
  const near = a.replace('line 2\n', 'two\n').replace('line 8\n', 'eight\n');
  assert.equal((unifiedDiff(a, near, L).match(/^@@/gm) ?? []).length, 1);
});

test('property: applying the diff to the old text gives the new text', () => {
  const text = fc
    .array(fc.constantFrom('a', 'b', 'c', 'd', '{', '}', ''), { maxLength: 40 })
    .chain((ls) => fc.boolean().map((eol) => (ls.length ? ls.join('\n') + (eol ? '\n' : '') : '')));
  fc.assert(
    fc.property(text, text, fc.integer({ min: 0, max: 4 }), (a, b, context) => {
      const patch = unifiedDiff(a, b, { ...L, context });
      assert.equal(applyPatch(a, patch), b);
    }),
    { numRuns: runs(500) },
  );
});

test('property: the edit cap falls back to a correct (non-minimal) replacement', () => {
  const text = fc
    .array(fc.constantFrom('a', 'b', 'c'), { maxLength: 30 })
    .map((ls) => ls.map((l) => l + '\n').join(''));
  fc.assert(
    fc.property(text, text, (a, b) => {
      assert.equal(applyPatch(a, unifiedDiff(a, b, { ...L, maxEdits: 1 })), b);
    }),
    { numRuns: runs(300) },
  );
});
