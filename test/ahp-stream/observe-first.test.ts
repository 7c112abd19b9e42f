/**
 * ahp/observe-before-intercept (src/ahp/analyzers/decisions.ts `observedOnly`): an intercept request of an event the
 * stream already observed, the observation's place read before the identity analyzer takes the request.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { validate } from '../../src/index.ts';
import { fail, intercept, observe, ok, runRule, SRC2, toolBefore } from './helpers.ts';

const RULE = 'ahp/observe-before-intercept';
const s1 = { session: { id: 's1' } };

test('an intercept request of an event observed earlier is an error, once, at the first such request', async () => {
  const b = toolBefore('b1', s1);
  assert.deepEqual(await runRule(RULE, [observe(b), intercept(b), ok('b1')]), [`error:${RULE}@2/params/event/id`]);
  // a second interceptor's request after it is the same late interception, not reported again
  assert.deepEqual(await runRule(RULE, [observe(b), intercept(b), ok('b1'), intercept(b), ok('b1')]), [
    `error:${RULE}@2/params/event/id`,
  ]);
  // an observation of another view (content differs, metadata equal) is the same event
  const view = toolBefore('b1', {
    ...s1,
    tool: { name: 'Bash', kind: 'shell', input: { command: 'pwd' }, origin: 'native' },
  });
  assert.deepEqual(await runRule(RULE, [observe(view), intercept(b)]), [`error:${RULE}@2/params/event/id`]);
});

test('interception first, observation before the response, other events and reused ids are not judged', async () => {
  const b = toolBefore('b1', s1);
  assert.deepEqual(await runRule(RULE, [intercept(b), ok('b1'), observe(b)]), []);
  // after a deadline the harness may observe while a late response is still to come (base/failure.md §Deadlines)
  assert.deepEqual(await runRule(RULE, [intercept(b), observe(b), ok('b1')]), []);
  assert.deepEqual(await runRule(RULE, [intercept(b), fail('b1'), observe(b), observe(b)]), []);
  assert.deepEqual(await runRule(RULE, [observe(toolBefore('b2', s1)), intercept(b)]), []);
  assert.deepEqual(await runRule(RULE, [observe(toolBefore('b1', s1, 0, SRC2)), intercept(b)]), []);
  // another session under the id is another event reusing it (ahp/event-id-reuse), not this one's interception
  assert.deepEqual(await runRule(RULE, [observe(toolBefore('b1', { session: { id: 's2' } })), intercept(b)]), []);
});

test('an observation in another input of the run is not compared (inputs may be captures of several connections)', async () => {
  const b = toolBefore('b1', s1);
  const line = (m: unknown) => `${JSON.stringify(m)}\n`;
  const run = (inputs: { text: string; source: string }[]) =>
    validate('ahp', inputs, { rules: [RULE] }).then((r) => r.findings.map((f) => `${f.source}:${f.line}`));
  const obs = { text: line(observe(b)), source: 'observer.jsonl' };
  const int = { text: line(intercept(b)) + line(ok('b1')), source: 'interceptor.jsonl' };
  assert.deepEqual(await run([obs, int]), []);
  // the same lines in one input are the error
  assert.deepEqual(await run([{ text: obs.text + int.text, source: 'one.jsonl' }]), ['one.jsonl:2']);
});
