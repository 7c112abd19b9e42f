/** The typed JSON-RPC id keys of correlation (src/ahp/analyzers/correlation.ts idKey): the same equalities as the id texts. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseJsonText } from '../../src/core/json.ts';
import { idKey } from '../../src/ahp/analyzers/correlation.ts';
import type { AhpMessage } from '../../src/ahp/message.ts';

/** The key of the id written as `idText` in a response line. */
function keyOf(idText: string): unknown {
  const parsed = parseJsonText(`{"jsonrpc":"2.0","id":${idText},"result":{}}`);
  assert.ok(parsed.ok);
  return idKey({ value: parsed.value, bigIntegers: parsed.bigIntegers } as unknown as AhpMessage);
}

/** The key the correlation used before typed keys: `s:` or `n:` and the id's text (a big literal as written). */
function textKeyOf(idText: string): string | undefined {
  const parsed = parseJsonText(`{"id":${idText}}`);
  assert.ok(parsed.ok);
  const id = (parsed.value as { id: unknown }).id;
  if (typeof id === 'string') return 's:' + id;
  if (typeof id !== 'number') return undefined;
  const big = parsed.bigIntegers.find((b) => b.pointer === '/id');
  return 'n:' + (big ? big.text : String(id));
}

test('two ids are one correlation key exactly when their typed texts are equal', () => {
  const ids = [
    '"1"',
    '1',
    '1.0',
    '-0',
    '0',
    '1.5',
    '"n:1"',
    '9007199254740991',
    '9007199254740992',
    '9007199254740993',
    '9007199254740993.0',
    '1e20',
    '100000000000000000000',
    '100000000000000000001',
    '1e21',
    '1000000000000000000000',
    '1000000000000000000001',
    '-12345678901234567890',
    '1e400',
    'null',
    '"é"',
  ];
  for (const a of ids)
    for (const b of ids) {
      // Map keys compare by SameValueZero: `===` for these (no NaN id is read)
      const same = keyOf(a) !== undefined && keyOf(a) === keyOf(b);
      assert.equal(same, textKeyOf(a) === textKeyOf(b) && textKeyOf(a) !== undefined, `${a} vs ${b}`);
    }
});
