/**
 * Events that follow an attention request after its terminal, with and without a `session.ended` (and an unreadable
 * line) in between: each late line gets one account, the request's terminal (AEP-0002 §2 convention 5, §7), never
 * "not seen" for a request the stream holds. The base is examples/aep/session.jsonl (form request ev-0005 at line 5,
 * resolved at line 7, run-1 finished at line 8, session.ended at line 9).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { aepStreamStats, type AepStreamState } from '../../src/aep/analyzers/model.ts';
import { brief, checkText, jsonl } from './helpers.ts';

const EXAMPLES = new URL('../../examples/aep/', import.meta.url);
const lines = (name: string) => readFileSync(new URL(name, EXAMPLES), 'utf8').trim().split('\n');
const BASE = lines('session.jsonl').map((l) => JSON.parse(l) as Record<string, unknown>);
const BODY = BASE.slice(0, 8);
const END = BASE[8]!;
const SOURCE = BASE[0]!.source as string;
const UI = 'aep://ui-host/agent/ui';
const VALUES = { channel: 'beta', replicas: 3, notes: 'again' };

let n = 100;
const ev = (type: string, seq: number | undefined, over: Record<string, unknown>) => {
  const e: Record<string, unknown> = {
    aep: '0.1',
    source: SOURCE,
    agent: 'codex',
    session: 's_demo',
    id: `ev-${++n}`,
    type,
    time: '2026-11-30T09:00:09.000Z',
  };
  if (seq !== undefined) e.seq = seq;
  return Object.assign(e, over);
};
const follower = { run: 'run-1', subject: 'ev-0005', cause: 'ev-0005' };
const foreign = { source: UI, agent: 'ui', subject: 'ev-0005', cause: 'ev-0005' };

/** A late event at `seq`, and the rule ids its line gets (the same with or without session.ended before it). */
const LATE: Record<
  string,
  { make: (seq: number) => Record<string, unknown>; want: string[]; base?: string; command?: true }
> = {
  'attention.answered with form values': {
    make: (s) =>
      ev('attention.answered', s, { ...follower, capture: 'redacted', data: { answer: { values: VALUES } } }),
    want: ['aep/attention-answered-late', 'aep/form-values-unverifiable'],
  },
  'attention.answered with an option': {
    make: (s) => ev('attention.answered', s, { ...follower, data: { answer: { option: 'ok' } } }),
    want: ['aep/attention-answered-late'],
  },
  'attention.answered with values to a non-form request': {
    make: (s) =>
      ev('attention.answered', s, { ...follower, capture: 'redacted', data: { answer: { values: VALUES } } }),
    want: ['aep/attention-answered-late', 'aep/form-values-not-form'],
    base: 'input',
  },
  'attention.resolved': {
    make: (s) => ev('attention.resolved', s, { ...follower, data: { resolution: 'answered' } }),
    want: ['aep/attention-terminal'],
  },
  'attention.timeout': {
    make: (s) => ev('attention.timeout', s, { ...follower, data: { after_ms: 10 } }),
    want: ['aep/attention-terminal'],
  },
  'attention.routed (foreign)': {
    make: () => ev('attention.routed', undefined, { ...foreign, data: { to: 'ui' } }),
    want: [],
  },
  'control.attention.respond with form values (foreign)': {
    make: () =>
      ev('control.attention.respond', undefined, {
        ...foreign,
        capture: 'redacted',
        data: { answer: { values: VALUES } },
      }),
    want: ['aep/form-values-unverifiable'],
    command: true,
  },
  'control.attention.respond to an informational request (foreign)': {
    make: () => ev('control.attention.respond', undefined, { ...foreign, data: { answer: { option: 'ok' } } }),
    want: ['aep/respond-via-control'],
    base: 'input+oob',
    command: true,
  },
};

/**
 * A command left without ack is listed unacked whether its session is live at the end of input or had ended: the
 * target acks every command (AEP-0004 §7) and events after session.ended stay legal, so only the message differs.
 */
const UNACKED = 'aep/command-unacked';

/** The base stream, its request made kind `kind` when given. */
function body(kind?: string): Record<string, unknown>[] {
  if (!kind) return BODY;
  // `input+oob`: an input request informational on the bus (respond_via without control, AEP-0008)
  const data: Record<string, unknown> = { kind: kind.split('+')[0], prompt: 'Choose release settings' };
  if (kind.endsWith('+oob')) data.respond_via = ['oob'];
  return BODY.map((e) => (e.id === 'ev-0005' ? { ...e, data } : e));
}

const VARIANTS = ['no end', 'session.ended', 'unreadable line, session.ended', 'unreadable line'] as const;

/** The findings on the late line of `variant`. */
async function lateLine(variant: (typeof VARIANTS)[number], late: (typeof LATE)[string]) {
  const evs: unknown[] = [...body(late.base)];
  if (variant.startsWith('unreadable')) evs.push('{"cut');
  const ended = variant.endsWith('session.ended');
  if (ended) evs.push(END);
  evs.push(late.make(ended ? 9 : 8));
  const fs = await checkText(jsonl(evs));
  return { on: fs.filter((f) => f.line === evs.length), all: fs };
}

for (const [name, late] of Object.entries(LATE)) {
  test(`late ${name}: the terminal's account, with or without session.ended before it`, async () => {
    for (const variant of VARIANTS) {
      const { on, all } = await lateLine(variant, late);
      const want = late.command ? [...late.want, UNACKED] : late.want;
      assert.deepEqual(on.map((f) => f.ruleId).sort(), [...want].sort(), `${variant}: ${brief(all)}`);
      const unacked = on.find((f) => f.ruleId === UNACKED);
      if (unacked) assert.equal(unacked.messageId, variant.endsWith('session.ended') ? 'ended' : 'one', brief(all));
      for (const f of on) {
        if (f.ruleId === 'aep/form-values-unverifiable')
          assert.match(f.message, /request at line 5 already reached its terminal/);
        if (f.ruleId !== 'aep/form-values-not-form') continue;
        assert.match(f.message, /request at line 5, whose kind is "input"/);
      }
    }
  });
}

test('relation: a session.ended before a late follower keeps its findings (no "not seen" instead)', async () => {
  for (const [name, late] of Object.entries(LATE)) {
    const before = await lateLine('no end', late);
    const after = await lateLine('session.ended', late);
    const view = (fs: typeof before.on) =>
      fs
        .filter((f) => f.ruleId !== UNACKED)
        .map((f) => `${f.ruleId} ${f.message}`)
        .sort();
    assert.deepEqual(view(after.on), view(before.on), name);
    assert.ok(!after.on.some((f) => f.ruleId === 'aep/attention-unknown-request'), name);
  }
});

test('a request closed after its session ended is still linked once the session shrinks to its compact row', async () => {
  const open = BODY.filter((e) => e.id !== 'ev-0007');
  const resolved = ev('attention.resolved', 9, { ...follower, data: { resolution: 'answered' } });
  const evs = [...open, { ...END, seq: 8 }, resolved, LATE['attention.answered with form values']!.make(10)];
  const fs = await checkText(jsonl(evs));
  const on = fs.filter((f) => f.line === evs.length).map((f) => f.ruleId);
  assert.deepEqual(on.sort(), ['aep/attention-answered-late', 'aep/form-values-unverifiable'], brief(fs));
});

test("examples concatenated: the second copy's answer and resolution, under the first one's (source, id), are a collision only", async () => {
  const text = ['session-broken.jsonl', 'session.jsonl'].flatMap(lines);
  const fs = await checkText(jsonl(text));
  const at = (line: number) =>
    fs
      .filter((f) => f.line === line)
      .map((f) => f.ruleId)
      .sort();
  // both are under the first copy's (source, id): a consumer deduplicating drops them (AEP-0001 §7.4), so the
  // collision is their one finding, with no seq regression or late answer of their own
  assert.deepEqual(at(15), ['aep/id-collision']);
  assert.deepEqual(at(16), ['aep/id-collision']);
});

test('a request whose kind is outside the registry: after the end, its kind is said to be no longer held', async () => {
  const late = LATE['attention.answered with form values']!;
  const evs = [...body('banana'), END, late.make(9)];
  const fs = await checkText(jsonl(evs));
  const on = fs.filter((f) => f.line === evs.length);
  assert.deepEqual(
    on.map((f) => `${f.ruleId}:${f.messageId}`),
    ['aep/attention-answered-late:late', 'aep/form-values-unverifiable:closed-kind'],
    brief(fs),
  );
});

test('memory: ended sessions leave a terminal mark and one compact row per closed request, no session record', async () => {
  const N = 2000;
  const rows: string[] = [];
  for (let i = 0; i < N; i++) {
    const over = { source: `aep://h/agent/a/session/s${i}`, session: `s${i}` };
    for (const e of BODY) rows.push(JSON.stringify({ ...e, ...over }));
    rows.push(JSON.stringify({ ...END, ...over }));
  }
  const answer = { ...LATE['attention.answered with form values']!.make(9), source: 'aep://h/agent/a/session/s0' };
  rows.push(JSON.stringify({ ...answer, session: 's0' }));
  let state: AepStreamState | undefined;
  const fs = await checkText(jsonl(rows), { onStreamState: (s) => (state = s) });
  const stats = aepStreamStats(state!);
  assert.deepEqual([stats.open, stats.sessions, stats.endedSessions], [0, 0, N]);
  assert.equal(stats.markers, 4 * N, 'per session: run, tool call and request terminal marks, one retired request row');
  const last = fs.filter((f) => f.line === rows.length).map((f) => f.ruleId);
  assert.deepEqual(last.sort(), ['aep/attention-answered-late', 'aep/form-values-unverifiable'], brief(fs));
});
