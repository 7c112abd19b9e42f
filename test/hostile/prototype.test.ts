/**
 * `__proto__`, `constructor`, `toString` and friends as member names, field ids, choice ids,
 * types and values are ordinary data: no prototype pollution, and no check is fooled by a name
 * every object inherits.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { parseJsonText, scanJson } from '../../src/core/json.ts';
import type { Finding } from '../../src/core/finding.ts';
import { aepEvent, hasAepRule, ids, jsonl, run as runAll, type RunOptions } from './helpers.ts';

/** Run, leaving out the end-of-stream note about requests still open (these streams stop early). */
async function run(
  text: string,
  opts?: RunOptions,
): Promise<{ findings: Finding[]; stats: Awaited<ReturnType<typeof runAll>>['stats'] }> {
  const r = await runAll(text, opts);
  return { findings: r.findings.filter((f) => f.ruleId !== 'aep/open-at-end'), stats: r.stats };
}

const NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'prototype', '__defineGetter__'];

function assertNoPollution(): void {
  const probe = {} as Record<string, unknown>;
  for (const k of ['polluted', 'isAdmin', 'x']) {
    assert.equal(probe[k], undefined, `Object.prototype.${k} was set`);
    assert.equal(Object.hasOwn(Object.prototype, k), false);
  }
  assert.equal(Object.getPrototypeOf(probe), Object.prototype);
  assert.equal(typeof probe.toString, 'function');
  assert.equal(Array.prototype.includes.length, 1);
}

after(assertNoPollution);

/** A line whose `data` holds `raw` JSON text verbatim (so `__proto__` stays a real member). */
function withRawData(type: string, seq: number, raw: string, over: Record<string, unknown> = {}): string {
  return JSON.stringify(aepEvent(type, seq, { capture: 'redacted', data: { PLACEHOLDER: 1 }, ...over })).replace(
    '{"PLACEHOLDER":1}',
    raw,
  );
}

test('__proto__ as a member keeps its place as data in parsing and scanning', () => {
  const text = '{"__proto__":{"polluted":1},"constructor":{"prototype":{"isAdmin":true}},"a":{"__proto__":[1]}}';
  const out = parseJsonText(text);
  assert.equal(out.ok, true);
  const v = out.ok ? (out.value as Record<string, unknown>) : {};
  assert.deepEqual(Object.keys(v), ['__proto__', 'constructor', 'a']);
  assert.equal(Object.getPrototypeOf(v), Object.prototype);
  assert.deepEqual(scanJson(text + ' ').duplicates, []);
  assertNoPollution();
});

test('envelope members named like Object.prototype members are extension attributes, judged by name and value', async () => {
  const base = aepEvent('progress.status', 0);
  const lines = [
    JSON.stringify(base).replace('"aep":"0.1"', '"aep":"0.1","__proto__":{"polluted":1}'),
    JSON.stringify({ ...base, id: 'c2', seq: 1, constructor: 'x' }),
    JSON.stringify({ ...base, id: 'c3', seq: 2, toString: 'x' }),
    JSON.stringify({ ...base, id: 'c4', seq: 3, constructor: { isAdmin: true } }),
  ];
  const { findings } = await run(jsonl(lines));
  assert.deepEqual(
    findings.map((f) => [f.ruleId, f.line, f.pointer]),
    [
      ['aep/extension-name', 1, '/__proto__'],
      ['aep/extension-value', 1, '/__proto__'],
      ['aep/extension-name', 3, '/toString'],
      ['aep/extension-value', 4, '/constructor'],
    ],
  );
  assertNoPollution();
});

test('a missing required envelope attribute is not found on the prototype chain', async () => {
  const e = aepEvent('progress.status', 0);
  delete e.agent;
  const { findings } = await run(
    JSON.stringify(e).replace('"aep":"0.1"', '"aep":"0.1","__proto__":{"agent":"inherited"}') + '\n',
  );
  assert.ok(ids(findings).includes('aep/envelope-required'), ids(findings).join(' '));
  assertNoPollution();
});

test('payload members named __proto__ / constructor are data (payload schema decides), never a crash', async () => {
  const raw = '{"message":"m","__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}}}';
  const { findings } = await run(withRawData('progress.status', 0, raw) + '\n');
  for (const f of findings) assert.ok(f.line === 1 && typeof f.message === 'string');
  assertNoPollution();
});

function form(fieldIds: string[], requestId = 'req-1', extra = ''): string {
  const fields = fieldIds
    .map((id) => `{"id":${JSON.stringify(id)},"type":"string","label":${JSON.stringify(id)},"required":true}`)
    .join(',');
  return withRawData(
    'attention.requested',
    0,
    `{"kind":"form","prompt":"p","fields":[${fields}${extra}],"respond_via":["control"]}`,
    { id: requestId },
  );
}

function answered(values: string, seq = 1, requestId = 'req-1'): string {
  return withRawData('attention.answered', seq, `{"answer":{"values":${values}},"via":"control"}`, {
    subject: requestId,
    cause: requestId,
  });
}

test('form field ids named like Object.prototype members: a missing required answer is still missing', {
  skip: !hasAepRule('aep/form-values-required') && 'aep/form-values-required not present',
}, async () => {
  for (const name of NAMES) {
    const { findings } = await run(jsonl([form([name]), answered('{}')]));
    assert.deepEqual(
      findings.map((f) => [f.ruleId, f.line]),
      [['aep/form-values-required', 2]],
      `field id ${name}: ${ids(findings).join(' ')}`,
    );
  }
  assertNoPollution();
});

test('form answers keyed __proto__ / constructor are answers like any other, and nothing is polluted', {
  skip: !hasAepRule('aep/form-values-required') && 'aep/form-values-required not present',
}, async () => {
  const values =
    '{"__proto__":"a","constructor":"b","toString":"c","hasOwnProperty":"d","valueOf":"e","prototype":"f","__defineGetter__":"g"}';
  const { findings } = await run(jsonl([form(NAMES), answered(values)]));
  assert.deepEqual(ids(findings), []);
  const typed = await run(jsonl([form(NAMES), answered(values.replace('"a"', '1'))]));
  assert.deepEqual(
    typed.findings.map((f) => [f.ruleId, f.pointer]),
    [['aep/form-values-type', '/data/answer/values/__proto__']],
  );
  assertNoPollution();
});

test('duplicate field ids named __proto__ are reported like any repeat', async () => {
  const { findings } = await run(form(['__proto__', '__proto__']) + '\n');
  assert.deepEqual(
    findings.map((f) => [f.ruleId, f.pointer]),
    [['aep/form-duplicate-id', '/data/fields/1/id']],
  );
});

test('types and ids named like prototype members are counted and reported as data', async () => {
  const lines = [
    JSON.stringify(aepEvent('x.constructor.__proto__.tostring', 0, { id: '__proto__' })),
    JSON.stringify(aepEvent('x.constructor.__proto__.tostring', 1, { id: 'constructor' })),
    JSON.stringify(aepEvent('__proto__', 2, { id: 'toString' })),
  ];
  const { findings, stats } = await run(jsonl(lines));
  assert.deepEqual(
    findings.map((f) => [f.ruleId, f.line]),
    [['aep/type-grammar', 3]],
  );
  assert.equal(stats.types.get('x.constructor.__proto__.tostring'), 2);
  assert.equal(stats.types.get('__proto__'), 1);
  assertNoPollution();
});

test('a type named __proto__ appears in the summary coverage like any other unknown type', async () => {
  const { FindingCounter } = await import('../../src/core/summary.ts');
  const { stats } = await runAll(jsonl([aepEvent('__proto__', 0)]));
  const summary = new FindingCounter(() => {}).summary(stats, ['progress.status']);
  const unknown = (JSON.parse(JSON.stringify(summary)) as { coverage: { unknown: object } }).coverage.unknown;
  assert.equal(Object.getOwnPropertyDescriptor(unknown, '__proto__')?.value, 1);
});
