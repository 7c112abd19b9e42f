/**
 * The assessment analyzer's compact rows (src/aep/analyzers/assessment.ts) against a plain reference model of
 * AEP-0009 §2 (the first assessed event of each id, its session and run; an id seen with two runs not judged), over
 * seeded random streams; and under a tiny memory budget, a forgotten target loses its finding, never gains a wrong one.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { prng } from '../../tools/bench/generate-aep.ts';
import { checkText, jsonl, type RunOptions } from './helpers.ts';

const ASSESSED = ['run.finished', 'run.failed', 'tool.completed', 'tool.failed', 'message.agent.replied'];
const RULE = 'aep/assessment-target-mismatch';

/** A seeded stream: assessed events reusing a few ids across sources, sessions and runs, and assessments of them. */
function stream(seed: number, n: number): Record<string, unknown>[] {
  const r = prng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const ids = Array.from({ length: 12 }, (_, i) => `x-${i}`);
  const out: Record<string, unknown>[] = [];
  for (let i = 0; i < n; i++) {
    const session = pick(['s1', 's2', 's3']);
    const base = {
      aep: '0.1',
      time: '2026-11-30T12:00:00Z',
      // one source per event, so a reused id is never an `(source, id)` repeat (identity would stop the event there)
      source: `aep://unit-host/agent/unit/session/${session}/e${i}`,
      agent: 'unit',
      session,
      seq: 0,
      run: pick(['r1', 'r2']),
    };
    if (r() < 0.6) out.push({ ...base, id: pick(ids), type: pick(ASSESSED), data: {} });
    else {
      const e: Record<string, unknown> = {
        ...base,
        id: `a-${i}`,
        type: 'assessment.evaluation.recorded',
        cause: pick(ids),
        data: { 'gen_ai.evaluation.name': 'relevance', 'gen_ai.evaluation.score.value': 0.5, evaluator: 'unit:v1' },
      };
      if (r() < 0.1) delete e.run;
      out.push(e);
    }
  }
  return out;
}

/** The findings AEP-0009 §2 asks for, from a Map of the first assessed event of each id (null: two runs). */
function reference(events: readonly Record<string, unknown>[]): string[] {
  const byId = new Map<string, { session: unknown; run: unknown; line: number } | null>();
  const out: string[] = [];
  events.forEach((e, i) => {
    const line = i + 1;
    if (ASSESSED.includes(e.type as string)) {
      const prior = byId.get(e.id as string);
      if (prior === undefined) byId.set(e.id as string, { session: e.session, run: e.run, line });
      else if (prior !== null && (prior.session !== e.session || prior.run !== e.run)) byId.set(e.id as string, null);
      return;
    }
    const target = byId.get(e.cause as string);
    if (!target) return;
    if (target.session !== e.session) out.push(`${line}/session<-${target.line}`);
    else if (target.run !== e.run) out.push(`${line}/run<-${target.line}`);
  });
  return out;
}

async function found(events: readonly Record<string, unknown>[], opts: RunOptions = {}): Promise<string[]> {
  const fs = await checkText(jsonl(events), { ...opts, rules: new Set([RULE, 'aep/state-cap']) });
  return fs.filter((f) => f.ruleId === RULE).map((f) => `${f.line}${f.pointer}<-${f.related?.[0]?.line}`);
}

test('the compact rows find what the reference model finds, at the assessed event it names', async () => {
  for (let seed = 1; seed <= 20; seed++) {
    const events = stream(seed, 120);
    const want = reference(events);
    assert.ok(want.length > 0, `seed ${seed} judges something`);
    assert.deepEqual(await found(events), want, `seed ${seed}`);
  }
});

test('under a tiny memory budget a forgotten target loses its finding, never gains a wrong one, and the cap is said', async () => {
  let lost = 0;
  for (let seed = 1; seed <= 10; seed++) {
    const events = stream(seed, 400);
    const all = await found(events);
    const fs = await checkText(jsonl(events), {
      rules: new Set([RULE, 'aep/state-cap']),
      stream: { maxStateMb: 0.002 },
    });
    const some = fs.filter((f) => f.ruleId === RULE).map((f) => `${f.line}${f.pointer}<-${f.related?.[0]?.line}`);
    for (const f of some) assert.ok(all.includes(f), `seed ${seed}: ${f} is found without the budget too`);
    lost += all.length - some.length;
    assert.ok(
      fs.some((f) => f.ruleId === 'aep/state-cap'),
      `seed ${seed}: the budget is reported`,
    );
  }
  assert.ok(lost > 0, 'the budget forgot some targets');
});

test('an id the budget forgot and the input reuses in another run is not judged (its first run is unknown)', async () => {
  const ev = (source: string, seq: number, over: Record<string, unknown>) => ({
    aep: '0.1',
    time: '2026-11-30T12:00:00Z',
    source: `aep://unit-host/agent/unit/session/${source}`,
    agent: 'unit',
    session: 's1',
    seq,
    run: 'r1',
    data: {},
    ...over,
  });
  const events: Record<string, unknown>[] = [ev('a', 0, { id: 'x', type: 'tool.completed' })];
  for (let i = 1; i <= 40; i++) events.push(ev('a', i, { id: `f-${i}`, type: 'tool.completed' }));
  events.push(ev('b', 0, { id: 'x', type: 'tool.completed', run: 'r2' }));
  events.push(
    ev('a', 41, {
      id: 'judge',
      type: 'assessment.evaluation.recorded',
      cause: 'x',
      data: { 'gen_ai.evaluation.name': 'relevance', 'gen_ai.evaluation.score.value': 0.5, evaluator: 'unit:v1' },
    }),
  );
  assert.deepEqual(await found(events), [], 'x names two runs: not judged');
  const fs = await checkText(jsonl(events), { rules: new Set([RULE, 'aep/state-cap']), stream: { maxStateMb: 0.004 } });
  assert.deepEqual(
    fs.map((f) => f.ruleId),
    ['aep/state-cap'],
    'the first x was forgotten: no finding against the second',
  );
  // the same stream without the reuse: the row that outlived the budget is still judged
  const kept = events
    .filter((e) => !(e.id === 'x' && e.run === 'r1'))
    .map((e) => (e.id === 'judge' ? { ...e, run: 'r3' } : e));
  assert.deepEqual(await found(kept, { stream: { maxStateMb: 0.004 } }), [`${kept.length}/run<-${kept.length - 1}`]);
});
