/**
 * ahp/turn-end-duplicate (src/ahp/analyzers/occurrences.ts): one `turn.end` per turn over first occurrences of
 * `(source, id)`, a turn of another session being another turn.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ev, observe, runRule, SRC2 } from './helpers.ts';

const RULE = 'ahp/turn-end-duplicate';
/** A turn boundary `type` of turn `turn` in session `sid` (no session when null). */
const boundary = (id: string, type: string, turn = 't1', sid: string | null = 's1', source?: string) =>
  observe(
    ev(
      id,
      type,
      {
        ...(sid === null ? {} : { session: { id: sid } }),
        turn: { id: turn },
        outcome: 'completed',
        continuationCount: 0,
        items: [],
      },
      1,
      source,
    ),
  );
const end = (id: string, turn?: string, sid?: string | null, source?: string) =>
  boundary(id, 'turn.end', turn, sid, source);

test('a second turn.end (another event id) for one turn is an error at its turn id', async () => {
  assert.deepEqual(await runRule(RULE, [end('e1'), end('e2')]), [`error:${RULE}@2/params/event/turn/id`]);
  // without sessions on either side the turn id alone keys it
  assert.deepEqual(await runRule(RULE, [end('e1', 't1', null), end('e2', 't1', null)]), [
    `error:${RULE}@2/params/event/turn/id`,
  ]);
  // reported once per repeat, each against the first end
  assert.deepEqual(await runRule(RULE, [end('e1'), end('e2'), end('e3')]), [
    `error:${RULE}@2/params/event/turn/id`,
    `error:${RULE}@3/params/event/turn/id`,
  ]);
});

test('repeats of one event, turn.finish.before, other turns, sessions and sources are not judged', async () => {
  // a retry or an observation keeps the event id
  assert.deepEqual(await runRule(RULE, [end('e1'), end('e1')]), []);
  // turn.finish.before is not turn.end and may come again for one turn
  const finish = (id: string) => boundary(id, 'turn.finish.before');
  assert.deepEqual(await runRule(RULE, [finish('f1'), finish('f2'), end('e1')]), []);
  assert.deepEqual(await runRule(RULE, [end('e1', 't1'), end('e2', 't2')]), []);
  assert.deepEqual(await runRule(RULE, [end('e1', 't1', 's1'), end('e2', 't1', 's2')]), []);
  // a session on one side only: the other may be another session's turn (sessions are optional)
  assert.deepEqual(await runRule(RULE, [end('e1', 't1', null), end('e2')]), []);
  assert.deepEqual(await runRule(RULE, [end('e1'), end('e2', 't1', null)]), []);
  assert.deepEqual(await runRule(RULE, [end('e1'), end('e2', 't1', 's1', SRC2)]), []);
  // no turn id, nothing to key
  const bare = observe(ev('e2', 'turn.end', { session: { id: 's1' }, outcome: 'completed' }, 1));
  assert.deepEqual(await runRule(RULE, [end('e1'), bare]), []);
});

test('the session is part of the turn key: a second end in a later session is judged against that session', async () => {
  // every session's turn t1 is its own turn, so a repeat in s2 is a repeat even after s1's end of its t1
  assert.deepEqual(await runRule(RULE, [end('e1', 't1', 's1'), end('e2', 't1', 's2'), end('e3', 't1', 's2')]), [
    `error:${RULE}@3/params/event/turn/id`,
  ]);
  assert.deepEqual(await runRule(RULE, [end('e1', 't1', 's1'), end('e2', 't1', 's2'), end('e3', 't1', 's3')]), []);
  // session ids whose concatenation with the turn id reads alike are still other sessions
  assert.deepEqual(await runRule(RULE, [end('e1', 'b', 'a'), end('e2', 'ab', ''), end('e3', '1:ab', null)]), []);
});
