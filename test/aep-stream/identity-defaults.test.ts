/**
 * AEP-0001 §5.1: a consumer applies the stated defaults of `epoch`, `severity` and `capture` when absent, so a copy that
 * writes a default out and one that leaves it out are the same event: a redelivery, on the file (read-back) route and
 * the stdin (digest) route alike, in either order, exact or down-leveled.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { downlevelEvent } from '../../src/aep/downlevel.ts';
import { bothRoutes, brief, checkText, event, jsonl } from './helpers.ts';

const DEFAULTS: Record<string, Record<string, unknown>> = {
  epoch: { epoch: 0 },
  severity: { severity: 'info' },
  capture: { capture: 'metadata' },
  all: { epoch: 0, severity: 'info', capture: 'metadata' },
};

for (const [name, written] of Object.entries(DEFAULTS)) {
  test(`a copy writing out the default of ${name} is a redelivery, in both orders and on both routes`, async () => {
    const bare = event('run.started', 0, { id: `d-${name}`, run: 'r1', data: { trigger: 'user' } });
    const full = { ...bare, ...written };
    for (const [a, b] of [
      [bare, full],
      [full, bare],
    ]) {
      const fs = await bothRoutes(jsonl([a, b]));
      assert.deepEqual(fs, ['aep/redelivery@2'], `${name}: ${fs.join(', ')}`);
    }
  });
}

test('a value other than the default is other content: a collision', async () => {
  const bare = event('progress.status', 0, { id: 'd-other', data: { message: 'm' } });
  for (const over of [{ epoch: 1 }, { severity: 'warning' }, { capture: 'none' }, { epoch: '0' }]) {
    const fs = await bothRoutes(jsonl([bare, { ...bare, ...over }]));
    assert.ok(fs.includes('aep/id-collision@2'), `${JSON.stringify(over)}: ${fs.join(', ')}`);
  }
});

test('a down-leveled copy that leaves out the defaults its first copy wrote is a redelivery, in both orders', async () => {
  const first = event('progress.status', 0, {
    id: 'd-down',
    capture: 'full',
    severity: 'info',
    epoch: 0,
    data: { message: 'secret text' },
  });
  const down = downlevelEvent(first, 'metadata', {}).event;
  const { severity: _s, epoch: _e, capture: _c, ...lower } = down;
  for (const [a, b] of [
    [first, lower],
    [first, down],
    [lower, first],
  ]) {
    const text = jsonl([a, b]);
    const fs = await bothRoutes(text);
    assert.deepEqual(fs, ['aep/redelivery@2'], brief(await checkText(text, { source: 's' })));
  }
});

test('at capture none an empty data and an absent one are the same copy; a data with members is not', async () => {
  const bare = event('tool.completed', 0, { id: 'd-none', capture: 'none' });
  for (const [a, b] of [
    [bare, { ...bare, data: {} }],
    [{ ...bare, data: {} }, bare],
  ]) {
    assert.deepEqual(await bothRoutes(jsonl([a, b])), ['aep/redelivery@2']);
  }
  const other = await bothRoutes(jsonl([bare, { ...bare, data: { tool: { name: 'x' } } }]));
  assert.ok(other.includes('aep/id-collision@2'), other.join(', '));
});
