/**
 * Relation: a command and its acks give the same findings, at the same events, whether the acks come after the command
 * in the input or before it (foreign events are ordered by time and cause, not file position, AEP-0001 §5.2; copies
 * and events arrive in any order, §7 rule 2). Where the file order is itself the evidence, a row says so.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Finding } from '../../src/core/finding.ts';
import { brief, checkText, event, jsonl, UNIT_FORM } from './helpers.ts';

const CONSOLE = { source: 'aep://ops-host/agent/console', agent: 'console' };
const B = { source: 'aep://h2/agent/b/session/u_1', agent: 'b' };
const T0 = '2026-11-30T12:00:00Z';
const at = (s: number) => new Date(Date.parse(T0) + s * 1000).toISOString();

const FORM = UNIT_FORM;
const PERMISSION = {
  kind: 'permission',
  prompt: 'Permission requested: Bash',
  options: [
    { id: 'allow', label: 'Allow' },
    { id: 'deny', label: 'Deny' },
  ],
};

const pause = () => event('control.pause', undefined, { id: 'c', time: at(1), ...CONSOLE, data: {} });
const respond = (answer: unknown) =>
  event('control.attention.respond', undefined, {
    id: 'c',
    time: at(1),
    subject: 'q',
    cause: 'q',
    capture: 'redacted',
    ...CONSOLE,
    data: { answer },
  });
const accepted = (id: string, seq: number, s = 2, over: Record<string, unknown> = {}) =>
  event('control.accepted', seq, { id, cause: 'c', time: at(s), ...over });
const rejected = (id: string, seq: number, reason: string) =>
  event('control.rejected', seq, { id, cause: 'c', time: at(2), data: { reason } });
const request = (data: unknown) => event('attention.requested', 1, { id: 'q', time: at(0), capture: 'redacted', data });

interface Row {
  name: string;
  /** Events of the target before the command in both orders. */
  before: Record<string, unknown>[];
  command: Record<string, unknown>;
  /** The acks: after the command, or moved before it. */
  acks: Record<string, unknown>[];
  /** Events after both in both orders. */
  after?: Record<string, unknown>[];
  /** The findings expected in both orders, as `rule@event id` (info aside). */
  want: string[];
}

const started = event('session.started', 0, { id: 's0', time: T0, data: {} });
const startedB = event('session.started', 0, { id: 'b0', time: T0, ...B, data: {} });

const ROWS: Row[] = [
  { name: 'accepted in the window', before: [started], command: pause(), acks: [accepted('a', 1)], want: [] },
  {
    name: 'rejected refused',
    before: [started],
    command: pause(),
    acks: [rejected('a', 1, 'refused')],
    want: [],
  },
  {
    name: 'accepted past the window (times, not lines, decide)',
    before: [started],
    command: pause(),
    acks: [accepted('a', 1, 30)],
    want: ['aep/ack-window@a'],
  },
  {
    name: 'a second target acks it',
    before: [started, startedB],
    command: pause(),
    acks: [accepted('a', 1), accepted('ab', 1, 3, B)],
    want: ['aep/command-second-target@ab'],
  },
  {
    name: 'one target acks it twice',
    before: [started],
    command: pause(),
    acks: [accepted('a', 1), accepted('a2', 2, 3)],
    want: ['aep/ack-exclusive@a2'],
  },
  {
    name: 'an invalid form answer accepted',
    before: [started, request(FORM)],
    command: respond({ values: { n: 'three' } }),
    acks: [accepted('a', 2)],
    want: ['aep/respond-invalid-accepted@a', 'aep/respond-values-required@c', 'aep/respond-values-type@c'],
  },
  {
    name: 'an invalid form answer rejected invalid',
    before: [started, request(FORM)],
    command: respond({ values: { n: 'three' } }),
    acks: [rejected('a', 2, 'invalid')],
    want: [],
  },
  {
    name: 'an invalid form answer rejected busy',
    before: [started, request(FORM)],
    command: respond({ values: { n: 'three' } }),
    acks: [rejected('a', 2, 'busy')],
    want: ['aep/respond-values-required@c', 'aep/respond-values-type@c'],
  },
  {
    name: 'text naming an option rejected invalid while the request is open',
    before: [started, request(PERMISSION)],
    command: respond({ text: 'Allow' }),
    acks: [rejected('a', 2, 'invalid')],
    want: ['aep/text-answer-unmapped@a'],
  },
  {
    name: 'unmatched text accepted and applied as allow',
    before: [started, request(PERMISSION)],
    command: respond({ text: 'use staging instead' }),
    acks: [accepted('a', 2)],
    after: [
      event('attention.answered', 3, {
        id: 'an',
        time: at(3),
        subject: 'q',
        cause: 'c',
        capture: 'redacted',
        data: { answer: { option: 'allow' }, via: 'control' },
      }),
    ],
    want: ['aep/text-answer-permissive@an'],
  },
];

/** `rule@id` of each non-info finding, by the id of the event at its line. */
function keyed(fs: readonly Finding[], lines: Record<string, unknown>[]): string[] {
  return fs
    .filter((f) => f.severity !== 'info')
    .map((f) => `${f.ruleId}@${String(lines[(f.line ?? 0) - 1]?.id)}`)
    .sort();
}

for (const row of ROWS) {
  test(`ack order: ${row.name}: the same findings with the acks after or before the command`, async () => {
    const after = [...row.before, row.command, ...row.acks, ...(row.after ?? [])];
    const before = [...row.before, ...row.acks, row.command, ...(row.after ?? [])];
    const fa = await checkText(jsonl(after));
    const fb = await checkText(jsonl(before));
    assert.deepEqual(keyed(fa, after), [...row.want].sort(), `acks after: ${brief(fa)}`);
    assert.deepEqual(keyed(fb, before), [...row.want].sort(), `acks before: ${brief(fb)}`);
  });
}

test('ack order: where the file order is the evidence, it decides', async () => {
  // aep/ack-overdue reads the target's own order: an event of it past the window with the command still unacked. With
  // the command after every target event in the input, no event of the target came after it: only the ack's own time
  // (aep/ack-window) speaks.
  const late = event('progress.status', 1, { id: 'late', time: at(20) });
  const ack = accepted('a', 2, 21);
  const overdue = [started, pause(), late, ack];
  const fo = await checkText(jsonl(overdue));
  assert.deepEqual(keyed(fo, overdue), ['aep/ack-overdue@late', 'aep/ack-window@a'], brief(fo));
  const first = [started, late, ack, pause()];
  const ff = await checkText(jsonl(first));
  assert.deepEqual(keyed(ff, first), ['aep/ack-window@a'], brief(ff));
  // a repeat of the command before its ack is a retry the ack may answer (AEP-0004 §2.3): not judged for the window;
  // a repeat after the ack (in either order of ack and first copy) is a redelivery the ack already answered
  const retry = [started, pause(), pause(), accepted('a', 1, 30)];
  assert.deepEqual(keyed(await checkText(jsonl(retry)), retry), []);
  const redelivered = [started, accepted('a', 1, 30), pause(), pause()];
  assert.deepEqual(keyed(await checkText(jsonl(redelivered)), redelivered), ['aep/ack-window@a']);
});

test('ack order: an earlier ack the memory budget forgot is said to be maybe forgotten, never absent', async () => {
  const ack = (id: string, seq: number, cause: string) => event('control.accepted', seq, { id, cause, time: at(2) });
  const cmd = (id: string) => event('control.pause', undefined, { id, time: at(1), ...CONSOLE, data: {} });
  const events = [
    started,
    ack('a1', 1, 'c1'),
    ack('a2', 2, 'c2'),
    ack('a3', 3, 'c3'),
    cmd('c1'),
    cmd('c2'),
    cmd('c9'),
    event('progress.status', 4, { id: 'p', time: at(40) }),
  ];
  const text = jsonl(events);
  // in full: c1 and c2 are acked; c9 never is, and its target emits past the window
  const full = await checkText(text);
  assert.deepEqual(keyed(full, events), ['aep/ack-overdue@p'], brief(full));
  const fs = await checkText(text, { stream: { maxStateMb: 0.0005 } });
  assert.ok(
    fs.some((f) => f.ruleId === 'aep/state-cap'),
    brief(fs),
  );
  const unacked = fs.filter((f) => f.ruleId === 'aep/command-unacked');
  // the forgotten ones apart, worded as maybe forgotten; c9 (never acked) keeps its overdue warning
  assert.deepEqual(
    unacked.map((f) => `${f.messageId}@${String(events[f.line! - 1]!.id)}`),
    ['forgotten@c1'],
    brief(fs),
  );
  assert.match(unacked[0]!.message, /may have been forgotten under the memory budget/);
  assert.doesNotMatch(unacked[0]!.message, /in the input;/);
  const overdue = fs.filter((f) => f.ruleId === 'aep/ack-overdue');
  assert.deepEqual(
    overdue.map((f) => f.message.includes('control.pause at line 7')),
    [true],
    brief(fs),
  );
});

test('ack order: an ack whose cause names its own event or a command to another session waits for the end of input', async () => {
  const own = event('run.started', 1, { id: 'c', run: 'r1', time: at(0), data: { trigger: 'user' } });
  const toOther = event('control.pause', undefined, { id: 'c', time: at(1), ...CONSOLE, session: 'u_2', data: {} });
  const ack = accepted('a', 2);
  const rows: [string, Record<string, unknown>[], string[]][] = [
    ['own event, no command', [started, own, ack], ['aep/ack-cause-not-command@a']],
    ['own event, its command after the ack', [started, own, ack, pause()], []],
    ['own event, its command before the ack', [started, own, pause(), ack], []],
    [
      'a command to another session before the ack',
      [started, toOther, accepted('a', 1)],
      ['aep/ack-cause-not-command@a'],
    ],
    [
      'a command to another session after the ack',
      [started, accepted('a', 1), toOther],
      ['aep/ack-cause-not-command@a'],
    ],
  ];
  for (const [name, events, want] of rows) {
    const fs = await checkText(jsonl(events));
    assert.deepEqual(keyed(fs, events), want, `${name}: ${brief(fs)}`);
  }
});

test("ack order: an ack naming its emitter's own event gets the same verdict whether that event comes before or after it", async () => {
  const own = (seq: number) =>
    event('run.started', seq, { id: 'c', run: 'r1', time: at(0), data: { trigger: 'user' } });
  // the same id from another emitter is not this emitter's own event
  const ownB = event('run.started', 1, { id: 'c', run: 'r1', time: at(0), ...B, data: { trigger: 'user' } });
  // [name, own event first, ack first (seq follows the file), findings in both]
  const rows: [string, Record<string, unknown>[], Record<string, unknown>[], string[]][] = [
    [
      'no command',
      [started, own(1), accepted('a', 2)],
      [started, accepted('a', 1), own(2)],
      ['aep/ack-cause-not-command@a'],
    ],
    [
      'its command last',
      [started, own(1), accepted('a', 2), pause()],
      [started, accepted('a', 1), own(2), pause()],
      [],
    ],
    [
      'its command between',
      [started, own(1), pause(), accepted('a', 2)],
      [started, accepted('a', 1), pause(), own(2)],
      [],
    ],
    [
      "the id is another emitter's",
      [started, startedB, ownB, accepted('a', 1)],
      [started, startedB, accepted('a', 1), ownB],
      [],
    ],
  ];
  for (const [name, ownFirst, ackFirst, want] of rows) {
    const fo = await checkText(jsonl(ownFirst));
    const fa = await checkText(jsonl(ackFirst));
    assert.deepEqual(keyed(fo, ownFirst), want, `${name}, own event first: ${brief(fo)}`);
    assert.deepEqual(keyed(fa, ackFirst), want, `${name}, ack first: ${brief(fa)}`);
  }
  // the message names where the own event is, after the ack too
  const late = [started, accepted('a', 1), own(2)];
  const f = (await checkText(jsonl(late))).find((x) => x.ruleId === 'aep/ack-cause-not-command');
  assert.match(f?.message ?? '', /names this emitter's own event at line 3,/);
  assert.equal(f?.line, 2);
});
