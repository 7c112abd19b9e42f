/**
 * ahp/session-start-not-first (src/ahp/analyzers/session-order.ts): the order of a session is read from `time`, never
 * from the order of the input, between first occurrences of one `(source, session.id)`, strictly earlier times only.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
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

/** RFC 3339 as base/events.md writes it, read by Date.parse: the oracle the hand reader is held to. */
function timeMsByDateParse(v: string): number {
  const m = /^(\d{4}-\d{2}-\d{2})[Tt](\d{2}:\d{2}:\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/.exec(v);
  if (!m) return NaN;
  const whole = Date.parse(`${m[1]}T${m[2]}${m[4] === 'z' || m[4] === 'Z' ? 'Z' : m[4]}`);
  return m[3] ? whole + Number(`0${m[3]}`) * 1000 : whole;
}

test('timeMs reads every RFC 3339 time as Date.parse does, and refuses what it refuses', () => {
  const two = (max: number) => fc.integer({ min: 0, max }).map((n) => String(n).padStart(2, '0'));
  const time = fc
    .record({
      y: fc.integer({ min: 0, max: 9999 }).map((n) => String(n).padStart(4, '0')),
      mo: two(14),
      d: two(33),
      h: two(25),
      mi: two(61),
      s: two(61),
      t: fc.constantFrom('T', 't', ' ', 'X'),
      frac: fc.constantFrom('', '.', '.5', '.123', '.000001', '.99999999', '.1a'),
      zone: fc.constantFrom('Z', 'z', '+00:00', '-05:30', '+23:59', '+24:00', '-00:60', '+2:00', 'ZZ', '', '+05'),
    })
    .map((r) => `${r.y}-${r.mo}-${r.d}${r.t}${r.h}:${r.mi}:${r.s}${r.frac}${r.zone}`);
  fc.assert(
    fc.property(fc.oneof(time, fc.string({ maxLength: 30 })), (v) => {
      assert.ok(Object.is(timeMs(v), timeMsByDateParse(v)), `${v}: ${timeMs(v)} vs ${timeMsByDateParse(v)}`);
    }),
    { numRuns: 20000 },
  );
});
