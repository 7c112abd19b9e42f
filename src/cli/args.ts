/** Parsers of the protocol CLIs' option values. */
import { type Command, InvalidArgumentError } from 'commander';

/** A positive decimal number (`256`, `0.5`), e.g. a budget in MiB. @throws InvalidArgumentError otherwise */
export function positiveNumber(value: string): number {
  if (!/^(?:0|[1-9][0-9]*)(?:\.[0-9]+)?$/.test(value) || !(Number(value) > 0))
    throw new InvalidArgumentError('expected a positive number.');
  return Number(value);
}

/**
 * Make every option of `cmd` that names a file or folder (`<file>`, `<dir>`, `<path>`: `-o`, `--record`, `--home`, ...)
 * refuse an empty name as a usage error (exit 2), before the verb runs: `-o ''` would otherwise fail at the end of the
 * run, on the temporary file's rename.
 */
export function refuseEmptyPaths(cmd: Command): void {
  for (const o of cmd.options) {
    if (!/<(?:file|dir|path)>/.test(o.flags)) continue;
    const parse = o.parseArg;
    o.argParser((value: string, previous: unknown) => {
      if (value.trim() === '') throw new InvalidArgumentError('expected a name, not an empty string.');
      return parse ? parse(value, previous) : value;
    });
  }
}
