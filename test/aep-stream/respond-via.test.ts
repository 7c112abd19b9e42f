// aep/respond-via-control (AEP-0002 §5.3 respond_via; AEP-0008): a command answering a request
// whose respond_via, when present, lacks "control"; read from the attention analyzer's link.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { event, runRule } from './helpers.ts';

const RULE = 'aep/respond-via-control';
const CONSOLE = { source: 'aep://ops-host/agent/console', agent: 'console' };

const request = (id: string, seq: number, data: Record<string, unknown>, over: Record<string, unknown> = {}) =>
  event('attention.requested', seq, {
    id,
    severity: 'notice',
    data: { kind: 'permission', prompt: 'unit requests permission', ...data },
    ...over,
  });
const respond = (id: string, subject: string, over: Record<string, unknown> = {}) =>
  event('control.attention.respond', undefined, {
    id,
    subject,
    ...CONSOLE,
    data: { answer: { option: 'y' } },
    ...over,
  });

test('a respond to a request declaring only oob, or no channel, is a warning at its subject', async () => {
  const evs = [
    request('q1', 0, { respond_via: ['oob'] }),
    respond('c1', 'q1'),
    request('q2', 1, { respond_via: [] }),
    respond('c2', 'q2'),
  ];
  assert.deepEqual(await runRule(RULE, evs), [`warning:${RULE}@2/subject`, `warning:${RULE}@4/subject`]);
});

test('no finding when respond_via lists control, is absent, or the request is not linked', async () => {
  const evs = [
    request('q1', 0, { respond_via: ['control'] }),
    respond('c1', 'q1'),
    request('q2', 1, {}),
    respond('c2', 'q2'),
    // the request is in another session: the link is missing (aep/attention-unknown-request's concern)
    respond('c3', 'q3', { session: 'u_other' }),
    request('q3', 2, { respond_via: ['oob'] }),
    // an emitter session's own answer out of band is no control delivery
    event('attention.answered', 3, { id: 'a3', subject: 'q3', data: { answer: { option: 'y' }, via: 'oob' } }),
  ];
  assert.deepEqual(await runRule(RULE, evs), []);
});

test('no finding when the request payload failed its schema or two emitters hold the subject', async () => {
  const evs = [
    // "fax" is no respond_via channel: the payload fails, so its channels are not trusted
    request('q1', 0, { respond_via: ['oob', 'fax'] }),
    respond('c1', 'q1'),
    // the same request id in one session name from two sources: ambiguous, not judged
    request('q2', 1, { respond_via: ['oob'] }),
    request('q2', 0, { respond_via: ['oob'] }, { source: 'aep://unit-host-b/agent/unit/session/u_1' }),
    respond('c2', 'q2'),
  ];
  assert.deepEqual(await runRule(RULE, evs), []);
});

test('a command after the request closed still answers an informational request', async () => {
  const evs = [
    request('q1', 0, { respond_via: ['oob'] }),
    event('attention.timeout', 1, { id: 't1', subject: 'q1' }),
    respond('c1', 'q1'),
  ];
  assert.deepEqual(await runRule(RULE, evs), [`warning:${RULE}@3/subject`]);
});
