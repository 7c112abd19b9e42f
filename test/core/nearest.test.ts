/**
 * Messages that name what they judge (issue 37 item 6): the nearest-word helper, and the AHP `ahp/event-type` /
 * `ahp/envelope` and AEP `aep/type-unregistered` messages built on it, over every known type with one edit.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { knownAepTypes } from '../../src/aep/protocol.ts';
import { ahpEventTypes } from '../../src/ahp/schema/schemas.ts';
import { editDistance, nearestWord } from '../../src/core/nearest.ts';
import { checkText } from '../aep-stream/helpers.ts';
import { observeLine, runStdio } from '../ahp/helpers.ts';

test('edit distance and the nearest word', () => {
  assert.equal(editDistance('kitten', 'sitting'), 3);
  assert.equal(editDistance('', 'abc'), 3);
  assert.equal(nearestWord('run.finishd', ['run.started', 'run.finished']), 'run.finished');
  assert.equal(nearestWord('zzzzzzzzzzzz', ['run.started'], true), undefined);
  assert.equal(nearestWord('x'.repeat(1000), ['run.started']), undefined);
});

/** `t` with its last letter dropped: one edit from `t` (the nearest unless another known type is as near). */
const typo = (t: string): string => t.slice(0, -1);

test('ahp/event-type names the rejected type and the nearest catalogue type', async () => {
  const types = ahpEventTypes();
  for (const t of types) {
    const wrong = typo(t);
    if (types.includes(wrong)) continue;
    const event = { id: 'e', source: 'urn:h', time: '2026-01-01T00:00:00Z', type: wrong, session: 's' };
    const fs = (await runStdio(observeLine(event) + '\n')).filter((f) => f.ruleId === 'ahp/event-type');
    assert.equal(fs.length, 1, t);
    assert.ok(fs[0]!.message.includes(JSON.stringify(wrong)), fs[0]!.message);
    const nearest = nearestWord(wrong, types)!;
    assert.equal(editDistance(wrong, nearest), 1, `${wrong} -> ${nearest}`);
    assert.ok(fs[0]!.message.includes(`the nearest is ${JSON.stringify(nearest)}`), fs[0]!.message);
  }
});

test('ahp/envelope names the member and the kind of message that lacks it', async () => {
  const fs = await runStdio(observeLine({ source: 'urn:h', time: '2026-01-01T00:00:00Z', type: 'session.end' }) + '\n');
  const env = fs.filter((f) => f.ruleId === 'ahp/envelope');
  assert.ok(env.length > 0);
  for (const f of env)
    assert.match(
      f.message,
      /^`id` is required in every event .*the session\.end event carried by a hooks\/observe notification has none\.$/,
    );
});

test('aep/type-unregistered names the registered type one edit away, and none for an unrelated name', async () => {
  const known = knownAepTypes();
  let n = 0;
  for (const t of known) {
    const wrong = typo(t);
    if (known.includes(wrong) || !/^[a-z]+(\.[a-z0-9_]+)+$/.test(wrong)) continue;
    const line = JSON.stringify({
      aep: '0.1',
      id: 'e',
      type: wrong,
      time: '2026-01-01T00:00:00Z',
      source: 'urn:h',
      agent: 'a',
      ...(wrong.startsWith('agent.') ? {} : { session: 's', seq: 1 }),
    });
    const f = (await checkText(line + '\n')).find((x) => x.ruleId === 'aep/type-unregistered');
    assert.ok(f, wrong);
    assert.ok(f.message.includes(`the nearest registered type is "${nearestWord(wrong, known)}"`), f.message);
    n++;
  }
  assert.ok(n > 20, `${n} types checked`);
  const line =
    '{"aep":"0.1","id":"e","type":"run.qqqqqqqqqqqqqqq","time":"2026-01-01T00:00:00Z","source":"urn:h","agent":"a","session":"s","seq":1}';
  const f = (await checkText(line + '\n')).find((x) => x.ruleId === 'aep/type-unregistered');
  assert.ok(f && !f.message.includes('nearest'), f?.message);
});
