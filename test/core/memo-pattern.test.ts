// memoPattern (src/core/schema/memo-pattern.ts), the verdict code's pattern engine: the same
// verdicts as its RegExp, for recurring strings (memoised), unique ones (memo switched off),
// long ones (never memoised) and past the memo's size.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MEMO_LIMIT, MEMO_MAX_LENGTH, memoPattern, memoPredicate } from '../../src/core/schema/memo-pattern.ts';

test('memoPattern: the RegExp verdicts on recurring, unique and long strings', () => {
  const source = '^[a-z0-9]{1,20}$';
  const re = new RegExp(source, 'u');
  const tester = memoPattern(source, 'u');
  const recurring = ['id', 'type', 'Time', 'x-y', '', 'a'.repeat(20), 'a'.repeat(21)];
  const strings: string[] = [];
  for (let i = 0; i < 3 * MEMO_LIMIT; i++)
    strings.push(recurring[i % recurring.length]!, `u${i}`, i % 2 ? `U${i}` : `${'b'.repeat(MEMO_MAX_LENGTH)}${i}`);
  for (const s of strings) assert.equal(tester.test(s), re.test(s), JSON.stringify(s));
  // after the unique strings switched the memo off, recurring ones are still right
  for (const s of recurring) assert.equal(tester.test(s), re.test(s), JSON.stringify(s));
});

test('memoPattern: an invalid pattern throws as new RegExp does', () => {
  assert.throws(() => memoPattern('(', 'u'), SyntaxError);
});

test("memoPredicate: the predicate's verdicts, with a longer memoised length, recurring and unique strings", () => {
  let calls = 0;
  const predicate = (s: string) => {
    calls++;
    return s.startsWith('https:') && !s.includes(' ');
  };
  const memo = memoPredicate(predicate, 200);
  const recurring = ['https://a.example/x', 'http://a.example', `https://${'l'.repeat(150)}`, 'https://a b', ''];
  for (let round = 0; round < 5; round++) for (const s of recurring) assert.equal(memo(s), predicate(s), s);
  const before = calls;
  for (const s of recurring) memo(s);
  assert.equal(calls, before, 'recurring strings up to maxLength are answered from the memo');
  for (let i = 0; i < 3 * MEMO_LIMIT; i++) {
    const s = i % 3 ? `https://u${i}.example` : recurring[i % recurring.length]!;
    assert.equal(memo(s), predicate(s), s);
  }
});
