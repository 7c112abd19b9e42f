/**
 * ahp/session-start-not-first (src/ahp/analyzers/session-order.ts): the order of a session is read from `time`, never
 * from the order of the input, between first occurrences of one `(source, session.id)`, strictly earlier times only.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { timeMs } from '../../src/ahp/analyzers/session-order.ts';
import { ev, observe, runRule, SRC2, toolBefore } from './helpers.ts';

const RULE = 'ahp/session-start-not-first';
const session = (id = 's1') => ({ session: { id } });
const start = (id: string, sec: number, sid = 's1', source?: string) =>
  observe(ev(id, 'session.start', { ...session(sid), trigger: 'startup' }, sec, source));
const before = (id: string, sec: number, sid = 's1', source?: string) =>
  observe(toolBefore(id, session(sid), sec, source));

test('an event created before the session.start of its session is warned, either way round in the input', async () => {
  assert.deepEqual(await runRule(RULE, [before('b1', 1), start('st', 2)]), [`warning:${RULE}@2/params/event/time`]);
  assert.deepEqual(await runRule(RULE, [start('st', 2), before('b1', 1)]), [`warning:${RULE}@2/params/event/time`]);
  // a second session.start of the session, created later, is not the first event either
  assert.deepEqual(await runRule(RULE, [start('st', 2), start('st2', 5)]), [`warning:${RULE}@2/params/event/time`]);
});

test('arrival order, equal times, retries, other sessions and other sources decide nothing', async () => {
  // recorded first but created after the start: delivery has no session-wide order
  assert.deepEqual(await runRule(RULE, [before('b1', 3), start('st', 2)]), []);
  assert.deepEqual(await runRule(RULE, [before('b1', 2), start('st', 2)]), []);
  // a retry keeps the event id: the same event, not another one before it
  assert.deepEqual(await runRule(RULE, [start('st', 2), before('b1', 3), start('st', 2)]), []);
  assert.deepEqual(await runRule(RULE, [before('b1', 1, 's2'), start('st', 2)]), []);
  assert.deepEqual(await runRule(RULE, [before('b1', 1, 's1', SRC2), start('st', 2)]), []);
  // an unreadable time is not judged
  const bad = observe({ ...toolBefore('b1', session()), time: 'yesterday' });
  assert.deepEqual(await runRule(RULE, [bad, start('st', 2)]), []);
});

test('times compare as instants: offsets and fractions', () => {
  assert.equal(timeMs('2026-10-01T11:00:00+02:00'), timeMs('2026-10-01T09:00:00Z'));
  assert.equal(timeMs('2026-10-01t09:00:00z'), timeMs('2026-10-01T09:00:00Z'));
  assert.ok(timeMs('2026-10-01T09:00:00.0001Z') > timeMs('2026-10-01T09:00:00Z'));
  assert.ok(Number.isNaN(timeMs('2026-10-01 09:00:00Z')));
  assert.ok(Number.isNaN(timeMs(42)));
});
