/**
 * A response whose id is an earlier notification's event id (README §Decisions on requests that may precede the
 * capture): ahp/response-unmatched whatever unrelated lines came before it; any other response before the first
 * request stays the info ahp/response-uncorrelated, worded for the direction the input shows.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Finding } from '../../src/core/finding.ts';
import { brief, capsRequest, check, ev, fail, intercept, observe, ok, SRC2, toolBefore } from './helpers.ts';

const tool = { name: 'Bash', kind: 'shell', input: { command: 'ls' }, origin: 'native' };
/** A hooks/observe notification of a tool.after event `id` with no parent. */
const after = (id: string, source?: string) =>
  observe(
    ev(
      id,
      'tool.after',
      { tool, call: { id: `c-${id}` }, path: 'native', outcome: 'ok', execution: { status: 'executed' }, items: [] },
      1,
      source,
    ),
  );
/** The finding's rule, message, line, pointer and related lines. */
const shape = (fs: readonly Finding[]) =>
  fs.map((f) => ({
    rule: `${f.severity}:${f.ruleId}`,
    messageId: f.messageId,
    at: `${f.line}${f.pointer}`,
    related: f.related?.map((r) => r.line),
  }));
const answered = (line: number, notification: number) => ({
  rule: 'error:ahp/response-unmatched',
  messageId: 'notification',
  at: `${line}/id`,
  related: [notification],
});

test('a response to a notification is unmatched, with or without an unrelated exchange before it', async () => {
  assert.deepEqual(shape(await check([after('n1'), ok('n1')])), [answered(2, 1)]);
  // the same response after an unrelated intercept request and its response: the same verdict
  const a = toolBefore('e1');
  assert.deepEqual(shape(await check([intercept(a), ok('e1'), after('n1'), ok('n1')])), [answered(4, 3)]);
  // and after an unrelated discovery exchange, or with the notification after an unrelated one
  assert.deepEqual(shape(await check([capsRequest('d1'), fail('d1'), after('n1'), ok('n1')])), [answered(4, 3)]);
  assert.deepEqual(shape(await check([after('n0'), after('n1'), ok('n1')])), [answered(3, 2)]);
  // an error response is a response too ("notifications never receive error responses")
  assert.deepEqual(shape(await check([after('n1'), fail('n1')])), [answered(2, 1)]);
  // the event of another source than the latest notification's
  assert.deepEqual(shape(await check([after('n1', SRC2), after('n2'), ok('n1')])), [answered(3, 1)]);
  // each response to a notification is one finding; the info is not said as well
  assert.deepEqual(brief(await check([after('n1'), ok('n1'), ok('n1')])), [
    'error:ahp/response-unmatched@2/id',
    'error:ahp/response-unmatched@3/id',
  ]);
});

test('member order does not change the verdict', async () => {
  const reverse = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).reverse());
  const n = after('n1');
  const r = { ...reverse(n), params: reverse(n.params as Record<string, unknown>) };
  assert.deepEqual(shape(await check([r, reverse(ok('n1'))])), [answered(2, 1)]);
});

test('what a response to a notification is not', async () => {
  // typed ids: the number 1 is not the event id "1"
  assert.deepEqual(brief(await check([after('1'), ok(1)])), ['info:ahp/response-uncorrelated@2/id']);
  // the event intercepted, answered and then observed (after settlement): a second response is a duplicate
  const a = toolBefore('e1');
  assert.deepEqual(brief(await check([intercept(a), ok('e1'), observe(a), ok('e1')])), [
    'error:ahp/response-duplicate@4/id',
  ]);
  // the event observed and intercepted: the request awaits the response (no response finding; the order itself,
  // observation before interception, is ahp/observe-before-intercept)
  assert.deepEqual(brief(await check([observe(a), intercept(a), ok('e1')])), [
    'error:ahp/observe-before-intercept@2/params/event/id',
  ]);
  // after a line that gave no message, which may have held the request: not verified
  assert.deepEqual(brief(await check(['{"jsonrpc":', after('n1'), ok('n1')])), [
    'error:jsonl/invalid-json@1',
    'info:ahp/response-unverifiable@3/id',
  ]);
});

test('any other response before the first request stays the info, worded for the direction the input shows', async () => {
  assert.deepEqual(shape(await check([after('n1'), ok('zz'), ok('yy')])), [
    { rule: 'info:ahp/response-uncorrelated', messageId: 'afterNotifications', at: '2/id', related: [1] },
  ]);
  assert.deepEqual(shape(await check([ok('zz'), after('n1'), ok('yy')])), [
    { rule: 'info:ahp/response-uncorrelated', messageId: 'noRequest', at: '1/id', related: undefined },
  ]);
  // a response to a notification after it is still the error
  assert.deepEqual(brief(await check([after('n1'), ok('zz'), ok('n1')])), [
    'info:ahp/response-uncorrelated@2/id',
    'error:ahp/response-unmatched@3/id',
  ]);
});
