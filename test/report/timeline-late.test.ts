/**
 * The HTML timeline of a large run keeps every event that has a finding, also one whose finding comes only at the end
 * of the stream (aep/open-at-end, an unanswered request) after compaction dropped it: over sizes past the keep-all
 * bound and openers at the start, middle and end, the event is on the timeline with its finding, in line order, and
 * the session counts it "with findings".
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Finding } from '../../src/core/finding.ts';
import { Timeline, TIMELINE_KEEP_ALL } from '../../src/report/timeline.ts';

const SOURCE = 'big.jsonl';

test('a late finding on a dropped opening event brings it back to the timeline, in order', () => {
  for (const total of [TIMELINE_KEEP_ALL + 1, 3 * TIMELINE_KEEP_ALL, 50_001])
    for (const opener of [2, Math.floor(total / 2), total - 10]) {
      const t = new Timeline();
      for (let line = 1; line <= total; line++)
        t.event({
          source: SOURCE,
          line,
          session: 's',
          type: line === opener ? 'attention.requested' : 'agent.heartbeat',
          ...(line === opener ? { opens: [{ kind: 'attention' as const, id: 'a1' }] } : {}),
        });
      const late: Finding = {
        ruleId: 'aep/open-at-end',
        severity: 'info',
        message: 'Still open.',
        spec: 'AEP-0001',
        source: SOURCE,
        line: opener,
      };
      t.finding(late);
      t.end();
      const name = `${total} events, opener at line ${opener}`;
      const ev = t.eventAt(SOURCE, opener);
      assert.ok(ev, `${name}: on the timeline`);
      assert.deepEqual(
        ev.findings.map((f) => f.ruleId),
        ['aep/open-at-end'],
        name,
      );
      const [session] = t.sessionsOf(SOURCE);
      assert.equal(session!.findings, 1, `${name}: counted with findings`);
      const lines = session!.events.map((e) => e.line);
      assert.deepEqual(
        lines,
        [...lines].sort((a, b) => a - b),
        `${name}: line order`,
      );
      assert.equal(t.inputFacts(SOURCE)!.offTimeline, 0, `${name}: nothing left out`);
    }
});
