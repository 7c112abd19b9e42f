/**
 * Lines that are no AEP events, through every stream verb (README §Share a log safely, §Bridges): what `validate` sets
 * aside as another format (AHP messages, CloudEvents, OTLP, OCSF) no verb writes, alone or among AEP lines, with the
 * one `aep/bridge-input` finding and one closing line; what `validate` fails as an event (an arbitrary object, an
 * array, a bad byte) every verb fails too and says so in the same words.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { runCli } from './helpers.ts';

/** User text that must not come out of any verb when it sits in a line of another format. */
const MARK = 'Prepare the release notes MARK-7f3a';
const AEP_LINES = readFileSync('examples/aep/session.jsonl', 'utf8')
  .split('\n')
  .filter((l) => l !== '');

/** Each kind of line `validate` sets aside, three lines of it, each holding {@link MARK}. */
const SET_ASIDE: Readonly<Record<string, readonly object[]>> = {
  'AHP request': [1, 2, 3].map((i) => ({
    jsonrpc: '2.0',
    id: `r${i}`,
    method: 'hooks/intercept',
    params: { event: { type: 'user.message.inbound', message: { text: MARK } } },
  })),
  'AHP response and notification': [
    { jsonrpc: '2.0', id: 'r1', result: { text: MARK } },
    { jsonrpc: '2.0', method: 'hooks/observe', params: { text: MARK } },
    { jsonrpc: '2.0', id: 'r2', error: { code: -32000, message: MARK } },
  ],
  CloudEvents: [1, 2, 3].map((i) => ({
    specversion: '1.0',
    id: `ce${i}`,
    source: 'urn:x',
    type: 'dev.aep.run.started',
    data: { prompt: MARK },
  })),
  OTLP: [1, 2, 3].map(() => ({ resourceLogs: [{ scopeLogs: [{ logRecords: [{ body: { stringValue: MARK } }] }] }] })),
  OCSF: [1, 2, 3].map(() => ({ class_uid: 6003, unmapped: { text: MARK } })),
};

/** Every stream verb, with the options that would write the most. */
const VERBS: readonly (readonly string[])[] = [
  ['redact'],
  ['downlevel', '--ceiling', 'full'],
  ['downlevel', '--ceiling', 'none'],
  ['convert', '--to', 'cloudevents'],
  ['convert', '--to', 'cloudevents', '--max-capture', 'none'],
  ['convert', '--to', 'otlp', '--max-capture', 'full'],
  ['convert', '--to', 'ocsf', '--max-capture', 'full'],
  ['filter', '--where', '{}'],
  ['filter', '--where', '{"type":["dev.aep.*","run.*"]}'],
];

const jsonl = (lines: readonly (object | string)[]): string =>
  lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n';
/** The stderr lines a verb writes of its own (not findings, the summary or its `by rule` lines). */
const ownLines = (stderr: string): string[] => stderr.split('\n').filter((l) => /^aep[ :]/.test(l));
const count = (text: string, re: RegExp): number => text.match(re)?.length ?? 0;
const outLines = (stdout: string): number => stdout.split('\n').filter((l) => l !== '').length;

test('every stream verb × every kind of line validate sets aside: nothing of it written, one finding, one closing line', async () => {
  const alone = new Map<string, number>();
  for (const verb of VERBS)
    alone.set(verb.join(' '), outLines((await runCli('aep', [...verb, '-'], jsonl(AEP_LINES))).stdout));
  for (const [kind, lines] of Object.entries(SET_ASIDE)) {
    const v = await runCli('aep', ['validate', '-'], jsonl(lines));
    assert.match(v.stdout + v.stderr, /0 events checked \(3 lines of another format not checked\)/, kind);
    for (const verb of VERBS) {
      // alone, and after and among AEP lines
      for (const mixed of [false, true]) {
        const input = mixed ? [AEP_LINES[0]!, lines[0]!, ...AEP_LINES.slice(1), ...lines.slice(1)] : lines;
        const r = await runCli('aep', [...verb, '-'], jsonl(input));
        const what = `${verb.join(' ')} of ${mixed ? 'AEP lines and ' : ''}${kind}`;
        assert.equal(r.code, 1, what);
        assert.ok(!r.stdout.includes('MARK-7f3a'), `${what} wrote the other format's text:\n${r.stdout}`);
        // the AEP lines are written as they are without the others
        assert.equal(outLines(r.stdout), mixed ? alone.get(verb.join(' ')) : 0, what);
        assert.equal(count(r.stderr, /error {2}aep\/bridge-input/g), 1, `${what}:\n${r.stderr}`);
        // not plain text: no hint to redact it as text
        assert.doesNotMatch(r.stderr, /redact\(text\)/, what);
        // collapsed as validate collapses it: no line of its own for each line set aside
        assert.equal(count(r.stderr, /^-:\d+: not/gm), 0, `${what}:\n${r.stderr}`);
        const closing = ownLines(r.stderr).filter((l) => /^aep \w+: \d+ lines? not written \(/.test(l));
        const written = outLines(r.stdout);
        assert.deepEqual(
          closing,
          [
            `aep ${verb[0]}: 3 lines not written (3 not AEP 0.1 events, aep/bridge-input or aep/version: see above); ${written} written`,
          ],
          `${what}:\n${r.stderr}`,
        );
      }
    }
  }
});

test('every stream verb fails what validate fails as an event (an object of no AEP shape, an array, a bad byte), in the same words', async () => {
  const cases: Record<string, string | Uint8Array> = {
    'an array': jsonl([[{ aep: '0.1', type: 'run.started', data: { prompt: MARK } }]]),
    'an array of strings': jsonl([[MARK]]),
    'invalid UTF-8': Buffer.concat([Buffer.from(`${AEP_LINES[0]}\n{"x":"`), Buffer.from([0xff]), Buffer.from('"}\n')]),
  };
  for (const [kind, input] of Object.entries(cases)) {
    const v = await runCli('aep', ['validate', '-'], input);
    assert.equal(v.code, 1, kind);
    const closings = new Set<string>();
    for (const verb of VERBS) {
      const r = await runCli('aep', [...verb, '-'], input);
      const what = `${verb.join(' ')} of ${kind}`;
      assert.equal(r.code, 1, what);
      assert.ok(!r.stdout.includes('MARK-7f3a'), what);
      const closing = ownLines(r.stderr).filter((l) => /^aep \w+: \d+ lines? not written \(/.test(l));
      assert.equal(closing.length, 1, `${what}:\n${r.stderr}`);
      // the same clause whichever verb read it
      closings.add(closing[0]!.replace(/^aep \w+: /, '').replace(/; \d+ written$/, ''));
    }
    assert.deepEqual([...closings], ['1 line not written (1 with error findings: see above)'], kind);
  }
  // an object validate checks as an event and fails: convert refuses it; redact and downlevel copy it at its level,
  // saying so (README §Lines with findings); filter selects and does not validate
  const obj = jsonl([{ foo: MARK }]);
  for (const verb of VERBS.filter((v) => v[0] !== 'filter')) {
    const r = await runCli('aep', [...verb, '-'], obj);
    assert.equal(r.code, 1, verb.join(' '));
    if (verb[0] === 'convert') assert.equal(r.stdout, '', verb.join(' '));
  }
});

test('AHP messages read with --from (validate, convert): one aep/bridge-input finding, not every bridge rule on every line', async () => {
  const lines = [...SET_ASIDE['AHP request']!, ...SET_ASIDE['AHP response and notification']!];
  for (const from of ['cloudevents', 'otlp', 'ocsf'])
    for (const verb of ['validate', 'convert']) {
      if (verb === 'convert' && from === 'ocsf') continue;
      const r = await runCli('aep', [verb, '--from', from, '-'], jsonl(lines));
      const what = `${verb} --from ${from}`;
      assert.equal(r.code, 1, what);
      const errors = (r.stdout + r.stderr).match(/ {2}error {2}\S+/g) ?? [];
      assert.deepEqual(errors, ['  error  aep/bridge-input'], `${what}:\n${r.stdout}${r.stderr}`);
      if (verb === 'convert') {
        assert.equal(r.stdout, '', what);
        assert.match(
          r.stderr,
          /; 5 more AHP lines not written \(JSON-RPC messages: check them with `ahp validate`\)/,
          what,
        );
      }
    }
});
