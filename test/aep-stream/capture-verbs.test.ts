/**
 * The capture verbs' relations. `aep redact`: for streams at capture `redacted` and `full` with secrets, PII and home
 * paths in every member the content rules read (redacted-gated, `[metadata*]`, metadata-level), `redact | validate
 * --strict` has no finding the input did not have for a reason other than content (AEP-0003 §9 items 2, 4, 5). `aep
 * downlevel`: the broken example at every ceiling keeps every line, and its copy has no content finding and no finding
 * the input lacked (AEP-0001 §8.2(a); AEP-0006 values at `metadata`).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import type { Finding } from '../../src/core/finding.ts';
import { validate } from '../../src/index.ts';
import { REPO, runCli } from '../cli/helpers.ts';
import { runs } from '../scale.ts';

/** The rules that judge content against the declared level. */
const CONTENT = new Set([
  'aep/capture-level',
  'aep/capture-none',
  'aep/capture-full-redacted',
  'aep/metadata-content',
  'aep/redaction-leak',
  'aep/redaction-leak-provider',
  'aep/redaction-home-path',
  'aep/redaction-leak-pii',
  'aep/form-values-capture',
]);

const SECRETS = [
  'Authorization: Bearer Zx81qPlm77TnWwQ3',
  'use sk-proj-Q7vLm2Xc9RtY4bNa8KdE3wPz6HsJ1uFo now',
  'AKIAQ7VLM2XC9RTY4BNA',
  'ghp_Q7vLm2Xc9RtY4bNa8KdE3wPz6HsJ1uFo0iGk',
  'password: hunter2sequel',
  'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln',
  '-----BEGIN PRIVATE KEY-----\nMIIEabc\n-----END PRIVATE KEY-----',
  'mail ops@example.com',
  'call +1 (555) 123-4567',
  'cat /home/alice/notes.txt',
];

/** Payloads with `s` in each member of a kind the content rules read, `m` in a metadata-level member; `f` at `full`. */
const PAYLOADS: readonly [string, (s: string, m: string, f?: string) => unknown, Record<string, unknown>?][] = [
  ['session.started', (s) => ({ client: { name: 'c' }, label: s, cwd: s })],
  ['run.started', (s) => ({ prompt: s }), { run: 'r1' }],
  [
    'tool.requested',
    (s, m, f) => ({ tool: { name: 'sh', call_id: m }, args_redacted: { cmd: s }, ...(f ? { args: { cmd: f } } : {}) }),
  ],
  ['tool.completed', (s, _, f) => ({ tool: { name: 'sh' }, result_redacted: s, result: f })],
  ['tool.failed', (s) => ({ tool: { name: 'sh' }, error: { message: s } })],
  ['progress.status', (s) => ({ percent: 5, message: s })],
  ['progress.task.planned', (s) => ({ task: { title: s } })],
  ['progress.artifact.produced', (s) => ({ artifact: { name: s, uri: s } })],
  ['error.raised', (s) => ({ error: { message: s } })],
  ['state.snapshot', (s) => ({ state: { note: s } })],
  ['resource.retrieval.requested', (s) => ({ query: s })],
  ['resource.retrieval.returned', (s, _, f) => ({ documents: [{ id: 'd1', content_redacted: s, content: f }] })],
  [
    'resource.citation.recorded',
    (s, _, f) => ({ citations: [{ source: { uri: s, title: s }, cited_text_redacted: s, cited_text: f }] }),
  ],
  ['assessment.feedback.received', (s) => ({ comment: s, correction: s }), { run: 'r1', cause: 'e1' }],
  [
    'attention.requested',
    (s) => ({
      kind: 'form',
      prompt: s,
      fields: [
        { id: 'f', type: 'string', label: s },
        { id: 'c', type: 'select', label: s, choices: [{ id: 'x', label: s }] },
      ],
    }),
    { id: 'q1', severity: 'notice' },
  ],
  [
    'attention.answered',
    (s) => ({ answer: { text: s, values: { f: s, c: 'x' } }, via: 'control' }),
    { subject: 'q1', cause: 'q1' },
  ],
  ['attention.resolved', () => ({ resolution: 'answered' }), { subject: 'q1', cause: 'e15' }],
];

const line = (type: string, i: number, capture: string, data: unknown, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    aep: '0.1',
    source: 'aep://h/agent/a/session/s',
    agent: 'a',
    session: 's',
    id: `e${i}`,
    type,
    time: '2026-11-30T10:00:00Z',
    seq: i,
    capture,
    ...extra,
    data,
  });

const key = (f: Finding) => `${f.ruleId} ${f.line} ${f.pointer ?? ''}`;

test('aep redact | validate --strict: no finding the input did not have for a reason other than content', async () => {
  const stream = fc.tuple(
    fc.array(fc.constantFrom('redacted', 'full'), { minLength: PAYLOADS.length, maxLength: PAYLOADS.length }),
    fc.array(fc.constantFrom(...SECRETS), { minLength: PAYLOADS.length, maxLength: PAYLOADS.length }),
    fc.constantFrom('call-1', ...SECRETS),
  );
  await fc.assert(
    fc.asyncProperty(stream, async ([levels, secrets, m]) => {
      const text = PAYLOADS.map(([type, data, extra], i) =>
        line(type, i, levels[i]!, data(secrets[i]!, m, levels[i] === 'full' ? secrets[i] : undefined), extra),
      ).join('\n');
      const before = (await validate('aep', { text })).findings;
      const kept = new Set(before.filter((f) => !CONTENT.has(f.ruleId)).map(key));
      const red = await runCli('aep', ['redact', '--home', '/home/alice', '-'], `${text}\n`);
      assert.equal(red.stdout.split('\n').length, PAYLOADS.length + 1, red.stderr);
      const after = (await validate('aep', { text: red.stdout })).findings;
      const added = after.filter((f) => !kept.has(key(f))).map((f) => `${key(f)}: ${f.message}`);
      assert.deepEqual(added, [], red.stdout);
      for (const [i, out] of red.stdout.trim().split('\n').entries()) {
        const ev = JSON.parse(out) as Record<string, unknown>;
        // AEP-0003 §9 item 5: the level honoured; an event left as it came keeps its own
        if (ev.capture !== levels[i]) assert.deepEqual([levels[i], ev.capture], ['full', 'redacted'], out);
      }
      // with nothing but content to report on the input, the copy passes every rule
      if (before.every((f) => CONTENT.has(f.ruleId) || f.severity === 'info')) {
        const strict = await runCli('aep', ['validate', '--strict', '-'], red.stdout);
        assert.equal(strict.code, 0, strict.stdout);
      }
    }),
    { numRuns: runs(40) },
  );
});

test('aep redact | validate: secrets in subject and extension attributes at none, metadata and redacted are removed', async () => {
  const stream = fc.array(
    fc.tuple(fc.constantFrom('none', 'metadata', 'redacted'), fc.constantFrom(...SECRETS), fc.constantFrom(...SECRETS)),
    { minLength: 1, maxLength: 6 },
  );
  await fc.assert(
    fc.asyncProperty(stream, async (events) => {
      const text = events
        .map(([capture, s, t], i) =>
          line('progress.status', i, capture, capture === 'none' ? undefined : { percent: 5 }, {
            subject: s,
            acmenote: t,
            acmex: { deep: [s, { k: t }] },
          }),
        )
        .join('\n');
      const before = (await validate('aep', { text })).findings;
      const kept = new Set(before.filter((f) => !CONTENT.has(f.ruleId)).map(key));
      const red = await runCli('aep', ['redact', '--home', '/home/alice', '-'], `${text}\n`);
      assert.equal(red.stdout.split('\n').length, events.length + 1, red.stderr);
      const after = (await validate('aep', { text: red.stdout })).findings;
      assert.deepEqual(
        after.filter((f) => !kept.has(key(f))).map((f) => `${key(f)}: ${f.message}`),
        [],
        red.stdout,
      );
      assert.deepEqual(after.filter((f) => f.ruleId === 'aep/metadata-content').map(key), [], red.stdout);
    }),
    { numRuns: runs(30) },
  );
});

test('the trial stream: redact sets capture redacted on what it redacted at full, and passes validate --strict', async () => {
  const session = readFileSync(join(REPO, 'examples/aep/session.jsonl'), 'utf8').replace(
    '"capture":"redacted","data":{"kind":"form","prompt":"Choose release settings"',
    () =>
      ['"capture":"full","data":{"kind":"form","prompt":"Deploy with Authorization: Bearer Zx81qPlm77TnWwQ3', '"'].join(
        '',
      ),
  );
  assert.match(session, /"capture":"full"/);
  const red = await runCli('aep', ['redact', '-'], session);
  assert.equal(red.code, 0, red.stderr);
  assert.match(
    red.stdout,
    /"capture":"redacted","data":\{"kind":"form","prompt":"Deploy with Authorization: Bearer \[REDACTED:secret\]"/,
  );
  const strict = await runCli('aep', ['validate', '--strict', '-'], red.stdout);
  assert.equal(strict.code, 0, strict.stdout);
});

const BROKEN = join(REPO, 'examples/aep/session-broken.jsonl');

/** Rule and event id of each finding, keyed by the line's `id`. */
function byEvent(text: string, findings: readonly Finding[]): Set<string> {
  const ids = text.split('\n').map((l) => (l ? (JSON.parse(l) as { id?: string }).id : undefined));
  return new Set(findings.map((f) => `${f.ruleId} ${f.line === undefined ? '' : ids[f.line - 1]}`));
}

test('aep downlevel of the broken example at every ceiling: every line kept, no content finding, none the input lacked', async () => {
  const input = readFileSync(BROKEN, 'utf8');
  const had = byEvent(input, (await validate('aep', { text: input })).findings);
  for (const args of [['none'], ['metadata'], ['redacted'], ['full'], ['redacted', '--redact'], ['full', '--redact']]) {
    const r = await runCli('aep', ['downlevel', '--ceiling', ...args, BROKEN]);
    const at = args.join(' ');
    assert.equal(r.code, 1, 'the input has error findings');
    assert.equal(r.stdout.trim().split('\n').length, 9, `${at}: ${r.stderr}`);
    assert.match(r.stderr, /9 written; 4 lines with error findings written/);
    const found = (await validate('aep', { text: r.stdout })).findings;
    assert.deepEqual(found.filter((f) => CONTENT.has(f.ruleId)).map(key), [], `${at}: the copy leaks no content`);
    const now = byEvent(r.stdout, found);
    assert.deepEqual(
      [...now].filter((k) => !had.has(k)),
      [],
      `${at}: no new finding`,
    );
  }
  // AEP-0006: below redacted a form answer keeps its closed choice id and its number, not its free text
  const meta = await runCli('aep', ['downlevel', '--ceiling', 'metadata', BROKEN]);
  assert.match(meta.stdout, /"answer":\{"values":\{"channel":"beta","replicas":3\}\}/);
});

test('a line with error findings whose copy would still hold a secret is not written, and stderr says why', async () => {
  const leak = line('tool.requested', 0, 'metadata', { tool: { name: 'AKIAQ7VLM2XC9RTY4BNA' } }).replace(
    '2026-11-30T10:00:00Z',
    '2026-11-31T10:00:00Z',
  );
  const ok = line('progress.status', 1, 'metadata', { percent: 5 }, { acme_Region: 'eu' });
  for (const verb of [['downlevel', '--ceiling', 'metadata'], ['redact']]) {
    const r = await runCli('aep', [...verb, '-'], `${leak}\n${ok}\n`);
    assert.equal(r.code, 1);
    assert.equal(r.stdout, `${ok}\n`, verb[0]);
    assert.match(
      r.stderr,
      /<stdin>:1: not written: the line has error findings and its copy would still hold a secret/,
      verb[0],
    );
    assert.ok(!r.stderr.includes('AKIAQ7'), 'the reason never shows the secret');
  }
});

test('aep redact drops a full member from an event at capture redacted (AEP-0001 §8.2(a))', async () => {
  const over = line('tool.completed', 0, 'redacted', { tool: { name: 'sh' }, result_redacted: 'ok', result: 'raw' });
  const r = await runCli('aep', ['redact', '-'], `${over}\n`);
  assert.deepEqual(JSON.parse(r.stdout).data, { tool: { name: 'sh' }, result_redacted: 'ok' });
});

test('a line whose payload or capture could hide content is copied conservatively, not refused', async () => {
  const shapes = [
    // an object where the schema gives an array of documents: their gated `content` could be under any key
    line('resource.retrieval.returned', 0, 'metadata', { corpus: 'kb', documents: { 0: { content: 'leaked text' } } }),
    // a capture that names no level is read as `full`
    line('progress.status', 1, 'verbatim', { percent: 5, message: 'leaked text' }),
    // a payload that is no object has no member a walk could find
    line('run.started', 2, 'metadata', 'leaked text', { run: 'r1' }),
  ];
  const r = await runCli('aep', ['downlevel', '--ceiling', 'metadata', '-'], `${shapes.join('\n')}\n`);
  assert.match(r.stderr, /3 written; 3 lines with error findings written/);
  assert.ok(!r.stdout.includes('leaked'), r.stdout);
  const out = r.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  assert.deepEqual(
    out.map((e) => [e.capture, e.data]),
    [
      ['metadata', { corpus: 'kb' }],
      ['metadata', { percent: 5 }],
      ['metadata', undefined],
    ],
  );
});

test('aep redact closes with what it replaced: the events whose line changed, and those lowered from full', async () => {
  const ev = (id: string, capture: string, text: string) =>
    JSON.stringify({
      aep: '0.1',
      id,
      type: 'tool.completed',
      time: '2026-11-30T10:00:00Z',
      source: 'aep://h/agent/a/session/s',
      agent: 'a',
      session: 's',
      run: 'r1',
      seq: Number(id.slice(1)),
      capture,
      data: { tool: { name: 'sh', call_id: `c${id}` }, result_redacted: text },
    });
  const lines = [
    ev('e1', 'full', 'export TOKEN=abc'),
    ev('e2', 'redacted', 'mail bob@example.com'),
    ev('e3', 'full', 'nothing secret'),
    ev('e4', 'redacted', 'ls -la'),
  ];
  const r = await runCli('aep', ['redact', '-'], `${lines.join('\n')}\n`);
  assert.equal(r.code, 0, r.stderr);
  const out = r.stdout.trimEnd().split('\n');
  // the counts are a relation of input and output, not numbers of their own
  const changed = out.filter((l, i) => l !== lines[i]).length;
  const lowered = out.filter(
    (l, i) => JSON.parse(lines[i]!).capture === 'full' && JSON.parse(l).capture === 'redacted',
  );
  assert.equal(changed, 2);
  assert.equal(lowered.length, 1);
  assert.equal(
    r.stderr,
    `aep redact: ${changed} of ${lines.length} events redacted; ${lowered.length} lowered from full to redacted (AEP-0003 §9 item 5)\n`,
  );
  // the same line when the output goes to a file; none for an input with no event (its own line says so)
  const plain = await runCli('aep', ['redact', 'examples/aep/session.jsonl']);
  assert.match(plain.stderr, /^aep redact: 0 of 9 events redacted; 0 lowered/);
  const empty = await runCli('aep', ['redact', '-'], '');
  assert.doesNotMatch(empty.stderr, /events redacted/);
  assert.match(empty.stderr, /^aep redact: the input holds no event/m);
});
