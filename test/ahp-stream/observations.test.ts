/**
 * The observations analyzer (src/ahp/analyzers/observations.ts): what a rejected response's modify would have produced,
 * for every target, leaks when an observation of the event carries it; an accepted modify's value is the effective one.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  elicRequest,
  elicResult,
  intercept,
  merge,
  msg,
  observe,
  ok,
  outbound,
  replace,
  runRule,
  toolBefore,
} from './helpers.ts';

type Obj = Record<string, unknown>;
const DENY = { type: 'deny', reason: 'Blocked by policy.' };
const leak = (pointer: string, line = 3) => [`error:ahp/observation-leak@${line}/params/event${pointer}`];

/** Each target: its intercepted event, what the modify makes of it, an unadvertised effect that rejects the response. */
const CASES: Array<{ name: string; before: Obj; caps?: Obj; edit: Obj; after: Obj; reject: Obj; pointer: string }> = [
  {
    name: 'input (merge)',
    before: toolBefore('b1'),
    caps: { effects: ['deny', 'modify'], modify: { input: { replace: true, merge: true } } },
    edit: merge({ command: 'rm -rf /' }, 'input'),
    after: toolBefore('b1', {
      tool: { name: 'Bash', kind: 'shell', input: { command: 'rm -rf /' }, origin: 'native' },
    }),
    reject: { type: 'flow', operation: 'stop' },
    pointer: '/tool/input',
  },
  {
    name: 'outbound content (merge)',
    before: outbound('o1'),
    edit: merge([msg('assistant', 'more', 'm2')]),
    after: outbound('o1', [msg('assistant'), msg('assistant', 'more', 'm2')]),
    reject: { type: 'flow', operation: 'stop' },
    pointer: '/message/messages',
  },
  {
    name: 'elicitation answer content (replace)',
    before: elicResult('r2', 'r1', { content: { name: 'Ada', notify: true } }),
    edit: replace({ name: 'Bob', notify: false }),
    after: elicResult('r2', 'r1', { content: { name: 'Bob', notify: false } }),
    reject: DENY,
    pointer: '/elicitation/result/text',
  },
];

test('a rejected modify of every target leaks into the observation; an accepted one is the effective value', async () => {
  for (const c of CASES) {
    const head = c.name.startsWith('elicitation') ? [observe(elicRequest('r1'))] : [];
    const req = intercept(c.before, ...(c.caps ? [c.caps] : []));
    const line = head.length + 3;
    const rejected = [...head, req, ok(c.before.id, [c.edit, c.reject]), observe(c.after)];
    assert.deepEqual(await runRule('ahp/observation-leak', rejected), leak(c.pointer, line), c.name);
    const accepted = [...head, req, ok(c.before.id, [c.edit]), observe(c.after)];
    assert.deepEqual(await runRule('ahp/observation-leak', accepted), [], `${c.name}: accepted`);
    const unchanged = [...head, req, ok(c.before.id, [c.edit, c.reject]), observe(c.before)];
    assert.deepEqual(await runRule('ahp/observation-leak', unchanged), [], `${c.name}: unchanged`);
  }
});

test('a modify the target does not take (a list over an object) is not a would-be value', async () => {
  const caps = { effects: ['deny', 'modify'], modify: { input: { replace: true, merge: true } } };
  const lines = [intercept(toolBefore('b1'), caps), ok('b1', [merge(['x'], 'input'), DENY]), observe(toolBefore('b1'))];
  assert.deepEqual(await runRule('ahp/observation-leak', lines), []);
});
