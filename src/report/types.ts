/** Reporters render findings or case verdicts; they never decide exit codes nor touch the process. */
import type { CheckOutcome } from '../core/check-outcome.ts';
import type { Finding, Severity } from '../core/finding.ts';
import type { RuleMeta } from '../core/rule.ts';
import type { Summary } from '../core/summary.ts';
import type { CaseResult, FixtureSummary } from '../core/fixture-result.ts';
import type { EventFacts } from '../core/event-facts.ts';

/** Where a reporter writes. */
export interface Output {
  write(chunk: string): void;
  /** A promise to wait on while what was written is not drained (a slow reader), else undefined. */
  ready?(): Promise<void> | undefined;
  /** True once the reader went away (a closed pipe): nothing more is written. */
  closed?(): boolean;
}

/** Context a reporter may need. */
export interface ReportContext {
  protocol: string;
  /** What produced the findings, as JSON reports name it (`kind`): `validate` (default), `pin-verify`, `pin-refresh` or `live`. */
  kind?: 'validate' | 'pin-verify' | 'pin-refresh' | 'live';
  /** `aep live`: what became of each check (text lists them, json and sarif carry them, junit a testcase each). */
  checks?: readonly CheckOutcome[];
  version: string;
  color: boolean;
  /** Print only what is at or above `failOn` (fixtures: failing cases); the summary always. */
  quiet?: boolean;
  /** The `--fail-on` threshold (default `error`): decides JUnit failures and `--quiet`. */
  failOn?: Severity;
  /** The protocol's rule catalogue (SARIF `tool.driver.rules`). */
  rules?: readonly RuleMeta[];
  /** Input names in the order given (`<stdin>` for standard input): JUnit suites for clean inputs. */
  sources?: readonly string[];
  /** Terminal columns when text goes to a terminal (each finding wrapped); absent: one finding per line. */
  width?: number;
  /** Findings json, sarif and junit hold in memory before sorting them through a temporary file (src/report/spool.ts; tests lower it). */
  memoryFindings?: number;
  /** The protocol's known event types (html: the types of an input not exercised). */
  knownTypes?: readonly string[];
  /** GITHUB_WORKSPACE and the working directory, when the former is set (github `file` paths). */
  githubWorkspace?: { root: string; cwd: string };
  /** The html timeline's bounds (src/report/timeline.ts; tests lower them). */
  timelineLimits?: { keepAll?: number; maxEvents?: number; context?: number };
}

/** How the run ended (SARIF `invocations[].exitCode`): the command's exit code (README §Exit codes). */
export interface RunEnd {
  exitCode: number;
}

/** A streaming reporter for `validate`: `finding` as they come, `finish` once at the end. */
export interface Reporter {
  /** Each event's timeline facts (RunHooks.facts), for a reporter that draws events (html); others leave it out. */
  event?(facts: EventFacts): void;
  finding(f: Finding): void;
  /** `--each`: one input's own summary, after its findings (reporters without a per-input line omit it). */
  inputSummary?(source: string, summary: Summary): void;
  finish(summary: Summary, end?: RunEnd): void;
}

/** A reporter for `fixtures`: one verdict per case as cases complete, `finish` once at the end. */
export interface FixtureReporter {
  caseResult(c: CaseResult): void;
  finish(summary: FixtureSummary, end?: RunEnd): void;
}
