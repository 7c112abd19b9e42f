/**
 * The exit codes by name (README §Exit codes): 0 nothing at or above `--fail-on`; 1 findings at or above it, a fixture
 * or pin mismatch; 2 no verdict. The one map from an error's kind to its code.
 */
import { ConformanceError, type ErrorKind } from './errors.ts';

/** An exit code of the CLI. */
export type ExitCode = 0 | 1 | 2;

/** The exit codes by what they mean. */
export const EXIT = {
  ok: 0,
  findings: 1,
  usage: 2,
  config: 2,
  io: 2,
  input: 2,
  internal: 2,
  /** A rule threw or a download did not complete: the verdict is missing. */
  incomplete: 2,
} as const satisfies Record<string, ExitCode> & Record<ErrorKind, ExitCode>;

/** The exit code of a run that stopped on `e`. */
export function exitCodeOfError(e: unknown): ExitCode {
  return e instanceof ConformanceError ? EXIT[e.kind] : EXIT.internal;
}
