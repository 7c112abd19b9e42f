/**
 * One rule alone (the driver's rule selection, issue 12 item 5): a selected rule gives exactly
 * the findings it gives among all the others, since analyzers run whatever the selection;
 * schema findings of unselected rules are filtered too, framing ones are not. And dedupe holds
 * structurally: a redelivered line reaches no stream rule but aep/redelivery, each run alone.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { AEP_STREAM_RULES } from '../../src/aep/rules/index.ts';
import { checkText, event, runRule, type RunOptions } from './helpers.ts';
import { sweep } from '../scale.ts';

const FAIL = fileURLToPath(new URL('../../conformance/aep/fail/', import.meta.url));
const show = (fs: readonly { severity: string; ruleId: string; line?: number; pointer?: string; message: string }[]) =>
  fs.map((f) => `${f.severity}:${f.ruleId}@${f.line ?? '-'}${f.pointer ?? ''} ${f.message}`);

test('runRule: aep/seq-regression alone reports only its own findings (no payload, capture or redelivery findings)', async () => {
  const evs = [
    event('progress.status', 5, { id: 'p1' }),
    event('progress.status', 3, { id: 'p2', data: { nope: true } }),
    event('progress.status', 5, { id: 'p1' }),
    event('run.finished', 6, { id: 'f1', run: 'r' }),
    event('run.failed', 7, { id: 'f2', run: 'r' }),
  ];
  assert.deepEqual(await runRule('aep/seq-regression', evs), ['error:aep/seq-regression@2/seq']);
  assert.deepEqual(await runRule('aep/run-terminal', evs), ['error:aep/run-terminal@5/type']);
  assert.deepEqual(await runRule('aep/redelivery', evs), ['info:aep/redelivery@3']);
});

test('runRule: form values on a respond and on an answer are two rules with their own severity', async () => {
  const form = event('attention.requested', 0, {
    id: 'q',
    severity: 'notice',
    data: { kind: 'form', prompt: 'p', fields: [{ id: 'n', type: 'number', label: 'N', required: true }] },
  });
  const respond = event('control.attention.respond', undefined, {
    id: 'c',
    subject: 'q',
    source: 'aep://ops/agent/console',
    agent: 'console',
    data: { answer: { values: { n: 'x' } } },
  });
  const answered = event('attention.answered', 1, { id: 'a', subject: 'q', data: { answer: { values: { n: 'y' } } } });
  const evs = [form, respond, answered];
  assert.deepEqual(await runRule('aep/respond-values-type', evs), [
    'warning:aep/respond-values-type@2/data/answer/values/n',
  ]);
  assert.deepEqual(await runRule('aep/form-values-type', evs), ['error:aep/form-values-type@3/data/answer/values/n']);
  assert.deepEqual(await runRule('aep/respond-values-required', evs), []);
});

test('runRule: framing findings appear whatever the selection', async () => {
  const fs = await checkText('{"aep":\n' + JSON.stringify(event('progress.status', 1)) + '\n', {
    rules: new Set(['aep/seq-regression']),
  });
  assert.deepEqual(
    fs.map((f) => f.ruleId),
    ['jsonl/invalid-json'],
  );
});

test('dedupe, one rule at a time: a redelivered line reaches no stream rule but aep/redelivery', async () => {
  const req = event('attention.requested', 0, {
    id: 'r1',
    severity: 'notice',
    data: { kind: 'form', prompt: 'p', fields: [{ id: 'n', type: 'number', label: 'n' }] },
  });
  const respond = event('control.attention.respond', undefined, {
    id: 'c1',
    subject: 'r1',
    source: 'aep://ops/agent/console',
    agent: 'console',
    data: { answer: { values: { n: 'x' } } },
  });
  const ack = event('control.accepted', 1, { id: 'a1', cause: 'c1' });
  const fin = event('run.finished', 2, { id: 'f1', run: 'r' });
  const to = event('attention.timeout', 3, { id: 't1', subject: 'r1' });
  const end = event('session.ended', 4, { id: 'e1' });
  const evs = [req, req, respond, respond, ack, ack, fin, fin, to, to, end, end];
  const repeats = new Set([2, 4, 6, 8, 10, 12]);
  for (const r of AEP_STREAM_RULES) {
    const fs = await checkText(evs.map((e) => JSON.stringify(e)).join('\n') + '\n', { rules: new Set([r.id]) });
    const onRepeats = fs.filter((f) => f.line !== undefined && repeats.has(f.line));
    if (r.id === 'aep/redelivery')
      assert.deepEqual(
        onRepeats.map((f) => f.line),
        [2, 4, 6, 8, 10, 12],
      );
    else assert.deepEqual(show(onRepeats), [], `${r.id} saw a redelivered line`);
  }
});

test('every stream rule alone gives exactly its findings of the full run, on every conformance fail case', async (t) => {
  for (const name of sweep(
    t,
    readdirSync(FAIL).filter((f) => f.endsWith('.jsonl')),
  )) {
    const sidecar = JSON.parse(readFileSync(FAIL + name.replace(/\.jsonl$/, '.expected.json'), 'utf8')) as {
      options?: Record<string, number>;
    };
    const o = sidecar.options ?? {};
    const opts: RunOptions = {
      source: name,
      stream: { maxSessions: o.maxSessions, maxOpen: o.maxOpen, maxIds: o.maxIds },
      maxLineBytes: o.maxLineBytes,
      maxDepth: o.maxDepth,
    };
    for (const k of ['maxSessions', 'maxOpen', 'maxIds'] as const)
      if (opts.stream![k] === undefined) delete opts.stream![k];
    const text = readFileSync(FAIL + name);
    const all = await checkText(text, opts);
    for (const r of AEP_STREAM_RULES) {
      const alone = await checkText(text, { ...opts, rules: new Set([r.id]) });
      // framing, the one finding on lines of another format and the one on lines of an unread major version (set
      // aside like them, AEP-0003 §3.1 #3) appear whatever the selection
      const framing = (id: string) =>
        id.startsWith('jsonl/') || id.startsWith('json/') || id === 'aep/bridge-input' || id === 'aep/version';
      assert.deepEqual(
        show(alone.filter((f) => !framing(f.ruleId))),
        show(all.filter((f) => f.ruleId === r.id)),
        `${name}: ${r.id} alone`,
      );
    }
  }
});
