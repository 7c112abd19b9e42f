// A bad `time` (base/events.md §Common event fields: RFC 3339) is reported with the schema's
// sentence and, after it, what is wrong with this value (src/core/schema/findings.ts, the same
// clause AEP's aep/time-format gives), for every kind of fault.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { explainDateTime } from '../../src/core/schema/formats.ts';
import { observeLine, runStdio } from './helpers.ts';

const BAD_TIMES = [
  '2026-13-01T00:00:00Z',
  '2026-02-30T00:00:00Z',
  '2026-04-31T10:00:00Z',
  '2026-01-01 00:00:00Z',
  '2026-01-01T25:00:00Z',
  '2026-01-01T00:00:00',
  '2026-01-01T00:00:00+5:30',
  '20260101T000000Z',
  '2026-01-01',
  '2026-01-01T00:00:00.+01:00',
  '2026-01-01T00:00:00,250Z',
];

test('a fraction with no digit or a decimal comma is named as the fraction, not as the offset after it', () => {
  assert.match(explainDateTime('2026-11-30T09:00:00.Z')!, /^the fraction of a second has no digits/);
  assert.match(explainDateTime('2026-11-30T09:00:00.-05:00')!, /^the fraction of a second has no digits/);
  assert.match(explainDateTime('2026-11-30T09:00:00,5Z')!, /^the fraction of a second is written with a decimal comma/);
  // a good fraction then a bad offset is still the offset's fault
  assert.match(explainDateTime('2026-11-30T09:00:00.5+0530')!, /^the time-zone offset is not Z/);
  assert.equal(explainDateTime('2026-11-30T09:00:00.5Z'), undefined);
});

const line = (time: string) =>
  observeLine({
    id: 'e1',
    source: 'https://h.example/r',
    type: 'session.end',
    time,
    session: { id: 's' },
    reason: 'done',
    outcome: 'completed',
  });

test('a bad time: the schema sentence, then what is wrong with this value', async () => {
  for (const time of BAD_TIMES) {
    const why = explainDateTime(time);
    assert.ok(why, `${time} is a bad date-time`);
    const found = (await runStdio(`${line(time)}\n`)).filter((f) => f.pointer === '/params/event/time');
    assert.equal(found.length, 1, `${time}: ${found.map((f) => f.message).join(' | ')}`);
    assert.equal(found[0]!.ruleId, 'ahp/envelope');
    assert.match(found[0]!.message, /^`time` must be an RFC 3339 date-time/);
    assert.ok(found[0]!.message.endsWith(`: ${why}.`), `${time}: ${found[0]!.message}`);
  }
});

test('a good time gives no time finding', async () => {
  const found = await runStdio(`${line('2026-02-28T23:59:59.5+05:30')}\n`);
  assert.deepEqual(found, []);
});
