// The opt-in backpressure check (AEP-0003 §8.4; AEP-0001 §8.1) against the test endpoint, whose queue toward each
// subscriber is bounded (SOFT_QUEUE, HARD_QUEUE): past it the compliant endpoint drops info Events and disconnects on a
// notice one (WebSocket: closing frame, then close; SSE: the stream ends), which passes; dropping info Events alone is
// allowed; notice Events dropped silently are aep/live-backpressure-drop, over either binding (the WebSocket cases are
// in cases.ts). Every server listens on 127.0.0.1 only and stops inside its test.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkEndpoint } from '../../src/live/check.ts';
import { runCli } from '../cli/helpers.ts';
import { startEndpoint, TOKEN } from './endpoint.ts';

// a drop is judged once nothing more came for the timeout: short, the endpoint is local
const TIMEOUT = 2000;
const run = (url: string) => checkEndpoint(url, { token: TOKEN, timeoutMs: TIMEOUT, checks: ['backpressure'] });
const show = (fs: { ruleId: string; message: string }[]) => fs.map((f) => `${f.ruleId}: ${f.message}`);

/** The probe's Events among those delivered, by severity, in delivery order. */
function probe(delivered: string[]): { notice: number[]; info: number[] } {
  const out = { notice: [] as number[], info: [] as number[] };
  for (const line of delivered) {
    const ev = JSON.parse(line) as { session?: string; severity?: string; seq: number };
    if (!ev.session?.endsWith('.slow')) continue;
    if (ev.severity === 'notice' || ev.severity === 'info') out[ev.severity].push(ev.seq);
  }
  return out;
}

/** A notice Event posted between two delivered ones is missing (a gap of more than the info Event between). */
const noticeGap = (seqs: number[]) => seqs.some((s, i) => i > 0 && s - seqs[i - 1]! > 2);

for (const sseOnly of [false, true]) {
  const how = sseOnly ? 'SSE' : 'the WebSocket';
  test(`over ${how}, an endpoint that disconnects its slow consumer passes the backpressure check`, async () => {
    const ep = await startEndpoint(undefined, { sseOnly });
    try {
      const r = await run(ep.url);
      assert.deepEqual(show(r.findings), []);
      assert.deepEqual(r.ran, ['backpressure']);
      // the consumer was slow to it: info Events dropped, then a disconnect, no notice Event dropped
      assert.deepEqual(ep.slow, { dropped: { info: ep.slow!.dropped.info }, disconnects: 1 });
      assert.ok(ep.slow!.dropped.info! > 0);
      const { notice } = probe(r.delivered);
      assert.ok(notice.length > 0 && !noticeGap(notice), 'no notice Event missing before a delivered one');
    } finally {
      await ep.close();
    }
  });

  test(`over ${how}, notice Events dropped silently toward the slow consumer are aep/live-backpressure-drop, the first named`, async () => {
    const ep = await startEndpoint('drops-notice', { sseOnly });
    try {
      const r = await run(ep.url);
      const msgs = show(r.findings);
      assert.equal(msgs.length, 1, msgs.join('\n'));
      const kept = sseOnly ? 'kept the stream open' : 'sent no closing frame and kept the connection open';
      const m = new RegExp(
        `^aep/live-backpressure-drop: Over ${how}, (\\d+) notice Event\\(s\\) posted while the consumer was not reading never arrived \\(the first "([^"]+)"\\), and the endpoint ${kept}`,
      ).exec(msgs[0]!);
      assert.ok(m, msgs[0]);
      // the Event named is one the endpoint never delivered
      assert.ok(!r.delivered.some((l) => l.includes(`"id":"${m[2]}"`)), m[2]);
      assert.ok(Number(m[1]) > 0);
      assert.equal(ep.slow!.disconnects, 0);
      assert.ok(ep.slow!.dropped.notice! >= Number(m[1]), `${ep.slow!.dropped.notice} dropped`);
    } finally {
      await ep.close();
    }
  });
}

test('dropping only info Events toward a slow consumer, every notice Event delivered, is no finding (AEP-0003 §8.4 MAY)', async () => {
  const ep = await startEndpoint(undefined, { backpressure: 'deliver' });
  try {
    const r = await run(ep.url);
    assert.deepEqual(show(r.findings), []);
    // info Events were dropped and delivered: the consumer was slow to the endpoint, which dropped no notice Event
    assert.deepEqual(ep.slow, { dropped: { info: ep.slow!.dropped.info }, disconnects: 0 });
    assert.ok(ep.slow!.dropped.info! > 0);
    const { notice, info } = probe(r.delivered);
    assert.ok(info.length > 0 && !noticeGap(notice), 'every notice Event delivered');
  } finally {
    await ep.close();
  }
});

test('aep live --backpressure-mib sets the budget of the backpressure check, a whole number of MiB from 1 to 128', async () => {
  const ep = await startEndpoint();
  try {
    const base = ['live', ep.url, '--token', TOKEN, '--checks', 'backpressure'];
    const ok = await runCli('aep', [...base, '--backpressure-mib', '12']);
    assert.equal(ok.code, 0, ok.stderr + ok.stdout);
    for (const bad of ['0', '129', '1.5']) {
      const r = await runCli('aep', [...base, '--backpressure-mib', bad]);
      assert.equal(r.code, 2, bad);
      assert.match(r.stderr, /--backpressure-mib.*a whole number of MiB from 1 to 128/);
    }
  } finally {
    await ep.close();
  }
});
