/** The library's fixture runner: a fixture directory checked as `aep fixtures DIR` / `ahp fixtures DIR` do. */
import { abortReason } from '../core/abort.ts';
import { isSeverity, type Severity } from '../core/finding.ts';
import {
  fixtureExitCode as exitCodeOf,
  runFixtures as runFixtureDir,
  type CaseResult,
  type FixtureRun,
  type FixtureSummary,
} from '../fixture-runner/index.ts';
import type { ExitCode } from '../core/exit.ts';
import { checkOptions, described, type Kind } from './check-options.ts';
import type { ProtocolOptions } from '../core/protocol.ts';
import { protocolDefinition, type OptionsFor, type Protocol } from './protocols.ts';

/** Options of {@link runFixtures}. */
export type FixtureRunOptions<P extends Protocol = Protocol> = Omit<OptionsFor<P>, 'rules' | 'binding'> & {
  /** `--fail-on` (default `error`). */
  failOn?: Severity;
  /** Findings listed per case (the rest are counted). */
  maxFindings?: number;
  /** Path of a deviations file (`[{"id", "reason"}]`). */
  deviations?: string;
  /** Paths in results are shown relative to this directory (default: the working directory). */
  cwd?: string;
  /** Called with each case's result as it ends. */
  onCase?: (c: CaseResult) => void;
  /**
   * Stop at the next case when it aborts: the promise rejects with the signal's reason (an `AbortError` DOMException
   * unless one was given); already aborted, it rejects before the directory is read.
   */
  signal?: AbortSignal;
};

const FIXTURE_OPTIONS: Readonly<Record<string, Kind>> = {
  failOn: 'string',
  maxFindings: 'count',
  deviations: 'string',
  cwd: 'string',
  onCase: 'function',
  signal: 'signal',
};

/** Run every case under `dir`. @throws FixtureError, DeviationsError, InputError. */
export async function runFixtures<P extends Protocol>(
  protocol: P,
  dir: string,
  options: FixtureRunOptions<P> = {} as FixtureRunOptions<P>,
): Promise<FixtureRun> {
  if (typeof dir !== 'string')
    throw new TypeError(`the fixture directory must be a path (a string), not ${described(dir)}`);
  protocolDefinition(protocol);
  checkOptions(protocol, options, FIXTURE_OPTIONS);
  if (options.failOn !== undefined && !isSeverity(options.failOn))
    throw new TypeError('option failOn must be one of error, warning, info');
  const { failOn, maxFindings, deviations, cwd, onCase, strict, signal, ...rest } = options as FixtureRunOptions;
  if (signal?.aborted) throw abortReason(signal);
  return runFixtureDir({ def: protocolDefinition(protocol), options: rest as ProtocolOptions }, dir, {
    strict: strict ?? false,
    failOn: failOn ?? 'error',
    ...(maxFindings !== undefined ? { maxFindings } : {}),
    ...(deviations !== undefined ? { deviations } : {}),
    cwd: cwd ?? '.', // relative() resolves it against the working directory
    ...(onCase ? { onCase } : {}),
    ...(signal ? { signal } : {}),
  });
}

/** The exit code of `fixtures DIR` for a run or its summary: 2 a case could not run or none ran, 1 a case failed, else 0. */
export function fixtureExitCode(run: FixtureRun | FixtureSummary): ExitCode {
  const s = (run as Partial<FixtureRun> | null)?.summary ?? run;
  if (typeof (s as Partial<FixtureSummary> | null)?.counts !== 'object')
    throw new TypeError(`fixtureExitCode takes what runFixtures() resolves to (or its summary), not ${described(run)}`);
  return exitCodeOf(run);
}
