/**
 * The capture verbs and `validate` agree on every secret (AEP-0001 §8.2; AEP-0003 §9 items 2, 4 and 5, §9.4): for a
 * generated secret of every detector class, in every position (a payload string, a nested member, the value of a
 * credential-named member, a metadata-level member, an extension attribute, `subject`, a URL's userinfo, a URL-encoded
 * query value with percent-encoded separators in either hex case, escaped twice or three times, `+` for a space with or
 * without an escape elsewhere, after a UTF-8 escape, valid or over-long), each line in
 * three JSON spellings (plain, `\u`-escaped letters, `\/`), at every declared capture:
 * - `validate` on the original reports every line below `full` with a content rule or a level rule (the secret is found,
 *   or its member is not allowed there);
 * - no line a capture verb writes below `full` (redact, downlevel at every ceiling, with and without --redact, convert to
 *   CloudEvents, OTLP and OCSF at every --max-capture) holds a byte run of the secret, raw or decoded.
 * `aep filter` is not a capture verb: it selects lines byte for byte and lowers nothing (README §Subscription filters).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { DetectorClass } from '../../src/core/secrets.ts';
import { runCli } from '../cli/helpers.ts';
import { SECRET_CLASSES } from '../secret-classes.ts';
import { TEST_SCALE } from '../scale.ts';
import { envelopeOf, LEVELS, placedEvent, redacting } from './secret-event.ts';

let seed = 20261207;
const rnd = (n: number): number => {
  seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
  return (seed >>> 8) % n;
};
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const UPPER_NUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const chars = (alphabet: string, n: number): string => {
  let s = '';
  for (let i = 0; i < n; i++) s += alphabet[rnd(alphabet.length)];
  return s;
};
const b64url = (s: string) => Buffer.from(s).toString('base64url');

/** A secret: its class, the text to place, and the bytes no output below `full` may hold. */
interface Shape {
  cls: DetectorClass;
  text: string;
  body: string;
}

/** One shape or more of every secret class, each with a fresh random body. */
function shapes(): Shape[] {
  const out: Shape[] = [];
  const add = (cls: DetectorClass, make: (b: string) => string, body: string) =>
    out.push({ cls, text: make(body), body });
  add('pem', (b) => `-----BEGIN RSA PRIVATE KEY-----\nMIIE${b}\nQUFB\n-----END RSA PRIVATE KEY-----`, chars(ALNUM, 40));
  add('aws-access-key', (b) => `AKIA${b}`, chars(UPPER_NUM, 16));
  add('bearer', (b) => `Authorization: Bearer ${b}`, chars(ALNUM, 28));
  add('assignment', (b) => `api_key=${b}`, chars(ALNUM, 24));
  add('assignment', (b) => `deploy with secret: "${b}" now`, chars(ALNUM, 24));
  add('jwt', (b) => `eyJ${b64url('{"alg":"HS256"}').slice(3)}.${b64url('{"sub":"x"}')}.${b}`, chars(ALNUM, 30));
  add('provider-token', (b) => `ghp_${b}`, chars(ALNUM, 36));
  add('provider-token', (b) => `xoxb-${b}`, chars(ALNUM, 30));
  add('aws-key-id', (b) => `ASIA${b}`, chars(UPPER_NUM, 16));
  const basic = Buffer.from(`deploy:${chars(ALNUM, 18)}`).toString('base64');
  add('authorization', (b) => `Authorization: Basic ${b}`, basic);
  const claims = b64url(JSON.stringify({ sub: chars(ALNUM, 24) }));
  add('jwt-unsigned', (b) => `${b64url('{"alg":"none"}')}.${b}`, claims);
  add('url-credentials', (b) => `postgres://admin:${b}@db.example:5432/app`, chars(ALNUM, 18));
  add('url-credentials', (b) => `redis://:${b}@cache.example:6379/0`, chars(ALNUM, 18));
  add('pin', (b) => `your pin: ${b}`, chars('0123456789', 12));
  add('secret-name', (b) => `AWS_SK=${b}`, chars(ALNUM, 40));
  add('secret-name', (b) => `export MYSQL_PWD='${b}'`, chars(ALNUM, 20));
  // a passphrase of several words inside prose: the whole of it, not its first word
  const words = () => Array.from({ length: 4 }, () => chars('abcdefghijklmnopqrstuvwxyz', 4 + rnd(4))).join(' ');
  add('assignment', (b) => `log in with password: ${b}. Then wait`, words());
  return out;
}

type Place = (s: Shape) => [type: string, data: unknown, envelope?: Record<string, unknown>];

/**
 * `text` as a URL-encoded query value: its separators (space, line breaks, `=&?/:@"',;` and brackets) written as
 * `%XY` in `hexCase`, `%` before each escape `times` over (2: `%253D`); `plus` writes a space as `+`.
 */
function encoded(text: string, hexCase: 'upper' | 'lower', times = 1, plus = false): string {
  return text.replace(/[\s=&?/:@"',;{}()[\]]/g, (c) => {
    if (c === ' ' && plus) return '+';
    const h = c.charCodeAt(0).toString(16).padStart(2, '0');
    return `%${'25'.repeat(times - 1)}${hexCase === 'upper' ? h.toUpperCase() : h}`;
  });
}

/** Where a secret stands in an event; the `named*` places hold the bare body under a credential's name. */
const PLACES: Readonly<Record<string, Place>> = {
  payload: (s) => ['run.started', { trigger: 'user', prompt: `run this ${s.text} now` }],
  fullMember: (s) => ['tool.requested', { tool: { name: 'sh' }, args: { cmd: s.text } }],
  nestedRedacted: (s) => ['tool.requested', { tool: { name: 'sh' }, args_redacted: { l: [{ d: [s.text] }] } }],
  nestedUnannotated: (s) => ['tool.requested', { tool: { name: 'sh' }, extra: { notes: [{ n: s.text }] } }],
  metadata: (s) => ['tool.requested', { tool: { name: s.text } }],
  vendorType: (s) => ['x.acme.progress.noted', { a: { b: [s.text] } }],
  extension: (s) => ['run.started', { trigger: 'user' }, { vendorx: s.text }],
  subject: (s) => ['run.started', { trigger: 'user' }, { subject: s.text }],
  namedRedacted: (s) => ['tool.requested', { tool: { name: 'sh' }, args_redacted: { password: s.body } }],
  namedMetadata: (s) => ['tool.requested', { tool: { name: 'sh' }, extra: { AWS_SK: s.body } }],
  namedExtension: (s) => ['run.started', { trigger: 'user' }, { acmepassword: s.body }],
  namedVendor: (s) => ['x.acme.progress.noted', { db: { secret_value: s.body } }],
  // percent-encoded separators: a redirect's query value in upper-case hex, a form in lower case with `+`, twice
  encodedRedirect: (s) => [
    'run.started',
    { trigger: 'user', prompt: `cb?next=%2Fhome%3Fq%3D${encoded(s.text, 'upper')}` },
  ],
  encodedForm: (s) => [
    'tool.requested',
    { tool: { name: 'sh' }, extra: { q: `a%3dx%26v%3d${encoded(s.text, 'lower', 1, true)}%26n%3d1` } },
  ],
  encodedTwice: (s) => [
    'x.acme.progress.noted',
    { a: [`login?next=%252Fcb%253Fv%253D${encoded(s.text, 'upper', 2)}`] },
  ],
  encodedThrice: (s) => [
    'tool.requested',
    { tool: { name: 'sh' }, extra: { q: `login?next=%25252fcb%25253fv%25253d${encoded(s.text, 'lower', 3)}` } },
  ],
  // a form's query with no escape at all: spaces and line breaks as `+`, pairs between plain `&`
  plusOnly: (s) => [
    'run.started',
    { trigger: 'user', prompt: `https://app.example/login?user=ann&${s.text.replace(/[ \n]/g, '+')}&lang=en` },
  ],
  // after an over-long UTF-8 escape (`%C0%AF`, a `/` no URL decoder reads as one) and a valid one (`%E2%80%94`)
  utf8Escapes: (s) => ['tool.requested', { tool: { name: 'sh' }, args_redacted: { u: `r%C0%AF${s.text}` } }],
  utf8Member: (s) => ['tool.requested', { tool: { name: `n%E2%80%94${s.text}` } }],
  // a credential's name over array items, and past the walks' recursion limit (1,024 levels; validate --max-depth)
  namedRedactedItems: (s) => ['tool.requested', { tool: { name: 'sh' }, args_redacted: { password: [s.body] } }],
  namedMetadataItems: (s) => ['tool.requested', { tool: { name: 'sh' }, extra: { AWS_SK: [[s.body]] } }],
  namedExtensionItems: (s) => ['run.started', { trigger: 'user' }, { acmepassword: [s.body] }],
  namedDeepMetadata: (s) => ['tool.requested', { tool: { name: 'sh' }, extra: deep(1100, { password: [s.body] }) }],
  namedDeepRedacted: (s) => [
    'tool.requested',
    { tool: { name: 'sh' }, args_redacted: deep(1100, { db_pass: s.body }) },
  ],
};

/** `v` under `n` levels of objects. */
function deep(n: number, v: unknown): unknown {
  let out = v;
  for (let i = 0; i < n; i++) out = { d: out };
  return out;
}

/** `json` with the first character of `part` written as a `\u` escape wherever `part` occurs. */
const uEscaped = (json: string, part: string): string =>
  json.split(part).join(`\\u${part.charCodeAt(0).toString(16).padStart(4, '0')}${part.slice(1)}`);

/** The three spellings of one event's line: plain, `\u`-escaped (opening and body), every `/` as `\/`. */
const spellings = (json: string, s: Shape): string[] => [
  json,
  uEscaped(uEscaped(json, s.body), s.text.slice(1, 4)),
  json.replaceAll('/', '\\/'),
];

/** One stream: the shape in every place, at every level, in every spelling; and which lines are at `full`. */
function streamOf(s: Shape, places: readonly Place[] = Object.values(PLACES)): { text: string; full: Set<number> } {
  const lines: string[] = [];
  const full = new Set<number>();
  for (const place of places)
    for (const capture of LEVELS) {
      const [type, data, envelope] = place(s);
      for (let k = 0; k < 3; k++) {
        const n = lines.length;
        const ev = placedEvent(n, type, data, envelope, capture);
        if (capture === 'full') full.add(n + 1);
        lines.push(spellings(JSON.stringify(ev), s)[k]!);
      }
    }
  return { text: `${lines.join('\n')}\n`, full };
}

/** The verbs, and whether a written line at capture `full` may keep the secret (verbatim by definition). */
const VERBS: readonly [args: string[], fullKeeps: boolean][] = [
  [['redact', '-'], true],
  [['redact', '--no-pii', '-'], true],
  ...(['none', 'metadata', 'redacted'] as const).flatMap((c): [string[], boolean][] => [
    [['downlevel', '--ceiling', c, '-'], false],
    [['convert', '--to', 'cloudevents', '--max-capture', c, '-'], false],
    [['convert', '--to', 'otlp', '--max-capture', c, '-'], false],
    [['convert', '--to', 'ocsf', '--max-capture', c, '-'], false],
  ]),
  [['downlevel', '--ceiling', 'redacted', '--redact', '-'], false],
  [['downlevel', '--ceiling', 'full', '-'], true],
  [['downlevel', '--ceiling', 'full', '--redact', '-'], true],
];

/** The capture a written line declares: an AEP event's, a CloudEvent's `aepcapture`; OTLP and OCSF: none kept. */
const captureOf = (line: string): string | undefined => {
  const v = JSON.parse(line) as Record<string, unknown>;
  return (v.capture ?? v.aepcapture) as string | undefined;
};

/** The parts of `body` no output may hold: every window of 12 (or the whole of a shorter body). */
function parts(body: string): string[] {
  const w = Math.min(12, body.length);
  const out: string[] = [];
  for (let i = 0; i + w <= body.length; i += 4) out.push(body.slice(i, i + w));
  return out;
}

// the rules that find a secret where it stands, or the member it stands in where its level does not allow it
const FINDS = /^aep\/(?:metadata-content|redaction-leak(?:-provider)?|capture-level|capture-none)$/;

const ALL = shapes();
// a quick run (test/scale.ts) takes every other shape; every class stays covered by the full run
const CHOSEN = TEST_SCALE === 'full' ? ALL : ALL.filter((s, i) => i % 2 === 0 || s.cls === 'secret-name');

test('the generated shapes cover every secret class of the detector', () => {
  assert.deepEqual(new Set(ALL.map((s) => s.cls)), new Set(SECRET_CLASSES));
});

test('validate on the original reports every line below full: the secret, or the member that holds it', async () => {
  for (const s of CHOSEN) {
    const { text, full } = streamOf(s);
    const r = await runCli('aep', ['validate', '--max-depth', '3000', '--format', 'json', '-'], text);
    const report = JSON.parse(r.stdout) as { findings: { ruleId: string; line?: number }[] };
    const found = new Set(report.findings.filter((f) => FINDS.test(f.ruleId)).map((f) => f.line));
    const lines = text.split('\n').length - 1;
    for (let line = 1; line <= lines; line++)
      if (!full.has(line)) assert.ok(found.has(line), `${s.cls} ${JSON.stringify(s.text)}: line ${line} not found`);
  }
});

test('no byte run of a secret of any class survives a capture verb below full, in any position and spelling', async () => {
  for (const s of CHOSEN) {
    const { text } = streamOf(s);
    for (const [args, fullKeeps] of VERBS) {
      const r = await runCli('aep', args, text);
      assert.ok(r.code === 0 || r.code === 1, `${args.join(' ')}: exit ${r.code}\n${r.stderr.slice(0, 500)}`);
      for (const line of r.stdout.split('\n')) {
        if (line === '') continue;
        const atFull = fullKeeps && captureOf(line) === 'full';
        // a `full` line keeps its payload verbatim; its envelope is read at every level by a redacting verb
        if (atFull && !redacting(args)) continue;
        const raw = atFull ? '' : line;
        const decoded = atFull ? envelopeOf(line) : JSON.stringify(JSON.parse(line)).replaceAll('\\/', '/');
        for (const part of parts(s.body))
          assert.ok(
            !raw.includes(part) && !decoded.includes(part),
            `${args.join(' ')} kept ${JSON.stringify(part)} of ${s.cls} ${JSON.stringify(s.text.slice(0, 50))}: ${line.slice(0, 400)}`,
          );
      }
    }
  }
});

/**
 * An email address or phone number: its plain text, its escaped spellings, a random part of it (written `\u`-escaped in
 * one JSON spelling), and what of it a redacted copy never keeps.
 */
interface PiiShape {
  cls: DetectorClass;
  plain: string;
  body: string;
  escaped: string[];
  kept: RegExp;
}

/** The PII classes (AEP-0003 §9.4 d), each with `@`, `+` and spaces escaped once, twice, three times, or `+` a space. */
function piiShapes(): PiiShape[] {
  const user = chars('abcdefghijklmnopqrstuvwxyz', 10);
  const [d3, d4] = [chars('0123456789', 3), chars('0123456789', 4)];
  return [
    {
      cls: 'email',
      plain: `${user}.x+tag@example.com`,
      body: user,
      escaped: [
        `${user}.x+tag%40example.com`,
        `${user}.x%2Btag%2540example.com`,
        `${user}.x%25252btag%252540example.com`,
      ],
      kept: new RegExp(user),
    },
    {
      cls: 'phone',
      plain: `+1 555 ${d3} ${d4}`,
      body: d3,
      escaped: [`%2B1%20555%20${d3}%20${d4}`, `%2b1+555+${d3}+${d4}`, `%252B1%2520555%2520${d3}%2520${d4}`],
      kept: new RegExp(`${d3}\\D{1,9}${d4}`),
    },
  ];
}

// a form's `+` with no escape anywhere is a space to the secret classes only: read so, a sum (`100+200+3000`) would be a
// phone number (README, secrets)
const PII_PLACES = Object.entries(PLACES)
  .filter(([k]) => k !== 'plusOnly')
  .map(([, p]) => p);

// the rules that find PII where it stands (a warning in a `redacted`-gated member), or its member where it is not allowed
const FINDS_PII = /^aep\/(?:metadata-content|redaction-leak-pii|capture-level|capture-none)$/;

test('an escaped email address or phone number gets the verdict of its plain spelling: validate, redact, downlevel', async () => {
  const verdicts = async (s: PiiShape, text: string): Promise<string[]> => {
    const stream = streamOf({ cls: s.cls, text, body: s.body }, PII_PLACES).text;
    const r = await runCli('aep', ['validate', '--format', 'json', '-'], stream);
    const report = JSON.parse(r.stdout) as { findings: { ruleId: string; line?: number }[] };
    const out = report.findings.filter((f) => FINDS_PII.test(f.ruleId)).map((f) => `validate ${f.line} ${f.ruleId}`);
    for (const args of [
      ['redact', '-'],
      ['downlevel', '--ceiling', 'metadata', '-'],
      ['redact', '--no-pii', '-'],
    ]) {
      const w = await runCli('aep', args, stream);
      w.stdout.split('\n').forEach((line, i) => {
        // every escape one non-digit, so that `555%20123` reads as `555 123` does
        const read = JSON.stringify(JSON.parse(line || '0')).replace(/%(?:25){0,2}[0-9A-Fa-f]{2}/g, '_');
        if (line !== '' && s.kept.test(read)) out.push(`${args.join(' ')} writes it in ${i + 1}`);
      });
    }
    return out.sort();
  };
  for (const s of piiShapes()) {
    const plain = await verdicts(s, s.plain);
    assert.ok(
      plain.some((v) => v.includes('redaction-leak-pii')) && plain.some((v) => v.includes('--no-pii - writes')),
    );
    for (const text of s.escaped) {
      const got = await verdicts(s, text);
      const only = (a: string[], b: string[]) => a.filter((v) => !b.includes(v));
      assert.deepEqual({ escaped: only(got, plain), plain: only(plain, got) }, { escaped: [], plain: [] }, text);
    }
  }
});
