/**
 * Stream state is released as work completes (docs/architecture.md §Bounded stream state):
 * a long valid stream of sessions that open and close produces no finding under a session cap it exceeds twice over,
 * and the tracker's open count returns to 0; completed work leaves only compact markers, which
 * still catch second terminals and second acks, also after the session ended.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { aepStreamStats, type AepStreamState, type AepStreamStats } from '../../src/aep/analyzers/model.ts';
import { brief, checkText, event, jsonl, type RunOptions } from './helpers.ts';

/** Run `text`, keeping the run's stream analyzers (the driver's hook); findings and the final state sizes. */
async function checkWithStats(
  text: string,
  opts: RunOptions = {},
): Promise<{ findings: Awaited<ReturnType<typeof checkText>>; stats: AepStreamStats }> {
  let state: AepStreamState | undefined;
  const findings = await checkText(text, { ...opts, onStreamState: (s) => (state = s) });
  assert.ok(state, "the driver handed over the run's analyzers");
  return { findings, stats: aepStreamStats(state) };
}

// twice --max-sessions: ended sessions must leave the session map, or the cap would be reported
const SESSIONS = 20_000;
const MAX_SESSIONS = SESSIONS / 2;
const WINDOW = 500;

/**
 * `n` sessions, `WINDOW` interleaved at a time, each: started, a run started and finished, an
 * ack of a command, ended. Raw lines (fast to build).
 */
function closingSessions(n: number): string {
  const parts: string[] = [];
  const ev = (i: number, type: string, seq: number, extra = '') =>
    `{"aep":"0.1","id":"s${i}-${seq}","type":"${type}","time":"2026-11-30T12:00:00Z","source":"aep://h/agent/a/session/s${i}","agent":"a","session":"s${i}","seq":${seq}${extra}}`;
  for (let b = 0; b < n; b += WINDOW) {
    const end = Math.min(n, b + WINDOW);
    for (let i = b; i < end; i++) parts.push(ev(i, 'session.started', 0));
    for (let i = b; i < end; i++) parts.push(ev(i, 'run.started', 1, ',"run":"r1","data":{"trigger":"user"}'));
    for (let i = b; i < end; i++) parts.push(ev(i, 'run.finished', 2, ',"run":"r1"'));
    for (let i = b; i < end; i++) parts.push(ev(i, 'session.ended', 3, ',"data":{"reason":"normal"}'));
  }
  return parts.join('\n') + '\n';
}

test(`${SESSIONS} sessions that start, run and end under --max-sessions ${MAX_SESSIONS}: no finding, open work returns to 0`, async () => {
  const { findings, stats } = await checkWithStats(closingSessions(SESSIONS), {
    stream: { maxSessions: MAX_SESSIONS },
  });
  assert.equal(brief(findings), '(none)');
  assert.equal(stats.open, 0);
  assert.equal(stats.sessions, 0, 'ended sessions leave the session map');
  assert.equal(stats.endedSessions, SESSIONS);
  assert.equal(stats.markers, SESSIONS, 'one compact run-terminal marker per session');
});

test('release: completed runs do not count against --max-open (sequential runs under --max-open 1)', async () => {
  const evs = [
    event('run.started', 0, { run: 'r1' }),
    event('run.finished', 1, { run: 'r1' }),
    event('run.started', 2, { run: 'r2' }),
    event('run.finished', 3, { run: 'r2' }),
    event('attention.requested', 4, {
      id: 'q1',
      data: { kind: 'permission', prompt: 'unit requests permission', options: [{ id: 'allow', label: 'allow' }] },
    }),
    event('attention.resolved', 5, { subject: 'q1', data: { resolution: 'answered' } }),
    event('attention.requested', 6, {
      id: 'q2',
      data: { kind: 'permission', prompt: 'unit requests permission', options: [{ id: 'allow', label: 'allow' }] },
    }),
    event('attention.resolved', 7, { subject: 'q2', data: { resolution: 'answered' } }),
  ];
  const { findings, stats } = await checkWithStats(jsonl(evs), { stream: { maxOpen: 1 } });
  assert.equal(brief(findings.filter((f) => f.ruleId !== 'aep/payload-schema')), '(none)');
  assert.equal(stats.open, 0);
});

test('release: two concurrently open runs still hit --max-open 1', async () => {
  const evs = [event('run.started', 0, { run: 'r1' }), event('run.started', 1, { run: 'r2' })];
  const { findings } = await checkWithStats(jsonl(evs), { stream: { maxOpen: 1 } });
  assert.deepEqual(
    findings.filter((f) => f.ruleId === 'aep/state-cap').map((f) => f.line),
    [2],
  );
});

test('release: after session.ended a second run terminal, second ack, second session.ended and a seq regression are still caught', async () => {
  const src = { source: 'aep://unit-host/agent/unit/session/u_end', session: 'u_end' };
  const evs = [
    event('session.started', 0, src),
    event('run.started', 1, { ...src, run: 'r1' }),
    event('run.finished', 2, { ...src, run: 'r1' }),
    event('control.accepted', 3, { ...src, cause: 'cmd-1' }),
    event('session.ended', 4, { ...src, data: { reason: 'normal' } }),
    event('run.failed', 5, { ...src, run: 'r1' }),
    event('control.rejected', 6, { ...src, cause: 'cmd-1', data: { reason: 'invalid' } }),
    event('session.ended', 7, { ...src, data: { reason: 'normal' } }),
    event('progress.status', 3, { ...src }),
  ];
  const { findings, stats } = await checkWithStats(jsonl(evs));
  const got = findings.filter((f) => f.ruleId !== 'aep/payload-schema').map((f) => `${f.ruleId}@${f.line}`);
  assert.deepEqual(got, ['aep/run-terminal@6', 'aep/ack-exclusive@7', 'aep/session-ended@8', 'aep/seq-regression@9']);
  assert.equal(stats.open, 0);
  assert.equal(stats.sessions, 0);
});
