/**
 * Unit tests of the AEP stream rules beyond the conformance cases: the rule list, dedupe
 * (a redelivery reaches no other rule), canonical identity with exact big integers, caps
 * (once per cap, no crash), fresh state per run, no echo of gated values, and the registry
 * enum for rejection reasons.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { canonicalJson } from '../../src/aep/analyzers/canonical.ts';
import type { IdEntry } from '../../src/aep/analyzers/id-table.ts';
import { AEP_STREAM_RULES } from '../../src/aep/rules/index.ts';
import type { Finding } from '../../src/core/finding.ts';
import { parseJsonText } from '../../src/core/json.ts';
import { brief, checkText, event, jsonl } from './helpers.ts';
import { aepDriver, runPipeline } from '../run.ts';

const ids = (fs: readonly Finding[]) => fs.map((f) => f.ruleId).sort();

test('rule list: unique ids, citations, descriptions; each a verdict over facts or end state; state-cap last', () => {
  const seen = new Set<string>();
  for (const r of AEP_STREAM_RULES) {
    assert.match(r.id, /^aep\/[a-z0-9-]+$/);
    assert.ok(!seen.has(r.id), `${r.id} twice`);
    seen.add(r.id);
    assert.ok(r.spec.length > 2 && r.description.length > 10, r.id);
    assert.ok('onEvent' in r || 'onEnd' in r, `${r.id} has neither onEvent nor onEnd`);
  }
  assert.equal(AEP_STREAM_RULES.at(-1)!.id, 'aep/state-cap');
});

test('dedupe: a redelivered line is reported once and counted by no other rule', async () => {
  const req = event('attention.requested', 0, {
    id: 'r1',
    severity: 'notice',
    data: { kind: 'input', prompt: 'unit requests input' },
  });
  const ack = event('control.accepted', 1, { id: 'a1', cause: 'c1' });
  const fin = event('run.finished', 2, { id: 'f1', run: 'r' });
  const to = event('attention.timeout', 3, { id: 't1', subject: 'r1' });
  const end = event('session.ended', 4, { id: 'e1' });
  const text = jsonl([req, req, ack, ack, fin, fin, to, to, end, end]);
  const fs = await checkText(text);
  assert.deepEqual(ids(fs), Array(5).fill('aep/redelivery'), brief(fs));
  assert.deepEqual(
    fs.map((f) => f.line),
    [2, 4, 6, 8, 10],
  );
});

test('identity: the same id from two sources is legal; key order is not content', async () => {
  const a = event('progress.status', 0, { id: 'same' });
  const b = { ...a, source: 'aep://other/agent/x/session/u_1' };
  assert.deepEqual(await checkText(jsonl([a, b])), []);
  const reordered = Object.fromEntries(Object.entries(a).reverse());
  assert.deepEqual(ids(await checkText(jsonl([a, reordered]))), ['aep/redelivery']);
});

test('canonical JSON keeps integers beyond 2^53 exact', () => {
  const p = (s: string) => {
    const r = parseJsonText(s);
    assert.ok(r.ok);
    return r;
  };
  const a = p('{"b":1,"seq":9007199254740993,"a":[9007199254740993]}');
  const b = p('{"a":[9007199254740992],"seq":9007199254740992,"b":1}');
  assert.equal(canonicalJson(a), '{"a":[9007199254740993],"b":1,"seq":9007199254740993}');
  assert.notEqual(canonicalJson(a), canonicalJson(b));
});

test('ordering: seq compared exactly beyond 2^53; agent and foreign events do not take part', async () => {
  const ok = jsonl([
    '{"aep":"0.1","id":"b1","type":"progress.status","time":"2026-11-30T12:00:00Z","source":"aep://h/agent/a/session/s","agent":"a","session":"s","seq":9007199254740992}',
    '{"aep":"0.1","id":"b2","type":"progress.status","time":"2026-11-30T12:00:00Z","source":"aep://h/agent/a/session/s","agent":"a","session":"s","seq":9007199254740993}',
    event('agent.heartbeat', undefined, { session: undefined, source: 'aep://h/agent/a/session/s' }),
    event('control.pause', undefined, { id: 'p1', source: 'aep://h/agent/a/session/s', session: 's' }),
    event('control.accepted', 9007199254740994, { source: 'aep://h/agent/a/session/s', session: 's', cause: 'p1' }),
  ]);
  assert.deepEqual(await checkText(ok), []);
  const bad = jsonl([
    '{"aep":"0.1","id":"b1","type":"progress.status","time":"2026-11-30T12:00:00Z","source":"aep://h/agent/a/session/s","agent":"a","session":"s","seq":9007199254740993}',
    '{"aep":"0.1","id":"b2","type":"progress.status","time":"2026-11-30T12:00:00Z","source":"aep://h/agent/a/session/s","agent":"a","session":"s","seq":9007199254740992}',
  ]);
  assert.deepEqual(ids(await checkText(bad)), ['aep/seq-regression']);
});

test('ordering: the high-water mark never goes down (every event below it is reported)', async () => {
  const fs = await checkText(
    jsonl([
      event('progress.status', 5),
      event('progress.status', 3),
      event('progress.status', 4),
      event('progress.status', 6),
    ]),
  );
  assert.deepEqual(
    fs.map((f) => `${f.ruleId}@${f.line}`),
    ['aep/seq-regression@2', 'aep/seq-regression@3'],
  );
});

test('maxSessions: the least recently active session is the one forgotten', async () => {
  const at = (name: string, seq: number) =>
    event('progress.status', seq, { session: name, source: `aep://h/agent/a/session/${name}` });
  // A and B open; A is active again; C needs room: B (least recently active) goes; A is active
  // again; B needs room: C (least recently active now) goes, A stays
  const fs = await checkText(
    jsonl([at('A', 0), at('B', 0), at('A', 1), at('C', 0), at('A', 2), at('B', 0), at('A', 1), at('C', 0)]),
    { stream: { maxSessions: 2 } },
  );
  assert.deepEqual(
    fs.map((f) => `${f.ruleId}@${f.line}`),
    ['aep/state-cap@4', 'aep/seq-regression@7'],
    'B and C restart after eviction (no regression at lines 6 and 8); A was kept (regression at line 7)',
  );
});

test('ack window: by the time attributes, exclusive bound, configurable; an unacked command is noted per session', async () => {
  const at = (id: string, type: string, time: string, extra: Record<string, unknown> = {}) =>
    event(type, undefined, { id, time, source: 'aep://ops/agent/console', agent: 'console', ...extra });
  const lines = [
    event('session.started', 0, { time: '2026-11-30T12:00:00Z' }),
    at('c1', 'control.pause', '2026-11-30T12:00:00Z'),
    event('control.accepted', 1, { cause: 'c1', time: '2026-11-30T12:00:25Z' }),
    at('c2', 'control.resume', '2026-11-30T12:00:30Z'),
    at('c3', 'control.cancel', '2026-11-30T12:00:31Z', { data: { scope: 'run' } }),
  ];
  const fs = await checkText(jsonl(lines));
  assert.deepEqual(
    fs.map((f) => `${f.severity}:${f.ruleId}@${f.line}${f.pointer}`),
    ['warning:aep/ack-window@3/time', 'info:aep/command-unacked@4/id'],
  );
  assert.deepEqual([fs[0].args?.windowMs, fs[0].args?.lateByMs], [10_000, 15_000]);
  assert.equal(fs[1].args?.commands, 2);
  assert.deepEqual(
    fs[1].related?.map((r) => r.line),
    [5],
  );
  const wide = await checkText(jsonl(lines), { stream: { ackWindowMs: 25_000 } });
  assert.deepEqual(
    wide.map((f) => f.ruleId),
    ['aep/command-unacked'],
    'a 25 s window: the ack at exactly 25 s is in time',
  );
});

test('caps: exceeded once per cap, reported as aep/state-cap, never a crash', async () => {
  const many = Array.from({ length: 50 }, (_, i) =>
    event('run.started', 0, { session: `cap_${i}`, run: 'r', source: `aep://h/agent/a/session/cap_${i}` }),
  );
  const fs = await checkText(jsonl(many), { stream: { maxIds: 10, maxSessions: 5, maxOpen: 3 } });
  const caps = fs.filter((f) => f.ruleId === 'aep/state-cap');
  assert.deepEqual(caps.map((f) => f.args?.cap).sort(), ['maxIds', 'maxOpen', 'maxSessions']);
  assert.ok(caps.every((f) => f.severity === 'warning'));
  // only the sessions still held can be summarised at the end, and only runs that were admitted
  const open = fs.filter((f) => f.ruleId === 'aep/open-at-end');
  assert.ok(open.length <= 3, brief(open));
});

test('state is per run: one driver, two runs, no leakage', async () => {
  const driver = aepDriver();
  const text = jsonl([event('progress.status', 0, { id: 'x' })]);
  for (let i = 0; i < 2; i++) {
    const fs: Finding[] = [];
    await runPipeline(
      [
        {
          source: 'a.jsonl',
          open: async function* () {
            yield text;
          },
        },
      ],
      driver,
      (f) => fs.push(f),
    );
    assert.deepEqual(fs, [], `run ${i + 1}: ${brief(fs)}`);
  }
});

test('forms: findings never echo a value (type and length only)', async () => {
  const secret = 'hunter2-correct-horse';
  const form = event('attention.requested', 0, {
    id: 'q',
    severity: 'notice',
    capture: 'redacted',
    data: {
      kind: 'form',
      prompt: 'unit requests form',
      fields: [
        { id: 'pw', type: 'string', label: 'Password' },
        { id: 'n', type: 'number', label: 'N' },
        { id: 'c', type: 'select', label: 'C', choices: [{ id: '1', label: 'one' }] },
      ],
    },
  });
  const ans = event('attention.answered', 1, {
    id: 'a',
    subject: 'q',
    capture: 'metadata',
    data: { answer: { values: { pw: secret, n: secret, c: secret, extra: 1 } } },
  });
  const fs = await checkText(
    jsonl([form, ans, event('attention.resolved', 2, { subject: 'q', data: { resolution: 'answered' } })]),
  );
  assert.ok(fs.length >= 4, brief(fs));
  for (const f of fs)
    assert.ok(
      !f.message.includes(secret) && !JSON.stringify(f.args ?? {}).includes(secret),
      `${f.ruleId} echoes the value: ${f.message}`,
    );
});

test('forms: respond is linked by session across sources; answered only within its own source', async () => {
  const form = event('attention.requested', 0, {
    id: 'q',
    severity: 'notice',
    capture: 'redacted',
    data: {
      kind: 'form',
      prompt: 'unit requests form',
      fields: [{ id: 'n', type: 'number', label: 'N', required: true }],
    },
  });
  const respond = event('control.attention.respond', undefined, {
    id: 'c',
    subject: 'q',
    source: 'aep://ops/agent/console',
    agent: 'console',
    data: { answer: { values: {} } },
  });
  const foreignAnswer = event('attention.answered', 0, {
    id: 'fa',
    subject: 'q',
    source: 'aep://elsewhere/agent/b/session/u_1',
    data: { answer: { values: { n: 1 } } },
  });
  const fs = await checkText(jsonl([form, respond, foreignAnswer, event('attention.timeout', 1, { subject: 'q' })]));
  assert.deepEqual(
    fs.map((f) => `${f.severity}:${f.ruleId}@${f.line}`).sort(),
    // the foreign answer's own session has no session.started in the input: seq 0 proves no start, so its
    // request may precede the capture (unverifiable, not missing)
    [
      'info:aep/attention-unknown-request@3',
      'info:aep/command-unacked@2',
      'info:aep/form-values-unverifiable@3',
      'warning:aep/respond-cause@2',
      'warning:aep/respond-values-required@2',
    ],
  );
});

test('forms: a respond naming a request id two emitters of the session used is unverifiable, not guessed', async () => {
  const mk = (host: string) =>
    event('attention.requested', 0, {
      id: 'q',
      source: `aep://${host}/agent/a/session/u_1`,
      severity: 'notice',
      data: { kind: 'form', prompt: 'unit requests form', fields: [{ id: 'n', type: 'number', label: 'n' }] },
    });
  const respond = event('control.attention.respond', undefined, {
    id: 'c',
    subject: 'q',
    source: 'aep://ops/agent/console',
    data: { answer: { values: { n: 'x' } } },
  });
  const fs = await checkText(jsonl([mk('one'), mk('two'), respond]));
  assert.ok(
    fs.some((f) => f.ruleId === 'aep/form-values-unverifiable' && f.line === 3),
    brief(fs),
  );
  assert.ok(!fs.some((f) => f.ruleId === 'aep/form-values-type'), brief(fs));
});

test('forms: an answer after the request closed is unverifiable (fields are dropped at the terminal)', async () => {
  const form = event('attention.requested', 0, {
    id: 'q',
    severity: 'notice',
    data: { kind: 'form', prompt: 'unit requests form', fields: [{ id: 'n', type: 'number', label: 'n' }] },
  });
  const fs = await checkText(
    jsonl([
      form,
      event('attention.timeout', 1, { subject: 'q' }),
      event('attention.answered', 2, { subject: 'q', data: { answer: { values: { n: 1 } } } }),
    ]),
  );
  // the late answer is also out of the AEP-0002 §7 order
  assert.deepEqual(
    fs.map((f) => `${f.ruleId}@${f.line}`),
    ['aep/attention-answered-late@3', 'aep/form-values-unverifiable@3'],
  );
});

test('forms: a value of the wrong type or no choice is reported once, not also as free text below redacted', async () => {
  const form = event('attention.requested', 0, {
    id: 'q',
    severity: 'notice',
    capture: 'redacted',
    data: {
      kind: 'form',
      prompt: 'unit requests form',
      fields: [
        { id: 's', type: 'string', label: 's' },
        { id: 'n', type: 'number', label: 'n' },
        { id: 'c', type: 'select', label: 'c', multi: true, choices: [{ id: '1', label: 'one' }] },
        { id: 'o', type: 'select', label: 'o', other: true, choices: [{ id: '1', label: 'one' }] },
      ],
    },
  });
  const values = { s: ['text'], n: '5', c: ['1', '4'], o: 'own words' };
  const answered = event('attention.answered', 1, { subject: 'q', capture: 'metadata', data: { answer: { values } } });
  const respond = event('control.attention.respond', undefined, {
    id: 'c',
    subject: 'q',
    capture: 'metadata',
    source: 'aep://ops/agent/console',
    data: { answer: { values } },
  });
  // sorted: a respond's values warnings come once its target decided (here at the end of input, no ack)
  const at = (fs: readonly Finding[]) =>
    fs
      .filter((f) => f.ruleId.includes('-values-'))
      .map((f) => `${f.severity}:${f.ruleId}@${f.pointer}`)
      .sort();
  const expected = (role: 'form' | 'respond', sev: string) =>
    [
      `${sev}:aep/${role}-values-type@/data/answer/values/s`,
      `${sev}:aep/${role}-values-type@/data/answer/values/n`,
      `${sev}:aep/${role}-values-choice@/data/answer/values/c/1`,
      // the one value AEP-0006 calls free text: an `other` answer
      'error:aep/form-values-capture@/data/answer/values/o',
    ].sort();
  assert.deepEqual(at(await checkText(jsonl([form, answered]))), expected('form', 'error'));
  assert.deepEqual(at(await checkText(jsonl([form, respond]))), expected('respond', 'warning'));
});

test('forms: capture none is left to aep/capture-none (no values-capture double report)', async () => {
  const form = event('attention.requested', 0, {
    id: 'q',
    severity: 'notice',
    capture: 'redacted',
    data: { kind: 'form', prompt: 'unit requests form', fields: [{ id: 's', type: 'string', label: 's' }] },
  });
  const ans = event('attention.answered', 1, {
    subject: 'q',
    capture: 'none',
    data: { answer: { values: { s: 'text' } } },
  });
  const fs = await checkText(
    jsonl([form, ans, event('attention.resolved', 2, { subject: 'q', data: { resolution: 'answered' } })]),
  );
  assert.deepEqual(ids(fs), ['aep/capture-none']);
});

test('control.rejected reasons come from the registry enum (payload schema, not a stream rule)', async () => {
  const cmd = event('control.pause', undefined, { id: 'c', source: 'aep://ops/agent/console' });
  const fs = await checkText(jsonl([cmd, event('control.rejected', 0, { cause: 'c', data: { reason: 'timeout' } })]));
  assert.deepEqual(ids(fs), ['aep/payload-schema'], brief(fs));
  assert.equal(fs[0].pointer, '/data/reason');
});

test('a payload-invalid ack still counts as the decision', async () => {
  const cmd = event('control.pause', undefined, { id: 'c', source: 'aep://ops/agent/console' });
  const fs = await checkText(
    jsonl([
      cmd,
      event('control.rejected', 0, { cause: 'c', data: { reason: 'nope' } }),
      event('control.accepted', 1, { cause: 'c' }),
    ]),
  );
  assert.deepEqual(ids(fs), ['aep/ack-exclusive', 'aep/payload-schema']);
});

test('two input files form one stream', async () => {
  const fs: Finding[] = [];
  const a = jsonl([event('progress.status', 5)]);
  const b = jsonl([event('progress.status', 1)]);
  await runPipeline(
    [
      {
        source: 'a.jsonl',
        open: async function* () {
          yield a;
        },
      },
      {
        source: 'b.jsonl',
        open: async function* () {
          yield b;
        },
      },
    ],
    aepDriver(),
    (f) => fs.push(f),
  );
  assert.deepEqual(
    fs.map((f) => `${f.source}:${f.line}:${f.ruleId}`),
    ['b.jsonl:1:aep/seq-regression'],
  );
  assert.equal(fs[0].related?.[0]?.source, 'a.jsonl');
});

test('id table: exact lookups through growth; generations forget the oldest half; never above the cap', async () => {
  const { AepIdTable, MAX_LINE_FILES, MAX_LINE_OFFSET } = await import('../../src/aep/analyzers/id-table.ts');
  const { idKeyHash } = await import('../../src/aep/analyzers/canonical.ts');
  const t = new AepIdTable(100_000);
  const key = (i: number) => idKeyHash('aep://h/agent/a/session/s', `id-${i}`);
  let forgot = 0;
  // even ids: digest entries; odd ids: line entries with offsets across the 32-bit boundary
  const entry = (i: number): IdEntry =>
    i % 2 === 0
      ? { kind: 'digest', content: { hi: i, lo: (i ^ 0xffff) >>> 0 }, line: i + 1, file: 0 }
      : { kind: 'line', fingerprint: (i * 2654435761) >>> 0, byteOffset: i * 1_400_000_007, line: i + 1, file: 0 };
  for (let i = 0; i < 100_000; i++) forgot += Number(t.add(key(i), entry(i)));
  assert.equal(t.fileIndex('a.jsonl'), 0);
  assert.equal(forgot, 0);
  assert.equal(t.size, 100_000);
  for (const i of [0, 1, 4242, 4243, 99_998, 99_999]) assert.deepEqual(t.get(key(i)), entry(i));
  // every key, through each doubling of the table's seen bits: never answered "absent" once added
  for (let i = 0; i < 100_000; i++) assert.equal(t.get(key(i))?.line, i + 1, `id-${i}`);
  for (let i = 100_001; i < 110_000; i++) assert.equal(t.get(key(i)), undefined);
  assert.ok(99_999 * 1_400_000_007 > 2 ** 46 && 99_999 * 1_400_000_007 < MAX_LINE_OFFSET, 'offsets use the high bits');
  assert.equal(t.get(key(100_000)), undefined);
  // one more: the oldest generation (ids 0..49999) is forgotten at once
  assert.equal(t.add(key(100_000), { kind: 'digest', content: { hi: 1, lo: 1 }, line: 1, file: 0 }), true);
  assert.equal(t.get(key(0)), undefined);
  assert.equal(t.get(key(49_999)), undefined);
  assert.ok(t.get(key(50_000)) && t.get(key(100_000)));
  assert.ok(t.size <= 100_000);
  const edge = new AepIdTable(10);
  const far: IdEntry = {
    kind: 'line',
    fingerprint: 0xffffffff,
    byteOffset: MAX_LINE_OFFSET - 1,
    line: 0xffffffff,
    file: MAX_LINE_FILES - 1,
  };
  const wide: IdEntry = { kind: 'digest', content: { hi: 0xffffffff, lo: 0xffffffff }, line: 3, file: 0x7fffffff };
  edge.add(key(1), far);
  edge.add(key(2), wide);
  assert.deepEqual(
    [edge.get(key(1)), edge.get(key(2))],
    [far, wide],
    'the largest offset, line and input index survive packing',
  );
  const one = new AepIdTable(1);
  one.add(key(1), { kind: 'digest', content: { hi: 0, lo: 0 }, line: 1, file: 0 });
  assert.equal(one.add(key(2), { kind: 'line', fingerprint: 0, byteOffset: 10, line: 2, file: 0 }), true);
  assert.equal(one.size, 1);
});

test('forms: an answer to a form whose request failed its payload schema is unverifiable, not checked against broken fields', async () => {
  const form = event('attention.requested', 0, {
    id: 'q',
    severity: 'notice',
    capture: 'redacted',
    data: { kind: 'form', prompt: 'unit requests form', fields: [{ id: 'db', type: 'select', label: 'db' }] },
  });
  const ans = event('attention.answered', 1, {
    subject: 'q',
    capture: 'redacted',
    data: { answer: { values: { db: 'anything' } } },
  });
  const fs = await checkText(
    jsonl([form, ans, event('attention.resolved', 2, { subject: 'q', data: { resolution: 'answered' } })]),
  );
  assert.deepEqual(
    fs.map((f) => `${f.ruleId}@${f.line}`).sort(),
    ['aep/form-field-spec@1', 'aep/form-values-unverifiable@2'],
    brief(fs),
  );
  assert.equal(fs.find((f) => f.ruleId === 'aep/form-values-unverifiable')!.args?.reason, 'unusable');
});

test('canonical JSON: values nested deeper than the call stack fall back to an explicit stack, same text', () => {
  const deep = '['.repeat(50_000) + ']'.repeat(50_000);
  const value = JSON.parse(`{"b":${deep},"a":{"z":1,"y":[2,{"k":9007199254740993}]}}`) as unknown;
  const big = [{ pointer: '/a/y/1/k', text: '9007199254740993', index: 0 }];
  const text = canonicalJson({ value, bigIntegers: big });
  assert.ok(text.startsWith('{"a":{"y":[2,{"k":9007199254740993}],"z":1},"b":[[['));
  assert.equal(text.length, 2 + '"a":{"y":[2,{"k":9007199254740993}],"z":1},"b":'.length + 100_000);
  // shallow values give the same text either way
  const shallow = { value: { b: [1, { d: 'x', c: null }], a: true }, bigIntegers: [] };
  assert.equal(canonicalJson(shallow), '{"a":true,"b":[1,{"c":null,"d":"x"}]}');
});
