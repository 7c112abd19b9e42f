/** One elicitation request has one result: a second, different result of another event for it is a finding. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { brief, check, elicRequest, elicResult, intercept, observe, ok } from './helpers.ts';

const ANSWERED = 'error:ahp/elicitation-unpaired@3/params/event/elicitation';

test('a second result answering the request otherwise is a finding', async () => {
  const req = observe(elicRequest('r1'));
  const ada = elicResult('r2', 'r1', { content: { name: 'Ada', notify: true } });
  assert.deepEqual(brief(await check([req, observe(ada), observe(elicResult('r3', 'r1', { action: 'decline' }))])), [
    ANSWERED,
  ]);
  const bob = elicResult('r3', 'r1', { content: { name: 'Bob', notify: true } });
  assert.deepEqual(brief(await check([req, observe(ada), observe(bob)])), [ANSWERED]);
});

test('a repeat of the result, or the same answer again, is not', async () => {
  const req = observe(elicRequest('r1'));
  const ada = elicResult('r2', 'r1', { content: { name: 'Ada', notify: true } });
  assert.deepEqual(brief(await check([req, observe(ada), observe(ada)])), []);
  assert.deepEqual(brief(await check([req, intercept(ada), ok('r2'), observe(ada)])), []);
  const again = elicResult('r3', 'r1', { content: { notify: true, name: 'Ada' } });
  assert.deepEqual(brief(await check([req, observe(ada), observe(again)])), []);
  // results of two requests are two answers
  const other = [observe(elicRequest('q1')), observe(elicResult('q2', 'q1', { action: 'cancel' }))];
  assert.deepEqual(brief(await check([req, observe(ada), ...other])), []);
});
