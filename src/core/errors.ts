/**
 * The one error base of the package: every error a caller may meet says what kind it is, and
 * the CLI turns the kind into an exit code in one place (src/core/exit.ts `exitCodeOfError`).
 */

/**
 * - `usage`: an option or argument the command cannot take (a bad `--base-url`, filter, rule id);
 * - `config`: a harness file is wrong (a fixture layout, a sidecar, a deviations file);
 * - `io`: an input or output cannot be read or written;
 * - `input`: a file was read but cannot be used (a pinned schema that cannot be extracted);
 * - `internal`: a bug in agent-conformance (a rule that threw).
 */
export type ErrorKind = 'usage' | 'config' | 'io' | 'input' | 'internal';

/** An error of agent-conformance with its {@link ErrorKind}. */
export class ConformanceError extends Error {
  constructor(
    readonly kind: ErrorKind,
    message: string,
  ) {
    super(message);
  }
}
