/**
 * The identity tables, completion marks, ended sessions and first targets spill their oldest rows to scratch files
 * (src/core/spill-table.ts, src/core/spill-replacing.ts): verdicts must not depend on where a row is. Every case of
 * ours, the examples and generated streams with repeats at long distance (redeliveries, collisions, down-leveled and
 * up-leveled copies, relay extensions; second terminals, acks and ends, late acks) give the same findings, byte for
 * byte, with a tiny spill threshold as with the default, on a re-readable file (line places, read back) and on a
 * stream (digests).
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { downlevelEvent } from '../../src/aep/downlevel.ts';
import type { Finding } from '../../src/core/finding.ts';
import type { InputSpec } from '../../src/core/pipeline.ts';
import { aepDriver, runPipeline } from '../run.ts';
import { sweep } from '../scale.ts';
import { jsonlFiles, sameSpilled } from '../spill-routes.ts';
import { prng } from '../../tools/bench/generate-aep.ts';
import { fileTempDir } from '../temp.ts';

const dir = fileTempDir('aep-spill-');

/** Every finding of `inputs()` as one JSON text, with the identity tables spilling past `spillRows` rows. */
async function report(inputs: () => InputSpec[], spillRows?: number): Promise<string> {
  const out: Finding[] = [];
  await runPipeline(inputs(), aepDriver(spillRows === undefined ? {} : { stream: { spillRows } }), (f) => out.push(f));
  return JSON.stringify(out);
}

/** The same findings with spill thresholds 2 and 5 as with the default, on both routes; the default reports. */
const same = (path: string): Promise<string[]> => sameSpilled(path, report);

test('our cases and the examples: the same findings with the identity tables spilled as held', async (t) => {
  const files = [...jsonlFiles('conformance/aep'), ...jsonlFiles('examples/aep')];
  assert.ok(files.length > 300, `${files.length} cases`);
  for (const f of sweep(t, files)) await same(f);
});

/** `n` tool events at capture `full` over a few sessions, then copies of early ones, far back, of every kind. */
function generated(n: number, seed: number): string {
  const rnd = prng(seed);
  const events: Record<string, unknown>[] = [];
  const seq = new Map<string, number>();
  const next = (s: string) => {
    const v = seq.get(s) ?? 0;
    seq.set(s, v + 1);
    return v;
  };
  const session = (i: number) => `s_${i % 5}`;
  const base = (i: number): Record<string, unknown> => {
    const s = session(i);
    return {
      aep: '0.1',
      source: `aep://gen-host/agent/gen/session/${s}`,
      agent: 'gen',
      session: s,
      time: '2026-11-30T10:00:00Z',
      id: `g-${i}`,
      type: 'tool.completed',
      run: 'r1',
      capture: 'full',
      data: {
        tool: { name: 'sh', call_id: `c${i}` },
        result: `result ${i} TOKEN=abc${i}`,
        result_redacted: `result ${i}`,
      },
    };
  };
  const out: Record<string, unknown>[] = [];
  const withSeq = (e: Record<string, unknown>) => ({ ...e, seq: next(e.session as string) });
  for (let i = 0; i < n; i++) {
    const e = withSeq(base(i));
    events.push(e);
    out.push(e);
    if (i < n / 3) continue;
    // a copy of one of the first 60 events: far behind, in a spilled run
    const k = Math.floor(rnd() * 60);
    const old = events[k]!;
    const r = rnd();
    if (r < 0.1) out.push(old);
    else if (r < 0.15)
      out.push({ ...old, run: r < 0.13 ? 'r3' : 'r1', data: { ...(old.data as object), result: 'other' } });
    else if (r < 0.2) out.push(downlevelEvent(old, 'metadata').event as Record<string, unknown>);
    else if (r < 0.23) out.push(downlevelEvent(old, 'none').event as Record<string, unknown>);
    else if (r < 0.26) out.push({ ...old, relayhop: 'r1' });
    else if (r < 0.28) out.push({ ...old, capture: 'redacted', data: { ...(old.data as object), result: undefined } });
    else if (r < 0.33) {
      // an assessment of an event far back, from another run (AEP-0009 §2: aep/assessment-target-mismatch)
      const data = { 'gen_ai.evaluation.name': 'relevance', 'gen_ai.evaluation.score.value': 0.5 };
      const type = 'assessment.evaluation.recorded';
      out.push(withSeq({ ...base(k), id: `a-${i}`, type, run: 'r2', cause: old.id, capture: undefined, data }));
    }
  }
  // up-leveled: a down-leveled copy first, the full event far later
  for (let i = 0; i < 20; i++) {
    const e = withSeq(base(n + i));
    out.splice(Math.floor(rnd() * (out.length / 4)), 0, downlevelEvent(e, 'metadata').event as Record<string, unknown>);
    out.push(e);
  }
  return out.map((e) => JSON.stringify(e)).join('\n') + '\n';
}

/** `text` written as NAME.jsonl gives the same findings spilled as held ({@link same}), each of `ids` among them. */
async function sameWith(name: string, text: string, ids: readonly string[]): Promise<void> {
  const path = join(dir, `${name}.jsonl`);
  writeFileSync(path, text);
  for (const r of await same(path)) for (const id of ids) assert.ok(r.includes(`"ruleId":"${id}"`), `${id} in ${name}`);
}

test('generated streams with repeats at long distance: the same findings spilled as held, on a file and a stream', async () => {
  for (const seed of [1, 2])
    await sameWith(`gen-${seed}`, generated(600, seed), [
      'aep/redelivery',
      'aep/id-collision',
      'aep/assessment-target-mismatch',
    ]);
});

/**
 * `n` sessions, each started, with a run and a tool call finished, a pause command acked (a quarter of them only at the
 * end) and an end; past the first third, events about one of the first 60 sessions, far back: a second terminal of the
 * run or the call, a second ack from the session or an impostor, an event after its end, a second end, the command sent
 * again under its id.
 */
function lifecycles(n: number, seed: number): string {
  const rnd = prng(seed);
  const seq = new Map<string, number>();
  const out: string[] = [];
  const src = (i: number) => `aep://gen-host/agent/gen/session/s_${i}`;
  const ev = (i: number, id: string, type: string, extra: Record<string, unknown> = {}, source = src(i)) => {
    const e: Record<string, unknown> = { aep: '0.1', id, type, time: '2026-11-30T10:00:00Z', source, agent: 'gen' };
    e.session = `s_${i}`;
    if (!source.includes('console')) {
      const v = seq.get(source) ?? 0;
      seq.set(source, v + 1);
      e.seq = v;
    }
    out.push(JSON.stringify({ ...e, ...extra }));
  };
  const command = (i: number, id: string) => ev(i, id, 'control.pause', {}, 'aep://ops-host/agent/console');
  const late: number[] = [];
  let u = 0;
  for (let i = 0; i < n; i++) {
    ev(i, `st-${i}`, 'session.started', { data: {} });
    ev(i, `rs-${i}`, 'run.started', { run: 'r1' });
    ev(i, `tc-${i}`, 'tool.completed', { run: 'r1', data: { tool: { name: 'sh', call_id: `c${i}` } } });
    command(i, `cmd-${i}`);
    if (rnd() < 0.25) late.push(i);
    else ev(i, `ack-${i}`, 'control.accepted', { cause: `cmd-${i}` });
    ev(i, `rf-${i}`, 'run.finished', { run: 'r1', data: {} });
    ev(i, `end-${i}`, 'session.ended', { data: { reason: 'normal' } });
    if (i < n / 3) continue;
    const k = Math.floor(rnd() * 60);
    const r = rnd();
    if (r < 0.15) ev(k, `u-${u++}`, 'run.failed', { run: 'r1', data: { reason: 'again' } });
    else if (r < 0.3)
      ev(k, `u-${u++}`, 'control.accepted', { cause: `cmd-${k}` }, `aep://other-host/agent/impostor/session/s_${k}`);
    else if (r < 0.4) ev(k, `u-${u++}`, 'control.rejected', { cause: `cmd-${k}`, data: { reason: 'busy' } });
    else if (r < 0.5) ev(k, `u-${u++}`, 'run.started', { run: `r${u}` });
    else if (r < 0.55) command(k, `cmd-${k}`);
    else if (r < 0.6) ev(k, `u-${u++}`, 'session.ended', { data: { reason: 'killed' } });
    else if (r < 0.65)
      ev(k, `u-${u++}`, 'tool.denied', { data: { tool: { name: 'sh', call_id: `c${k}` }, by: 'policy' } });
  }
  for (const i of late) ev(i, `ack-${i}`, 'control.accepted', { cause: `cmd-${i}` });
  return out.join('\n') + '\n';
}

test('generated lifecycles with second terminals and acks, events after an end, late acks: the same findings spilled', async () => {
  for (const seed of [3, 4])
    await sameWith(`life-${seed}`, lifecycles(400, seed), [
      'aep/run-terminal',
      'aep/command-second-target',
      'aep/session-ended',
      'aep/ack-exclusive',
      'aep/unit-terminal',
    ]);
});
