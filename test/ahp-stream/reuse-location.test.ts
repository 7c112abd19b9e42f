/**
 * Where ahp/event-id-reuse points (base/failure.md §Duplicate delivery and retries; base/composition.md §Interceptor
 * order): at the first member of the later message that differs, and at the copy it is compared with (the delivery a
 * retry re-sends, else the event's first line).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { firstDifference, isViewMember } from '../../src/ahp/analyzers/identity-rows.ts';
import type { Finding } from '../../src/core/finding.ts';
import { check, intercept, observe, ok, outbound, toolBefore } from './helpers.ts';

const reuse = async (lines: unknown[]): Promise<Finding[]> =>
  (await check(lines)).filter((f) => f.ruleId === 'ahp/event-id-reuse');
const withInput = (input: unknown, extra: Record<string, unknown> = {}) =>
  toolBefore('e1', { tool: { name: 'Bash', kind: 'shell', input, origin: 'native' }, ...extra });

test('a retry of the next interceptor delivery names that delivery and the first differing member', async () => {
  const lines = [
    intercept(withInput({ command: 'npm publish' })),
    ok('e1'),
    intercept(withInput({ command: 'npm publish --dry-run' })),
    intercept(withInput({ command: 'npm publish --tag next' })),
    ok('e1'),
  ];
  const [f, ...rest] = await reuse(lines);
  assert.equal(rest.length, 0);
  assert.equal(f!.line, 4);
  assert.equal(f!.pointer, '/params/event/tool/input/command');
  assert.equal(f!.related?.[0]?.line, 3);
  assert.match(f!.message, /event of line 3 /);
  // the column is the differing member's, not the line's start
  const text = JSON.stringify(lines[3]);
  assert.equal(
    text.slice(f!.column! - 1).startsWith('"command"') ||
      text.slice(f!.column! - 1).startsWith('"npm publish --tag next"'),
    true,
    `column ${f!.column}`,
  );
});

test('each later delivery becomes the copy a retry is compared with', async () => {
  const fs = await reuse([
    intercept(withInput({ command: 'a' })),
    ok('e1'),
    intercept(withInput({ command: 'b' })),
    ok('e1'),
    intercept(withInput({ command: 'c' })),
    intercept(withInput({ command: 'c' })),
    intercept(withInput({ command: 'c', cwd: '/tmp' })),
    ok('e1'),
  ]);
  assert.deepEqual(
    fs.map((f) => [f.line, f.pointer, f.related?.[0]?.line]),
    [[7, '/params/event/tool/input/cwd', 5]],
  );
});

test('a plain retry: an added array item, a removed member, a changed control field each point at themselves', async () => {
  const cases: [unknown, Record<string, unknown>, string][] = [
    [{ args: ['a', 'b', 'c'] }, {}, '/params/event/tool/input/args/2'],
    // a removed member: its own pointer (located at the object that lacks it)
    [{}, {}, '/params/event/tool/input/args'],
    [{ args: ['a', 'x'] }, {}, '/params/event/tool/input/args/1'],
    [{ args: ['a', 'b'] }, { path: 'mcp' }, '/params/event/path'],
  ];
  for (const [input, extra, pointer] of cases) {
    const fs = await reuse([intercept(withInput({ args: ['a', 'b'] })), intercept(withInput(input, extra)), ok('e1')]);
    assert.deepEqual(
      fs.map((f) => [f.line, f.pointer, f.related?.[0]?.line]),
      [[2, pointer, 1]],
      JSON.stringify(input),
    );
  }
});

test('another view with other metadata points at the differing control field, else at the first non-view member', async () => {
  const a = outbound('e1');
  const time = await reuse([observe(a), observe({ ...a, time: '2026-09-15T12:09:00Z' })]);
  assert.deepEqual(
    time.map((f) => f.pointer),
    ['/params/event/time'],
  );
  const ext = await reuse([observe({ ...a, extensions: { x: 1 } }), observe({ ...a, extensions: { x: 2 } })]);
  assert.deepEqual(
    ext.map((f) => f.pointer),
    ['/params/event/extensions/x'],
  );
  // a dropped member outside the control fields and views: the pointer and the sentence name it (base/events.md
  // §Extensions: extensions are preserved when an otherwise unchanged event is proxied)
  const dropped = await reuse([observe({ ...a, extensions: { 'com.example.trace': { id: 't1' } } }), observe(a)]);
  assert.deepEqual(
    dropped.map((f) => [f.pointer, f.message.includes('(`extensions` differs)')]),
    [['/params/event/extensions', true]],
  );
  // a control field keeps its own name; a member name that is no protocol name is not echoed
  const odd = await reuse([observe({ ...a, 'x-secret value': 1 }), observe(a)]);
  assert.deepEqual(
    odd.map((f) => [f.pointer, f.message.includes('(rest of the event differs)')]),
    [['/params/event/x-secret value', true]],
  );
});

test('firstDifference: members in code-unit order whatever their order in either copy, missing and extra members, skips, depth', () => {
  assert.equal(firstDifference({ a: 1, b: [1, 2] }, { b: [1, 2], a: 1 }, ''), undefined);
  assert.equal(firstDifference({ a: 1, b: 2 }, { b: 3, a: 4 }, ''), '/a');
  assert.equal(firstDifference({ b: 2, a: 1 }, { b: 3, a: 1 }, ''), '/b');
  assert.equal(firstDifference({ a: 1, b: 2 }, { a: 1 }, '/e'), '/e/b');
  assert.equal(firstDifference({ a: 1 }, { a: 1, 'x/y': 2 }, ''), '/x~1y');
  assert.equal(firstDifference([1, 2], [1], ''), '');
  assert.equal(firstDifference([1], [1, 2], ''), '/1');
  assert.equal(firstDifference({ a: [] }, { a: {} }, ''), '/a');
  assert.equal(firstDifference({ a: null }, { a: 0 }, ''), '/a');
  assert.equal(firstDifference({ input: 1, b: 1 }, { input: 2, b: 1 }, '', isViewMember), undefined);
  assert.equal(firstDifference({ input: 1, b: 1 }, { input: 2, b: 2 }, '', isViewMember), '/b');
  let x: unknown = 1;
  let y: unknown = 2;
  for (let i = 0; i < 400; i++) {
    x = { k: x };
    y = { k: y };
  }
  const p = firstDifference(x, y, '');
  assert.ok(p?.startsWith('/k/k'), 'deep values still differ');
  assert.equal(firstDifference(x, structuredClone(x), ''), undefined);
});
