/** What `-o`'s argument says besides a file: `-` for standard output, a report format by the file's extension. */
import type { Command } from 'commander';
import type { FormatName } from '../report/index.ts';

/** `-o -` is standard output, as `-` among the inputs is standard input (a preAction hook of every verb with `-o`). */
export function dashIsStdout(cmd: Command): void {
  if (cmd.getOptionValue('output') === '-') cmd.setOptionValueWithSource('output', undefined, 'cli');
}

/** The report format an `-o` file name implies (`.sarif.json` is SARIF), or `undefined`. */
export function formatOfOutputName(file: string): FormatName | undefined {
  const f = file.toLowerCase();
  if (f.endsWith('.sarif') || f.endsWith('.sarif.json')) return 'sarif';
  if (f.endsWith('.html') || f.endsWith('.htm')) return 'html';
  if (f.endsWith('.json')) return 'json';
  if (f.endsWith('.ndjson') || f.endsWith('.jsonl')) return 'ndjson';
  if (f.endsWith('.xml')) return 'junit';
  return undefined;
}

/**
 * Without `--format`, take the format the `-o` file's extension names, when the verb has it; `--format` wins. A name
 * whose format the verb lacks (`fixtures -o r.ndjson`) gets the default format and a `note` saying so.
 */
export function impliedFormat(cmd: Command, note: (text: string) => void): void {
  const output = cmd.getOptionValue('output') as string | undefined;
  if (output === undefined || cmd.getOptionValueSource('format') !== 'default') return;
  const implied = formatOfOutputName(output);
  const choices = cmd.options.find((o) => o.long === '--format')?.argChoices;
  if (implied && (!choices || choices.includes(implied))) cmd.setOptionValueWithSource('format', implied, 'implied');
  else if (implied && choices)
    note(
      `${output} names ${implied}, a format this verb does not write: it is written as ${cmd.getOptionValue('format')} (--format: ${choices.join(', ')})`,
    );
}
