/** The library's reporters (as `validate --format` prints) and rule catalogue (`aep rules`, `ahp rules`). */
import type { Finding, Severity } from '../core/finding.ts';
import { checkObjectArg, checkReportOptions, described } from './check-options.ts';
import type { RuleMeta } from '../core/rule.ts';
import type { Summary } from '../core/summary.ts';
import { catalogueRows, type CatalogueRow } from '../report/catalogue.ts';
import { createReporter as makeReporter, type FormatName } from '../report/index.ts';
import type { Output, Reporter } from '../report/types.ts';
import { protocolDefinition, type Protocol } from './protocols.ts';
import { VERSION } from './version.ts';

/** Options of {@link formatReport} and {@link createReporter}. */
export interface ReportOptions {
  protocol: Protocol;
  /** `text`, `json`, `ndjson`, `sarif`, `junit`, `github` or `html` (as `--format`; html draws no timeline here: the library hands a reporter no events). */
  format: FormatName;
  /** ANSI colour in `text` (default false). */
  color?: boolean;
  /** The `--fail-on` threshold (default `error`): JUnit failures and `quiet`. */
  failOn?: Severity;
  /** Show only findings at or above `failOn` (text, github); the summary always appears. */
  quiet?: boolean;
  /** Input names in order (JUnit lists a suite for each, clean ones included). */
  sources?: readonly string[];
}

/** A streaming reporter writing to `output`: call `finding` per finding, then `finish(summary)` once. @throws TypeError for an unknown option or format. */
export function createReporter(output: Output, options: ReportOptions): Reporter {
  if (typeof (output as Partial<Output> | null)?.write !== 'function')
    throw new TypeError(
      `the output must have a write(text) method (a Writable, process.stdout), not ${described(output)}`,
    );
  checkReportOptions(options);
  const spec = protocolDefinition(options.protocol);
  const reporter = makeReporter(options.format, output, {
    protocol: spec.name,
    version: VERSION,
    color: options.color ?? false,
    ...(options.quiet !== undefined ? { quiet: options.quiet } : {}),
    ...(options.failOn !== undefined ? { failOn: options.failOn } : {}),
    rules: [...spec.rules()],
    ...(options.sources ? { sources: options.sources } : {}),
  });
  let n = 0;
  const finding = reporter.finding.bind(reporter);
  // the reporter itself, so its other members (event, inputSummary) stay; only a finding is checked first
  reporter.finding = (f) => {
    checkFinding(f, ++n);
    finding(f);
  };
  const finish = reporter.finish.bind(reporter);
  reporter.finish = (summary, ...end) => {
    checkSummary(summary);
    finish(summary, ...end);
  };
  return reporter;
}

const COUNTS = ['inputs', 'bytes', 'lines', 'events', 'errors', 'warnings', 'infos', 'omitted'] as const;
const isCount = (v: unknown) => Number.isSafeInteger(v) && (v as number) >= 0;
const isCounts = (v: unknown) =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && Object.values(v).every(isCount);

/**
 * A caller's summary has every member each format reads (a hand-built one too): the counts, `byRule`, and `coverage`
 * whole if present. @throws TypeError naming the first member missing or of another type
 */
function checkSummary(summary: unknown): asserts summary is Summary {
  checkObjectArg(summary, 'the summary (the one validate() returns)');
  const bad = (member: string, want: string) =>
    new TypeError(
      `the summary needs ${member} (${want}), not ${described(summary[member])}: pass the summary validate() returns, or one with every member of Summary`,
    );
  for (const member of COUNTS) if (!isCount(summary[member])) throw bad(member, '0 or a positive integer');
  for (const member of ['unchecked', 'documents'])
    if (summary[member] !== undefined && !isCount(summary[member])) throw bad(member, 'a count, or no member');
  if (!isCounts(summary.byRule)) throw bad('byRule', 'an object of counts by rule id, {} for none');
  const cov = summary.coverage as Record<string, unknown> | undefined;
  if (
    cov !== undefined &&
    !(isCounts(cov?.seen) && isCounts(cov?.unknown) && isCount(cov?.exercised) && isCount(cov?.known))
  )
    throw bad('coverage', '{ seen, exercised, known, unknown }, or no member');
}

const SEVERITIES: readonly unknown[] = ['error', 'warning', 'info'];

/**
 * A caller's finding has what every format needs (`ruleId`, `severity`, `message`); the rest is optional in every
 * format alike (a plain-JS caller's own finding may have no `spec` or `source`). @throws TypeError naming the member
 */
function checkFinding(f: unknown, n: number): asserts f is Finding {
  checkObjectArg(f, `finding ${n}`);
  const bad = (member: string, want: string) =>
    new TypeError(`finding ${n} needs ${member} (${want}), not ${described(f[member])}`);
  if (typeof f.ruleId !== 'string' || f.ruleId === '') throw bad('ruleId', 'a rule id string');
  if (!SEVERITIES.includes(f.severity)) throw bad('severity', '"error", "warning" or "info"');
  if (typeof f.message !== 'string') throw bad('message', 'a string');
  for (const member of ['spec', 'source', 'pointer', 'messageId'])
    if (f[member] !== undefined && typeof f[member] !== 'string') throw bad(member, 'a string, or no member');
}

/**
 * Render `findings` and `summary` (from {@link validate}, or one of your own with every {@link Summary} member) as one
 * report text. @throws TypeError for an unknown option, a finding or summary member missing or of another type
 */
export function formatReport(findings: Iterable<Finding>, summary: Summary, options: ReportOptions): string {
  if (typeof (findings as Partial<Iterable<Finding>> | null)?.[Symbol.iterator] !== 'function')
    throw new TypeError(`the findings must be an iterable (the array validate() returns), not ${described(findings)}`);
  checkSummary(summary);
  const parts: string[] = [];
  const reporter = createReporter({ write: (s) => void parts.push(s) }, options);
  for (const f of findings) reporter.finding(f);
  reporter.finish(summary);
  return parts.join('');
}

/** One rule of a catalogue: id, default severity, one-sentence description, spec citation. */
export type RuleInfo = RuleMeta;

/** Every rule `protocol` can report (framing rules first), as `aep rules` / `ahp rules` list them. */
export function rules(protocol: Protocol): RuleInfo[] {
  return [...protocolDefinition(protocol).rules()];
}

/** The catalogue as `rules --format json` prints it (with the spec link where known). */
export function ruleCatalogue(protocol: Protocol): CatalogueRow[] {
  return catalogueRows(rules(protocol), protocol);
}
