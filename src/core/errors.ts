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

/**
 * Why a missing name may exist after all: Node decodes argv as UTF-8, replacing bytes that are not with U+FFFD, so a
 * file whose name is not valid UTF-8 cannot be opened by the name it was given as; its bytes still can be read.
 */
export const NOT_UTF8_NAME =
  'no such file or directory by this name, which holds U+FFFD: the name may not be valid UTF-8 (Node cannot open such a name given as an argument); pipe the file on standard input instead (`- < FILE`) or rename it';

/**
 * A file system error as a short sentence for a person (no syscall, no errno code), else the error's message. A missing
 * name holding U+FFFD ({@link NOT_UTF8_NAME}) says why it may be missing though the user sees it.
 */
export function ioReason(e: unknown, name?: string): string {
  const err = e as NodeJS.ErrnoException | undefined;
  const code = err?.code;
  const path = name ?? (typeof err?.path === 'string' ? err.path : undefined);
  if (code === 'ENOENT' && path?.includes('\uFFFD')) return NOT_UTF8_NAME;
  if (typeof code === 'string' && IO_REASONS[code]) return IO_REASONS[code];
  return e instanceof Error ? e.message : String(e);
}
