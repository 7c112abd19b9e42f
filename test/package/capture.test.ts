/**
 * The capture pipeline through the package API and the CLI (README §Share a log safely):
 * `redact`, `downlevel`, `redactEvent`; `aep redact` and `aep downlevel` as stream filters;
 * `aep/redaction-leak` before and after `aep redact`; the corpus redaction folder and our
 * downlevel cases through `runFixtures`.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { captureViolations } from '../../src/aep/capture.ts';
import { CAPTURE_RANK } from '../../src/aep/event.ts';
import { captureTreeFor } from '../../src/aep/schema/validators.ts';
import {
  createRedactor,
  downlevel,
  redact,
  redactEvent,
  runFixtures,
  toCloudEvent,
  toOcsf,
  toOtlp,
  validate,
  type CaptureLevel,
} from '../../src/index.ts';
import { REPO, runCli } from '../cli/helpers.ts';
import { needShared, SHARED, sharedAbsent, sharedPath } from '../shared.ts';

const CORPUS = sharedPath(SHARED.aepCorpus);
const GOLDEN = join(CORPUS, 'golden', 'golden.jsonl');
const HEAD = {
  aep: '0.1',
  time: '2026-11-30T10:00:00Z',
  source: 'aep://h/agent/d/session/s',
  agent: 'd',
  session: 's',
};
let seq = 0;
const ev = (type: string, capture: CaptureLevel | undefined, data: unknown, extra: Record<string, unknown> = {}) => ({
  ...HEAD,
  id: `e${seq}`,
  type,
  seq: seq++,
  ...(capture ? { capture } : {}),
  ...extra,
  data,
});

test('redact: text through rules (a)-(d), values with credential-named members, a reusable Redactor', () => {
  const opts = { home: '/home/op', secretNames: ['DEPLOY_KEY'], secretValues: ['s3cr3t-value'] };
  assert.equal(
    redact('AKIAIOSFODNN7EXAMPLE DEPLOY_KEY=abc s3cr3t-value /home/op/x ops@example.com', opts),
    '[REDACTED:secret] DEPLOY_KEY=[REDACTED:secret] [REDACTED:secret] ~/x [REDACTED:pii]',
  );
  assert.equal(redact('ops@example.com', { pii: false }), 'ops@example.com');
  assert.deepEqual(redact({ headers: { Authorization: 'Basic x' }, n: 1, list: ['token=abc1'], tokenRef: 'vault:a' }), {
    headers: { Authorization: '[REDACTED:secret]' },
    n: 1,
    list: ['token=[REDACTED:secret]'],
    tokenRef: 'vault:a',
  });
  const r = createRedactor({ pii: false });
  assert.equal(redact('a@b.test Bearer abc123def456', r), 'a@b.test Bearer [REDACTED:secret]');
  // a number under a credential name is its value too; a member named `pin` holds one when it is digits
  assert.deepEqual(
    redact({ api_key: 12345678901234, passcode: 4321, pin: 123456, pins: { pin: '3.12' }, retries: 3, token_count: 7 }),
    {
      api_key: '[REDACTED:secret]',
      passcode: '[REDACTED:secret]',
      pin: '[REDACTED:secret]',
      pins: { pin: '3.12' },
      retries: 3,
      token_count: 7,
    },
  );
  assert.equal(redact('{"pin": 123456, "n": 1}'), '{"pin": [REDACTED:secret], "n": 1}');
});

test('downlevel: never raises a level; the same object when at or below the ceiling and honest; §8.2(e) boundary', () => {
  const full = ev('tool.completed', 'full', {
    tool: { name: 'sh' },
    result: 'r',
    result_redacted: 'key AKIAIOSFODNN7EXAMPLE',
  });
  assert.equal(downlevel(full, 'full'), full);
  const meta = ev('progress.status', undefined, { percent: 5 });
  for (const c of ['metadata', 'redacted', 'full'] as const) assert.equal(downlevel(meta, c), meta);
  // AEP-0001 §8.2(a): a member above the level the event declares is not passed on, whatever the ceiling
  const over = ev('progress.status', undefined, { percent: 5, message: 'm' });
  for (const c of ['metadata', 'redacted', 'full'] as const)
    assert.deepEqual(downlevel(over, c), { ...over, data: { percent: 5 } });
  assert.deepEqual(downlevel(full, 'redacted'), { ...full, capture: 'metadata', data: { tool: { name: 'sh' } } });
  assert.deepEqual(downlevel(full, 'redacted', { redact: true }), {
    ...full,
    capture: 'redacted',
    data: { tool: { name: 'sh' }, result_redacted: 'key [REDACTED:secret]' },
  });
  const none = downlevel(full, 'none');
  assert.equal(none.capture, 'none');
  assert.ok(!('data' in none));
  assert.equal(full.capture, 'full', 'the input is not modified');
  assert.throws(() => downlevel(full, 'secret' as CaptureLevel), TypeError);
});

test('redactEvent: gated text, and content in metadata members, at capture redacted or full; digests untouched', () => {
  const e = ev('tool.requested', 'redacted', {
    tool: { name: 'token=abc123' },
    args_digest: 'password=x',
    args_redacted: { cmd: 'login --password=hunter22' },
  });
  const out = redactEvent(e);
  // AEP-0003 §9 item 2: no content in a metadata-level member (aep/metadata-content); a digest is never redacted
  assert.deepEqual(out.data, {
    tool: { name: 'token=[REDACTED:secret]' },
    args_digest: 'password=x',
    args_redacted: { cmd: 'login --password=[REDACTED:secret]' },
  });
  const m = ev('tool.requested', 'metadata', { tool: { name: 'sh' } });
  assert.equal(redactEvent(m), m);
});

const LEAKS: Record<string, string> = {
  pem: '-----BEGIN PRIVATE KEY-----\nMIIEabc\n-----END PRIVATE KEY-----',
  'aws-access-key': 'AKIAIOSFODNN7EXAMPLE',
  bearer: 'Authorization: Bearer abc123.def456',
  assignment: 'api_key = sk_live_abc123',
  jwt: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln',
};

test('validate reports aep/redaction-leak for each rule (a) class in each kind of gated field, and nothing after aep redact', async () => {
  const lines: string[] = [];
  const want: string[] = [];
  for (const [cls, secret] of Object.entries(LEAKS)) {
    const events = [
      [ev('run.started', 'redacted', { prompt: `do it ${secret}` }, { run: `r-${cls}` }), '/data/prompt'],
      [
        ev(
          'tool.completed',
          'redacted',
          { tool: { name: 'sh' }, result_redacted: { out: [`x ${secret}`] } },
          { run: `r-${cls}` },
        ),
        '/data/result_redacted/out/0',
      ],
      [
        ev(
          'attention.requested',
          'redacted',
          { kind: 'input', prompt: `p ${secret}`, options: [{ id: 'a', label: `l ${secret}` }] },
          { run: `r-${cls}` },
        ),
        '/data/prompt /data/options/0/label',
      ],
    ] as const;
    for (const [e, ptrs] of events) {
      lines.push(JSON.stringify(e));
      for (const p of ptrs.split(' ')) want.push(`${lines.length} ${p} ${cls}`);
    }
  }
  const text = lines.join('\n') + '\n';
  const before = await validate('aep', { text }, { rules: ['aep/redaction-leak'] });
  assert.deepEqual(before.findings.map((f) => `${f.line} ${f.pointer} ${f.args?.class}`).sort(), want.sort());
  for (const f of before.findings)
    for (const s of Object.values(LEAKS))
      assert.ok(!f.message.includes(s.slice(0, 12)), 'the message never shows the secret');
  const red = await runCli('aep', ['redact', '-'], text);
  assert.equal(red.code, 0, red.stderr);
  const after = await validate('aep', { text: red.stdout }, { rules: ['aep/redaction-leak'] });
  assert.deepEqual(after.findings, []);
});

test('aep downlevel refuses a leaking redacted event it would write as it is, redacts it with --redact, and prunes it below redacted', async () => {
  const leak =
    JSON.stringify(ev('run.started', 'redacted', { prompt: `do it ${LEAKS.assignment}` }, { run: 'r1' })) + '\n';
  for (const ceiling of ['redacted', 'full']) {
    const r = await runCli('aep', ['downlevel', '--ceiling', ceiling, '-'], leak);
    assert.equal(r.code, 1, ceiling);
    assert.equal(r.stdout, '', 'the leaking line is not written');
    assert.match(r.stderr, /aep\/redaction-leak/);
    // issue 42's papercut, issue 43 item 4: a redacting hop redacts it, by the path of aep redact
    const red = await runCli('aep', ['downlevel', '--ceiling', ceiling, '--redact', '-'], leak);
    assert.equal(red.code, 0, `${ceiling} --redact: ${red.stderr}`);
    const same = await runCli('aep', ['redact', '-'], leak);
    assert.equal(red.stdout, same.stdout, 'downlevel --redact writes what aep redact writes');
    assert.ok(!red.stdout.includes('sk_live') && red.stdout.includes('[REDACTED:secret]'), red.stdout);
    const again = await validate('aep', { text: red.stdout }, { rules: ['aep/redaction-leak'] });
    assert.deepEqual(again.findings, []);
  }
  const pruned = await runCli('aep', ['downlevel', '--ceiling', 'metadata', '-'], leak);
  assert.equal(pruned.code, 0, pruned.stderr);
  assert.ok(!pruned.stdout.includes('sk_live'), 'the gated text is gone below redacted');
  const repaired = await runCli('aep', ['redact', '-'], leak);
  assert.equal(repaired.code, 0, 'aep redact repairs what downlevel refuses');
});

test('a vendor type without capture annotations: every CLI path strips or redacts its data (AEP-0001 §8.2(e))', async () => {
  const blob =
    JSON.stringify(ev('x.acme.session.custom_blob', 'full', { anything: 'SECRET', note: 'password=hunter2sequel' })) +
    '\n';
  for (const args of [
    ['downlevel', '--ceiling', 'redacted'],
    ['downlevel', '--ceiling', 'redacted', '--redact'],
    ['downlevel', '--ceiling', 'metadata'],
    ['downlevel', '--ceiling', 'none'],
  ]) {
    const r = await runCli('aep', [...args, '-'], blob);
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout) as Record<string, unknown>;
    assert.ok(!('data' in out), `${args.join(' ')}: data stripped wholesale`);
    assert.equal(out.capture, args.includes('none') ? 'none' : 'metadata', args.join(' '));
  }
  const atRedacted = blob.replace('"capture":"full"', '"capture":"redacted"');
  for (const input of [blob, atRedacted]) {
    const r = await runCli('aep', ['redact', '-'], input);
    // at `redacted` the input's secret is aep/metadata-content (a vendor member holds none at any annotation), repaired
    assert.equal(r.code, input === blob ? 0 : 1, r.stderr);
    if (input === atRedacted) assert.match(r.stderr, /aep\/metadata-content/);
    assert.ok(!r.stdout.includes('hunter2sequel'), 'aep redact treats an unannotated payload as redacted-gated text');
    // AEP-0003 §9 item 5: the level actually honoured; the whole payload went through the pipeline
    assert.equal((JSON.parse(r.stdout) as Record<string, unknown>).capture, 'redacted', 'redacted text is redacted');
  }
});

test('aep downlevel and aep redact: unchanged events byte for byte, invalid lines on stderr, written honest or not at all, exit 1', async () => {
  const keep =
    '{"aep":"0.1","id":"k1",  "type":"progress.status","time":"2026-11-30T10:00:00Z","source":"aep://h/agent/d/session/s","agent":"d","session":"s","seq":0,"capture":"metadata","data":{"percent":1}}';
  const big = JSON.stringify(ev('tool.completed', 'full', { tool: { name: 'sh' }, result: 'x', n: 1 })).replace(
    '"n":1',
    '"n":12345678901234567890123',
  );
  const bad = JSON.stringify(ev('tool.completed', 'metadata', { tool: { name: 'sh' }, result: 'leak' }));
  const input = [keep, 'not json', big, bad].join('\r\n') + '\n';
  const dl = await runCli('aep', ['downlevel', '--ceiling', 'metadata', '-'], input);
  assert.equal(dl.code, 1);
  const out = dl.stdout.split('\n');
  assert.equal(out.length, 4);
  assert.equal(out[0], keep);
  assert.match(out[1]!, /"capture":"metadata","data":\{"tool":\{"name":"sh"\},"n":12345678901234567890123\}/);
  // the member above its declared level (aep/capture-level) is dropped, the line written
  assert.match(out[2]!, /"capture":"metadata","data":\{"tool":\{"name":"sh"\}\}\}$/);
  assert.match(dl.stderr, /:2:1 +error +jsonl\/invalid-json/);
  assert.match(dl.stderr, /:4:\d+ +error +aep\/capture-level/);
  assert.ok(!dl.stderr.includes('"leak"'));
  const again = await runCli('aep', ['downlevel', '--ceiling', 'metadata', '-'], input);
  assert.equal(again.stdout, dl.stdout, 'deterministic');
  const red = await runCli('aep', ['redact', '-'], keep + '\n');
  assert.equal(red.code, 0);
  assert.equal(red.stdout, keep + '\n');
  assert.equal((await runCli('aep', ['downlevel', '-'], keep)).code, 2, '--ceiling is required');
  const bom = await runCli('aep', ['downlevel', '--ceiling', 'full', '-'], `\ufeff${keep}\n${keep}\n`);
  assert.equal(bom.code, 1);
  // the mark is no part of its line (read as validate reads it): the run fails on it, the event is written
  assert.equal(bom.stdout, `${keep}\n${keep}\n`, 'a BOM is not written, its line is');
  const empty = await runCli('aep', ['redact', '-'], '');
  assert.equal(empty.code, 1);
  assert.match(empty.stderr, /jsonl\/empty-input/);
});

test('aep downlevel --ceiling metadata of the golden corpus validates clean, with no field above metadata', {
  skip: sharedAbsent(`${SHARED.aepCorpus}/golden/golden.jsonl`),
}, async () => {
  const r = await runCli('aep', ['downlevel', '--ceiling', 'metadata', GOLDEN]);
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stdout.trimEnd().split('\n');
  assert.equal(lines.length, readFileSync(GOLDEN, 'utf8').trimEnd().split('\n').length);
  for (const line of lines) {
    const e = JSON.parse(line) as { type: string; capture?: CaptureLevel; data?: unknown };
    const c = e.capture ?? 'metadata';
    assert.ok(CAPTURE_RANK[c] <= CAPTURE_RANK.metadata, `${e.type} at ${c}`);
    const tree = captureTreeFor(e.type);
    if (tree && e.data !== undefined) assert.deepEqual(captureViolations(e.data, tree, 'metadata'), [], e.type);
  }
  const v = await validate('aep', { text: r.stdout });
  assert.deepEqual(
    v.findings.filter((f) => f.severity !== 'info').map((f) => `${f.line} ${f.ruleId}`),
    [],
  );
});

test('fixtures: the corpus redaction folder passes in full; our downlevel cases pass', async (t) => {
  const ours = await runFixtures('aep', join(REPO, 'conformance', 'aep-capture'));
  assert.ok(ours.cases.length >= 100);
  assert.deepEqual(
    ours.cases.filter((c) => c.status !== 'pass').map((c) => c.id),
    [],
  );
  if (!needShared(t, `${SHARED.aepCorpus}/redaction`)) return;
  const up = await runFixtures('aep', CORPUS);
  const red = up.cases.filter((c) => c.group === 'redaction');
  assert.equal(red.length, 33);
  assert.deepEqual(
    red.filter((c) => c.status !== 'pass').map((c) => c.id),
    [],
  );
  assert.ok(!up.cases.some((c) => c.id === 'redaction/'), 'no longer "not run"');
});

test('the capture and bridge functions refuse what the commands refuse as aep/bridge-input: a TypeError naming it, no copy', async () => {
  const text = 'Prepare the release notes';
  const notEvents: Record<string, object> = {
    'AHP request': { jsonrpc: '2.0', id: '1', method: 'hooks/intercept', params: { event: { text } } },
    'AHP response': { jsonrpc: '2.0', id: '1', result: { text } },
    CloudEvents: { specversion: '1.0', id: 'c', source: 's', type: 'dev.aep.run.started', data: { prompt: text } },
    OTLP: { resourceLogs: [{ scopeLogs: [{ logRecords: [{ body: { stringValue: text } }] }] }] },
    OCSF: { class_uid: 6003, unmapped: { text } },
  };
  const calls: Record<string, (v: object) => unknown> = {
    downlevel: (v) => downlevel(v, 'none'),
    'downlevel --redact': (v) => downlevel(v, 'redacted', { redact: true }),
    redactEvent: (v) => redactEvent(v),
    toCloudEvent: (v) => toCloudEvent(v as Record<string, unknown>),
    toOcsf: (v) => toOcsf(v as Record<string, unknown>, { maxCapture: 'full' }),
  };
  for (const [kind, v] of Object.entries(notEvents)) {
    for (const [name, call] of Object.entries(calls))
      assert.throws(
        () => call(v),
        (e: unknown) =>
          e instanceof TypeError && /^the event is .*not an AEP event \(aep\/bridge-input\)$/.test(e.message),
        `${name} of ${kind}`,
      );
    // toOtlp refuses it as it refuses a value OTLP cannot hold: in `refused`, no record
    const o = toOtlp([v as Record<string, unknown>], { maxCapture: 'full' });
    assert.deepEqual(
      o.refused.map((r) => [r.index, r.pointer]),
      [[0, '']],
      kind,
    );
    assert.equal(o.counts.records, 0, kind);
    assert.ok(!JSON.stringify(o.request).includes(text), kind);
    // the commands refuse the same line
    const r = await runCli('aep', ['redact', '-'], `${JSON.stringify(v)}\n`);
    assert.equal(r.code, 1, kind);
    assert.match(r.stderr, /aep\/bridge-input/, kind);
  }
  // an AEP event still goes through all of them
  const ok = ev('run.started', 'full', { trigger: 'user', prompt: text });
  for (const call of Object.values(calls)) assert.doesNotThrow(() => call(ok));
});
