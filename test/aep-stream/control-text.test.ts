/**
 * AEP-0004 control, AEP-0008 text answers and AEP-0009 assessments (issue 38): the matching and stance helpers, and
 * relations the rules must keep on the conformance cases.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { isTargetIdName } from '../../src/aep/assessment.ts';
import { matchText, optionStance } from '../../src/aep/text-answer.ts';
import { checkText } from './helpers.ts';

const CASES = new URL('../../conformance/aep/', import.meta.url);
const read = (p: string) => readFileSync(new URL(p, CASES), 'utf8');
const ids = (fs: { ruleId: string }[]) => fs.map((f) => f.ruleId).sort();

test('matchText: trimmed, case-insensitive id first, then exactly one label; placeholders leave it unknown', () => {
  const set = { ids: ['allow', 'deny'], labels: ['Allow it', 'Deny'] };
  assert.deepEqual(matchText('  DENY ', set), { status: 'matched', option: 'deny' });
  assert.deepEqual(matchText('allow it', set), { status: 'matched', option: 'allow' });
  assert.deepEqual(matchText('use staging', set), { status: 'unmatched' });
  assert.deepEqual(matchText('same', { ids: ['a', 'b'], labels: ['Same', 'same'] }), { status: 'unmatched' });
  assert.deepEqual(matchText('Allow it', { ids: ['allow', 'deny'] }), { status: 'unknown' });
});

test('optionStance: a refusing word wins; unknown words are never judged', () => {
  const table: [string, ReturnType<typeof optionStance>][] = [
    ['allow', 'permissive'],
    ['allow_once', 'permissive'],
    ['allowAlways', 'permissive'],
    ['session', 'permissive'],
    ['yes', 'permissive'],
    ['deny', 'refusing'],
    ['reject_once', 'refusing'],
    ['no', 'refusing'],
    ['disallow', 'refusing'],
    ['1', 'unknown'],
    ['staging', 'unknown'],
  ];
  for (const [id, want] of table) assert.equal(optionStance(id), want, id);
});

test('isTargetIdName: target-id names, not metadata tokens', () => {
  for (const n of [
    'gen_ai.response.id',
    'target_id',
    'targetId',
    'run_id',
    'event_id',
    'target',
    'trace_id',
    'target_event',
  ])
    assert.ok(isTargetIdName(n), n);
  for (const n of ['gen_ai.evaluation.name', 'evaluator', 'rating', 'label', 'source', 'guardrail', 'targets', 'valid'])
    assert.ok(!isTargetIdName(n), n);
});

test('aep/ack-overdue: a window wider than the silence makes the finding go away (--ack-window)', async () => {
  const text = read('fail/aep.ack-overdue.jsonl');
  assert.deepEqual(ids(await checkText(text)), ['aep/ack-overdue']);
  const wide = await checkText(text, { stream: { ackWindowMs: 60_000 } });
  assert.deepEqual(ids(wide), ['aep/command-unacked'], 'unacked at the end, but not overdue');
});

test('aep/command-second-target: a second ack from the same target is aep/ack-exclusive instead', async () => {
  const lines = read('fail/aep.command-second-target.jsonl').trimEnd().split('\n');
  const impostor = JSON.parse(lines[4]!) as Record<string, unknown>;
  const first = JSON.parse(lines[3]!) as Record<string, unknown>;
  // the same ack event, now from the first target's own source and session position
  const again = { ...impostor, source: first.source, agent: first.agent, seq: 2 };
  const text = [...lines.slice(0, 4), JSON.stringify(again)].join('\n') + '\n';
  assert.deepEqual(ids(await checkText(text)), ['aep/ack-exclusive']);
});

test('AEP-0008: the answered option alone decides between the three text-answer rules', async () => {
  const lines = read('fail/aep.text-answer-permissive.jsonl').trimEnd().split('\n');
  const answered = JSON.parse(lines[4]!) as { data: { answer: Record<string, unknown> } };
  const verdict = async (answer: Record<string, unknown>) => {
    const ev = { ...answered, data: { ...answered.data, answer } };
    const text = [...lines.slice(0, 4), JSON.stringify(ev), lines[5]].join('\n') + '\n';
    return ids(await checkText(text));
  };
  const t = 'use staging instead';
  assert.deepEqual(await verdict({ option: 'allow', text: t }), ['aep/text-answer-permissive']);
  assert.deepEqual(await verdict({ option: 'deny', text: t }), []);
  assert.deepEqual(await verdict({ option: 'deny' }), ['aep/text-answer-refusal']);
  assert.deepEqual(await verdict({ text: t }), ['aep/text-answer-refusal']);
  assert.deepEqual(await verdict({ option: 'escalate', text: t }), [], 'an option of unknown meaning is not judged');
});

test('AEP-0008: an answer naming the text command in cause is judged alike with its ack absent or after it', async () => {
  const lines = read('fail/aep.text-answer-permissive.jsonl').trimEnd().split('\n');
  const answered = JSON.parse(lines[4]!) as { data: { answer: Record<string, unknown> } };
  const ack = JSON.parse(lines[3]!) as Record<string, unknown>;
  const t = 'use staging instead';
  for (const answer of [{ option: 'allow', text: t }, { option: 'deny' }, { text: t }, { option: 'deny', text: t }]) {
    const ev = JSON.stringify({ ...answered, data: { ...answered.data, answer } });
    const run = async (body: string[]) =>
      ids(await checkText([...lines.slice(0, 3), ...body, lines[5]].join('\n') + '\n')).filter((r) =>
        r.startsWith('aep/text-answer'),
      );
    const withAck = await run([lines[3]!, ev]);
    const late = JSON.stringify({ ...ack, seq: (ack.seq as number) + 10 });
    assert.deepEqual(await run([ev]), withAck, JSON.stringify(answer));
    assert.deepEqual(await run([ev, late]), withAck, JSON.stringify(answer));
  }
});

test('AEP-0008: below capture redacted the request labels are placeholders, so unmatched text is not decided', async () => {
  const lines = read('fail/aep.text-answer-permissive.jsonl').trimEnd().split('\n');
  const req = JSON.parse(lines[1]!) as Record<string, unknown> & { data: { options: { id: string }[] } };
  const meta = { ...req, capture: 'metadata', prompt: undefined };
  meta.data = {
    ...req.data,
    prompt: 'demo requests permission: Bash',
    options: [
      { id: 'allow', label: '1' },
      { id: 'deny', label: '2' },
    ],
  } as never;
  const text = [lines[0], JSON.stringify(meta), ...lines.slice(2)].join('\n') + '\n';
  assert.deepEqual(
    ids(await checkText(text)).filter((r) => r.startsWith('aep/text-answer')),
    [],
  );
});

test('aep/command-second-target names where the first target acked and the command (kept as compact rows)', async () => {
  const text = read('fail/aep.command-second-target.jsonl');
  const f = (await checkText(text)).find((x) => x.ruleId === 'aep/command-second-target');
  const lines = text.split('\n');
  const offset = (n: number) => Buffer.byteLength(lines.slice(0, n - 1).join('\n')) + 1;
  assert.deepEqual(
    f?.related?.map((r) => [r.line, r.pointer, r.byteOffset]),
    [
      [4, '/cause', offset(4)],
      [3, '/id', offset(3)],
    ],
  );
});
