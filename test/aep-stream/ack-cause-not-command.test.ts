/**
 * An ack whose cause names the emitter's own event or a command to another session, and no command of its session in
 * the input: the warning
 * aep/ack-cause-not-command (AEP-0004 §3, §6; the bare-id ambiguity of AEP-0001 §7.4 keeps it from an error).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { event, runRule } from './helpers.ts';

const RULE = 'aep/ack-cause-not-command';
const WARN = (line: number) => `warning:${RULE}@${line}/cause`;
const CONSOLE = { source: 'aep://ops-host/agent/console', agent: 'console' };
const started = () => event('session.started', 0, { id: 'e1', data: {} });
const run = () => event('run.started', 1, { id: 'e2', run: 'r1' });
const ack = (seq: number, cause: string | undefined, type = 'control.accepted') =>
  event(type, seq, type === 'control.rejected' ? { cause, data: { reason: 'invalid' } } : { cause });
const pause = (id: string) => event('control.pause', undefined, { id, ...CONSOLE });
const toOther = (id: string) => event('control.pause', undefined, { id, ...CONSOLE, session: 's2' });
const other = (seq: number, cause: string) =>
  event('control.accepted', seq, { cause, source: 'aep://h2/agent/b/session/s2', agent: 'b', session: 's2' });

const ROWS: { name: string; events: unknown[]; want: string[] }[] = [
  { name: 'cause names its own run.started', events: [started(), run(), ack(2, 'e2')], want: [WARN(3)] },
  {
    name: 'a rejection naming its own session.started',
    events: [started(), ack(1, 'e1', 'control.rejected')],
    want: [WARN(2)],
  },
  {
    name: 'cause names the ack itself',
    events: [event('control.accepted', 0, { id: 't-self', cause: 't-self' })],
    want: [WARN(1)],
  },
  {
    name: 'a command with that id is in the input too',
    events: [started(), run(), pause('e2'), ack(2, 'e2')],
    want: [],
  },
  {
    name: 'cause names nothing in the input (a command before the capture)',
    events: [started(), ack(1, 'c0')],
    want: [],
  },
  {
    name: 'cause names another source’s event',
    events: [
      pause('c1'),
      event('progress.status', 0, { id: 'x', ...CONSOLE, source: 'aep://h2/agent/b/session/u_1' }),
      ack(1, 'x'),
    ],
    want: [],
  },
  {
    name: 'cause names a command addressed to another session',
    events: [started(), toOther('c9'), ack(1, 'c9')],
    want: [WARN(3)],
  },
  {
    name: 'a rejection naming a command to another session that its own target acked',
    events: [started(), toOther('c9'), other(0, 'c9'), ack(1, 'c9', 'control.rejected')],
    want: [WARN(4)],
  },
  {
    name: 'a command with that id to this session is in the input too',
    events: [started(), toOther('c9'), pause('c9'), ack(1, 'c9')],
    want: [],
  },
  {
    name: 'the command to this session came first, then one to another session under its id',
    events: [started(), pause('c9'), ack(1, 'c9'), toOther('c9')],
    want: [],
  },
  {
    name: 'an unreadable line earlier may have held a command to this session',
    events: [started(), toOther('c9'), '{"aep":', ack(1, 'c9')],
    want: ['error:jsonl/invalid-json@3'],
  },
  {
    name: 'a second ack of one command (aep/ack-exclusive, not this)',
    events: [pause('c1'), ack(0, 'c1'), ack(1, 'c1')],
    want: [],
  },
  {
    name: 'an unreadable line earlier may have held the command',
    events: [started(), run(), '{"aep":', ack(2, 'e2')],
    want: ['error:jsonl/invalid-json@3'],
  },
];

for (const row of ROWS) {
  test(`ack cause: ${row.name}`, async () => {
    assert.deepEqual(await runRule(RULE, row.events), row.want);
  });
}
