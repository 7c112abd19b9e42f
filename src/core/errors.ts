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
    // `InputError: cannot read ...` in a stack and `e.name`, not `Error` (non-enumerable, as Error's own)
    Object.defineProperty(this, 'name', { value: new.target.name, writable: true, configurable: true });
  }
}

const IO_REASONS: Readonly<Record<string, string>> = {
  ENOENT: 'no such file or directory',
  ENOTDIR: 'a part of the path is not a directory',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'it is a directory, not a file',
  ELOOP: 'too many symbolic links',
  ENAMETOOLONG: 'the name is too long',
  EMFILE: 'too many open files',
};

/** A file system error as a short sentence for a person (no syscall, no errno code), else the error's message. */
export function ioReason(e: unknown): string {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code === 'string' && IO_REASONS[code]) return IO_REASONS[code];
  return e instanceof Error ? e.message : String(e);
}
