/**
 * No secret survives a capture verb (AEP-0001 §8.2; AEP-0003 §9 items 2, 4, 5): for every generated credential shape
 * in every placement (redacted-, full- and metadata-gated members, unannotated and deeply nested members, vendor `x.*`
 * payloads, `[metadata*]` prompts, `subject`, extension attributes, escaped and long strings) at every declared
 * capture, no line a verb writes below `full` holds a byte run of the secret: the verb redacts it, drops it with its
 * member, or refuses the line. Member names are out of scope (the upstream redaction corpus: keys are structural).
 * Also: bridge output is never passed through `redact`/`downlevel` unchanged, and `convert --from` refuses what
 * `validate --from` fails.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { runCli } from '../cli/helpers.ts';
import { runs } from '../scale.ts';
import { envelopeOf, LEVELS, placedEvent, redacting } from './secret-event.ts';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const UPPER_NUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const chars = (alphabet: string, n: number) =>
  fc.array(fc.constantFrom(...alphabet), { minLength: n, maxLength: n }).map((a) => a.join(''));
const b64url = (s: string) => Buffer.from(s).toString('base64url');

/** A credential shape: the text to place and its random body, the bytes no output below `full` may hold. */
interface Shape {
  text: string;
  body: string;
}

const SHAPES: fc.Arbitrary<Shape> = fc.oneof(
  chars(UPPER_NUM, 16).map((b) => ({ text: `AKIA${b}`, body: b })),
  chars(ALNUM, 28).map((b) => ({ text: `Authorization: Bearer ${b}`, body: b })),
  chars(ALNUM, 30).map((b) => ({
    text: `${'eyJ' + b64url('{"alg":"HS256"}').slice(3)}.${b64url('{"sub":"x"}')}.${b}`,
    body: b,
  })),
  chars(ALNUM, 40).map((b) => ({
    text: `-----BEGIN RSA PRIVATE KEY-----\nMIIE${b}\nQUFB\n-----END RSA PRIVATE KEY-----`,
    body: b,
  })),
  chars(ALNUM, 18).map((b) => ({ text: `postgres://admin:${b}@db.example:5432/app`, body: b })),
  chars(ALNUM, 18).map((b) => ({ text: `redis://:${b}@cache.example:6379/0`, body: b })),
  chars(ALNUM, 18).map((b) => ({ text: `password=${b}`, body: b })),
  chars(ALNUM, 24).map((b) => ({ text: `https://api.example/v1?access_token=${b}&page=2`, body: b })),
  chars(ALNUM, 36).map((b) => ({ text: `ghp_${b}`, body: b })),
  chars(ALNUM, 40).map((b) => ({ text: `lin_api_${b}`, body: b })),
  chars(ALNUM, 33).map((b) => ({ text: `https://api.telegram.org/bot7012345678:AA${b}/getMe`, body: b })),
  chars(ALNUM, 34).map((b) => ({ text: `az ad sp create-for-rbac: Xy_8Q~${b}`, body: b })),
  chars(ALNUM, 40).map((b) => ({ text: `aws configure set aws_secret_access_key ${b}`, body: b })),
  chars(ALNUM, 86).map((b) => ({ text: `DefaultEndpointsProtocol=https;AccountKey=${b}==;EndpointSuffix=x`, body: b })),
  // between percent-encoded separators: a redirect's encoded query, a form's lower-case hex and `+`
  chars(ALNUM, 30).map((b) => ({
    text: `cb?redirect=%2Fhome%3Fid_token%3D${'eyJ' + b64url('{"alg":"HS256"}').slice(3)}.${b64url('{"sub":"x"}')}.${b}`,
    body: b,
  })),
  chars(ALNUM, 36).map((b) => ({ text: `cb?next=%2Fhome%3Ftoken%3Dghp_${b}%26pw%3Dhunter2`, body: b })),
  chars(ALNUM, 18).map((b) => ({ text: `q%3dx%26password%3d${b}%26n%3d1`, body: b })),
  chars(ALNUM, 28).map((b) => ({ text: `h%3DBearer+${b}`, body: b })),
);

type Place = (s: string) => [type: string, data: unknown, envelope?: Record<string, unknown>];

/** Where a secret can stand in an event (member names excepted, see the module comment). */
const PLACES: Readonly<Record<string, Place>> = {
  redactedMember: (s) => ['run.started', { trigger: 'user', prompt: `run this ${s} now` }],
  fullMember: (s) => ['tool.requested', { tool: { name: 'sh' }, args: { cmd: s } }],
  nestedRedacted: (s) => ['tool.requested', { tool: { name: 'sh' }, args_redacted: { l: [{ d: [s] }] } }],
  metadataMember: (s) => ['tool.requested', { tool: { name: s } }],
  unknownMember: (s) => ['tool.requested', { tool: { name: 'sh' }, extra: { notes: [s] } }],
  unknownTop: (s) => ['session.ended', { reason: 'normal', note: `multi\nline ${s}\n` }],
  deep: (s) => {
    let v: unknown = s;
    for (let i = 0; i < 80; i++) v = i % 2 ? [v] : { a: v };
    return ['tool.requested', { tool: { name: 'sh' }, extra: v }];
  },
  vendorType: (s) => ['x.acme.thing', { a: { b: [s] } }],
  extension: (s) => ['run.started', { trigger: 'user' }, { vendorx: s }],
  subject: (s) => ['run.started', { trigger: 'user' }, { subject: s }],
  prompt: (s) => ['attention.requested', { kind: 'input', prompt: s }, { severity: 'notice' }],
  errorMessage: (s) => ['run.failed', { reason: 'x', error: { message: s } }],
  long: (s) => ['run.started', { trigger: 'user', prompt: `${'x '.repeat(40_000)}${s}` }],
};

/** One stream: the shape in every place at every level; the first character of the body `\u`-escaped in the text. */
function streamOf(shape: Shape): { text: string; full: number } {
  const lines: string[] = [];
  let n = 0;
  let full = 0;
  for (const place of Object.values(PLACES))
    for (const capture of LEVELS) {
      const [type, data, envelope] = place(shape.text);
      n++;
      if (capture === 'full') full++;
      const ev = placedEvent(n, type, data, envelope, capture);
      const c = shape.body[0]!;
      const esc = `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
      lines.push(
        JSON.stringify(ev)
          .split(shape.body)
          .join(esc + shape.body.slice(1)),
      );
    }
  return { text: `${lines.join('\n')}\n`, full };
}

/** The verbs and whether a written line at capture `full` may keep the secret (verbatim by definition). */
const VERBS: readonly [args: string[], fullKeeps: boolean][] = [
  [['redact', '-'], true],
  [['downlevel', '--ceiling', 'none', '-'], false],
  [['downlevel', '--ceiling', 'metadata', '-'], false],
  [['downlevel', '--ceiling', 'redacted', '-'], false],
  [['downlevel', '--ceiling', 'redacted', '--redact', '-'], false],
  [['convert', '--to', 'cloudevents', '--max-capture', 'metadata', '-'], false],
  [['convert', '--to', 'otlp', '-'], false],
  [['convert', '--to', 'ocsf', '-'], false],
];

/** The capture a written line declares: an AEP event's, a CloudEvent's `aepcapture`; OTLP and OCSF: none kept. */
const captureOf = (line: string): string | undefined => {
  const v = JSON.parse(line) as Record<string, unknown>;
  return (v.capture ?? v.aepcapture) as string | undefined;
};

test('no byte run of a secret survives a capture verb below full, in any placement and at any declared level', async () => {
  await fc.assert(
    fc.asyncProperty(SHAPES, async (shape) => {
      const { text, full } = streamOf(shape);
      for (const [args, fullKeeps] of VERBS) {
        const r = await runCli('aep', args, text);
        assert.ok(r.code === 0 || r.code === 1, `${args.join(' ')}: exit ${r.code}\n${r.stderr.slice(0, 500)}`);
        const lines = r.stdout.split('\n').filter((l) => l !== '');
        // what is written is checked: a lowered copy is repaired, not refused (every `full` event has its copy)
        if (args[0] === 'downlevel' && args[2] !== 'redacted')
          assert.ok(lines.length >= full, `${args.join(' ')} wrote ${lines.length} lines`);
        for (const line of lines) {
          const atFull = fullKeeps && captureOf(line) === 'full';
          // a `full` line keeps its payload verbatim; its envelope is read at every level by a redacting verb
          if (atFull && !redacting(args)) continue;
          const raw = atFull ? '' : line;
          const decoded = atFull ? envelopeOf(line) : JSON.stringify(JSON.parse(line));
          for (let i = 0; i + 12 <= shape.body.length; i += 6) {
            const part = shape.body.slice(i, i + 12);
            assert.ok(
              !raw.includes(part) && !decoded.includes(part),
              `${args.join(' ')} kept ${JSON.stringify(part)} of ${JSON.stringify(shape.text.slice(0, 60))}: ${line.slice(0, 400)}`,
            );
          }
        }
      }
    }),
    { numRuns: runs(24) },
  );
});

const CE = {
  specversion: '1.0',
  id: 'ev-1',
  source: 'aep://h/agent/a/session/s1',
  type: 'dev.aep.run.started',
  time: '2026-11-30T09:00:00.000Z',
  datacontenttype: 'application/json',
  aepversion: '0.1',
  aepagentid: 'a',
  aepsessionid: 's1',
  aepsequence: 0,
  aepcapture: 'redacted',
};

/** A session-scoped envelope from CE's source, without capture or data. */
const RUN_STARTED = {
  aep: '0.1',
  id: 'e1',
  type: 'run.started',
  time: CE.time,
  source: CE.source,
  agent: 'a',
  session: 's1',
  seq: 0,
};
const LEAKY = { trigger: 'user', prompt: 'run AKIAQ7VLM2XC9RTY4BNA now' };

test('bridge output and AHP lines through redact or downlevel are refused with aep/bridge-input, never written as they are', async () => {
  const lines = [
    JSON.stringify({ ...CE, data: LEAKY }),
    JSON.stringify({ ...CE, id: 'ev-2', data: LEAKY }),
    JSON.stringify({ jsonrpc: '2.0', method: 'x', params: { token: 'AKIAQ7VLM2XC9RTY4BNA' } }),
  ];
  for (const args of [
    ['redact', '-'],
    ['downlevel', '--ceiling', 'metadata', '-'],
    ['downlevel', '--ceiling', 'none', '-'],
  ]) {
    const r = await runCli('aep', args, `${lines.join('\n')}\n`);
    assert.equal(r.code, 1, args.join(' '));
    assert.equal(r.stdout, '', args.join(' '));
    assert.equal(r.stderr.match(/aep\/bridge-input {2}/g)?.length, 1, r.stderr);
    // one closing line for them all, as validate gives one finding (test/cli/capture-refuse.test.ts: every verb)
    assert.match(
      r.stderr,
      /: 3 lines not written \(3 not AEP 0.1 events, aep\/bridge-input or aep\/version: see above\); 0 written$/m,
    );
  }
});

test('convert --from refuses a record validate --from fails: a leak in data, in data_base64, in an OTLP body', async () => {
  const b64 = { ...CE, data_base64: Buffer.from(JSON.stringify(LEAKY)).toString('base64') };
  for (const ce of [{ ...CE, data: LEAKY }, b64]) {
    const line = `${JSON.stringify(ce)}\n`;
    const v = await runCli('aep', ['validate', '--from', 'cloudevents', '-'], line);
    assert.match(v.stderr + v.stdout, /aep\/redaction-leak/);
    const c = await runCli('aep', ['convert', '--from', 'cloudevents', '-'], line);
    assert.equal(c.code, 1);
    assert.equal(c.stdout, '');
    assert.match(c.stderr, /aep\/redaction-leak/);
  }
  // through OTLP: the event at `redacted` exported at --max-capture full, then read back
  const full = `${JSON.stringify({ ...RUN_STARTED, capture: 'full', data: LEAKY })}\n`;
  const otlp = await runCli('aep', ['convert', '--to', 'otlp', '--max-capture', 'full', '-'], full);
  const lowered = otlp.stdout.replace('{"stringValue":"full"}', '{"stringValue":"redacted"}');
  assert.notEqual(lowered, otlp.stdout);
  const back = await runCli('aep', ['convert', '--from', 'otlp', '--max-capture', 'full', '-'], lowered);
  assert.equal(back.code, 1);
  assert.equal(back.stdout, '');
  assert.match(back.stderr, /aep\/redaction-leak/);
});

test('a chained pipeline (convert --to otlp | convert --from otlp | redact | validate) leaves no secret and no finding', async () => {
  const input = `${JSON.stringify({ ...RUN_STARTED, capture: 'full', subject: 'AKIAQ7VLM2XC9RTY4BNA', data: LEAKY })}\n`;
  const otlp = await runCli('aep', ['convert', '--to', 'otlp', '-'], input);
  const back = await runCli('aep', ['convert', '--from', 'otlp', '-'], otlp.stdout);
  const red = await runCli('aep', ['redact', '-'], back.stdout);
  assert.ok(!`${otlp.stdout}${back.stdout}${red.stdout}`.includes('Q7VLM2XC9RTY4BNA'));
  assert.notEqual(red.stdout, '');
  const v = await runCli('aep', ['validate', '-'], red.stdout);
  assert.equal(v.code, 0, v.stdout + v.stderr);
});

test('rule (b): a configured secret value is replaced in metadata-level members too (redact, a lowering downlevel)', async () => {
  const value = 'zq7Vx9Lm2Pw4Kd';
  const ev = { ...RUN_STARTED, type: 'tool.requested' };
  const data = { tool: { name: `run ${value}` }, extra: value, args_redacted: { a: value } };
  const env = { NO_COLOR: '1', DEPLOY_KEY: value };
  for (const [capture, args] of [
    ['redacted', ['redact', '--secret-name', 'DEPLOY_KEY', '-']],
    ['metadata', ['redact', '--secret-name', 'DEPLOY_KEY', '-']],
    ['full', ['downlevel', '--ceiling', 'metadata', '--secret-name', 'DEPLOY_KEY', '-']],
  ] as const) {
    const d = capture === 'metadata' ? { tool: data.tool, extra: data.extra } : data;
    const r = await runCli('aep', [...args], `${JSON.stringify({ ...ev, capture, data: d })}\n`, { env });
    assert.equal(r.code, 0, r.stderr);
    assert.notEqual(r.stdout, '');
    assert.ok(!r.stdout.includes(value), `${capture} ${args[0]}: ${r.stdout}`);
  }
});

test('a repeated member: the copy the checks did not read is never written (redact, downlevel at every ceiling)', async () => {
  const head =
    '"aep":"0.1","id":"e1","time":"2026-11-30T09:00:00.000Z","source":"aep://h/agent/a/session/s1","agent":"a","session":"s1","seq":0';
  const key = 'AKIAQ7VLM2XC9RTY4BNA';
  const lines = [
    `{${head},"type":"run.started","capture":"redacted","data":{"trigger":"user","prompt":"${key}","prompt":"fine"}}`,
    `{${head},"type":"tool.requested","capture":"redacted","data":{"tool":{"name":"sh"},"args_redacted":{"k":"${key}","k":"ok"}}}`,
    `{${head},"type":"run.started","capture":"full","subject":"${key}","subject":"x","data":{"trigger":"user"}}`,
    `{${head},"type":"run.started","capture":"metadata","vendorx":"${key}","vendorx":"x","data":{"trigger":"user"}}`,
  ];
  for (const line of lines)
    for (const args of [
      ['redact', '-'],
      ...['none', 'metadata', 'redacted', 'full'].map((c) => ['downlevel', '--ceiling', c, '-']),
    ]) {
      const r = await runCli('aep', args, `${line}\n`);
      assert.equal(r.code, 1, `${args.join(' ')}: the repeated member is an error`);
      assert.notEqual(r.stdout, '', `${args.join(' ')}: the line is written (its checked copy)`);
      assert.ok(!r.stdout.includes(key), `${args.join(' ')} kept the earlier copy: ${r.stdout}`);
    }
});
