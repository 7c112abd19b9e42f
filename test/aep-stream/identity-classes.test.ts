/**
 * The identity analyzer over classes of repeats (AEP-0001 §5.1 #2, §7 rules 2 and 4, §8.2(b)):
 * a first copy the schema stage refused still owns its `(source, id)` when that pair is
 * trustworthy.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkText, event, jsonl } from './helpers.ts';

const ids = (fs: { ruleId: string; line?: number }[]) => fs.filter((f) => f.ruleId.startsWith('aep/id-') || f.ruleId === 'aep/redelivery').map((f) => `${f.ruleId}@${f.line}`);

test('a refused first copy keeps its id when aep, id and source are sound; a later reuse is a collision', async () => {
  const base = () => event('progress.status', 0, { id: 'dup-1' });
  const json = (o: Record<string, unknown>) => JSON.stringify(o);
  // [what is wrong with the first copy, its line, whether (source, id) is still trustworthy]
  const table: [string, string, boolean][] = [
    ['seq a string', json({ ...base(), seq: '0' }), true],
    ['seq a fraction', json({ ...base(), seq: 0.5 }), true],
    ['seq beyond a double', json(base()).replace('"seq":0', '"seq":1e400'), true],
    ['time not RFC 3339', json({ ...base(), time: 'yesterday' }), true],
    ['unregistered core type', json({ ...base(), type: 'progress.nonexistent' }), true],
    ['bad extension name', json({ ...base(), Bad_Name: 1 }), true],
    ['a repeated seq member (which copy counts is undefined, so the content is)', json(base()).replace('"seq":0', '"seq":0,"seq":1'), false],
    ['session-scoped without session', json({ ...base(), session: undefined }), true],
    ['another version', json({ ...base(), aep: '0.2' }), false],
    ['no version', json({ ...base(), aep: undefined }), false],
    ['empty id', json({ ...base(), id: '' }), false],
    ['numeric id', json({ ...base(), id: 7 }), false],
    ['source not a URI', json({ ...base(), source: 'not a uri' }), false],
    ['a repeated id member', json(base()).replace('"id":"dup-1"', '"id":"dup-0","id":"dup-1"'), false],
    ['a repeated source member', json(base()).replace('"source":', '"source":"aep://x/y","source":'), false],
  ];
  for (const [what, first, trusted] of table) {
    const reuse = event('progress.status', 1, { id: 'dup-1', data: { percent: 20 } });
    const got = ids(await checkText(jsonl([first, reuse])));
    assert.deepEqual(got, trusted ? ['aep/id-collision@2'] : [], what);
    // the same holds the other way round: a valid first copy, a refused reuse
    const got2 = ids(await checkText(jsonl([reuse, first])));
    assert.deepEqual(got2, trusted ? ['aep/id-collision@2'] : [], `${what} (second)`);
  }
});

test('a refused copy repeated exactly is a redelivery, and counted by no other rule', async () => {
  const line = JSON.stringify(event('run.started', '1' as unknown as number, { id: 'r-1', run: 'r' }));
  const fs = await checkText(jsonl([line, line]));
  assert.deepEqual(
    fs.map((f) => `${f.ruleId}@${f.line}`),
    ['aep/seq-epoch@1', 'aep/seq-epoch@2', 'aep/redelivery@2'],
  );
});
