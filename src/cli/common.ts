/**
 * What every verb of both bins shares (process access, option parsers, inputs, errors); imports no verb, so no circle.
 */
import { EXIT, exitCodeOfError, type ExitCode } from '../core/exit.ts';
import { ConformanceError } from '../core/errors.ts';
import { fstatSync, readFileSync, readlinkSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { isatty } from 'node:tty';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { nearestWord } from '../core/nearest.ts';
import { isSeverity, type Severity } from '../core/finding.ts';
import { readFileChunks } from '../core/file-chunks.ts';
import { InputError, type InputSpec } from '../core/pipeline.ts';
import { RuleCrashError } from '../core/rule.ts';
import { VERSION } from '../api/version.ts';
import { FORMATS } from '../report/index.ts';
import type { Output } from '../report/types.ts';
import type { ProtocolDefinition } from '../core/protocol.ts';

/** The package version (re-exported for the verbs). */
export { VERSION };

/** What a bin adds to its protocol's definition: verbs of its own, and what they load first. */
export interface CliExtras {
  /** Load the modules only the verb in `argv` needs before the program is built (start-up of `validate`). */
  prepare?(argv: readonly string[]): Promise<void>;
  commands?(program: Command, io: CliIO, setExit: (code: number) => void): void;
}

/** A bin: its protocol's definition and its own verbs. */
export interface CliBin {
  def: ProtocolDefinition;
  extras: CliExtras;
}

/** Process access for the CLI (real process in bins; fakes in tests). */
export interface CliIO {
  stdout: Output;
  stderr: Output;
  stdin: AsyncIterable<Uint8Array | string>;
  env: Record<string, string | undefined>;
  /** True when stdout is a terminal (colour default). */
  stdoutIsTTY: boolean;
  /** True when stderr is a terminal (progress line). */
  stderrIsTTY: boolean;
  /** The terminal's width in columns when stdout is one (text output wraps to it; `COLUMNS` otherwise). */
  columns?: number;
  /** The clock of the progress line, in milliseconds (tests; `Date.now` by default). */
  now?: () => number;
  /** True when stdin is a terminal (`validate` with no file then says it reads standard input). */
  stdinIsTTY?: boolean;
  /** A write to stdout or stderr failed (ENOSPC, EIO): exit 2 whatever was found, since no report is no verdict. */
  writeFailed?(): boolean;
  cwd: string;
}

/** Parse a non-negative integer option (`--max-findings 0`: summary only). @throws InvalidArgumentError */
export function nonNegativeInt(value: string): number {
  if (!/^(0|[1-9][0-9]*)$/.test(value)) throw new InvalidArgumentError('expected 0 or a positive integer.');
  return Number(value);
}

/** Parse a positive integer option. @throws InvalidArgumentError */
export function positiveInt(value: string): number {
  if (!/^[1-9][0-9]*$/.test(value)) throw new InvalidArgumentError('expected a positive integer.');
  return Number(value);
}

/** Parse a `--fail-on` severity. @throws InvalidArgumentError */
export function severityArg(value: string): Severity {
  if (!isSeverity(value)) throw new InvalidArgumentError('expected error, warning or info.');
  return value;
}

/**
 * Refuse a value outside `choices` as commander's `choices` does, adding the nearest choice (`--binding htpp`: did you
 * mean http?), as the library's option check does (src/api/check-options.ts `checkChoice`).
 */
export function hintChoices(o: Option, choices: readonly string[]): void {
  o.argParser((arg: string) => {
    if (choices.includes(arg)) return arg;
    const lower = arg.toLowerCase();
    const near = choices.includes(lower) ? lower : nearestWord(lower, choices, true);
    throw new InvalidArgumentError(
      `Allowed choices are ${choices.join(', ')}.${near ? ` (Did you mean ${near}?)` : ''}`,
    );
  });
}

/** Collect a repeatable option's values, in order. */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/**
 * True when descriptor 0 was closed when the process started. Node puts /dev/null in a closed standard descriptor's
 * place, opened for reading and writing; a shell's `< /dev/null` opens it for reading only, so on Linux the two are
 * told apart by /proc (elsewhere: false, and a closed stdin reads as empty). `<> /dev/null` looks closed too.
 */
function stdinWasClosed(): boolean {
  try {
    if (readlinkSync('/proc/self/fd/0') !== '/dev/null') return false;
    const flags = /^flags:\s*([0-7]+)/m.exec(readFileSync('/proc/self/fdinfo/0', 'utf8'));
    return flags !== null && (Number.parseInt(flags[1]!, 8) & 3) === 2;
  } catch {
    return false;
  }
}

/** Standard input as chunks (a redirected directory refused, exit 2; a redirected regular file read as a file). */
async function* processStdin(): AsyncGenerator<Uint8Array | string> {
  let dir = false;
  let file = false;
  try {
    const st = fstatSync(0);
    dir = st.isDirectory();
    file = st.isFile();
  } catch {
    // no descriptor 0 to inspect: read what the stream gives
  }
  if (dir) throw new Error('standard input is a directory (`fixtures DIR` runs a fixture directory)');
  if (stdinWasClosed())
    throw new Error(
      'standard input is closed (`<&-`): nothing can be read from it; give a file, a pipe or `< /dev/null`',
    );
  if (file) yield* readFileChunks({ fd: 0 });
  else yield* process.stdin;
}

/**
 * Open the named inputs (`-` or none: stdin); a file named more than once is read once, at its first place, with a note
 * on stderr; `program` names the bin in hints. @throws InputError
 */
export function openInputs(
  files: readonly string[],
  io: CliIO,
  framing: (p: string) => 'jsonl' | 'document',
  program = 'aep',
): InputSpec[] {
  const names = files.length ? files : ['-'];
  let stdinUsed = false;
  // a file named again (a glob overlapping a name, another spelling, a link) is one input read once, at its first
  // place: read twice it would be a stream of its own redeliveries, its events counted twice
  const seen = new Map<string, string>();
  const specs: InputSpec[] = [];
  for (const name of names) {
    if (name === '-') {
      if (stdinUsed) throw new InputError('<stdin>', new Error('standard input given twice'));
      stdinUsed = true;
      specs.push({ source: '<stdin>', open: () => io.stdin, framing: framing('-') });
      continue;
    }
    let size: number;
    let regular: boolean;
    try {
      const st = statSync(name);
      const key = st.isFile() ? `${st.dev}:${st.ino}` : undefined;
      const first = key === undefined ? undefined : seen.get(key);
      if (first !== undefined) {
        io.stderr.write(
          `${program}: note: ${name} ${first === name ? 'is named more than once' : `is the same file as ${first}`}; it is read once, at its first place\n`,
        );
        continue;
      }
      if (key !== undefined) seen.set(key, name);
      if (st.isDirectory())
        throw new Error(
          `is a directory: name the files in it to validate them (e.g. ${name.replace(/[/]+$/, '')}/*.jsonl), or, for a fixture directory (pass/ and fail/, or an upstream corpus), run \`${program} fixtures ${name}\``,
        );
      size = st.size;
      regular = st.isFile();
    } catch (e) {
      throw new InputError(name, e);
    }
    const spec: InputSpec = { source: name, size, open: () => readFileChunks(name), framing: framing(name) };
    if (regular) spec.path = name;
    specs.push(spec);
  }
  return specs;
}

/** Print why a run stopped and return 2: one line for expected errors, the stack for a rule that threw or a bug. */
export function reportRunError(name: string, e: unknown, io: CliIO): ExitCode {
  if (e instanceof RuleCrashError)
    io.stderr.write(`${name}: ${e.message}\n${e.cause instanceof Error && e.cause.stack ? e.cause.stack + '\n' : ''}`);
  else if (e instanceof ConformanceError && e.kind !== 'internal') io.stderr.write(`${name}: ${e.message}\n`);
  else io.stderr.write(`${name}: internal error: ${(e as Error)?.stack ?? String(e)}\n`);
  return exitCodeOfError(e);
}

/** The reporters' GITHUB_WORKSPACE (github annotations name files from it), when the environment sets one. */
export function githubWorkspaceOf(io: CliIO): { githubWorkspace?: { root: string; cwd: string } } {
  const root = io.env.GITHUB_WORKSPACE;
  return root ? { githubWorkspace: { root, cwd: io.cwd } } : {};
}

/** Colour by default only on a terminal; NO_COLOR / FORCE_COLOR override (https://no-color.org). */
export function defaultColor(io: CliIO): boolean {
  const force = io.env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force !== 'false';
  if (io.env.NO_COLOR !== undefined && io.env.NO_COLOR !== '') return false;
  return io.stdoutIsTTY;
}

/** Add the options shared by `validate` and `fixtures`. */
export function addReportOptions(cmd: Command, formats: readonly string[] = FORMATS): Command {
  return cmd
    .addOption(new Option('-f, --format <format>', 'output format').choices(formats as string[]).default('text'))
    .addOption(
      new Option('--fail-on <severity>', 'exit 1 when a finding is at or above this severity')
        .argParser(severityArg)
        .default('error'),
    )
    .option('--strict', 'raise warnings to errors', false)
    .addOption(
      new Option(
        '--max-findings <n>',
        'report at most n findings (the rest are counted; 0: the summary only)',
      ).argParser(nonNegativeInt),
    )
    .option(
      '-o, --output <file>',
      'write the report to a file instead of stdout (-: stdout); without --format, a name ending in .html, .sarif, .json, .ndjson or .jsonl (ndjson) or .xml (junit) picks that format',
    )
    .option(
      '-q, --quiet',
      'print only what is at or above --fail-on, and the summary (text, github, html; the data formats keep every finding); no progress line',
      false,
    )
    .option('--no-color', 'never colour text output');
}

/** The real process as a CliIO; `program` names the bin in messages. */
export function processIO(program = basename(process.argv[1] ?? 'aep').replace(/\.[cm]?js$/, '')): CliIO {
  // A reader that goes away (`| head`) closes the pipe: stop writing and keep the run's exit code. Any other failed
  // write (ENOSPC, EIO) is one line and exit 2; it may come after the run returned, so it sets the exit code itself.
  const closed = { stdout: false, stderr: false };
  let failed = false;
  for (const name of ['stdout', 'stderr'] as const) {
    process[name].on('error', (e: NodeJS.ErrnoException) => {
      closed[name] = true;
      if (e.code === 'EPIPE') return;
      if (!failed && name === 'stdout' && !closed.stderr)
        process.stderr.write(`${program}: cannot write to standard output: ${e.message}\n`);
      failed = true;
      process.exitCode = EXIT.io;
    });
  }
  // a stream verb waits here while a slow reader has not drained what it wrote (the run stops reading meanwhile)
  const drained = (): Promise<void> | undefined => {
    const out = process.stdout;
    if (closed.stdout || !out.writableNeedDrain) return undefined;
    return new Promise<void>((resolve) => {
      const done = () => {
        out.off('drain', done);
        out.off('error', done);
        out.off('close', done);
        resolve();
      };
      out.on('drain', done);
      out.on('error', done);
      out.on('close', done);
    });
  };
  return {
    stdout: {
      write: (s) => void (closed.stdout || process.stdout.write(s)),
      ready: drained,
      closed: () => closed.stdout,
    },
    stderr: { write: (s) => void (closed.stderr || process.stderr.write(s)) },
    stdin: processStdin(),
    env: process.env,
    stdoutIsTTY: Boolean(process.stdout.isTTY),
    stderrIsTTY: Boolean(process.stderr.isTTY),
    columns: process.stdout.isTTY ? process.stdout.columns : undefined,
    // isatty, not process.stdin.isTTY: that would open the stdin stream (and load its modules) on every run
    stdinIsTTY: isatty(0),
    writeFailed: () => failed,
    cwd: process.cwd(),
  };
}

/** What `validate` reads, per bin, for its help: the inputs each protocol's bindings take, not only JSONL. */
export const VALIDATE_READS: Readonly<Record<string, { what: string; files: string }>> = {
  aep: {
    what: 'check AEP logs (JSONL; with --from, CloudEvents, OTLP/JSON or OCSF bridge output)',
    files: 'JSONL files (with --from, a .json file is one document)',
  },
  ahp: {
    what: 'check AHP traffic (stdio JSONL captures, HTTP message bodies, registration documents: see --binding)',
    files: 'stdio JSONL captures, .json HTTP bodies or registration documents (*.registration.json)',
  },
};
