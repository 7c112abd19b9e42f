/**
 * An emitter's event under an earlier event's `(source, id)` with other content: a consumer deduplicating on
 * `(source, id)` drops it (AEP-0001 §7.4; §7.2 consumer side: a position under a seen key is the redelivery class), so
 * aep/id-collision is its one finding and it moves no state that would blame the emitter's next correct event.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { brief, checkText, event, jsonl } from './helpers.ts';

const CONSOLE = { source: 'aep://ops-host/agent/console', agent: 'console' };
const S2 = { source: 'aep://unit-host/agent/unit/session/u_1', session: 'u_2' };
const started = (over: Record<string, unknown> = {}) => event('session.started', 0, { id: 's0', data: {}, ...over });
const status = (id: string, seq: number, over: Record<string, unknown> = {}) =>
  event('progress.status', seq, { id, ...over });

const ROWS: { name: string; events: Record<string, unknown>[]; want: string[] }[] = [
  {
    name: 'an altered copy at its first position',
    events: [started(), status('p1', 1, { time: '2026-11-30T12:00:01Z' }), status('p1', 1)],
    want: ['aep/id-collision@3'],
  },
  {
    name: 'a collision below the high-water seq, then the next seq',
    events: [started(), status('p1', 1), status('p2', 2), status('p1', 1, { severity: 'notice' }), status('p3', 3)],
    want: ['aep/id-collision@4'],
  },
  {
    name: 'a collision in an earlier epoch',
    events: [started({ epoch: 1 }), status('p1', 1, { epoch: 1 }), status('s0', 5, { epoch: 0 })],
    want: ['aep/id-collision@3'],
  },
  {
    name: 'a collision above the high-water seq does not take the next event’s position',
    events: [started(), status('p1', 1), status('s0', 2), status('p2', 2)],
    want: ['aep/id-collision@3'],
  },
  {
    name: 'a colliding run.finished leaves the run open for its real terminal',
    events: [
      started(),
      event('run.started', 1, { id: 'r0', run: 'r1', data: { trigger: 'user' } }),
      event('run.finished', 2, { id: 'r0', run: 'r1', data: {} }),
      event('run.finished', 3, { id: 'r2', run: 'r1', data: {} }),
    ],
    want: ['aep/id-collision@3'],
  },
  {
    name: 'a colliding session.ended leaves the session open for its real one',
    events: [
      started(),
      event('session.ended', 1, { id: 's0', data: { reason: 'normal' } }),
      status('p2', 2),
      event('session.ended', 3, { id: 'e3', data: { reason: 'normal' } }),
    ],
    want: ['aep/id-collision@2'],
  },
  {
    name: 'a collision in another session of the same source',
    events: [started(), started(S2), status('p1', 1, S2), status('p2', 2, S2)],
    want: ['aep/id-collision@2'],
  },
  {
    name: 'a colliding ack decides no command: the real ack is the one decision',
    events: [
      started(),
      event('control.pause', undefined, { id: 'c1', ...CONSOLE, data: {} }),
      event('control.accepted', 1, { id: 's0', cause: 'c1' }),
      event('control.rejected', 2, { id: 'a2', cause: 'c1', data: { reason: 'busy' } }),
    ],
    want: ['aep/id-collision@3'],
  },
];

for (const row of ROWS) {
  test(`collision: ${row.name}: aep/id-collision alone`, async () => {
    const fs = await checkText(jsonl(row.events));
    assert.deepEqual(
      fs.filter((f) => f.severity !== 'info').map((f) => `${f.ruleId}@${f.line}`),
      row.want,
      brief(fs),
    );
  });
}

test('collision: a re-emitted ack with other content stays one aep/ack-exclusive, and the next seq is not blamed', async () => {
  const events = [
    started(),
    event('control.pause', undefined, { id: 'c1', ...CONSOLE, data: {} }),
    event('control.accepted', 1, { id: 'a1', cause: 'c1' }),
    event('control.accepted', 2, { id: 'a1', cause: 'c1' }),
    status('p2', 2),
  ];
  const fs = await checkText(jsonl(events));
  assert.deepEqual(
    fs.filter((f) => f.severity !== 'info').map((f) => `${f.ruleId}@${f.line}${f.pointer}`),
    ['aep/ack-exclusive@4/id'],
    brief(fs),
  );
});
