/**
 * AEP-0001 §5.1: a consumer applies the stated defaults of `epoch`, `severity` and `capture` when absent, so a copy that
 * writes a default out and one that leaves it out are the same event: a redelivery, on the file (read-back) route and
 * the stdin (digest) route alike, in either order, exact or down-leveled.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { openInputs, type CliIO } from '../../src/cli/common.ts';
import { downlevelEvent } from '../../src/aep/downlevel.ts';
import type { Finding } from '../../src/core/finding.ts';
import type { InputSpec } from '../../src/core/pipeline.ts';
import { brief, event, jsonl } from './helpers.ts';
import { aepDriver, runPipeline } from '../run.ts';

const dir = mkdtempSync(join(tmpdir(), 'aep-defaults-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

async function check(inputs: InputSpec[]): Promise<Finding[]> {
  const out: Finding[] = [];
  await runPipeline(inputs, aepDriver(), (f) => out.push(f));
  return out;
}

/** Findings of `text` as a file (read back) and as stdin (digests); asserted equal. */
async function bothRoutes(text: string): Promise<string[]> {
  const p = join(dir, `in-${++n}.jsonl`);
  writeFileSync(p, text);
  const onFile = await check(openInputs([p], {} as CliIO, () => 'jsonl'));
  const onStdin = await check([
    {
      source: p,
      open: async function* () {
        yield text;
      },
    },
  ]);
  assert.deepEqual(onFile, onStdin, 'file and stdin give the same findings');
  return onFile.filter((f) => f.severity !== 'info').map((f) => `${f.ruleId}@${f.line}`);
}

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
    assert.deepEqual(
      fs,
      ['aep/redelivery@2'],
      brief(
        await check([
          {
            source: 's',
            open: async function* () {
              yield text;
            },
          },
        ]),
      ),
    );
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
