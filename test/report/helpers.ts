/**
 * Fixed inputs for the reporter tests: a small set of findings and fixture verdicts whose
 * messages exercise escaping (`%`, `,`, `:`, newlines, `<&>"'`), rendered through the real
 * reporters into a string. Independent of rule wording, so goldens change only when a
 * reporter does.
 */
import { readFileSync } from 'node:fs';
import type { Finding } from '../../src/core/finding.ts';
import type { RuleMeta } from '../../src/core/rule.ts';
import type { Summary } from '../../src/core/summary.ts';
import type { CaseResult, FixtureSummary } from '../../src/core/fixture-result.ts';
import {
  createFixtureReporter,
  createReporter,
  type FixtureFormatName,
  type FormatName,
} from '../../src/report/index.ts';
import type { ReportContext } from '../../src/report/types.ts';

/** `<repo>/` resolved from this file. */
export const REPO_DIR = new URL('../../', import.meta.url);

/** A small rule catalogue. */
export const RULES: RuleMeta[] = [
  {
    id: 'aep/time-format',
    severity: 'error',
    description: 'The time attribute is an RFC 3339 date-time with an offset.',
    spec: 'AEP-0001 §5.1',
  },
  {
    id: 'aep/type-reserved',
    severity: 'warning',
    description: 'The type is reserved and has no payload definition yet.',
    spec: 'AEP-0002 §6',
  },
  {
    id: 'jsonl/no-final-newline',
    severity: 'info',
    description: 'The last line is not terminated by a newline.',
    spec: 'AEP-0003 §3.1',
  },
  {
    id: 'jsonl/empty-input',
    severity: 'error',
    description: 'The input holds no event at all.',
    spec: 'agent-conformance limits',
  },
];

/** Findings in a deliberately unsorted order, over two inputs and stdin. */
export const FINDINGS: Finding[] = [
  {
    ruleId: 'aep/type-reserved',
    severity: 'warning',
    message: 'Type "message.delta" is reserved: 100% <draft>, see "A&B".',
    spec: 'AEP-0002 §6',
    source: 'logs/a b.jsonl',
    line: 4,
    column: 30,
    byteOffset: 410,
    pointer: '/type',
  },
  {
    ruleId: 'aep/time-format',
    severity: 'error',
    message: 'Line one,\nline two: time is not RFC 3339.',
    spec: 'AEP-0001 §5.1',
    source: 'logs/a b.jsonl',
    line: 2,
    column: 101,
    byteOffset: 150,
    pointer: '/time',
  },
  {
    ruleId: 'aep/time-format',
    severity: 'error',
    message: "It's wrong again.",
    spec: 'AEP-0001 §5.1',
    source: 'logs/a b.jsonl',
    line: 3,
    column: 99,
    byteOffset: 280,
    pointer: '/time',
  },
  {
    ruleId: 'jsonl/no-final-newline',
    severity: 'info',
    message: 'The last line is not terminated by a newline (it is still checked).',
    spec: 'AEP-0003 §3.1',
    source: 'logs/a b.jsonl',
    line: 5,
    byteOffset: 520,
  },
  {
    ruleId: 'jsonl/empty-input',
    severity: 'error',
    message: 'Input is empty: there is no message to check.',
    spec: 'agent-conformance limits',
    source: '<stdin>',
    byteOffset: 0,
  },
];

/** Inputs in the order given. */
export const SOURCES = ['logs/a b.jsonl', 'clean.jsonl', '<stdin>'];

/** The summary that goes with {@link FINDINGS}. */
export const SUMMARY: Summary = {
  inputs: 3,
  bytes: 700,
  lines: 9,
  events: 8,
  errors: 3,
  warnings: 1,
  infos: 1,
  byRule: { 'aep/time-format': 2, 'aep/type-reserved': 1, 'jsonl/empty-input': 1, 'jsonl/no-final-newline': 1 },
  coverage: {
    seen: { 'run.started': 2, 'session.started': 1 },
    exercised: 2,
    known: 46,
    unknown: { 'message.delta': 1 },
  },
  omitted: 0,
};

/** One case of each status. */
export const CASES: CaseResult[] = [
  {
    id: 'golden/golden.jsonl',
    group: 'golden',
    status: 'pass',
    file: 'corpus/golden/golden.jsonl',
    expected: 'accepted',
    actual: 'accepted (64 events)',
  },
  {
    id: 'invalid/seq, regression',
    group: 'invalid',
    status: 'fail',
    file: 'corpus/invalid/cases.json',
    line: 12,
    expected: 'rejected (AEP-0001 §7.2)',
    actual: 'accepted',
    detail: 'No finding at or above error for this 2-event stream; the rejection needs a cross-event (stream) rule.',
    findings: [FINDINGS[3]!],
  },
  {
    id: 'invalid/known one',
    group: 'invalid',
    status: 'deviation',
    file: 'corpus/invalid/cases.json',
    line: 20,
    expected: 'rejected',
    actual: 'accepted',
    deviationReason: 'A-1: identical redelivery is legal.',
  },
  {
    id: 'http.absent.valid',
    group: 'http-json',
    status: 'skip',
    file: 'draft/http/absent.valid.json',
    detail: 'Case file is absent from this copy of the corpus; skipped, not passed.',
  },
  {
    id: 'ce-roundtrip/',
    group: 'not-run',
    status: 'not-run',
    file: 'corpus/ce-roundtrip',
    detail: 'Not run: CloudEvents bridge round trip (AEP-0005) is outside what aep validate checks.',
  },
  {
    id: 'fail/x.jsonl',
    group: 'fail',
    status: 'error',
    file: 'conformance/aep/fail/x.jsonl',
    expected: 'a sidecar',
    detail: 'Fail case has no sidecar conformance/aep/fail/x.expected.json listing its expected findings.',
  },
];

/** The fixture summary that goes with {@link CASES}. */
export const FIXTURE_SUMMARY: FixtureSummary = {
  dir: 'corpus',
  layout: 'aep-corpus',
  total: 6,
  counts: { pass: 1, fail: 1, deviation: 1, skip: 1, 'not-run': 1, error: 1 },
  findings: { ...SUMMARY, inputs: 2, byRule: { 'jsonl/no-final-newline': 1 }, errors: 0, warnings: 0, infos: 1 },
  startedAt: '2026-01-01T00:00:00.000Z',
  finishedAt: '2026-01-01T00:00:01.000Z',
};

const CTX: ReportContext = {
  protocol: 'aep',
  version: '0.0.0-test',
  color: false,
  failOn: 'error',
  rules: RULES,
  sources: SOURCES,
};

/** Render the validate report of the fixed input in `format`. */
export function renderValidate(
  format: FormatName,
  ctx: Partial<ReportContext> = {},
  findings: readonly Finding[] = FINDINGS,
  summary: Summary = SUMMARY,
): string {
  let s = '';
  const r = createReporter(format, { write: (c) => void (s += c) }, { ...CTX, ...ctx });
  for (const f of findings) r.finding(f);
  r.finish(summary);
  return s;
}

/** Render the fixtures report of the fixed cases in `format`. */
export function renderFixtures(format: FixtureFormatName, ctx: Partial<ReportContext> = {}): string {
  let s = '';
  const r = createFixtureReporter(format, { write: (c) => void (s += c) }, { ...CTX, ...ctx });
  for (const c of CASES) r.caseResult(c);
  r.finish(FIXTURE_SUMMARY);
  return s;
}

/** Read a JSON file of the repository. */
export function readRepoJson(rel: string): unknown {
  return JSON.parse(readFileSync(new URL(rel, REPO_DIR), 'utf8'));
}
