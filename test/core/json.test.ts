import assert from 'node:assert/strict';
import { test } from 'node:test';
import { locateIndex, memberCopies, parseJsonText, scanJson } from '../../src/core/json.ts';

test('parseJsonText: valid text parses with no duplicates and no big integers', () => {
  const r = parseJsonText('{"a":1,"b":{"c":[1,2,{"d":true}]}}');
  assert.ok(r.ok);
  assert.deepEqual(r.duplicates, []);
  assert.deepEqual(r.bigIntegers, []);
});

test('parseJsonText: duplicate keys are found, with the second key position and pointer', () => {
  const text = '{"a":1,"b":{"x":1,"x":2},"a":3}';
  const r = parseJsonText(text);
  assert.ok(r.ok);
  assert.deepEqual(
    r.duplicates.map((d) => [d.pointer, d.index]),
    [
      ['/b/x', text.indexOf('"x":2')],
      ['/a', text.lastIndexOf('"a"')],
    ],
  );
});

test('parseJsonText: the screen is not fooled by whitespace before a colon', () => {
  // raw `":` count equals the parsed member count here; the whitespace forces the full scan
  const r = parseJsonText('{"a":1,"a":2,"b" :3}');
  assert.ok(r.ok);
  assert.equal(r.duplicates.length, 1);
  assert.equal(r.duplicates[0].pointer, '/a');
});

test('parseJsonText: the screen is not fooled by ": inside strings', () => {
  const r = parseJsonText('{"a":1,"a":"x\\":y"}');
  assert.ok(r.ok);
  assert.equal(r.duplicates.length, 1);
});

test('parseJsonText: escaped keys are compared decoded', () => {
  const r = parseJsonText('{"a":1,"\\u0061":2}');
  assert.ok(r.ok);
  assert.equal(r.duplicates.length, 1);
  assert.equal(r.duplicates[0].key, 'a');
});

test('parseJsonText: integers beyond 2^53 keep their exact text', () => {
  const r = parseJsonText('{"seq":9007199254740993,"small":12}');
  assert.ok(r.ok);
  assert.deepEqual(
    r.bigIntegers.map((b) => [b.pointer, b.text]),
    [['/seq', '9007199254740993']],
  );
});

test('parseJsonText: syntax errors give the index and what was expected', () => {
  const r = parseJsonText('{"a":1,}');
  assert.equal(r.ok, false);
  assert.ok(!r.ok && r.kind === 'invalid-json');
  assert.equal(r.index, 7);
  assert.match(r.message, /expected a member name but found '}'/);
});

test('parseJsonText: a truncated text reports end of input', () => {
  const r = parseJsonText('{"a":[1,2');
  assert.ok(!r.ok && r.kind === 'invalid-json');
  assert.match(r.message, /end of input/);
});

test('parseJsonText: nesting over the limit is reported with its pointer, never overflowing the stack', () => {
  const deep = '{"a":' + '['.repeat(100_000) + ']'.repeat(100_000) + '}';
  const r = parseJsonText(deep, 256);
  assert.ok(!r.ok && r.kind === 'max-depth');
  assert.equal(r.depth, 257);
  assert.ok(r.pointer.startsWith('/a/0/0'));
  const ok = parseJsonText('[[[1]]]', 3);
  assert.ok(ok.ok);
  assert.equal(parseJsonText('[[[[1]]]]', 3).ok, false);
});

test('parseJsonText: __proto__ is an ordinary member', () => {
  const r = parseJsonText('{"__proto__":{"polluted":1},"__proto__":2}');
  assert.ok(r.ok);
  assert.equal(r.duplicates.length, 1);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});

test('scanJson: control characters inside strings are syntax errors', () => {
  const r = scanJson('{"a":"x\ty"}');
  assert.ok(r.error);
  assert.equal(r.error!.index, 7);
});

test('locateIndex finds members, array items and the root', () => {
  const text = '{"a":{"b":[10,{"c":1}]},"d~/e":2}';
  assert.equal(locateIndex(text, ''), 0);
  assert.equal(locateIndex(text, '/a'), 1);
  assert.equal(locateIndex(text, '/a/b/1'), text.indexOf('{"c"'));
  assert.equal(locateIndex(text, '/a/b/1/c'), text.indexOf('"c"'));
  assert.equal(locateIndex(text, '/d~0~1e'), text.indexOf('"d~/e"'));
  assert.equal(locateIndex(text, '/missing'), undefined);
});

test('exactIntegerOfLiteral expands fraction and exponent forms exactly', async () => {
  const { exactIntegerOfLiteral, numberLiteralAt } = await import('../../src/core/json.ts');
  assert.equal(exactIntegerOfLiteral('9007199254740993.0'), 9007199254740993n);
  assert.equal(exactIntegerOfLiteral('1e3'), 1000n);
  assert.equal(exactIntegerOfLiteral('-12.50e1'), -125n);
  assert.equal(exactIntegerOfLiteral('1e400'), 10n ** 400n);
  assert.equal(exactIntegerOfLiteral('1.5'), 'fraction');
  assert.equal(exactIntegerOfLiteral('1e-1'), 'fraction');
  assert.equal(exactIntegerOfLiteral('0.0e-9999'), 0n);
  assert.equal(exactIntegerOfLiteral('1e5000'), 'too-large');
  assert.equal(exactIntegerOfLiteral('abc'), undefined);
  // trailing zeros of the digits count before the exponent bound: these are 10, 10 and a fraction
  assert.equal(exactIntegerOfLiteral('1' + '0'.repeat(5000) + 'e-4999'), 10n);
  assert.equal(exactIntegerOfLiteral('1.' + '0'.repeat(5000) + 'e1'), 10n);
  assert.equal(exactIntegerOfLiteral('1' + '0'.repeat(5000) + '1e-4999'), 'fraction');
  assert.equal(exactIntegerOfLiteral('-1e-5000'), 'fraction');
  assert.equal(numberLiteralAt('{"a":{"seq" : 1e400}}', '/a/seq'), '1e400');
  assert.equal(numberLiteralAt('[1, 2.50]', '/1'), '2.50');
  assert.equal(numberLiteralAt('{"a":"x"}', '/a'), undefined);
});

test('memberCopies: the text of every copy of each listed member, in text order, across repeated parents', () => {
  const text = '{"data":{"a":{"v":[1, 2]},"a":{"v":[]},"b":"x","a":3,"arr":[{"k":1},{"k":1,"k":"2"}]},"z":{"a":1}}';
  const m = memberCopies(text, new Set(['/data/a', '/data/a/v', '/data/arr/1/k', '/data/missing']));
  assert.deepEqual(Object.fromEntries(m), {
    '/data/a': ['{"v":[1, 2]}', '{"v":[]}', '3'],
    '/data/a/v': ['[1, 2]', '[]'],
    '/data/arr/1/k': ['1', '"2"'],
  });
  // escaped member names are matched by their pointer (RFC 6901 ~1 for "/")
  assert.deepEqual(Object.fromEntries(memberCopies('{"a/b":1,"a/b":{}}', new Set(['/a~1b']))), {
    '/a~1b': ['1', '{}'],
  });
  // a text that does not parse gives nothing (callers only pass parsed text)
  assert.equal(memberCopies('{"a":1,"a":', new Set(['/a'])).size, 0);
});
