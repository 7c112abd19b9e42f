/**
 * Numbers beyond a double in MCP elicitation bodies (issue 25 item 9): one reading for both
 * sides of a form. MCP 2025-11-25 schema.ts types every number of an elicitation (the bounds,
 * lengths and item counts of a field, a number default, an answer value) as TypeScript
 * `number`, an IEEE 754 double; a literal no double holds (`1e400`, read as Infinity) is none,
 * so a request bound and an answer value beyond a double both make their body invalid
 * (`ahp/elicitation-body`), while the largest finite doubles pass and `_meta` (free-form JSON)
 * accepts such literals as RFC 8259 does.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { brief, check, elicRequest, elicResult, observe, text } from './helpers.ts';

const PLACEHOLDER = 424242;
const BODY_PTR = '/params/event/elicitation/request/text';
const RESULT_PTR = '/params/event/elicitation/result/text';

/** An elicitation request whose body is `body` with the placeholder number replaced by `literal`. */
function requestWith(body: unknown, literal: string): unknown {
  return observe(
    elicRequest('q1', { part: text(JSON.stringify(body).replace(String(PLACEHOLDER), literal), 'rq-q1') }),
  );
}

function resultWith(content: unknown, literal: string): unknown {
  const r = elicResult('r1', 'q1', { content }) as { elicitation: { result: { text: string } } };
  r.elicitation.result.text = r.elicitation.result.text.replace(String(PLACEHOLDER), literal);
  return observe(r);
}

const numberField = (member: string, type = 'number'): unknown => ({
  message: 'How many?',
  requestedSchema: { type: 'object', properties: { n: { type, [member]: PLACEHOLDER } } },
});
const stringField = (member: string): unknown => ({
  message: 'Name?',
  requestedSchema: { type: 'object', properties: { s: { type: 'string', [member]: PLACEHOLDER } } },
});
const arrayField = (member: string): unknown => ({
  message: 'Pick',
  requestedSchema: {
    type: 'object',
    properties: { a: { type: 'array', items: { type: 'string', enum: ['x', 'y'] }, [member]: PLACEHOLDER } },
  },
});

/** [name, body holding the placeholder]: every number-typed member of a form request. */
const REQUEST_MEMBERS: Array<[string, unknown]> = [
  ['number minimum', numberField('minimum')],
  ['number maximum', numberField('maximum')],
  ['integer minimum', numberField('minimum', 'integer')],
  ['number default', numberField('default')],
  ['string minLength', stringField('minLength')],
  ['string maxLength', stringField('maxLength')],
  ['array minItems', arrayField('minItems')],
  ['array maxItems', arrayField('maxItems')],
];
/** [literal, a double holds it]. */
const LITERALS: Array<[string, boolean]> = [
  ['1e400', false],
  ['-1e400', false],
  ['2e308', false],
  [`1${'0'.repeat(400)}`, false],
  ['1.7976931348623157e308', true],
  ['1e308', true],
  ['1e-400', true], // underflows to 0: a double holds it (rounded), as RFC 8259 §6 reads any literal
];

describe('a request: a number member beyond a double makes the body invalid, the largest doubles do not', () => {
  for (const [name, body] of REQUEST_MEMBERS) {
    for (const [lit, fits] of LITERALS) {
      test(`${name} = ${lit.length > 20 ? `${lit.slice(0, 8)}... (${lit.length} digits)` : lit}: ${fits ? 'valid' : 'ahp/elicitation-body'}`, async () => {
        const found = brief(await check([requestWith(body, lit)])).filter((b) => !b.startsWith('info:'));
        assert.deepEqual(found, fits ? [] : [`error:ahp/elicitation-body@1${BODY_PTR}`]);
      });
    }
  }
  test('_meta is free-form JSON: a literal beyond a double there is accepted', async () => {
    const body = {
      message: 'Name?',
      requestedSchema: { type: 'object', properties: { s: { type: 'string' } } },
      _meta: { big: PLACEHOLDER },
    };
    assert.deepEqual(
      brief(await check([requestWith(body, '1e400')])).filter((b) => !b.startsWith('info:')),
      [],
    );
  });
});

describe('an answer: a value beyond a double makes the result body invalid, like a bound', () => {
  const form = { message: 'How many?', requestedSchema: { type: 'object', properties: { n: { type: 'number' } } } };
  for (const [lit, fits] of LITERALS) {
    test(`answer n = ${lit.length > 20 ? `${lit.slice(0, 8)}...` : lit}: ${fits ? 'valid' : 'ahp/elicitation-body'}`, async () => {
      const found = brief(
        await check([observe(elicRequest('q1', { body: form })), resultWith({ n: PLACEHOLDER }, lit)]),
      );
      assert.deepEqual(found, fits ? [] : [`error:ahp/elicitation-body@2${RESULT_PTR}`]);
    });
  }
  test('also for a member the form does not declare (the answer shape is ElicitResult.content)', async () => {
    const found = brief(
      await check([observe(elicRequest('q1', { body: form })), resultWith({ n: 1, extra: PLACEHOLDER }, '1e400')]),
    );
    assert.deepEqual(found, [`error:ahp/elicitation-body@2${RESULT_PTR}`]);
  });
  test('the finding says why, without the value', async () => {
    const findings = await check([observe(elicRequest('q1', { body: form })), resultWith({ n: PLACEHOLDER }, '1e400')]);
    assert.equal(findings[0]!.messageId, 'beyondDouble');
    assert.doesNotMatch(`${findings[0]!.message} ${JSON.stringify(findings[0]!.args)}`, /1e400|Infinity/);
  });
});

describe('a body repeated (clean bodies are remembered by their text): each copy gets its own verdict', () => {
  const form = { message: 'How many?', requestedSchema: { type: 'object', properties: { n: { type: 'number' } } } };
  test('a clean request body twice, then an invalid one twice', async () => {
    const clean = (id: string) => observe(elicRequest(id, { body: form }));
    const bad = (id: string) => observe(elicRequest(id, { body: { ...form, mode: 'other' } }));
    const found = brief(await check([clean('q1'), clean('q2'), bad('q3'), bad('q4'), clean('q5')]));
    assert.deepEqual(
      found.filter((b) => b.includes('elicitation-body')),
      [`error:ahp/elicitation-body@3${BODY_PTR}`, `error:ahp/elicitation-body@4${BODY_PTR}`],
    );
  });
});
