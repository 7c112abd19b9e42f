/**
 * Duplicate object member names, each at the second key's exact location: an envelope
 * attribute repeated is `json/duplicate-key` (an error; the event is rejected, since which
 * value counts is undefined); a repeated payload member is `aep/payload-duplicate-key` (a
 * warning). The verdict never depends on which member `JSON.parse` kept.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseJsonText } from '../../src/core/json.ts';
import { aepEvent, ids, run } from './helpers.ts';

test('a repeated envelope attribute is an error at the second key; the event goes no further', async () => {
  const good = JSON.stringify(aepEvent('progress.status', 0, { capture: 'redacted', data: { message: 'é' } }));
  // the second "type" names an unregistered type: if JSON.parse's pick decided, we would see aep/type-unregistered
  const line = good.replace('"type":"progress.status"', '"type":"progress.status","type":"nope.nope"');
  const { findings, stats } = await run(`${good}\n${line}\n`);
  assert.deepEqual(ids(findings), ['json/duplicate-key']);
  const f = findings[0];
  const second = line.indexOf('"type"', line.indexOf('"type"') + 1);
  assert.equal(f.severity, 'error');
  assert.equal(f.line, 2);
  assert.equal(f.column, second + 1);
  assert.equal(f.byteOffset, Buffer.byteLength(good) + 1 + Buffer.byteLength(line.slice(0, second)));
  assert.equal(f.pointer, '/type');
  assert.equal(stats.events, 2);
});

test('every repeat is reported, each at its own key (three copies give two findings)', async () => {
  const line = JSON.stringify(aepEvent('progress.status', 0)).replace(
    '"agent":"probe"',
    '"agent":"probe","agent":"probe","agent":"x"',
  );
  const { findings } = await run(line + '\n');
  assert.deepEqual(ids(findings), ['json/duplicate-key', 'json/duplicate-key']);
  const first = line.indexOf('"agent"');
  const second = line.indexOf('"agent"', first + 1);
  const third = line.indexOf('"agent"', second + 1);
  assert.deepEqual(
    findings.map((f) => f.column),
    [second + 1, third + 1],
  );
});

test('a repeated payload member with equal copies is a warning at its pointer; the event is still checked', async () => {
  const line = JSON.stringify(
    aepEvent('progress.status', 0, { capture: 'redacted', data: { message: 'a', phase: 'scan' } }),
  ).replace('"phase":"scan"', '"phase":"scan","phase":"scan"');
  const { findings } = await run(line + '\n');
  assert.deepEqual(ids(findings), ['aep/payload-duplicate-key']);
  assert.equal(findings[0].severity, 'warning');
  assert.equal(findings[0].pointer, '/data/phase');
  assert.equal(findings[0].column, line.lastIndexOf('"phase"') + 1);
});

test('a repeated payload member whose copies differ is an error at its first repeat, whatever the order', async () => {
  for (const [a, b] of [
    ['scan', 'plan'],
    ['plan', 'scan'],
  ]) {
    const line = JSON.stringify(
      aepEvent('progress.status', 0, { capture: 'redacted', data: { message: 'a', phase: a } }),
    ).replace(`"phase":"${a}"`, `"phase":"${a}","phase":"${b}"`);
    const { findings } = await run(line + '\n');
    assert.deepEqual(ids(findings), ['aep/payload-duplicate-conflict']);
    assert.equal(findings[0].severity, 'error');
    assert.equal(findings[0].pointer, '/data/phase');
    assert.equal(findings[0].column, line.lastIndexOf('"phase"') + 1);
    assert.match(findings[0].message, /copies that differ/);
  }
});

test('duplicates hidden by escapes, by "__proto__" and by a ":" inside a string are all found', () => {
  const cases: [string, string][] = [
    ['{"a":1,"\\u0061":2}', '/a'],
    ['{"__proto__":1,"__proto__":2}', '/__proto__'],
    ['{"x":"\\":","x":1}', '/x'],
    ['{"x" :1,"x":2}', '/x'],
    ['{"o":{"k":1,"k":1},"p":[{"k":1},{"k":1,"k":2}]}', '/o/k /p/1/k'],
  ];
  for (const [text, pointers] of cases) {
    const out = parseJsonText(text);
    assert.equal(out.ok, true, text);
    assert.equal(out.ok && out.duplicates.map((d) => d.pointer).join(' '), pointers, text);
  }
  assert.equal(Object.getPrototypeOf({}) === Object.prototype, true);
});

test('no false duplicates: the same name in sibling objects, or "\\":" inside values, are not repeats', () => {
  for (const text of ['{"a":{"k":1},"b":{"k":1}}', '{"a":"x\\":y","b":"\\":"}', '[{"a":1},{"a":1}]', '{"a":1,"A":2}']) {
    const out = parseJsonText(text);
    assert.equal(out.ok && out.duplicates.length, 0, text);
  }
});

test('a line of thousands of repeats lists the first 1000 and counts the rest once; a later envelope repeat still rejects the event', async () => {
  const members = Array.from({ length: 5000 }, () => '"phase":"x"').join(',');
  const line = JSON.stringify(aepEvent('progress.status', 0, { capture: 'redacted', data: { phase: 'x' } }))
    .replace('"phase":"x"', members)
    .replace('"agent":"probe"', '"agent":"probe","agent":"probe"');
  const { findings } = await run(line + '\n');
  const nested = findings.filter((f) => f.ruleId === 'aep/payload-duplicate-key');
  assert.equal(nested.length, 1000, 'first 1000 nested repeats');
  assert.ok(nested.every((f) => f.severity === 'warning'));
  const summaries = findings.filter((f) => f.ruleId === 'json/duplicate-key-omitted');
  assert.equal(summaries.length, 1, 'one summary');
  const summary = summaries[0]!;
  assert.equal(summary.severity, 'info');
  assert.deepEqual(summary.args, { total: 5000, omitted: 4999 - 1000 });
  assert.equal(summary.pointer, '/data/phase');
  const envelope = findings.filter((f) => f.ruleId === 'json/duplicate-key');
  assert.equal(envelope.length, 1, 'the top-level repeat');
  assert.equal(envelope[0].pointer, '/agent');
  assert.equal(envelope[0].severity, 'error');
  assert.equal(findings.length, 1000 + 1 + 1, 'the event was rejected at the envelope repeat');
});
