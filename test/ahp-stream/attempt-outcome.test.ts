/**
 * ahp/attempt-outcome-conflict (src/ahp/analyzers/occurrences.ts): one outcome per provider attempt over first
 * occurrences of `(source, id)`, a success after the failure; a second usage is ahp/attempt-usage-duplicate instead.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ev, observe, runRule, SRC2 } from './helpers.ts';

const RULE = 'ahp/attempt-outcome-conflict';
const model = { id: 'm-a', provider: 'acme' };
const attempt = (id: string, number = 1) => ({ session: { id: 's1' }, model, attempt: { id, number } });
const usage = { kind: 'amount', scope: 'attempt', completeness: 'complete', provenance: 'provider', inputTokens: 3 };
const error = (id: string, att = 'a1', source?: string, extra = {}) =>
  observe(
    ev(
      id,
      'model.error',
      { ...attempt(att), execution: { status: 'executed' }, error: { class: 'x', message: 'y' }, ...extra },
      1,
      source,
    ),
  );
const response = (id: string, att = 'a1', extra = {}) =>
  observe(
    ev(id, 'model.response.after', {
      ...attempt(att),
      execution: { status: 'executed' },
      items: [],
      finishReason: 'stop',
      ...extra,
    }),
  );

test('a model.response.after after a model.error of one attempt id is an error; the other order is not judged', async () => {
  assert.deepEqual(await runRule(RULE, [error('e1'), response('r1')]), [`error:${RULE}@2/params/event/attempt/id`]);
  assert.deepEqual(await runRule(RULE, [response('r1'), error('e1')]), []);
});

test('retries, new attempts, other sources and a usage repeat (the other rule) are not this error', async () => {
  assert.deepEqual(await runRule(RULE, [error('e1'), error('e1'), response('r2', 'a2')]), []);
  assert.deepEqual(await runRule(RULE, [error('e1'), response('r1', 'a1', {}), error('e1')]).then((f) => f.length), 1);
  const foreign = error('e1', 'a1', SRC2);
  assert.deepEqual(await runRule(RULE, [foreign, response('r1')]), []);
  // both carry usage: the second usage of one attempt is ahp/attempt-usage-duplicate, reported in its place
  assert.deepEqual(await runRule(RULE, [error('e1', 'a1', undefined, { usage }), response('r1', 'a1', { usage })]), []);
  assert.deepEqual(
    await runRule('ahp/attempt-usage-duplicate', [
      error('e1', 'a1', undefined, { usage }),
      response('r1', 'a1', { usage }),
    ]),
    ['error:ahp/attempt-usage-duplicate@2/params/event/usage'],
  );
});

test('an attempt id is judged across sessions and turns of one source: "new provider attempts have distinct identities"', async () => {
  const request = (id: string, att: string, number: number, session: string, turn: string, source?: string) =>
    observe(
      ev(
        id,
        'model.request.before',
        { session: { id: session }, turn: { id: turn }, model, attempt: { id: att, number }, params: {}, items: [] },
        1,
        source,
      ),
    );
  const reused = 'ahp/attempt-id-reused';
  // the one sentence on attempt identity names no session or turn it is unique within (README, Once per call)
  assert.deepEqual(await runRule(reused, [request('q1', 'a1', 1, 's1', 't1'), request('q2', 'a1', 1, 's2', 't1')]), [
    `error:${reused}@2/params/event/attempt/id`,
  ]);
  assert.deepEqual(await runRule(reused, [request('q1', 'a1', 1, 's1', 't1'), request('q2', 'a1', 2, 's1', 't2')]), [
    `error:${reused}@2/params/event/attempt/number`,
  ]);
  // another source's attempt is its own (identity is source-scoped), and a retry keeps the event id
  const foreign = request('q2', 'a1', 1, 's1', 't1', SRC2);
  assert.deepEqual(await runRule(reused, [request('q1', 'a1', 1, 's1', 't1'), foreign]), []);
  assert.deepEqual(await runRule(reused, [request('q1', 'a1', 1, 's1', 't1'), request('q1', 'a1', 1, 's1', 't1')]), []);
});
