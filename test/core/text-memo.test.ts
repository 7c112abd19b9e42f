// TextMemo (src/core/text-memo.ts): one computation per kept text, undefined results kept too, long texts and
// non-strings computed each time, and at most `size` texts held.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TextMemo } from '../../src/core/text-memo.ts';

test('a text is computed once while kept, an undefined result included', () => {
  const calls: string[] = [];
  const memo = new TextMemo<string | undefined>(8);
  const f = (t: string) => {
    calls.push(t);
    return t === 'none' ? undefined : t.toUpperCase();
  };
  assert.equal(memo.of('a', f), 'A');
  assert.equal(memo.of('a', f), 'A');
  assert.equal(memo.of('none', f), undefined);
  assert.equal(memo.of('none', f), undefined);
  assert.deepEqual(calls, ['a', 'none']);
});

test('texts longer than `longest` and non-strings are computed each time', () => {
  let n = 0;
  const memo = new TextMemo<number>(8, 3);
  memo.of('abcd', () => ++n);
  memo.of('abcd', () => ++n);
  memo.of(undefined, () => ++n);
  memo.of(undefined, () => ++n);
  assert.equal(n, 4);
  memo.of('abc', () => ++n);
  memo.of('abc', () => ++n);
  assert.equal(n, 5);
});

test('a full memo drops what it holds and keeps at most `size` texts', () => {
  let n = 0;
  const memo = new TextMemo<number>(2);
  for (const t of ['a', 'b', 'c', 'a']) memo.of(t, () => ++n);
  assert.equal(n, 4, "'c' filled it past two: 'a' was dropped and computed again");
  memo.of('a', () => ++n);
  assert.equal(n, 4);
});
