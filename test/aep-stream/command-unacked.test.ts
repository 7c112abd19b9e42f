/**
 * aep/command-unacked (AEP-0004 §3, §7): a command of the input to a session of the input that no ack answered is listed,
 * also when it came after its session's session.ended (events after a terminal stay legal, AEP-0002 §2), then apart.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkText, event, jsonl } from './helpers.ts';

const RULE = 'aep/command-unacked';
const CONSOLE = { source: 'aep://ops-host/agent/console', agent: 'console' };
const started = () => event('session.started', 0, { data: {} });
const ended = (seq: number) => event('session.ended', seq, { data: {} });
const pause = (id: string) => event('control.pause', undefined, { id, ...CONSOLE, data: {} });
const ack = (seq: number, cause: string) => event('control.accepted', seq, { cause, data: {} });
const B = { source: 'aep://h2/agent/b/session/u_1', agent: 'b' };

const ROWS: { name: string; events: unknown[]; want: string[] }[] = [
  { name: 'before the end, unacked', events: [started(), pause('c1'), ended(1)], want: ['one@2'] },
  { name: 'after the end, unacked', events: [started(), ended(1), pause('c1')], want: ['ended@3'] },
  {
    name: 'after the end, two unacked: one finding',
    events: [started(), ended(1), pause('c1'), pause('c2')],
    want: ['ended@3'],
  },
  { name: 'after the end, acked late', events: [started(), ended(1), pause('c1'), ack(2, 'c1')], want: [] },
  {
    name: 'one before and one after the end: listed apart',
    events: [started(), pause('c1'), ended(1), pause('c2')],
    want: ['one@2', 'ended@4'],
  },
  {
    name: 'another emitter of the session name is live: not "ended"',
    events: [started(), ended(1), event('session.started', 0, { ...B, data: {} }), pause('c1')],
    want: ['one@4'],
  },
  { name: 'no emitter of the session in the input (a sender log)', events: [pause('c1')], want: [] },
];

for (const row of ROWS) {
  test(`command unacked: ${row.name}`, async () => {
    const fs = await checkText(jsonl(row.events), { rules: new Set([RULE]) });
    assert.deepEqual(
      fs.map((f) => `${f.messageId}@${f.line}`),
      row.want,
    );
  });
}
