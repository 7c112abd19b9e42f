/**
 * Numbers beyond a double (issue 25 item 9): {@link compareNumberLiterals} orders JSON number
 * literals exactly (the relation of the values, whatever doubles they round to), and AEP-0006
 * field_spec bounds beyond a double are ordinary bounds: AEP types them `number` with no range
 * limit, an answer `1e400` to a number field is accepted as a number, and `min > max` is judged
 * on the exact values. The capture verbs write every number they keep as the value it was written
 * (serializeEvent with changedNumbers), however many digits or whatever exponent it has.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { validate } from '../../src/api/validate.ts';
import { compareNumberLiterals, numberLiteralAt, parseJsonText } from '../../src/core/json.ts';
import { changedNumbers, serializeEvent } from '../../src/core/serialize.ts';
import { runs } from '../scale.ts';

const RUNS = Number(process.env.PROPERTY_RUNS ?? runs(300));
const sign = (n: number): -1 | 0 | 1 => (n < 0 ? -1 : n > 0 ? 1 : 0);

/** JSON number literals of the grammar (sign, integer part, fraction, exponent), up to `digits` digits a part. */
const literalOf = (digits: number, maxExp: number) =>
  fc
    .record({
      neg: fc.boolean(),
      int: fc.oneof(fc.constant('0'), fc.stringMatching(new RegExp(`^[1-9][0-9]{0,${digits - 1}}$`))),
      frac: fc.option(fc.stringMatching(new RegExp(`^[0-9]{1,${digits}}$`)), { nil: undefined }),
      exp: fc.option(fc.integer({ min: -maxExp, max: maxExp }), { nil: undefined }),
    })
    .map(
      ({ neg, int, frac, exp }) =>
        `${neg ? '-' : ''}${int}${frac !== undefined ? '.' + frac : ''}${exp !== undefined ? 'e' + exp : ''}`,
    );
const literal = literalOf(6, 500);

describe('compareNumberLiterals', () => {
  test('agrees with the order of doubles written as their shortest literals', () => {
    fc.assert(
      fc.property(
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        (a, b) => {
          // String(x) is the shortest literal that reads back as x: comparing literals is comparing the doubles
          assert.equal(compareNumberLiterals(JSON.stringify(a), JSON.stringify(b)), sign(a - b));
        },
      ),
      { numRuns: RUNS * 3 },
    );
  });
  test('is an order: antisymmetric, and the same value however it is spelled', () => {
    fc.assert(
      fc.property(literal, literal, fc.integer({ min: 1, max: 50 }), (a, b, shift) => {
        const ab = compareNumberLiterals(a, b)!;
        assert.equal(compareNumberLiterals(b, a), -ab || 0);
        // a x 10^shift / 10^shift spelled with trailing zeros and a lower exponent is the same value
        const m = /^(-?[0-9.]+)(?:e(-?[0-9]+))?$/.exec(a)!;
        const same = `${m[1]}${m[1]!.includes('.') ? '' : '.'}${'0'.repeat(shift)}e${Number(m[2] ?? 0)}`;
        assert.equal(compareNumberLiterals(a, same), 0, `${a} vs ${same}`);
      }),
      { numRuns: RUNS * 3 },
    );
  });
  test('beyond the double range, where every literal reads as Infinity', () => {
    const rows: Array<[string, string, -1 | 0 | 1]> = [
      ['1e400', '2e400', -1],
      ['2e400', '1e401', -1],
      ['1e400', '10e399', 0],
      ['-1e400', '1', -1],
      ['-1e400', '-2e400', 1],
      ['1e400', '1.7976931348623157e308', 1],
      ['0e999999999999', '-0.0', 0],
      ['1e-400', '0', 1],
      ['1e99999999999999999999', '1e99999999999999999998', 1],
    ];
    for (const [a, b, want] of rows) assert.equal(compareNumberLiterals(a, b), want, `${a} vs ${b}`);
    assert.equal(compareNumberLiterals('1e', '1'), undefined);
    assert.equal(compareNumberLiterals('01', '1'), undefined);
  });
});

describe('AEP-0006 bounds and answers beyond a double', () => {
  const form = (min: string, max: string) =>
    `{"aep":"0.1","id":"q1","type":"attention.requested","time":"2026-11-30T10:00:00Z","source":"aep://h/agent/a/session/s","agent":"a","session":"s","seq":0,"severity":"notice","capture":"redacted","data":{"kind":"form","prompt":"How many?","fields":[{"id":"n","type":"number","label":"N","min":${min},"max":${max}}]}}`;
  const rows: Array<[string, string, boolean]> = [
    ['1e400', '1e401', false],
    ['1e401', '1e400', true],
    ['1e400', '1e400', false],
    ['-1e400', '5', false],
    ['5', '-1e400', true],
    ['1e400', '5', true],
    ['1', '2', false],
    ['2', '1', true],
  ];
  for (const [min, max, above] of rows) {
    test(`min ${min}, max ${max}: ${above ? 'aep/form-field-constraint' : 'no finding'}`, async () => {
      const { findings } = await validate('aep', { text: form(min, max) + '\n', source: 'f.jsonl' });
      assert.deepEqual(
        findings.filter((f) => f.ruleId !== 'aep/open-at-end').map((f) => `${f.ruleId}${f.pointer}`),
        above ? ['aep/form-field-constraint/data/fields/0/min'] : [],
      );
    });
  }
  test('an answer 1e400 to a number field is a number (no range limit in AEP-0006), whatever the bounds', async () => {
    const answer =
      '{"aep":"0.1","id":"a1","type":"attention.answered","time":"2026-11-30T10:00:01Z","source":"aep://h/agent/a/session/s","agent":"a","session":"s","seq":1,"subject":"q1","cause":"q1","capture":"redacted","data":{"answer":{"values":{"n":1e400}}}}';
    const { findings } = await validate('aep', { text: `${form('1', '2')}\n${answer}\n`, source: 'f.jsonl' });
    assert.deepEqual(
      findings.filter((f) => f.ruleId !== 'aep/open-at-end').map((f) => f.ruleId),
      [],
    );
  });
});

/** Literals with up to 24 digits on either side of the dot, and exponents beyond a double's range. */
const longLiteral = literalOf(24, 400);

describe('serializeEvent with changedNumbers', () => {
  test('writes every number back as the value it was written, in members and in arrays', () => {
    fc.assert(
      fc.property(longLiteral, (lit) => {
        const text = `{"a":{"n":${lit}},"list":[1,${lit}],"s":"x"}`;
        const parsed = parseJsonText(text);
        assert.ok(parsed.ok);
        const out = serializeEvent(parsed.value, changedNumbers(text, parsed.value, parsed.bigIntegers));
        for (const p of ['/a/n', '/list/1']) {
          const written = numberLiteralAt(out, p);
          assert.ok(written !== undefined, `${lit} at ${p}: ${out}`);
          // -0 and 0 are one value; everything else must compare equal to what was read
          assert.equal(compareNumberLiterals(written, lit), 0, `${lit} written as ${written}`);
        }
      }),
      { numRuns: RUNS * 3 },
    );
  });
  test('a literal is written only where its value still is: a transform that replaced the number wins', () => {
    const text = '{"n":1e400,"m":9007199254740993}';
    const parsed = parseJsonText(text);
    assert.ok(parsed.ok);
    const lits = changedNumbers(text, parsed.value, parsed.bigIntegers);
    assert.deepEqual(lits.map((l) => l.pointer).sort(), ['/m', '/n']);
    assert.equal(serializeEvent({ n: 5, m: 9007199254740992 }, lits), '{"n":5,"m":9007199254740993}');
  });
  test('numbers that keep their value need no literal: only the spelling changes (1.50 as 1.5, as the pins write it)', () => {
    for (const lit of ['0.1', '1e22', '1e23', '123456789012345', '-0', '2.5e-300', '1.50', '1E2', '-0.0'])
      assert.deepEqual(changedNumbers(`{"n":${lit}}`, JSON.parse(`{"n":${lit}}`), []), [], lit);
  });
  test('a number that changes value is listed beside one that does not (the CloudEvents data of aep convert)', () => {
    const text = '{"data":{"a":0.10000000000000000001,"n":1e400,"b":1.5}}';
    const parsed = parseJsonText(text);
    assert.ok(parsed.ok);
    assert.deepEqual(changedNumbers(text, parsed.value, parsed.bigIntegers), [
      { pointer: '/data/a', text: '0.10000000000000000001' },
      { pointer: '/data/n', text: '1e400' },
    ]);
  });
});
