/**
 * Text output on a terminal (`width` set): every finding fits the width, nothing is lost (the
 * words of the location, severity, rule, pointer, sentence and citation all appear, in order),
 * the rule id is never dimmed, and a finding made at the end about an earlier line is announced.
 * Piped (no width), a finding stays one line (test/report/golden.test.ts pins those bytes).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { Finding } from '../../src/core/finding.ts';
import { textReporter, wrappedFinding } from '../../src/report/text.ts';
import { runCli } from '../cli/helpers.ts';
import { runs } from '../scale.ts';

const word = fc.stringMatching(/^[a-zA-Z0-9§./`"():-]{1,30}$/);
const sentence = fc.array(word, { minLength: 1, maxLength: 40 }).map((w) => w.join(' '));

test('a wrapped finding fits its width and keeps every word in order', () => {
  fc.assert(
    fc.property(
      word,
      fc.option(word, { nil: undefined }),
      sentence,
      sentence,
      fc.integer({ min: 1, max: 200 }),
      (source, pointer, message, spec, width) => {
        const f: Finding = {
          ruleId: 'aep/some-rule',
          severity: 'warning',
          message,
          spec,
          source,
          line: 3,
          column: 7,
          ...(pointer ? { pointer: `/${pointer}` } : {}),
        };
        const out = wrappedFinding(f, width);
        const w = Math.max(width, 40);
        for (const line of out.slice(0, -1).split('\n'))
          assert.ok(line.length <= w, `${line.length} > ${w}: ${JSON.stringify(line)}`);
        const squash = (s: string) => s.replace(/\s+/g, '');
        assert.equal(
          squash(out),
          squash(`${source}:3:7 warning aep/some-rule ${pointer ? `/${pointer}` : ''} ${message} [${spec}]`),
        );
      },
    ),
    { numRuns: runs(300) },
  );
});

test('on a terminal: findings wrapped to the columns, rule ids not dimmed; piped: one line each', async () => {
  const tty = await runCli('ahp', ['validate', 'examples/ahp/session-broken.jsonl'], '', {
    stdoutIsTTY: true,
    columns: 72,
    env: { FORCE_COLOR: '1' },
  });
  // eslint-disable-next-line no-control-regex
  const plain = tty.stdout.replace(/\x1b\[[0-9;]*m/g, '');
  for (const line of plain.split('\n')) assert.ok([...line].length <= 72, JSON.stringify(line));
  assert.match(
    plain,
    /^examples\/ahp\/session-broken\.jsonl:1:104 {2}error {2}jsonl\/carriage-return\n {4}Line ends with CRLF/m,
  );
  const heads = tty.stdout.split('\n').filter((l) => l.includes('session-broken.jsonl:'));
  assert.equal(heads.length, 20);
  for (const l of heads) assert.doesNotMatch(l, /\x1b\[2m(jsonl|ahp)\//, `a rule id is dimmed: ${JSON.stringify(l)}`);
  assert.match(
    plain,
    /found later in the input, about earlier lines:\nexamples\/ahp\/session-broken\.jsonl:13:1 {2}info {2}ahp\/open-at-end/,
  );
  const piped = await runCli('ahp', ['validate', 'examples/ahp/session-broken.jsonl']);
  const findings = piped.stdout.split('\n').filter((l) => l.startsWith('examples/'));
  assert.equal(findings.length, 20);
  for (const l of findings) assert.match(l, /^\S+:\d+:\d+ {2}(error|warning|info) {2}\S+ {2}.+ {2}\[[^\]]+\]$/);
  assert.doesNotMatch(piped.stdout, /found later in the input/);
});

test('the rule id is plain text in colour output (not dimmed)', () => {
  let out = '';
  const r = textReporter({ write: (s) => void (out += s) }, { protocol: 'aep', version: '0', color: true });
  r.finding({ ruleId: 'aep/x', severity: 'error', message: 'm', spec: 's', source: 'a', line: 1, column: 1 });
  r.finish({ inputs: 1, bytes: 0, lines: 1, events: 1, errors: 1, warnings: 0, infos: 0, byRule: {}, omitted: 0 });
  assert.match(out, /error\x1b\[\d+m\x1b\[\d+m {2}aep\/x {2}m/);
});

test('on a terminal the summary lines wrap as the by-rule line does; piped they stay one line', () => {
  const summary = {
    inputs: 3,
    bytes: 0,
    lines: 13,
    events: 11,
    unchecked: 2,
    errors: 7,
    warnings: 0,
    infos: 2,
    byRule: { 'aep/bridge-input': 2, 'aep/open-at-end': 2, 'jsonl/invalid-json': 5 },
    omitted: 0,
  };
  const run = (width?: number) => {
    let out = '';
    const r = textReporter(
      { write: (s) => void (out += s) },
      { protocol: 'aep', version: '0', color: false, ...(width ? { width } : {}) },
    );
    r.inputSummary?.('a-rather-long-input-name-for-one-of-the-three-inputs.jsonl', summary);
    r.finish(summary);
    return out;
  };
  const wrapped = run(80);
  for (const line of wrapped.split('\n')) assert.ok([...line].length <= 80, JSON.stringify(line));
  assert.match(
    wrapped,
    /^✖ 3 inputs: 11 events checked \(2 lines of another format not checked\), 7 errors,\n {2}0 warnings, 2 infos$/m,
  );
  const piped = run();
  assert.match(
    piped,
    /^✖ 3 inputs: 11 events checked \(2 lines of another format not checked\), 7 errors, 0 warnings, 2 infos$/m,
  );
  assert.equal(wrapped.replace(/\s+/g, ' '), piped.replace(/\s+/g, ' '));
});
