/**
 * AHP stream state follows open work (DESIGN.md §Principles "Stream, don't slurp"): a long valid
 * generated stream (tools/bench/generate-ahp.ts) produces no finding except open-at-end notes,
 * answered requests leave the pending map, and the forms of elicitation requests are released
 * once their answer was checked; completed work leaves only compact rows.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { generateAhp } from '../../tools/bench/generate-ahp.ts';
import type { AhpMessage } from '../../src/ahp/driver.ts';
import { AHP_STREAM_RULES, type AhpStreamOptions } from '../../src/ahp/stream/index.ts';
import { trackedRule, type AhpStreamTracker, type AhpTrackerStats } from '../../src/ahp/stream/tracker.ts';
import type { StreamRule } from '../../src/core/rule.ts';
import { brief, check, elicRequest, elicResult, intercept, observe, ok, toolBefore } from './helpers.ts';

/** Run `lines` with a spy rule that keeps the run's tracker; findings, the final stats and the largest pending count seen. */
async function checkWithStats(lines: readonly unknown[], opts: Partial<AhpStreamOptions> = {}): Promise<{ findings: Awaited<ReturnType<typeof check>>; stats: AhpTrackerStats; maxPending: number }> {
  let tracker: AhpStreamTracker | undefined;
  let maxPending = 0;
  const spy = trackedRule({ id: 'test/tracker-spy', severity: 'info', description: 'test spy', spec: 'test' }, (t) => {
    tracker = t;
    return {
      onEvent() {
        maxPending = Math.max(maxPending, t.stats().pending);
      },
    };
  });
  const rules = AHP_STREAM_RULES as StreamRule<AhpMessage, AhpStreamOptions>[];
  rules.unshift(spy);
  try {
    const findings = await check(lines, opts);
    assert.ok(tracker, 'spy saw the tracker');
    return { findings, stats: tracker.stats(), maxPending };
  } finally {
    rules.splice(rules.indexOf(spy), 1);
  }
}

const MESSAGES = 100_000;

test('a long valid generated stream: no finding but open-at-end, pending released, forms released, rows compact', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'ahp-release-'));
  try {
    const file = join(dir, 'stream.jsonl');
    generateAhp(file, { messages: MESSAGES });
    const lines = readFileSync(file, 'utf8').split('\n').filter((l) => l !== '');
    assert.ok(lines.length >= MESSAGES * 0.9, `generated ${lines.length} lines`);
    const { findings, stats, maxPending } = await checkWithStats(lines);
    const other = findings.filter((f) => f.ruleId !== 'ahp/open-at-end' || f.severity !== 'info');
    assert.deepEqual(brief(other), []);
    // open work only: at most one request per interleaved session is pending at once (300 sessions)
    assert.ok(maxPending <= 300, `pending peaked at ${maxPending}`);
    assert.ok(stats.pending <= 300, `pending at end ${stats.pending}`);
    // every form whose answer arrived was released (the generator answers each request right away)
    assert.ok(stats.schemas <= 300, `forms held at end ${stats.schemas}`);
    assert.ok(stats.recentForms <= 256, `recent forms ${stats.recentForms}`);
    // completed work: compact rows only, at most one per event / answered id of the stream
    assert.ok(stats.events <= lines.length && stats.answered <= lines.length, JSON.stringify(stats));
    assert.equal(stats.unresolved, 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('after release, a second response is still a duplicate and a late further result is reported cannot-verify, never passed', async () => {
  const a = toolBefore('e1');
  const dup = await checkWithStats([intercept(a), ok('e1'), ok('e1')]);
  assert.deepEqual(brief(dup.findings), ['error:ahp/response-duplicate@3/id']);
  assert.equal(dup.stats.pending, 0);
  assert.equal(dup.stats.answered, 1);
  // q0's form is released after r0 was checked; 256 further checked forms push it out of the grace window
  const answer = { content: { name: 'api', notify: true } };
  const lines: unknown[] = [observe(elicRequest('q0')), observe(elicResult('r0', 'q0', answer))];
  for (let i = 1; i <= 256; i++) lines.push(observe(elicRequest(`q${i}`)), observe(elicResult(`r${i}`, `q${i}`, answer)));
  const near = await checkWithStats([...lines.slice(0, 2), observe(elicResult('r0b', 'q0', { content: { name: 'api' } }))]);
  assert.deepEqual(brief(near.findings), ['error:ahp/elicitation-content-schema@3/params/event/elicitation/result/text'], 'a nearby further result is still checked against the form');
  lines.push(observe(elicResult('late', 'q0', answer)));
  const { findings, stats } = await checkWithStats(lines);
  assert.deepEqual(brief(findings), [`info:ahp/elicitation-content-schema@${lines.length}/params/event/elicitation/result/text`]);
  assert.match(findings[0]!.message, /released/);
  assert.equal(stats.schemas, 0);
  assert.equal(stats.recentForms, 256);
});
