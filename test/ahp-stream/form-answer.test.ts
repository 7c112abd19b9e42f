/**
 * MCP elicitation answers against their requested form (src/ahp/analyzers/form-answer.ts): the pinned
 * answer shape and the closed requestedSchema subset (interaction-payloads.md §MCP elicitation
 * binding (2025-11-25)).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  answerPhrase,
  answerShapeProblems,
  formAnswerProblems,
  isAnswerValue,
  isUsableForm,
} from '../../src/ahp/analyzers/form-answer.ts';
import { check, elicRequest, elicResult, intercept, merge, ok, replace } from './helpers.ts';

const FORM = {
  type: 'object',
  properties: {
    name: { type: 'string', minLength: 2, maxLength: 5 },
    single: { type: 'string', enum: ['a', 'b'] },
    legacy: { type: 'string', enum: ['x', 'y'], enumNames: ['X', 'Y'] },
    titled: {
      type: 'string',
      oneOf: [
        { const: 'p', title: 'P' },
        { const: 'q', title: 'Q' },
      ],
    },
    num: { type: 'number', minimum: 0.5, maximum: 2.5 },
    int: { type: 'integer', minimum: 1 },
    flag: { type: 'boolean', default: false },
    multi: { type: 'array', items: { type: 'string', enum: ['r', 's', 't'] }, minItems: 1, maxItems: 2 },
    titledMulti: { type: 'array', items: { anyOf: [{ const: 'u', title: 'U' }] } },
    email: { type: 'string', format: 'email' },
    uri: { type: 'string', format: 'uri' },
    date: { type: 'string', format: 'date' },
    dateTime: { type: 'string', format: 'date-time' },
  },
  required: ['name', 'flag'],
};

const problems = (content: unknown) => formAnswerProblems(content, FORM).map((p) => `${p.keyword}@${p.pointer}`);

test('a complete valid answer has no problem', () => {
  const answer = {
    name: 'Ada',
    single: 'a',
    legacy: 'y',
    titled: 'q',
    num: 1.5,
    int: 3,
    flag: true,
    multi: ['r', 't'],
    titledMulti: ['u'],
    email: 'ada@example.com',
    uri: 'https://example.com/a?b=c',
    date: '2024-02-29',
    dateTime: '2026-09-15T12:00:00+02:00',
    undeclared: 'kept',
  };
  assert.deepEqual(problems(answer), []);
  assert.deepEqual(answerShapeProblems(answer), []);
});

test('each keyword of the pinned subset is enforced, one problem per violation', () => {
  const table: Array<[Record<string, unknown>, string[]]> = [
    [{ flag: true }, ['required@/name']],
    [{ name: 'Ada' }, ['required@/flag']], // the default is an annotation, never injected
    [{ name: 'A', flag: true }, ['minLength@/name']],
    [{ name: 'Adaline', flag: true }, ['maxLength@/name']],
    [{ name: '😀😀', flag: true }, []], // lengths count code points, not UTF-16 units
    [{ name: 'Ada', flag: 'yes' }, ['type@/flag']],
    [{ name: 'Ada', flag: true, single: 'c' }, ['enum@/single']],
    [{ name: 'Ada', flag: true, legacy: 'X' }, ['enum@/legacy']],
    [{ name: 'Ada', flag: true, titled: 'P' }, ['enum@/titled']],
    [{ name: 'Ada', flag: true, num: 0.4 }, ['minimum@/num']],
    [{ name: 'Ada', flag: true, num: 3 }, ['maximum@/num']],
    [{ name: 'Ada', flag: true, num: true }, ['type@/num']],
    [{ name: 'Ada', flag: true, int: 1.5 }, ['type@/int']],
    [{ name: 'Ada', flag: true, int: 0 }, ['minimum@/int']],
    [{ name: 'Ada', flag: true, int: 2.0 }, []],
    [{ name: 'Ada', flag: true, multi: [] }, ['minItems@/multi']],
    [{ name: 'Ada', flag: true, multi: ['r', 's', 't'] }, ['maxItems@/multi']],
    [{ name: 'Ada', flag: true, multi: ['r', 'z'] }, ['enum@/multi/1']],
    [{ name: 'Ada', flag: true, multi: 'r' }, ['type@/multi']],
    [{ name: 'Ada', flag: true, titledMulti: ['v'] }, ['enum@/titledMulti/0']],
    [{ name: 'Ada', flag: true, email: 'ada.example.com' }, ['format@/email']],
    [{ name: 'Ada', flag: true, uri: '/relative' }, ['format@/uri']],
    [{ name: 'Ada', flag: true, date: '2023-02-29' }, ['format@/date']],
    [{ name: 'Ada', flag: true, dateTime: '2026-09-15 12:00:00Z' }, ['format@/dateTime']],
    [{ name: 'Ada', flag: true, dateTime: '2026-09-15T12:00:00Z' }, []],
  ];
  for (const [answer, expected] of table) assert.deepEqual(problems(answer), expected, JSON.stringify(answer));
});

test('messages never echo answer values', () => {
  const secret = 'hunter2-secret-value';
  const problems = [
    ...formAnswerProblems({ name: secret, flag: secret, single: secret, email: secret }, FORM),
    ...answerShapeProblems({ a: { nested: secret } }),
  ];
  assert.ok(problems.length >= 5);
  for (const p of problems) {
    const text = answerPhrase(p);
    assert.ok(!text.includes(secret) && !JSON.stringify(p.args).includes(secret), text);
  }
});

test('answer shape: string, number, boolean or array of strings; never null, objects or other arrays', () => {
  for (const v of ['x', 1, 1.5, true, false, [], ['a']]) assert.equal(isAnswerValue(v), true, JSON.stringify(v));
  for (const v of [null, {}, [1], [null], ['a', 2], undefined])
    assert.equal(isAnswerValue(v), false, JSON.stringify(v));
  assert.deepEqual(
    answerShapeProblems([1]).map((p) => p.pointer),
    [''],
  );
  assert.deepEqual(
    answerShapeProblems({ ok: 'x', bad: null, 'a/b': {} }).map((p) => p.pointer),
    ['/bad', '/a~1b'],
  );
});

test('unusable forms and fields outside the subset are not guessed', () => {
  assert.equal(isUsableForm(FORM), true);
  for (const f of [undefined, null, {}, { type: 'object' }, { properties: [] }]) {
    assert.equal(isUsableForm(f), false);
    assert.deepEqual(formAnswerProblems({ anything: 1 }, f), []);
  }
  assert.deepEqual(formAnswerProblems({ x: 1 }, { type: 'object', properties: { x: { type: 'object' } } }), []);
  assert.deepEqual(
    formAnswerProblems('not an object', FORM).map((p) => p.keyword),
    ['type'],
  );
});

test('relation: a message never says an answer lacks a field the answer holds (modify, return, content checks)', async () => {
  const REQUIRED = /requires field "([^"]+)", which the answer does not hold/;
  // answers as the result carries them: valid, one field of the wrong kind (an invalid body), a required one missing
  const currents: Record<string, unknown>[] = [
    { name: 'Ada', notify: true },
    { name: { first: 'Ada' }, notify: true },
    { name: 'Ada', team: 'ops' },
    {},
  ];
  const values: Record<string, unknown>[] = [{ notify: false }, { name: 'Bo' }, { count: 9 }, {}];
  let judged = 0;
  for (const current of currents)
    for (const value of values)
      for (const op of ['merge', 'replace'] as const) {
        const lines = [
          intercept(elicRequest('q1')),
          ok('q1'),
          intercept(elicResult('r1', 'q1', { content: current })),
          ok('r1', [op === 'merge' ? merge(value) : replace(value)]),
          intercept(elicRequest('q2')),
          ok('q2', [{ type: 'return', value: { action: 'accept', content: value } }]),
        ];
        const effective: Record<number, Record<string, unknown>> = {
          3: current,
          4: op === 'merge' ? { ...current, ...value } : value,
          6: value,
        };
        for (const f of await check(lines)) {
          const m = REQUIRED.exec(f.message);
          if (!m) continue;
          judged++;
          const held = effective[f.line!];
          assert.ok(held, `${f.ruleId} at line ${f.line}: ${f.message}`);
          assert.ok(!Object.hasOwn(held, m[1]!), `${f.ruleId} says "${m[1]}" is missing from ${JSON.stringify(held)}`);
          assert.doesNotMatch(f.message, /field \S+ the form requires/, 'one clause, not "field X the form requires"');
        }
      }
  assert.ok(judged > 0, 'the table has answers that do lack a required field');
});

test('messages quote the form field they name as JSON, with control characters visible (modify, return, content)', async () => {
  const requestedSchema = {
    type: 'object',
    properties: {
      'say "hi"': { type: 'integer', maximum: 1 },
      '': { type: 'boolean' },
      'a\u001bb': { type: 'string', maxLength: 1 },
      'x/y~z': { type: 'array', items: { type: 'string', enum: ['r'] } },
    },
  };
  const answer = { 'say "hi"': 5, '': 'no', 'a\u001bb': 'long', 'x/y~z': ['r', 'q'] };
  const body = { message: 'Odd names', requestedSchema };
  const lines = [
    intercept(elicRequest('q1', { body })),
    ok('q1'),
    intercept(elicResult('r1', 'q1', { content: {} })),
    ok('r1', [merge(answer)]),
    intercept(elicRequest('q2', { body })),
    ok('q2', [{ type: 'return', value: { action: 'accept', content: answer } }]),
    intercept(elicResult('r3', 'q1', { content: answer })),
    ok('r3'),
  ];
  const rules = new Set(['ahp/modify-invalid', 'ahp/return-invalid', 'ahp/elicitation-content-schema']);
  const named = (await check(lines))
    .filter((f) => rules.has(f.ruleId))
    .map((f) => `${f.line} ${/[Ff]ield (".*?"(?: item \d+)?) (?:must|is) /.exec(f.message)?.[1] ?? f.message}`);
  const fields = ['"say \\"hi\\""', '""', '"aU+001Bb"', '"x/y~z" item 1'];
  assert.deepEqual(named.sort(), [4, 6, 7].flatMap((line) => fields.map((x) => `${line} ${x}`)).sort());
});
