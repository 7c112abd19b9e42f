/**
 * AHP stream state follows open work (docs/architecture.md; README "Exceeding a state cap"): a
 * long valid generated stream (tools/bench/generate-ahp.ts) produces no finding except
 * open-at-end notes, answered requests leave the pending map, and the forms of elicitation
 * requests are released once their answer was checked; completed work leaves only compact rows.
 * State sizes are read through the run's analyzers (the driver's `onStreamState`).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { generateAhp } from '../../tools/bench/generate-ahp.ts';
import type { AhpStreamState } from '../../src/ahp/analyzers/model.ts';
import type { AhpStreamOptions } from '../../src/ahp/analyzers/options.ts';
import { brief, check, elicRequest, elicResult, intercept, observe, ok, runRule, toolBefore } from './helpers.ts';
import { tempDir } from '../temp.ts';

/** Held-state counts read from the analyzers of a finished run. */
interface HeldState {
  pending: number;
  pendingPeak: number;
  answered: number;
  events: number;
  unresolved: number;
  schemas: number;
  recentForms: number;
  /** Estimated bytes of all state, and the budget. */
  bytes: number;
  budget: number;
}

function heldOf(s: AhpStreamState): HeldState {
  return {
    pending: s.correlation.pendingCount,
    pendingPeak: s.correlation.pendingPeak,
    answered: s.correlation.answeredCount,
    events: s.rows.held(),
    unresolved: s.lineage.held(),
    schemas: s.elicitation.heldForms,
    recentForms: s.elicitation.recentForms,
    bytes: s.memory.used(),
    budget: s.memory.limitBytes,
  };
}

/** Run `lines`; findings and the held state of the run's analyzers at the end. */
async function checkWithState(
  lines: readonly unknown[],
  opts: Partial<AhpStreamOptions> = {},
): Promise<{ findings: Awaited<ReturnType<typeof check>>; held: HeldState }> {
  let state: AhpStreamState | undefined;
  const findings = await check(lines, opts, { onStreamState: (s) => (state = s) });
  assert.ok(state, 'the driver handed over the run state');
  return { findings, held: heldOf(state) };
}

// a hundred times the 300 interleaved sessions of the generator: enough for release to show
const MESSAGES = 30_000;

test('a long valid generated stream: no finding but open-at-end, pending released, forms released, rows compact', async (t) => {
  const dir = tempDir(t, 'ahp-release-');
  const file = join(dir, 'stream.jsonl');
  generateAhp(file, { messages: MESSAGES });
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l !== '');
  assert.ok(lines.length >= MESSAGES * 0.9, `generated ${lines.length} lines`);
  const { findings, held } = await checkWithState(lines);
  const other = findings.filter((f) => f.ruleId !== 'ahp/open-at-end' || f.severity !== 'info');
  assert.deepEqual(brief(other), []);
  // open work only: at most one request per interleaved session is pending at once (300 sessions)
  assert.ok(held.pendingPeak <= 300, `pending peaked at ${held.pendingPeak}`);
  assert.ok(held.pending <= 300, `pending at end ${held.pending}`);
  // every form whose answer arrived was released (the generator answers each request right away)
  assert.ok(held.schemas <= 300, `forms held at end ${held.schemas}`);
  // checked forms are kept for further results, within the memory budget
  assert.ok(held.bytes <= held.budget, `state ${held.bytes} bytes over the budget ${held.budget}`);
  // completed work: compact rows only, at most one per event / answered id of the stream
  assert.ok(held.events <= lines.length && held.answered <= lines.length, JSON.stringify(held));
  assert.equal(held.unresolved, 0);
});

test('after release, a second response is still a duplicate; a further result 257 forms later is still checked; beyond the memory budget it is reported cannot-verify, never passed', async () => {
  const a = toolBefore('e1');
  const dup = await checkWithState([intercept(a), ok('e1'), ok('e1')]);
  assert.deepEqual(brief(dup.findings), ['error:ahp/response-duplicate@3/id']);
  assert.equal(dup.held.pending, 0);
  assert.equal(dup.held.answered, 1);
  // q0's form is released after r0 was checked; 256 further checked forms push it out of the grace window
  const answer = { content: { name: 'api', notify: true } };
  const lines: unknown[] = [observe(elicRequest('q0')), observe(elicResult('r0', 'q0', answer))];
  for (let i = 1; i <= 256; i++)
    lines.push(observe(elicRequest(`q${i}`)), observe(elicResult(`r${i}`, `q${i}`, answer)));
  const near = await checkWithState([
    ...lines.slice(0, 2),
    observe(elicResult('r0b', 'q0', { content: { name: 'api' } })),
  ]);
  assert.deepEqual(
    brief(near.findings),
    [
      'error:ahp/elicitation-unpaired@3/params/event/elicitation',
      'error:ahp/elicitation-content-schema@3/params/event/elicitation/result/text',
    ],
    'a nearby further result is still checked against the form',
  );
  const farBroken = await checkWithState([...lines, observe(elicResult('far', 'q0', { content: { name: 'api' } }))]);
  assert.deepEqual(
    brief(farBroken.findings),
    [
      `error:ahp/elicitation-unpaired@${lines.length + 1}/params/event/elicitation`,
      `error:ahp/elicitation-content-schema@${lines.length + 1}/params/event/elicitation/result/text`,
    ],
    'the default budget keeps all 257 checked forms',
  );
  assert.equal(farBroken.held.recentForms, 257);
  lines.push(observe(elicResult('late', 'q0', answer)));
  const BUDGET = { maxStateMb: 0.1 };
  const { findings, held } = await checkWithState(lines, BUDGET);
  const info = findings.filter((f) => f.severity === 'info');
  assert.deepEqual(brief(info), [
    `info:ahp/elicitation-content-unverifiable@${lines.length}/params/event/elicitation/result/text`,
  ]);
  assert.equal(info[0]!.messageId, 'request-released', 'the first result the budget left unverified');
  assert.deepEqual(
    brief(findings.filter((f) => f.severity === 'warning')).map((b) => b.split('@')[0]),
    ['warning:ahp/state-cap'],
  );
  assert.equal(held.schemas, 0);
  assert.ok(held.recentForms < 257 && held.bytes <= held.budget, JSON.stringify(held));
  // an intercepted late result edited by its response: the edit cannot be checked against the released form
  const late = elicResult('late2', 'q0', answer);
  const edited = [
    ...lines.slice(0, -1),
    intercept(late),
    ok('late2', [{ type: 'modify', target: 'content', operation: 'merge', value: { name: 'x' } }]),
  ];
  assert.deepEqual(await runRule('ahp/modify-unverifiable', edited, BUDGET), [
    `info:ahp/modify-unverifiable@${edited.length}/result/effects/0`,
  ]);
  assert.deepEqual(await runRule('ahp/modify-invalid', edited, BUDGET), []);
});
