/**
 * AEP-0002 §4.1 ("attention.timeout | the request expired unanswered") and §7: a timeout of a request its emitter
 * session answered is `aep/attention-timeout-answered`; the reverse order stays `aep/attention-answered-late`.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bothRoutes, brief, checkText, event, jsonl, judged } from './helpers.ts';

const req = (seq: number, id: string) =>
  event('attention.requested', seq, { id, severity: 'notice', data: { kind: 'input', prompt: 'unit requests input' } });
const follower = (type: string, seq: number, q: string, over: Record<string, unknown> = {}) =>
  event(type, seq, {
    subject: q,
    cause: q,
    ...(type === 'attention.answered' ? { data: { answer: { option: '1' } } } : {}),
    ...over,
  });
const reversed = (e: Record<string, unknown>) => Object.fromEntries(Object.entries(e).reverse());

async function rules(events: readonly unknown[]): Promise<string[]> {
  const fs = await checkText(jsonl(events));
  return fs.filter(judged).map((f) => `${f.ruleId}@${f.line}`);
}

test('timeout after answered: reported at the timeout, whatever comes between, by every route', async () => {
  const routed = follower('attention.routed', 0, 'q1', { seq: undefined, source: 'aep://ui-host/agent/ui' });
  const cases: unknown[][] = [
    [req(0, 'q1'), follower('attention.answered', 1, 'q1'), follower('attention.timeout', 2, 'q1')],
    [req(0, 'q1'), routed, follower('attention.answered', 1, 'q1'), follower('attention.timeout', 2, 'q1')],
    [
      req(0, 'q1'),
      reversed(follower('attention.answered', 1, 'q1')),
      req(2, 'q2'),
      reversed(follower('attention.timeout', 0, 'q1', { epoch: 1 })),
    ],
  ];
  for (const events of cases) {
    const got = await rules(events);
    assert.deepEqual(got, [`aep/attention-timeout-answered@${events.length}`], brief(await checkText(jsonl(events))));
    assert.deepEqual(await bothRoutes(jsonl(events)), got);
  }
  // a redelivered answer is one answer: still one finding
  const a = follower('attention.answered', 1, 'q1');
  assert.deepEqual(await rules([req(0, 'q1'), a, a, follower('attention.timeout', 2, 'q1')]), [
    'aep/redelivery@3',
    'aep/attention-timeout-answered@4',
  ]);
});

test('timeout after answered: other requests, other emitters and the reverse order are not it', async () => {
  const other = { source: 'aep://other-host/agent/unit/session/u_1' };
  assert.deepEqual(
    await rules([
      req(0, 'q1'),
      req(1, 'q2'),
      follower('attention.answered', 2, 'q1'),
      follower('attention.timeout', 3, 'q2'),
      follower('attention.resolved', 4, 'q1', { data: { resolution: 'answered' } }),
    ]),
    [],
  );
  const foreign = [
    req(0, 'q1'),
    follower('attention.answered', 0, 'q1', other),
    follower('attention.timeout', 1, 'q1'),
  ];
  assert.ok(!(await rules(foreign)).some((r) => r.startsWith('aep/attention-timeout-answered')));
  assert.deepEqual(
    await rules([req(0, 'q1'), follower('attention.timeout', 1, 'q1'), follower('attention.answered', 2, 'q1')]),
    ['aep/attention-answered-late@3'],
  );
});
