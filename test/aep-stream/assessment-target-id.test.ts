/**
 * aep/assessment-target-id (AEP-0009 §2: "A payload MUST NOT introduce a separate response/target id"): a member named
 * as a target id, or a member AEP-0009 does not define whose value repeats the envelope's cause or run.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { event, runRule } from './helpers.ts';

const RULE = 'aep/assessment-target-id';
const run = () => event('run.started', 0, { id: 'rs', run: 'r1', data: {} });
const done = () => event('run.finished', 1, { id: 'rf', run: 'r1', cause: 'rs', data: {} });
const assess = (type: string, data: unknown, over: Record<string, unknown> = {}) =>
  event(`assessment.${type}`, 2, { run: 'r1', cause: 'rf', data, ...over });

const ROWS: { name: string; data: unknown; type?: string; over?: Record<string, unknown>; want: string[] }[] = [
  { name: 'the defined members only', data: { 'gen_ai.evaluation.name': 'relevance', evaluator: 'j:v1' }, want: [] },
  { name: 'a target_* name', data: { target_event: 'x-9' }, want: ['/data/target_event'] },
  { name: 'a targetRef name', data: { targetRef: 'x-9' }, want: ['/data/targetRef'] },
  // a property of the judged work named with target is no id (never rejected by analogy)
  { name: 'target_language, target_score', data: { target_language: 'de', target_score: 0.8 }, want: [] },
  { name: 'a member repeating cause', data: { assessed: 'rf' }, want: ['/data/assessed'] },
  { name: 'a member repeating run', data: { of: 'r1' }, type: 'feedback.received', want: ['/data/of'] },
  {
    name: 'one object deep, repeating cause',
    data: { guardrail: { verdict: 'blocked', ref: 'rf' } },
    type: 'guardrail.recorded',
    want: ['/data/guardrail/ref'],
  },
  {
    name: 'a defined member equal to the run (not an id member)',
    data: { label: 'r1' },
    type: 'feedback.received',
    want: [],
  },
  {
    name: 'no cause, no run: a free value passes',
    data: { note: 'rf' },
    over: { cause: undefined, run: undefined },
    want: [],
  },
  { name: 'a number equal in text is not a string', data: { n: 1 }, over: { run: '1' }, want: [] },
];

for (const row of ROWS) {
  test(`assessment target id: ${row.name}`, async () => {
    const got = await runRule(RULE, [run(), done(), assess(row.type ?? 'evaluation.recorded', row.data, row.over)]);
    assert.deepEqual(
      got,
      row.want.map((p) => `error:${RULE}@3${p}`),
    );
  });
}
