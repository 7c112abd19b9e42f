/**
 * Size limits: a form with 10,000 fields and 100,000 sessions open at once are checked
 * completely (or, past a documented cap, reported once), never a crash.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { aepEvent, hasAepRule, ids, jsonl, run } from './helpers.ts';

const FIELDS = 10_000;

function bigForm(mutate: (field: Record<string, unknown>, i: number) => void = () => {}): Record<string, unknown> {
  const fields = Array.from({ length: FIELDS }, (_, i) => {
    const f: Record<string, unknown> = { id: `f${i}`, type: i % 2 ? 'number' : 'boolean', label: `f${i}` };
    mutate(f, i);
    return f;
  });
  return aepEvent('attention.requested', 0, {
    id: 'big-form',
    capture: 'redacted',
    data: { kind: 'form', prompt: 'p', fields, respond_via: ['control'] },
  });
}

test(`a form with ${FIELDS} fields is valid, and so is its ${FIELDS}-value answer`, async () => {
  const values: Record<string, unknown> = {};
  for (let i = 0; i < FIELDS; i++) values[`f${i}`] = i % 2 ? i : true;
  const answer = aepEvent('attention.answered', 1, {
    subject: 'big-form',
    cause: 'big-form',
    capture: 'redacted',
    data: { answer: { values }, via: 'control' },
  });
  const resolved = aepEvent('attention.resolved', 2, { subject: 'big-form', data: { resolution: 'answered' } });
  const { findings } = await run(jsonl([bigForm(), answer, resolved]));
  assert.deepEqual(ids(findings), []);
});

test(`a form with ${FIELDS} fields and a problem in each: every finding at its own field, found quickly`, async () => {
  const line = JSON.stringify(bigForm((f, i) => (f.multi = i >= 0)));
  const { findings } = await run(line + '\n');
  const constraint = findings.filter((f) => f.ruleId === 'aep/form-field-constraint');
  assert.equal(constraint.length, FIELDS);
  const last = constraint[FIELDS - 1];
  assert.equal(last.pointer, `/data/fields/${FIELDS - 1}/multi`);
  const at = line.lastIndexOf('"multi"');
  assert.equal(last.column, at + 1);
  assert.equal(last.byteOffset, at);
});

test('a repeated field id at the end of a huge form is reported at its index', async () => {
  const { findings } = await run(jsonl([bigForm((f, i) => i === FIELDS - 1 && (f.id = 'f0'))]));
  assert.deepEqual(
    findings.filter((f) => f.ruleId !== 'aep/open-at-end').map((f) => [f.ruleId, f.pointer]),
    [['aep/form-duplicate-id', `/data/fields/${FIELDS - 1}/id`]],
  );
});

const SESSIONS = 100_000;

function manySessions(n: number, end: boolean): string {
  const parts: string[] = [];
  const ev = (i: number, type: string, seq: number) =>
    `{"aep":"0.1","id":"s${i}-${seq}","type":"${type}","time":"2026-11-30T12:00:00Z","source":"aep://h/agent/a/session/s${i}","agent":"a","session":"s${i}","seq":${seq}${type === 'session.ended' ? ',"data":{"reason":"normal"}' : ''}}`;
  for (let i = 0; i < n; i++) parts.push(ev(i, 'session.started', 0));
  for (let i = 0; i < n; i++) parts.push(ev(i, 'progress.status', 1));
  if (end) for (let i = 0; i < n; i++) parts.push(ev(i, 'session.ended', 2));
  return parts.join('\n') + '\n';
}

test(`${SESSIONS} sessions open at once are all tracked under the default caps`, async () => {
  const { findings, stats } = await run(manySessions(SESSIONS, true));
  assert.equal(stats.events, 3 * SESSIONS);
  assert.deepEqual(ids(findings), []);
});

// ten times the cap: every session past it is refused, the run goes on (the default-cap run above has the size)
const CAPPED_SESSIONS = 10_000;

test(`${CAPPED_SESSIONS} sessions over --max-sessions 1000: the cap is reported once, with a location, and the run completes`, {
  skip: !hasAepRule('aep/state-cap') && 'aep/state-cap not present',
}, async () => {
  const { findings, stats } = await run(manySessions(CAPPED_SESSIONS, false), { stream: { maxSessions: 1000 } });
  assert.equal(stats.events, 2 * CAPPED_SESSIONS);
  const caps = findings.filter((f) => f.ruleId === 'aep/state-cap');
  assert.equal(caps.length, 1);
  assert.equal(caps[0].line, 1001);
  assert.equal(typeof caps[0].message, 'string');
});
