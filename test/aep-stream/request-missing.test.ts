/**
 * The class of attention followers whose request is not in the input: an error
 * (aep/attention-request-missing) exactly when the input provably holds the follower's
 * `(source, session)` from its start with no gap and every request still recorded; the info
 * (aep/attention-unknown-request) otherwise. One table over the ways a capture can hold, or not
 * hold, the start (AEP-0002 §7.1; AEP-0001 §7.2-§7.4).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { brief, checkText, event, jsonl, type RunOptions } from './helpers.ts';

const OTHER_SOURCE = 'aep://other-host/agent/unit/session/u_1';
const ask = (seq: number, over: Record<string, unknown> = {}) =>
  event('attention.requested', seq, {
    id: 'q',
    severity: 'notice',
    data: { kind: 'input', prompt: 'unit requests input' },
    ...over,
  });
const answer = (seq: number | undefined, over: Record<string, unknown> = {}) =>
  event('attention.answered', seq, { subject: 'q', data: { answer: { option: 'ok' } }, ...over });
const started = (seq: number, over: Record<string, unknown> = {}) =>
  event('session.started', seq, { data: {}, ...over });
const routed = () =>
  event('attention.routed', undefined, {
    subject: 'q',
    source: 'aep://router/agent/r',
    agent: 'r',
    data: { surface: 'slack' },
  });
const status = (seq: number, over: Record<string, unknown> = {}) =>
  event('progress.status', seq, { data: { phase: 'working' }, ...over });

type Verdict = 'error' | 'info' | 'none';
interface Row {
  name: string;
  events: Record<string, unknown>[];
  /** The verdict on the follower, the last line unless {@link line} says otherwise. */
  want: Verdict;
  line?: number;
  opts?: RunOptions;
}

const ROWS: Row[] = [
  // start present
  {
    name: 'session.started at (0, 0), no request',
    events: [event('session.started', 0, { data: {} }), answer(1)],
    want: 'error',
  },
  {
    name: 'explicit epoch 0',
    events: [event('session.started', 0, { epoch: 0, data: {} }), answer(1, { epoch: 0 })],
    want: 'error',
  },
  {
    name: 'session.started first at a later position (the session began there)',
    events: [event('session.started', 4, { epoch: 2, data: {} }), answer(5, { epoch: 2 })],
    want: 'error',
  },
  {
    name: 'timeout follower',
    events: [started(0), event('attention.timeout', 1, { subject: 'q', data: { after_ms: 1 } })],
    want: 'error',
  },
  {
    name: 'resolved follower',
    events: [started(0), event('attention.resolved', 1, { subject: 'q', data: { resolution: 'auto' } })],
    want: 'error',
  },
  {
    name: 'a redelivered start changes nothing',
    events: [started(0), started(0), answer(1)].map((e, i, a) => (i === 1 ? a[0]! : e)),
    want: 'error',
  },
  { name: 'request present: linked', events: [started(0), ask(1), answer(2)], want: 'none' },
  // seq 0 is not a start: AEP-0001 §7 never says a counter starts at 0 (a pin starts where it starts)
  { name: 'position (0, 0) first, no session.started', events: [status(0), answer(1)], want: 'info' },
  { name: 'a lone follower at (0, 0), as an adapter mapping pin', events: [answer(0)], want: 'info' },
  {
    name: 'explicit epoch 0 at seq 0, no session.started',
    events: [status(0, { epoch: 0 }), answer(1, { epoch: 0 })],
    want: 'info',
  },
  { name: 'a request at seq 0 first, then its answer', events: [ask(0), answer(1)], want: 'none' },
  { name: 'request present after gaps: linked', events: [status(3), ask(7), answer(9)], want: 'none' },
  // start absent: mid-session captures, gaps, epochs
  { name: 'mid-session capture', events: [status(5), answer(6)], want: 'info' },
  { name: 'follower first, mid-session', events: [answer(3)], want: 'info' },
  { name: 'a gap after the start', events: [started(0), status(2), answer(3)], want: 'info' },
  { name: 'the request arrives later as backfill', events: [started(0), answer(2), ask(1)], want: 'info', line: 2 },
  { name: 'an epoch change after the start', events: [started(0), answer(0, { epoch: 1 })], want: 'info' },
  {
    name: 'epoch 1 seq 0 first (not the first position)',
    events: [status(0, { epoch: 1 }), answer(1, { epoch: 1 })],
    want: 'info',
  },
  {
    name: 'a seq regression after the start',
    events: [started(0), status(1), status(1, { data: { phase: 'again' } }), answer(2)],
    want: 'info',
  },
  {
    name: 'after the session ended: linked to the closed request by its compact row',
    events: [
      started(0),
      ask(1),
      event('attention.resolved', 2, { subject: 'q', data: { resolution: 'auto' } }),
      event('session.ended', 3, { data: {} }),
      answer(4),
    ],
    want: 'none',
  },
  // other session, other source: a request elsewhere does not count
  {
    name: 'request in another session, follower session from its start',
    events: [ask(0, { session: 'u_2', source: 'aep://unit-host/agent/unit/session/u_2' }), started(0), answer(1)],
    want: 'error',
  },
  {
    name: 'request in another session, follower mid-session',
    events: [ask(0, { session: 'u_2', source: 'aep://unit-host/agent/unit/session/u_2' }), answer(4)],
    want: 'info',
  },
  {
    name: 'request of another source, same session name, follower from its start',
    events: [ask(0, { source: OTHER_SOURCE }), started(0), answer(1)],
    want: 'error',
  },
  {
    name: 'request of another source, same session name, follower mid-session',
    events: [ask(0, { source: OTHER_SOURCE }), answer(2)],
    want: 'info',
  },
  {
    name: 'another source started, this one did not',
    events: [started(0, { source: OTHER_SOURCE }), answer(3)],
    want: 'info',
  },
  // a foreign attention.routed: judged against the one emitter of the session it addresses, as a respond is
  { name: 'foreign attention.routed, session from its start', events: [started(0), routed()], want: 'error' },
  {
    name: 'foreign attention.routed naming a tool.requested of the session',
    events: [started(0), event('tool.requested', 1, { id: 'q', data: { tool: { name: 'shell' } } }), routed()],
    want: 'error',
  },
  { name: 'foreign attention.routed, request present', events: [started(0), ask(1), routed()], want: 'none' },
  { name: 'foreign attention.routed, mid-session', events: [status(4), routed()], want: 'info' },
  { name: 'foreign attention.routed after a gap', events: [started(0), status(2), routed()], want: 'info' },
  {
    name: 'foreign attention.routed, two emitters of the session name',
    events: [started(0), started(0, { source: OTHER_SOURCE }), routed()],
    want: 'info',
  },
  // ids are unique per source (AEP-0001 §5.1 #2): an id its emitter used for another event is no request, gap or not
  {
    name: 'mid-session, subject is the id of its own tool.requested',
    events: [status(3), event('tool.requested', 5, { id: 'q', data: { tool: { name: 'shell' } } }), answer(6)],
    want: 'error',
  },
  {
    name: 'a gap, subject is the id of its own progress.status',
    events: [started(0), status(2, { id: 'q' }), answer(3)],
    want: 'error',
  },
  {
    name: 'a timeout after an epoch change naming its own tool.requested',
    events: [
      event('tool.requested', 4, { id: 'q', data: { tool: { name: 'shell' } } }),
      event('attention.timeout', 0, { epoch: 1, subject: 'q', data: { after_ms: 1 } }),
    ],
    want: 'error',
  },
  {
    name: 'foreign attention.routed after a gap, naming a tool.requested of the one emitter',
    events: [
      started(0),
      status(2),
      event('tool.requested', 3, { id: 'q', data: { tool: { name: 'shell' } } }),
      routed(),
    ],
    want: 'error',
  },
  {
    name: 'mid-session, the id is of an event of another source',
    events: [status(3, { id: 'q', source: OTHER_SOURCE }), answer(5)],
    want: 'info',
  },
  {
    name: 'foreign attention.routed naming a tool.requested, two emitters of the session name',
    events: [status(3, { id: 'q' }), status(1, { source: OTHER_SOURCE }), routed()],
    want: 'info',
  },
  {
    name: 'the id names a later event only',
    events: [status(3), answer(5), status(6, { id: 'q' })],
    want: 'info',
    line: 2,
  },
  // state the analyzers forgot keeps the info
  {
    name: 'request refused by maxOpen',
    events: [started(0), ask(1, { id: 'q0' }), ask(2), answer(3)],
    want: 'info',
    opts: { stream: { maxOpen: 1 } },
  },
  {
    name: 'a request refused by maxOpen, the id named of another event',
    events: [status(3), ask(4, { id: 'q0' }), ask(5, { id: 'q1' }), status(6, { id: 'q' }), answer(7)],
    want: 'info',
    opts: { stream: { maxOpen: 1 } },
  },
  {
    name: 'session evicted by maxSessions and back',
    events: [started(0), started(0, { session: 'u_2', source: 'aep://unit-host/agent/unit/session/u_2' }), answer(1)],
    want: 'info',
    opts: { stream: { maxSessions: 1 } },
  },
  {
    name: 'a new session after an eviction',
    events: [
      started(0),
      started(0, { session: 'u_2', source: 'aep://unit-host/agent/unit/session/u_2' }),
      started(0, { session: 'u_3', source: 'aep://unit-host/agent/unit/session/u_3' }),
      answer(1, { session: 'u_3', source: 'aep://unit-host/agent/unit/session/u_3' }),
    ],
    want: 'info',
    opts: { stream: { maxSessions: 1 } },
  },
];

const ERROR = 'aep/attention-request-missing';
const INFO = 'aep/attention-unknown-request';

for (const row of ROWS) {
  test(`attention follower without its request: ${row.name} -> ${row.want}`, async () => {
    const fs = await checkText(jsonl(row.events), row.opts);
    const last = row.line ?? row.events.length;
    const got = fs.filter((f) => f.ruleId === ERROR || f.ruleId === INFO);
    const want = row.want === 'none' ? [] : [`${row.want === 'error' ? ERROR : INFO}@${last}/subject`];
    assert.deepEqual(
      got.map((f) => `${f.ruleId}@${f.line}${f.pointer}`),
      want,
      brief(fs),
    );
    // the row's events are otherwise valid: no other error hides or explains the verdict
    const others = fs.filter(
      (f) => f.severity === 'error' && f.ruleId !== ERROR && !/seq-regression|id-collision/.test(f.ruleId),
    );
    assert.deepEqual(others, [], brief(fs));
  });
}

test('a respond naming a non-request event of the one emitter is the error with or without a gap; a refused request keeps the info', async () => {
  const UI = { source: 'aep://ui-host/agent/ui/session/u_1', agent: 'ui' };
  const respond = () =>
    event('control.attention.respond', undefined, { ...UI, subject: 'q', data: { answer: { option: 'ok' } } });
  const tool = (seq: number) =>
    event('tool.completed', seq, { id: 'q', data: { tool: { name: 'sh' }, status: 'success' } });
  const verdicts = async (events: Record<string, unknown>[]) =>
    (await checkText(jsonl(events)))
      .filter((f) => /request-missing|unknown-request/.test(f.ruleId))
      .map((f) => `${f.severity}:${f.ruleId}@${f.line}`);
  const ERR = 'error:aep/respond-request-missing';
  assert.deepEqual(await verdicts([started(0), tool(1), respond()]), [`${ERR}@3`]);
  assert.deepEqual(await verdicts([started(0), status(1), tool(4), respond()]), [`${ERR}@4`]);
  const fs = await checkText(jsonl([status(1), tool(4), respond()]));
  const f = fs.find((x) => x.ruleId === 'aep/respond-request-missing');
  assert.match(f?.message ?? '', /is the id of the event at line 2, which is not an attention\.requested/, brief(fs));
  // an attention.requested the schema stage refused may be the one named: nothing is known
  const broken = ask(2, { id: 'q', agent: undefined, session: undefined });
  assert.deepEqual(await verdicts([status(1), broken, respond()]), ['info:aep/attention-unknown-request@3']);
  // the cause wording names what a respond's cause should be, not what its subject names
  const cause = (await checkText(jsonl([status(1), tool(4), { ...respond(), cause: 'x' }]))).find(
    (x) => x.ruleId === 'aep/respond-cause',
  );
  assert.doesNotMatch(cause?.message ?? '', /the attention\.requested its subject names/);
});
