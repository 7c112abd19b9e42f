/**
 * The decisions analyzer (src/ahp/analyzers/decisions.ts) as relations: every way a tool.before is refused makes every
 * way its call shows it ran a finding, and every way it is not refused (or reported as denied) makes none; the calls
 * it remembers stay within `--max-events` and the memory budget.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AhpStreamState } from '../../src/ahp/analyzers/model.ts';
import { brief, check, ev, fail, intercept, observe, ok, toolAfter, toolBefore, runRule } from './helpers.ts';

type Obj = Record<string, unknown>;
const DENY = { type: 'deny', reason: 'Blocked by policy.' };
const failure = (id: string, parent: string, policy: string): Obj =>
  ev(id, 'hook.failure', { parentEventId: parent, failure: { backendId: 'com.example.policy', reason: 'x', policy } });

/** A `tool.batch.after` whose second entry is the call of `b1`, with `entry` over its executed `ok` outcome. */
const batchAfter = (entry: Obj): Obj =>
  ev('t1', 'tool.batch.after', {
    batch: { id: 'batch_1', callIds: ['c-x', 'c-b1'] },
    calls: [
      { call: { id: 'c-x' }, outcome: 'ok', execution: { status: 'executed' } },
      { call: { id: 'c-b1' }, outcome: 'ok', execution: { status: 'executed' }, ...entry },
    ],
  });

/** How a before is settled: the lines after its request, and whether that refuses it. */
const SETTLEMENTS: Array<{ name: string; lines: Obj[]; refused: boolean }> = [
  { name: 'deny', lines: [ok('b1', [DENY])], refused: true },
  { name: 'error + fail-closed', lines: [fail('b1'), observe(failure('f1', 'b1', 'fail-closed'))], refused: true },
  { name: 'no effect', lines: [ok('b1')], refused: false },
  { name: 'error + fail-open', lines: [fail('b1'), observe(failure('f1', 'b1', 'fail-open'))], refused: false },
];

/** How the call shows up afterwards, and whether that means it ran. */
const SHOWINGS: Array<{ name: string; line: Obj; ran: boolean }> = [
  { name: 'executed after (parented)', line: observe(toolAfter('a1', 'b1')), ran: true },
  {
    name: 'ok after by call id only',
    line: observe({
      ...toolAfter('a1', 'b1'),
      parentEventId: undefined,
      execution: { status: 'skipped', reason: 'supplied_result' },
    }),
    ran: true,
  },
  {
    name: 'denied after',
    line: observe(
      toolAfter('a1', 'b1', { outcome: 'denied', execution: { status: 'skipped', reason: 'policy' }, items: [] }),
    ),
    ran: false,
  },
  { name: 'executed batch entry', line: observe(batchAfter({ execution: { status: 'executed' } })), ran: true },
  {
    name: 'ok supplied batch entry',
    line: observe(batchAfter({ execution: { status: 'skipped', reason: 'supplied_result' } })),
    ran: true,
  },
  {
    name: 'denied batch entry',
    line: observe(batchAfter({ outcome: 'denied', execution: { status: 'skipped', reason: 'policy' } })),
    ran: false,
  },
];

test('a refused call that runs is a finding, every settlement by every showing', async () => {
  for (const s of SETTLEMENTS)
    for (const w of SHOWINGS) {
      const lines = [intercept(toolBefore('b1'), { effects: ['deny'] }), ...s.lines, w.line];
      const got = await runRule('ahp/denied-call-ran', lines);
      assert.equal(got.length, s.refused && w.ran ? 1 : 0, `${s.name} / ${w.name}: ${got.join(', ')}`);
    }
});

test('a refused call in a batch is found at its entry', async () => {
  const lines = [intercept(toolBefore('b1'), { effects: ['deny'] }), ok('b1', [DENY])];
  assert.deepEqual(await runRule('ahp/denied-call-ran', [...lines, observe(batchAfter({}))]), [
    'error:ahp/denied-call-ran@3/params/event/calls/1/execution/status',
  ]);
  const supplied = batchAfter({ execution: { status: 'skipped', reason: 'supplied_result' } });
  assert.deepEqual(await runRule('ahp/denied-call-ran', [...lines, observe(supplied)]), [
    'error:ahp/denied-call-ran@3/params/event/calls/1/outcome',
  ]);
  const failed = [intercept(toolBefore('b1'), { effects: ['deny'] }), fail('b1'), observe(batchAfter({}))];
  assert.deepEqual(brief(await check(failed)), ['info:ahp/failure-policy-unverifiable@3/params/event/calls/1']);
});

test('an error without a named policy is the info, never the error', async () => {
  const lines = [intercept(toolBefore('b1'), { effects: ['deny'] }), fail('b1'), observe(toolAfter('a1', 'b1'))];
  assert.deepEqual(brief(await check(lines)), ['info:ahp/failure-policy-unverifiable@3/params/event']);
});

test('a refused event is not intercepted again; an observation of it is accepted', async () => {
  const b = intercept(toolBefore('b1'), { effects: ['deny'] });
  assert.deepEqual(await runRule('ahp/intercept-after-denial', [b, ok('b1', [DENY]), observe(toolBefore('b1'))]), []);
  assert.deepEqual(await runRule('ahp/intercept-after-denial', [b, ok('b1', [DENY]), b]), [
    'error:ahp/intercept-after-denial@3/params/event/id',
  ]);
  assert.deepEqual(await runRule('ahp/intercept-after-denial', [b, ok('b1'), b, ok('b1')]), []);
});

test('remembered calls stay within --max-events and are released under the memory budget', async () => {
  let state: AhpStreamState | undefined;
  const lines: Obj[] = [];
  for (let i = 0; i < 200; i++) lines.push(observe(toolBefore(`b${i}`)));
  await check(lines, { maxEvents: 50 }, { onStreamState: (s) => (state = s) });
  assert.ok(state);
  assert.ok(state.decisions.bytes() <= 50 * 40, `calls held: ${state.decisions.bytes() / 40}`);
  let forgot = 0;
  while (state.decisions.forgetOldest()) forgot++;
  assert.equal(state.decisions.bytes(), 0);
  assert.ok(forgot > 0 && forgot <= 50);
});
