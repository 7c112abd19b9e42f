/** What a run takes and gives: its options and output hooks, its result and exit code, and its finding counter. */
import type { Finding, FindingSink, Severity } from '../core/finding.ts';
import { severityAtLeast } from '../core/finding.ts';
import { EXIT, type ExitCode } from '../core/exit.ts';
import { newStats } from '../core/pipeline.ts';
import type { RuleCrashError, ParsedEvent } from '../core/rule.ts';
import { FindingCounter, type Summary } from '../core/summary.ts';
import type { EventFacts } from '../core/event-facts.ts';
import type { StreamCheckOptions } from './stream-check.ts';

/** Options of one run, beyond the protocol's own. */
export interface RunOptions {
  strict?: boolean;
  /** `--max-findings`: hand at most this many findings on (the rest are counted). */
  maxFindings?: number;
  /** `--each` (true), `--no-each` (false), or the default per binding (src/core/pipeline.ts `streamGroups`). */
  each?: boolean;
  /** Throw the {@link RuleCrashError} of a rule that throws instead of reporting it. */
  failFast?: StreamCheckOptions['failFast'];
  /** Check each message alone against a named root, without stream rules (AHP). */
  single?: StreamCheckOptions['single'];
}

/** Where a run's output goes. */
export interface RunHooks {
  /** Each finding, in input order, after `--strict` and within `--max-findings`. */
  finding?(f: Finding): void;
  /** The end of one stream when the run has several (`--each`, several HTTP bodies). */
  streamEnd?(sources: readonly string[], summary: Summary): void;
  /** Bytes read so far and events checked so far, after each chunk. */
  progress?(bytes: number, events: number): void;
  /** Each event after its checks; `rejected` when its line has an error finding. */
  event?(ev: ParsedEvent, rejected: boolean): void;
  /** Each event's timeline facts (the protocol's `eventFacts`, envelope members only) after its checks: `--format html`. */
  facts?(facts: EventFacts): void;
  /** A rule threw (already reported as `internal/rule-error`): for a debug trace. */
  crash?(e: RuleCrashError): void;
  /** A promise to wait on before the next chunk (backpressure), or undefined; throw {@link RunStopped} to end. */
  ready?(): Promise<void> | undefined;
}

/** Thrown by {@link RunHooks.ready} to end a run early; the run then returns `stopped`, without end-of-stream verdicts. */
export class RunStopped extends Error {
  constructor() {
    super('the run was stopped: its output is closed');
  }
}

/** What a run ends with. */
export interface RunResult {
  summary: Summary;
  /** A rule or analyzer threw: some verdicts are missing (exit 2). */
  incomplete: boolean;
  worst: Severity | undefined;
  /** The run was stopped by {@link RunHooks.ready} before the end of its input (no end-of-stream verdicts). */
  stopped?: boolean;
}

/** The exit code of a run (README §Exit codes): 2 incomplete, 1 a finding at or above `failOn`, else 0. */
export function exitCodeOf(result: Pick<RunResult, 'incomplete' | 'worst'>, failOn: Severity): ExitCode {
  if (result.incomplete) return EXIT.incomplete;
  return result.worst !== undefined && severityAtLeast(result.worst, failOn) ? EXIT.findings : EXIT.ok;
}

/** Counts, `--strict` and `--max-findings` over `downstream`: the run's one finding counter. */
export function counterOf(
  downstream: FindingSink,
  options: { strict?: boolean; maxFindings?: number },
): FindingCounter {
  return new FindingCounter(downstream, options);
}

/** Count findings made elsewhere (the pin verbs check files) as a run would; the summary has no event statistics. */
export function tallyFindings(findings: Iterable<Finding>, finding: FindingSink): RunResult {
  const counter = counterOf(finding, {});
  for (const f of findings) counter.sink(f);
  return { summary: counter.summary(newStats()), incomplete: false, worst: counter.worst };
}
