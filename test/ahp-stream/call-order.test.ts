/**
 * ahp/permission-before-call (src/ahp/analyzers/call-order.ts): the permission stage of a call follows its
 * `tool.before`, read from `time` between first occurrences of one `(source, session.id, call.id)`, strictly earlier
 * times only, never from the order of the input.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ev, intercept, observe, runRule, SRC2, toolBefore } from './helpers.ts';

const RULE = 'ahp/permission-before-call';
const session = (id = 's1') => ({ session: { id } });
const tool = { name: 'Bash', kind: 'shell', input: { command: 'ls' }, origin: 'native' };
/** A permission-stage event of the call `c-<callOf>` (toolBefore names its call `c-<id>`). */
const perm = (id: string, callOf: string, sec: number, type = 'tool.permission.request', sid = 's1', source?: string) =>
  observe(
    ev(
      id,
      type,
      {
        ...session(sid),
        call: { id: `c-${callOf}` },
        tool,
        path: 'native',
        ...(type === 'tool.permission.request'
          ? { suggestions: [], sandboxBypass: false }
          : { decision: 'allow', decidedBy: 'user' }),
      },
      sec,
      source,
    ),
  );
const before = (id: string, sec: number, sid = 's1', source?: string) =>
  observe(toolBefore(id, session(sid), sec, source));

test('a permission-stage event created before the tool.before of its call is an error, either way round in the input', async () => {
  assert.deepEqual(await runRule(RULE, [before('b1', 2), perm('p1', 'b1', 1)]), [`error:${RULE}@2/params/event/time`]);
  assert.deepEqual(await runRule(RULE, [perm('p1', 'b1', 1), before('b1', 2)]), [`error:${RULE}@2/params/event/time`]);
  const resolved = perm('p1', 'b1', 1, 'tool.permission.resolved');
  assert.deepEqual(await runRule(RULE, [before('b1', 2), resolved]), [`error:${RULE}@2/params/event/time`]);
  // an intercepted tool.before is judged alike
  assert.deepEqual(await runRule(RULE, [perm('p1', 'b1', 1), intercept(toolBefore('b1', session(), 2))]), [
    `error:${RULE}@2/params/event/time`,
  ]);
});

test('arrival order, equal times, retries, other calls, sessions and sources decide nothing', async () => {
  // recorded first but created after its before: delivery has no session-wide order
  assert.deepEqual(await runRule(RULE, [perm('p1', 'b1', 3), before('b1', 2)]), []);
  assert.deepEqual(await runRule(RULE, [before('b1', 2), perm('p1', 'b1', 2)]), []);
  // a retry keeps the event id: the same event, not another one
  assert.deepEqual(await runRule(RULE, [before('b1', 1), perm('p1', 'b1', 2), before('b1', 1)]), []);
  assert.deepEqual(await runRule(RULE, [before('b1', 2), perm('p1', 'b9', 1)]), []);
  assert.deepEqual(await runRule(RULE, [before('b1', 2), perm('p1', 'b1', 1, 'tool.permission.request', 's2')]), []);
  assert.deepEqual(
    await runRule(RULE, [before('b1', 2), perm('p1', 'b1', 1, 'tool.permission.request', 's1', SRC2)]),
    [],
  );
  // an unreadable time is not judged
  const bad = observe({ ...toolBefore('b1', session()), time: 'yesterday' });
  assert.deepEqual(await runRule(RULE, [bad, perm('p1', 'b1', 1)]), []);
});
