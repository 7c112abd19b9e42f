/**
 * A bridge keeps the verdict (issue 37 item 4): over every case of conformance/aep/ (pass and fail, the framing cases
 * included) and every capture ceiling, `aep convert --to otlp|cloudevents` refuses exactly the lines `aep validate`
 * fails, with those findings on stderr (4b), and `aep validate --from` of what it wrote finds nothing plain `validate`
 * does not, at the same input line (4a): no new error or warning; an info ("cannot verify") where the bridge left a
 * fact unknown (a payload withheld at the ceiling, a refused line). Bridge rules are not expected on a converted stream.
 * Exceptions, each said where it is allowed: a failing rule that moves to the next event ({@link LACK}, `failing`), and
 * a values rule that a down-leveling hop turns into the missing-entry rule ({@link MOVED}).
 */
import { isSetAside } from '../../src/aep/bridges/hint.ts';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import type { AepCaptureLevel } from '../../src/aep/schema/registry.ts';
import type { Finding } from '../../src/core/finding.ts';
import { validate } from '../../src/index.ts';
import { runCli } from '../cli/helpers.ts';
import { sweep } from '../scale.ts';

const DIR = 'conformance/aep/';
const CASES = [
  ...(['pass', 'fail'] as const).flatMap((g) =>
    readdirSync(DIR + g)
      .filter((n) => n.endsWith('.jsonl') && !/\.(ce|otlp)\.jsonl$/.test(n))
      .sort()
      .map((n) => `${DIR}${g}/${n}`),
  ),
  'examples/aep/session.jsonl',
  'examples/aep/session-broken.jsonl',
];
/**
 * Rules about what a stream lacks: a line convert refused (one validate fails) is absent from its output, so a request
 * whose terminal was refused is open there (the broken example's attention.resolved with a negative latency). Allowed
 * only where convert refused a line; the refused line's own findings are on convert's stderr.
 */
const LACK = new Set(['aep/ended-with-open-attention', 'aep/attention-request-missing', 'aep/run-terminal']);
const CEILINGS: AepCaptureLevel[] = ['none', 'metadata', 'redacted', 'full'];
/**
 * What a down-leveling hop (the CloudEvents `--max-capture`) changes, the verdict kept (README "A bridge keeps the
 * verdict"). A hop down-leveling an answer below `redacted` drops a value its field's type does not make structural (AEP-0006
 * values gating: only number, boolean and closed-select ids stay at metadata), so a required field answered with an
 * ill-typed value arrives without its entry: the values verdict stays, as the missing-entry rule at the same line
 * (README "A bridge keeps the verdict").
 */
const MOVED: Readonly<Record<string, readonly string[]>> = {
  // the CloudEvents hop down-levels both copies of an id to where they agree (a `full` one mechanically to `metadata`,
  // AEP-0001 §8.2(e)): the redacted copy's provenance, which plain validate could not decide, is no longer in the stream
  'aep/redelivery': ['aep/id-unverifiable'],
  'aep/respond-values-required': ['aep/respond-values-type', 'aep/respond-values-choice'],
  'aep/form-values-required': ['aep/form-values-type', 'aep/form-values-choice'],
};
const key = (f: Finding, line = f.line) => `${f.ruleId}@${line ?? '*'}`;

/**
 * Plain `validate`'s findings and the lines it fails (an error finding at a line). A byte order mark is an error about
 * the bytes, not the event after it: the stream verbs write that event (README, the BOM in the stream verbs).
 */
async function plain(file: string): Promise<{ findings: Finding[]; failed: Set<number> }> {
  const findings = (await validate('aep', { bytes: readFileSync(file), source: file })).findings;
  const fails = (f: Finding) => f.severity === 'error' && f.line !== undefined && f.ruleId !== 'jsonl/bom';
  return { findings, failed: new Set(findings.filter(fails).map((f) => f.line!)) };
}

/** What one `convert` then `validate --from` adds to plain `validate`: problems, as sentences. */
async function check(file: string, to: 'otlp' | 'cloudevents', max: AepCaptureLevel | undefined): Promise<string[]> {
  const p = await plain(file);
  const args = ['convert', '--to', to, ...(max ? ['--max-capture', max] : []), file];
  const conv = await runCli('aep', args);
  const problems: string[] = [];
  // 4b: every line plain validate fails is refused, with its findings on stderr
  for (const f of p.findings.filter((x) => x.severity === 'error' && x.line !== undefined))
    if (!conv.stderr.includes(`${file}:${f.line}${f.column === undefined ? '' : ':' + f.column}  error  ${f.ruleId}`))
      problems.push(`convert's stderr lacks ${key(f)}`);
  // the lines written: every JSON line plain validate passes, less those the bridge refused (said on stderr) and those
  // it set aside
  const refused = new Set([...conv.stderr.matchAll(/^.+?:(\d+): not converted/gm)].map((m) => Number(m[1])));
  const text = readFileSync(file, 'utf8');
  // a binary input is refused whole (jsonl/binary-input at its line 1): none of its lines is read
  const binary = p.findings.some((f) => f.ruleId === 'jsonl/binary-input');
  // a line of another format (bridge output, an AHP message) validate sets aside unchecked: not written either
  const setAside = (l: string) => {
    try {
      return isSetAside(JSON.parse(l));
    } catch {
      return false;
    }
  };
  const lines = text.split('\n');
  const candidates = lines
    .map((_, i) => i + 1)
    .filter(
      (n) => !binary && !p.failed.has(n) && !refused.has(n) && lines[n - 1]!.trim() !== '' && !setAside(lines[n - 1]!),
    );
  const out = conv.stdout === '' ? [] : conv.stdout.trimEnd().split('\n');
  if (out.length !== candidates.length) {
    problems.push(`convert wrote ${out.length} lines, ${candidates.length} pass validate and were not refused`);
    return problems;
  }
  if (out.length === 0) return problems;
  const opts = to === 'otlp' ? { from: to, maxCapture: max ?? 'metadata' } : { from: to };
  const back = (await validate('aep', { text: conv.stdout, source: 'converted' }, opts)).findings;
  const had = new Set(p.findings.map((f) => key(f)));
  // a rule plain validate reports as an error may move to the next event when its line is refused (an answer caused
  // by an accepted invalid respond, once its accept is refused): the case keeps its rule
  const failing = new Set(p.findings.filter((f) => f.severity === 'error').map((f) => f.ruleId));
  for (const f of back) {
    const line = f.line === undefined ? undefined : candidates[f.line - 1];
    if (had.has(key(f, line)) || failing.has(f.ruleId)) continue;
    if (LACK.has(f.ruleId) && p.failed.size + refused.size > 0) continue;
    if (MOVED[f.ruleId]?.some((r) => had.has(`${r}@${line ?? '*'}`))) continue;
    if (f.severity === 'info' && !f.ruleId.startsWith('aep/ce-') && !f.ruleId.startsWith('aep/otlp-')) continue;
    problems.push(`validate --from ${to} adds ${f.severity} ${key(f, line)}: ${f.message}`);
  }
  return problems;
}

for (const to of ['otlp', 'cloudevents'] as const) {
  const ceilings: Array<AepCaptureLevel | undefined> = to === 'otlp' ? CEILINGS : [undefined, ...CEILINGS];
  test(`convert --to ${to} then validate --from ${to}, every case and ceiling: the refusals of validate, nothing new`, async (t) => {
    assert.ok(CASES.length > 150);
    const problems: string[] = [];
    for (const file of sweep(t, CASES))
      for (const max of ceilings)
        for (const p of await check(file, to, max)) problems.push(`${file} (max capture ${max ?? 'not set'}): ${p}`);
    assert.deepEqual(problems, []);
  });
}
