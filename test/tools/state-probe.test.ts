// tools/bench/state-probe.ts: four measuring points over a generated stream, their counts
// those of the stream (every line an event, an id per event for AEP), and figures per kind.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { generateAep } from '../../tools/bench/generate-aep.ts';
import { generateAhp } from '../../tools/bench/generate-ahp.ts';
import { tempDir } from '../temp.ts';

const ROOT = new URL('../../', import.meta.url).pathname;

for (const protocol of ['aep', 'ahp'] as const) {
  test(`state-probe (${protocol}): quarters of the stream, counted, with the retained state after GC`, (t) => {
    const dir = tempDir(t, 'agent-conformance-probe-');
    const file = join(dir, `${protocol}.jsonl`);
    // more than four 1 MiB chunks, so each quarter has its own measuring point
    if (protocol === 'aep') generateAep(file, { events: 12000 });
    else generateAhp(file, { messages: 12000 });
    const out = execFileSync(
      process.execPath,
      ['--expose-gc', '--import', 'tsx', 'tools/bench/state-probe.ts', protocol, file],
      { cwd: ROOT, encoding: 'utf8' },
    );
    const r = JSON.parse(out) as {
      points: { events: number; ids: number; sessions: number; requests: number; retainedMB: number }[];
      growthMB: number;
      bytesPer: Record<string, number | null>;
    };
    assert.equal(r.points.length, 4);
    assert.equal(r.points[3]!.events, 12000);
    for (let i = 1; i < 4; i++) assert.ok(r.points[i]!.events > r.points[i - 1]!.events, `point ${i} after ${i - 1}`);
    for (const p of r.points) {
      assert.ok(p.ids > 0 && p.ids <= p.events && p.sessions > 0 && p.requests > 0, JSON.stringify(p));
      assert.ok(p.retainedMB > 0 && p.retainedMB < 500, JSON.stringify(p));
      if (protocol === 'aep') assert.equal(p.ids, p.events, 'every generated AEP event has its own id');
    }
    assert.deepEqual(Object.keys(r.bytesPer), ['event', 'id', 'session', 'request']);
    assert.ok(Object.values(r.bytesPer).every((v) => v === null || Number.isInteger(v)));
  });
}
