/** The library's fixture runner: a fixture directory checked as `aep fixtures DIR` / `ahp fixtures DIR` do. */
import type { Severity } from '../core/finding.ts';
import {
  fixtureExitCode,
  runFixtures as runFixtureDir,
  type CaseResult,
  type FixtureRun,
} from '../fixture-runner/index.ts';
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
  onCase?: (c: CaseResult) => void;
};

/** Run every case under `dir`. @throws FixtureError, DeviationsError, InputError. */
export function runFixtures<P extends Protocol>(
  protocol: P,
  dir: string,
  options: FixtureRunOptions<P> = {} as FixtureRunOptions<P>,
): Promise<FixtureRun> {
  const { failOn, maxFindings, deviations, cwd, onCase, strict, ...rest } = options as FixtureRunOptions;
  return runFixtureDir({ def: protocolDefinition(protocol), options: rest as ProtocolOptions }, dir, {
    strict: strict ?? false,
    failOn: failOn ?? 'error',
    ...(maxFindings !== undefined ? { maxFindings } : {}),
    ...(deviations !== undefined ? { deviations } : {}),
    cwd: cwd ?? '.', // relative() resolves it against the working directory
    ...(onCase ? { onCase } : {}),
  });
}

export { fixtureExitCode };
