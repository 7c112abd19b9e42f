/**
 * The AHP event rows, answered requests, calls and occurrence rows spill their oldest rows to scratch files: verdicts
 * must not depend on where a row is. Every case of ours, the examples and generated streams whose later events name
 * or repeat events far back (re-sent and reused ids, late results of calls denied or failed, late elicitation results
 * and configuration changes, failures naming old events) give the same findings, byte for byte, with a tiny spill
 * threshold as with the default, on a re-readable file (line places, read back) and on a stream (digests), and hold the
 * same rows and attached entries at the end.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Finding } from '../../src/core/finding.ts';
import type { InputSpec } from '../../src/core/pipeline.ts';
import type { AhpStreamState } from '../../src/ahp/analyzers/model.ts';
import { prng } from '../../tools/bench/generate-aep.ts';
import { generateAhp } from '../../tools/bench/generate-ahp.ts';
import { ahpDriver, runPipeline } from '../run.ts';
import { sweep } from '../scale.ts';
import { jsonlFiles, sameSpilled } from '../spill-routes.ts';
import { fileTempDir } from '../temp.ts';

const dir = fileTempDir('ahp-spill-');

/** The entries of the tables attached to the event rows (they go with their row, spilled or not). */
type Attached = { attached: { table: { size: number } }[] };

/**
 * Every finding of `inputs()` as one JSON text, with the tables spilling past `spillRows` rows, then the event rows
 * held and the entries of the tables attached to them at the end.
 */
async function report(inputs: () => InputSpec[], spillRows?: number, maxEvents?: number): Promise<string> {
  const out: Finding[] = [];
  const stream = { ...(spillRows === undefined ? {} : { spillRows }), ...(maxEvents ? { maxEvents } : {}) };
  let state: AhpStreamState | undefined;
  await runPipeline(inputs(), ahpDriver({ stream, onStreamState: (s) => (state = s) }), (f) => out.push(f));
  const held = [state!.rows.held(), ...(state!.rows as unknown as Attached).attached.map((a) => a.table.size)];
  return `${JSON.stringify(out)}\n${held.join(' ')}`;
}

/** The same findings with spill thresholds 2 and 5 as with the default, on both routes; the default reports. */
const same = (path: string, maxEvents?: number): Promise<string[]> =>
  sameSpilled(path, (inputs, rows) => report(inputs, rows, maxEvents));

test('our cases and the examples: the same findings with the rows spilled as held', async (t) => {
  const files = [...jsonlFiles('conformance/ahp'), ...jsonlFiles('examples/ahp')];
  assert.ok(files.length > 200, `${files.length} cases`);
  for (const f of sweep(t, files)) await same(f);
});

// biome-ignore lint/suspicious/noExplicitAny: parsed lines of the generated stream, reshaped by hand
type Json = Record<string, any>;

/**
 * The bench's stream of `n` messages, then past its first third copies and children of one of its first 80 events,
 * far back: the request re-sent (the same, or changed), its id reused by another type, a response again, a late
 * `tool.after` of its call, a late elicitation result or configuration change naming it, a failure naming it.
 */
function generated(n: number, seed: number): string {
  const path = join(dir, `base-${seed}.jsonl`);
  generateAhp(path, { messages: n, concurrency: 40, seed });
  const lines = readFileSync(path, 'utf8').trimEnd().split('\n');
  const early = lines.slice(0, 160).filter((l) => l.includes('"event"'));
  const rnd = prng(seed);
  const out: string[] = [];
  let u = 0;
  for (let i = 0; i < lines.length; i++) {
    out.push(lines[i]!);
    if (i < lines.length / 3 || rnd() < 0.5) continue;
    const msg: Json = JSON.parse(early[Math.floor(rnd() * Math.min(80, early.length))]!);
    const ev: Json = msg.params.event;
    const child = (type: string, extra: Json): Json => ({
      jsonrpc: '2.0',
      method: 'hooks/observe',
      params: {
        protocolVersion: 'draft',
        event: { ...ev, id: `late_${u++}`, type, parentEventId: ev.id, ...extra },
      },
    });
    const r = rnd();
    let add: Json;
    if (r < 0.15) add = msg;
    else if (r < 0.25) add = { ...msg, params: { ...msg.params, event: { ...ev, time: '2026-09-01T00:00:00Z' } } };
    else if (r < 0.32) add = { ...msg, params: { ...msg.params, event: { ...ev, type: 'user.attention' } } };
    else if (r < 0.4)
      add = { jsonrpc: '2.0', id: msg.id ?? `x${u++}`, result: { protocolVersion: 'draft', effects: [] } };
    else if (r < 0.55 && ev.type === 'tool.before') {
      const ran = { outcome: 'ok', execution: { status: 'executed' }, items: [] };
      add = child('tool.after', rnd() < 0.5 ? ran : { ...ran, parentEventId: undefined });
    } else if (r < 0.65 && ev.type === 'user.elicitation.request') {
      const answer = { action: 'accept', content: { name: 'billing-api', region: rnd() < 0.5 ? 'eu-west' : 'mars' } };
      const part = { ...ev.elicitation.request, id: `res_${u}`, text: JSON.stringify(answer) };
      const result = { ...ev.elicitation, action: 'accept', request: undefined, result: part };
      add = child('user.elicitation.result', { elicitation: result });
    } else if (r < 0.72 && ev.type === 'config.change.before') add = child('config.change.after', {});
    else if (r < 0.85) {
      const policy = rnd() < 0.5 ? 'fail-closed' : 'fail-open';
      add = child('hook.failure', { failure: { backendId: 'com.example.policy', reason: 'timeout', policy } });
    } else {
      // sent again under a new request id, answered by an error: an operational failure of the event far back
      const id = `again_${u++}`;
      out.push(JSON.stringify({ ...msg, id }));
      add = { jsonrpc: '2.0', id, error: { code: -32003, message: 'backend unavailable' } };
    }
    out.push(JSON.stringify(add));
  }
  return out.join('\n') + '\n';
}

test('generated streams naming and repeating events far back: the same findings spilled as held', async () => {
  const seen = new Set<string>();
  for (const seed of [1, 2]) {
    const path = join(dir, `gen-${seed}.jsonl`);
    writeFileSync(path, generated(1500, seed));
    for (const r of await same(path)) for (const m of r.matchAll(/"ruleId":"([^"]+)"/g)) seen.add(m[1]!);
    // a budget that forgets rows, spilled or not, forgets the same ones
    await same(path, 300);
  }
  for (const id of [
    'ahp/event-id-reuse',
    'ahp/response-duplicate',
    'ahp/denied-call-ran',
    'ahp/failure-policy-unverifiable',
    'ahp/intercept-after-denial',
  ])
    assert.ok(seen.has(id), `${id} among ${[...seen].join(' ')}`);
});
