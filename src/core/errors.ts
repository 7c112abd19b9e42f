/** The one error base: each error names its kind, which src/core/exit.ts maps to an exit code. */

/**
 * `usage`: a bad option or argument; `config`: a harness file is wrong; `io`: cannot read or write;
 * `input`: a file read but unusable; `internal`: a bug (a rule that threw).
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
