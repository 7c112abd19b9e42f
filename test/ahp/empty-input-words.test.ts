// AHP calls what a line or body holds a message (trial 14 item 9): jsonl/empty-input says so for an empty stdio input, a
// blank one and no input at all, as for an empty HTTP body; AEP keeps its events.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { validate } from '../../src/index.ts';

async function emptyMessages(protocol: 'aep' | 'ahp', inputs: { text: string; source?: string }[]): Promise<string[]> {
  const r = await validate(protocol, inputs);
  return r.findings.filter((f) => f.ruleId === 'jsonl/empty-input').map((f) => f.message);
}

test('jsonl/empty-input names a message in AHP and an event in AEP, on every route', async () => {
  for (const inputs of [[{ text: '' }], [{ text: '\n\n' }], []]) {
    const ahp = await emptyMessages('ahp', inputs);
    assert.equal(ahp.length, 1, JSON.stringify(inputs));
    assert.match(ahp[0]!, /no message/);
    const aep = await emptyMessages('aep', inputs);
    assert.match(aep[0]!, /no event/);
  }
  const body = await validate('ahp', [{ text: ' \n', source: 'b.json' }], { binding: 'http' });
  assert.match(body.findings.find((f) => f.ruleId === 'jsonl/empty-input')?.message ?? '', /no message to check/);
});
