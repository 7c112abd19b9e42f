/**
 * `--max-depth` is the one depth limit of a run, also for JSON texts inside a line (issue 25
 * item 7): the MCP body of an AHP elicitation event is parsed under the run's limit, not a
 * fixed 256, and every later pass over an already-parsed line (duplicate copies, finding
 * locations) applies no hidden limit of its own.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { validate } from '../../src/api/validate.ts';
import { DEFAULT_MAX_DEPTH } from '../../src/core/json.ts';
import { event, observe, text } from '../ahp/builders.ts';
import { aepEvent } from './helpers.ts';

/** An elicitation request whose MCP body holds `_meta` nested `depth` objects deep (the body root counts as one level). */
function deepBodyLine(depth: number): string {
  const inner = '{"k":'.repeat(depth - 1) + '1' + '}'.repeat(depth - 1);
  const body = `{"message":"Name?","requestedSchema":{"type":"object","properties":{"name":{"type":"string"}}},"_meta":${inner}}`;
  return JSON.stringify(
    observe(event('user.elicitation.request', { elicitation: { server: 'mcp:x', mode: 'form', request: text(body) } })),
  );
}

async function ahpBodyFindings(depth: number, maxDepth?: number): Promise<string[]> {
  const { findings } = await validate(
    'ahp',
    { text: deepBodyLine(depth) + '\n', source: 'deep.jsonl' },
    maxDepth === undefined ? {} : { maxDepth },
  );
  return findings.filter((f) => f.severity !== 'info').map((f) => f.ruleId);
}

describe('an MCP body nested n deep is accepted exactly when n <= --max-depth', () => {
  const rows: Array<[number | undefined, number]> = [];
  for (const limit of [undefined, 20, 300, 1000]) {
    const l = limit ?? DEFAULT_MAX_DEPTH;
    for (const n of [l - 1, l, l + 1]) rows.push([limit, n]);
  }
  for (const [limit, n] of rows) {
    const l = limit ?? DEFAULT_MAX_DEPTH;
    test(`max depth ${limit ?? `default ${DEFAULT_MAX_DEPTH}`}, body depth ${n}: ${n <= l ? 'accepted' : 'ahp/elicitation-body'}`, async () => {
      assert.deepEqual(await ahpBodyFindings(n, limit), n <= l ? [] : ['ahp/elicitation-body']);
    });
  }
  test('the refusal names the limit', async () => {
    const { findings } = await validate(
      'ahp',
      { text: deepBodyLine(31) + '\n', source: 'deep.jsonl' },
      { maxDepth: 30 },
    );
    assert.match(
      findings.find((f) => f.ruleId === 'ahp/elicitation-body')!.message,
      /nesting deeper than 30 levels \(the limit `--max-depth`; library: `maxDepth`\)/,
    );
  });
});

describe('an AEP line deeper than 256 under a raised limit keeps its exact verdicts', () => {
  /** A state.snapshot whose `state` holds `{"a":1,"a":2}` (copies that differ) under `depth` levels of objects. */
  function deepConflict(depth: number): string {
    const shell = JSON.stringify(
      aepEvent('state.snapshot', 0, { capture: 'redacted', data: { key: 'plan', rev: 1, state: { x: 0 } } }),
    );
    return shell.replace('{"x":0}', `{"x":${'{"k":'.repeat(depth)}{"a":1,"a":2}${'}'.repeat(depth)}}`);
  }
  for (const depth of [10, 400]) {
    test(`differing duplicate copies ${depth} levels down are a conflict (as near the top), located at the repeat`, async () => {
      const { findings } = await validate(
        'aep',
        { text: deepConflict(depth) + '\n', source: 'deep.jsonl' },
        { maxDepth: 1000 },
      );
      const dup = findings.filter((f) => f.ruleId.startsWith('aep/payload-duplicate'));
      assert.deepEqual(
        dup.map((f) => f.ruleId),
        ['aep/payload-duplicate-conflict'],
      );
      // located at the repeated member itself, however deep
      assert.equal(dup[0]!.pointer, '/data/state/x' + '/k'.repeat(depth) + '/a');
      assert.ok(dup[0]!.column! > depth * 5, `column ${dup[0]!.column}`);
    });
  }
});
