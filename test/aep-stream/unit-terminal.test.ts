/**
 * aep/unit-terminal (AEP-0002 §2 convention 5): every lifecycle unit besides runs, sessions and attention requests
 * reaches at most one terminal, one finding per extra terminal at its key; redelivery, other scopes and events without
 * a key are never a second terminal; the marks stay in the run's bounded completion table.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { downlevelEvent } from '../../src/aep/downlevel.ts';
import type { AepStreamState } from '../../src/aep/analyzers/model.ts';
import { bothRoutes, brief, checkText, event, jsonl, runRule, type RunOptions } from './helpers.ts';

const RULE = 'aep/unit-terminal';
const OTHER = { source: 'aep://unit-host/agent/unit/session/u_2', session: 'u_2' };
const tool = (call: string, extra: Record<string, unknown> = {}) => ({ tool: { name: 'sh', call_id: call }, ...extra });
const completed = (seq: number, call: string, over: Record<string, unknown> = {}) =>
  event('tool.completed', seq, { data: tool(call), ...over });
const failed = (seq: number, call: string) => event('tool.failed', seq, { data: tool(call, { error: { type: 'e' } }) });
const denied = (seq: number, call: string) => event('tool.denied', seq, { data: tool(call, { by: 'policy' }) });
const step = (seq: number, id: string, run?: string) => event('run.step.finished', seq, { step: id, run });
const stopped = (seq: number, over: Record<string, unknown>) => event('delegation.subagent.stopped', seq, over);
const done = (seq: number, over: Record<string, unknown>) => event('progress.task.completed', seq, over);
const requested = (seq: number, id: string) => event('resource.retrieval.requested', seq, { id });
const returned = (seq: number, cause: string) => event('resource.retrieval.returned', seq, { cause });
const finished = (seq: number, subject: string) => event('stream.finished', seq, { subject });

/** Per unit: events whose last is a second terminal (at `pointer`), and events that each end a unit once. */
const UNITS: { unit: string; fail: unknown[]; pointer: string; pass: unknown[]; opts?: RunOptions }[] = [
  {
    unit: 'tool completed, denied',
    fail: [completed(0, 'c1'), denied(1, 'c1')],
    pointer: '/data/tool/call_id',
    pass: [completed(0, 'c1'), completed(1, 'c2')],
  },
  {
    unit: 'tool completed twice',
    fail: [completed(0, 'c1'), completed(1, 'c1')],
    pointer: '/data/tool/call_id',
    pass: [completed(0, 'c1'), completed(1, 'c2')],
  },
  {
    unit: 'tool failed, completed (opened)',
    fail: [event('tool.requested', 0, { data: tool('c1') }), failed(1, 'c1'), completed(2, 'c1')],
    pointer: '/data/tool/call_id',
    pass: [completed(0, 'c1'), denied(1, 'c2'), failed(2, 'c3'), completed(3, 'c1', OTHER)],
  },
  {
    unit: 'tool denied, failed; calls without call_id',
    fail: [denied(0, 'c9'), failed(1, 'c9')],
    pointer: '/data/tool/call_id',
    pass: [completed(0, '', { data: { tool: { name: 'sh' } } }), completed(1, '', { data: { tool: { name: 'sh' } } })],
  },
  {
    unit: 'step of a run',
    fail: [event('run.step.started', 0, { step: '1', run: 'r' }), step(1, '1', 'r'), step(2, '1', 'r')],
    pointer: '/step',
    pass: [step(0, '1', 'r1'), step(1, '1', 'r2'), step(2, '1'), completed(3, 'c1', { step: '1', run: 'r1' })],
  },
  {
    unit: 'step without run',
    fail: [step(0, '0'), step(1, '0')],
    pointer: '/step',
    pass: [step(0, '0'), step(1, '1')],
  },
  {
    unit: 'subagent by child',
    fail: [
      stopped(0, { data: { child: { session: 'sub', agent: 'a' } } }),
      stopped(1, { data: { child: { agent: 'a', session: 'sub' } } }),
    ],
    pointer: '/data/child/session',
    pass: [
      stopped(0, { data: { child: { session: 'sub', run: 'r1' } } }),
      stopped(1, { data: { child: { session: 'sub', run: 'r2' } } }),
      stopped(2, { data: { child: { agent: 'a' } } }),
      stopped(3, { data: { child: { agent: 'a' } } }),
    ],
  },
  {
    unit: 'subagent by subject',
    fail: [
      event('delegation.subagent.started', 0, { subject: 'a7' }),
      stopped(1, { subject: 'a7' }),
      stopped(2, { subject: 'a7' }),
    ],
    pointer: '/subject',
    pass: [stopped(0, { subject: 'a7' }), stopped(1, { subject: 'a8' })],
  },
  {
    unit: 'plan item by id',
    fail: [done(0, { data: { task: { id: 't1' } } }), done(1, { data: { task: { id: 't1' }, status: 'completed' } })],
    pointer: '/data/task/id',
    pass: [
      done(0, { data: { task: { id: 't1' } } }),
      done(1, { data: { task: { id: 't2' } } }),
      done(2, {}),
      done(3, {}),
    ],
  },
  {
    unit: 'plan item by subject',
    fail: [
      event('progress.task.planned', 0, { subject: 'td' }),
      done(1, { subject: 'td' }),
      done(2, { subject: 'td' }),
    ],
    pointer: '/subject',
    pass: [done(0, { subject: 'td' }), done(1, { subject: 'te' })],
  },
  {
    unit: 'retrieval',
    fail: [requested(0, 'rq'), returned(1, 'rq'), returned(2, 'rq')],
    pointer: '/cause',
    pass: [
      requested(0, 'rq1'),
      requested(1, 'rq2'),
      returned(2, 'rq2'),
      returned(3, 'rq1'),
      // no request in the input: its cause names no retrieval this input can count
      returned(4, 'elsewhere'),
      returned(5, 'elsewhere'),
    ],
  },
  {
    unit: 'stream (--profile aep-0007)',
    fail: [finished(0, 'm1'), finished(1, 'm1')],
    pointer: '/subject',
    pass: [finished(0, 'm1'), finished(1, 'm2')],
    opts: { profile: 'aep-0007' },
  },
];

for (const u of UNITS) {
  test(`${u.unit}: a second terminal is one error at its key; one terminal each passes`, async () => {
    assert.deepEqual(await runRule(RULE, u.fail, u.opts), [`error:${RULE}@${u.fail.length}${u.pointer}`]);
    assert.deepEqual(await runRule(RULE, u.pass, u.opts), []);
  });
}

test('without --profile aep-0007 stream.finished is no unit (the type itself is aep/type-grammar)', async () => {
  assert.deepEqual(await runRule(RULE, [finished(0, 'm1'), finished(1, 'm1')]), []);
});

test('each extra terminal is reported once, naming the first terminal and the call', async () => {
  const fs = await checkText(jsonl([completed(0, 'c1'), failed(1, 'c1'), denied(2, 'c1')]), { rules: new Set([RULE]) });
  assert.deepEqual(
    fs.map((f) => `${f.line} ${f.message} ${f.related?.map((r) => r.line).join()}`),
    [
      '2 Tool call "c1" already ended with tool.completed at line 1; tool.failed is a second terminal for the same call. 1',
      '3 Tool call "c1" already ended with tool.completed at line 1; tool.denied is a second terminal for the same call. 1',
    ],
  );
});

test('redelivery of the first terminal, exact or down-leveled, is aep/redelivery only', async () => {
  const first = completed(0, 'c1', { capture: 'full', data: tool('c1', { result: 'ok' }) });
  const lower = downlevelEvent(first, 'metadata').event;
  const fs = await checkText(jsonl([first, first, lower]));
  assert.deepEqual(brief(fs), 'info:aep/redelivery@2 info:aep/redelivery@3');
});

test("another event under the first terminal's own (source, id) is aep/id-collision, not a second terminal", async () => {
  const first = completed(0, 'c1', { id: 'same' });
  const fs = await checkText(jsonl([first, { ...first, data: tool('c1', { status: 'late' }) }, failed(1, 'c1')]));
  assert.deepEqual(
    fs.map((f) => `${f.ruleId}@${f.line}`),
    ['aep/id-collision@2', `${RULE}@3`],
  );
});

/** Runs, attention requests and sessions: events up to a first terminal, the copy under its (source, id), another terminal. */
const OWN_COPY: { unit: string; rule: string; before: unknown[]; copy: (seq: number, id: string) => unknown }[] = [
  {
    unit: 'run',
    rule: 'aep/run-terminal',
    before: [event('session.started', 0), event('run.started', 1, { run: 'r1' })],
    copy: (seq, id) =>
      seq % 2
        ? event('run.failed', seq, { id, run: 'r1', data: { reason: 'error' } })
        : event('run.finished', seq, { id, run: 'r1' }),
  },
  {
    unit: 'attention request',
    rule: 'aep/attention-terminal',
    before: [event('attention.requested', 0, { id: 'q1', data: { kind: 'auth', prompt: 'unit requests auth' } })],
    copy: (seq, id) =>
      seq % 2
        ? event('attention.timeout', seq, { id, subject: 'q1' })
        : event('attention.resolved', seq, { id, subject: 'q1', data: { resolution: 'answered' } }),
  },
  {
    unit: 'session',
    rule: 'aep/session-ended',
    before: [event('session.started', 0)],
    copy: (seq, id) => event('session.ended', seq, { id, data: seq % 2 ? { reason: 'error' } : {} }),
  },
];

for (const u of OWN_COPY) {
  test(`${u.unit}: a copy under the first terminal's (source, id) is aep/id-collision only, on both routes`, async () => {
    const n = u.before.length;
    const first = u.copy(n, 'own');
    for (const copy of [u.copy(n + 1, 'own'), { ...(first as object), seq: n + 1 }])
      assert.deepEqual(await bothRoutes(jsonl([...u.before, first, copy])), [`aep/id-collision@${n + 2}`]);
    assert.deepEqual(await bothRoutes(jsonl([...u.before, first, u.copy(n + 1, 'other')])), [`${u.rule}@${n + 2}`]);
  });
}

test('units are kept across epochs and past the end of their session', async () => {
  const restarted = { ...failed(0, 'c1'), epoch: 1 };
  assert.deepEqual(await runRule(RULE, [completed(5, 'c1'), restarted]), [`error:${RULE}@2/data/tool/call_id`]);
  const end = event('session.ended', 1);
  assert.deepEqual(await runRule(RULE, [completed(0, 'c1'), end, failed(2, 'c1')]), [
    `error:${RULE}@3/data/tool/call_id`,
  ]);
});

test('an untrusted run or a repeated key member keys no step or call, whatever the member order', async () => {
  assert.deepEqual(await runRule(RULE, [step(0, '1'), event('run.step.finished', 1, { step: '1', run: 5 })]), []);
  const line = (order: string) =>
    JSON.stringify(completed(1, 'x')).replace(
      '"call_id":"x"',
      order === 'c1 last' ? '"call_id":"c2","call_id":"c1"' : '"call_id":"c1","call_id":"c2"',
    );
  for (const order of ['c1 last', 'c1 first'])
    assert.deepEqual(await runRule(RULE, [completed(0, 'c1'), line(order)]), [], order);
});

test('member order is irrelevant: every object reversed gives the same findings', async () => {
  const reversed = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(reversed)
      : v !== null && typeof v === 'object'
        ? Object.fromEntries(
            Object.entries(v)
              .reverse()
              .map(([k, x]) => [k, reversed(x)]),
          )
        : v;
  for (const u of UNITS) {
    const evs = u.fail.map((e) => (typeof e === 'string' ? e : reversed(e)));
    assert.deepEqual(await runRule(RULE, evs, u.opts), await runRule(RULE, u.fail, u.opts), u.unit);
  }
});

test('the marks are rows of the completion table: one per unit, bounded by --max-ids (later verdicts say less)', async () => {
  const n = 300;
  const evs = Array.from({ length: n }, (_, i) => completed(i, `c${i}`));
  let state: AepStreamState | undefined;
  const onStreamState = (s: AepStreamState) => (state = s);
  await checkText(jsonl(evs), { onStreamState });
  assert.equal(state?.marks.size, n);
  const capped = await checkText(jsonl([...evs, failed(n, 'c0'), failed(n + 1, `c${n - 1}`)]), {
    onStreamState,
    stream: { maxIds: 100 },
  });
  assert.ok((state?.marks.size ?? 0) <= 100, `${state?.marks.size} marks`);
  assert.deepEqual(
    capped.filter((f) => f.ruleId === RULE).map((f) => f.line),
    [n + 2],
    'the forgotten first terminal of c0 is not judged; the kept one of the last call is',
  );
});
