/** Parsers of the protocol CLIs' own `validate` options. */
import { InvalidArgumentError } from 'commander';

/** A positive decimal number (`256`, `0.5`), e.g. a budget in MiB. @throws InvalidArgumentError otherwise */
export function positiveNumber(value: string): number {
  if (!/^(?:0|[1-9][0-9]*)(?:\.[0-9]+)?$/.test(value) || !(Number(value) > 0))
    throw new InvalidArgumentError('expected a positive number.');
  return Number(value);
}
