/**
 * Hostile nesting: values deeper than the limit are one `jsonl/max-depth` finding with a
 * location, and nothing in parsing, scanning or locating recurses on the input's depth.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_MAX_DEPTH, locateIndex, parseJsonText, scanJson } from '../../src/core/json.ts';
import { aepEvent, brief, run } from './helpers.ts';

const DEEP = 100_000;
const nestedArrays = (n: number) => '['.repeat(n) + ']'.repeat(n);
const nestedObjects = (n: number) => '{"a":'.repeat(n) + '1' + '}'.repeat(n);

function eventWithData(inner: string): string {
  const shell = JSON.stringify(
    aepEvent('state.snapshot', 0, { capture: 'redacted', data: { key: 'plan', rev: 1, state: { x: 0 } } }),
  );
  return shell.replace('{"x":0}', `{"x":${inner}}`);
}

test(`${DEEP} nested arrays inside data: one jsonl/max-depth at the first container past the limit`, async () => {
  const line = eventWithData(nestedArrays(DEEP));
  const { findings, stats } = await run(line + '\n');
  assert.deepEqual(
    brief(findings).map((b) => b.split('@')[0]),
    ['jsonl/max-depth'],
  );
  const f = findings[0];
  const at = line.indexOf('[') + DEFAULT_MAX_DEPTH - 3; // root, data, state, then arrays
  assert.equal(f.column, at + 1);
  assert.equal(f.byteOffset, at);
  assert.equal(f.pointer, '/data/state/x' + '/0'.repeat(DEFAULT_MAX_DEPTH - 3));
  assert.match(f.message, /257 levels deep, over the limit of 256/);
  assert.equal(stats.events, 0);
});

test(`${DEEP} nested objects: the same, with the member names in the pointer`, async () => {
  const line = eventWithData(nestedObjects(DEEP));
  const { findings } = await run(line + '\n');
  assert.equal(findings.length, 1);
  assert.equal(findings[0].ruleId, 'jsonl/max-depth');
  assert.equal(findings[0].pointer, '/data/state/x' + '/a'.repeat(DEFAULT_MAX_DEPTH - 3));
});

test('a value exactly at the limit is accepted; one level more is not', () => {
  assert.equal(parseJsonText(nestedArrays(DEFAULT_MAX_DEPTH)).ok, true);
  const over = parseJsonText(nestedArrays(DEFAULT_MAX_DEPTH + 1));
  assert.equal(over.ok, false);
  assert.equal(!over.ok && over.kind, 'max-depth');
  assert.equal(parseJsonText(nestedArrays(10), 10).ok, true);
  assert.equal(parseJsonText(nestedArrays(11), 10).ok, false);
});

test('a raised limit (--max-depth 1000000) parses 100,000 levels without recursion', () => {
  const out = parseJsonText(nestedArrays(DEEP), 1_000_000);
  assert.equal(out.ok, true);
  const objs = parseJsonText(`{"k":${nestedObjects(DEEP)},"k":1}`, 1_000_000);
  assert.equal(objs.ok, true);
  assert.deepEqual(objs.ok && objs.duplicates.map((d) => d.pointer), ['/k']);
});

test('deep invalid JSON, deep duplicates and deep pointers go through the scanner without overflow', async () => {
  const unclosed = eventWithData(nestedArrays(DEEP).slice(0, DEEP + 10));
  const { findings } = await run(unclosed + '\n', { maxDepth: 1_000_000 });
  assert.deepEqual(
    findings.map((f) => f.ruleId),
    ['jsonl/invalid-json'],
  );
  const s = scanJson(`${'{"a":'.repeat(DEEP)}{"b":1,"b":2}${'}'.repeat(DEEP)}`, { maxDepth: Infinity });
  assert.equal(s.error, undefined);
  assert.equal(s.duplicates.length, 1);
  assert.equal(s.duplicates[0].pointer, '/a'.repeat(DEEP) + '/b');
  assert.equal(locateIndex(nestedArrays(DEEP), '/0'.repeat(DEEP - 1), Infinity), DEEP - 1);
});

test('deep nesting inside a line that also has a duplicate key reports the depth, once', async () => {
  const line = eventWithData(nestedArrays(DEEP)).replace('"aep":"0.1",', '"aep":"0.1","aep":"0.1",');
  const { findings } = await run(line + '\n');
  assert.deepEqual(
    findings.map((f) => f.ruleId),
    ['jsonl/max-depth'],
  );
});

test('under a raised --max-depth, 100,000 levels inside data pass through schema validation and every rule without overflow', async () => {
  const line = eventWithData(nestedArrays(DEEP));
  const { findings, stats } = await run(line + '\n', { maxDepth: 1_000_000 });
  assert.equal(stats.events, 1);
  for (const f of findings) assert.equal(f.line, 1, `${f.ruleId}: ${f.message}`);
  assert.ok(!findings.some((f) => f.ruleId === 'jsonl/max-depth'));
});
