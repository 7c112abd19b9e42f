/**
 * The commander program shared by `aep` and `ahp`. The only code that touches the process
 * (argv, stdin, stdout, stderr, exit code) goes through the {@link CliIO} passed in, so tests
 * can drive it and the bins stay tiny.
 *
 * Exit codes (README §Exit codes): 0 nothing at/above `--fail-on`;
 * 1 findings at/above it (or a fixture/pin mismatch); 2 usage, I/O or internal errors.
 */
import { fstatSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { isatty } from 'node:tty';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { isSeverity, type Finding, type Severity } from '../core/finding.ts';
import { DEFAULT_MAX_DEPTH } from '../core/json.ts';
import { DEFAULT_MAX_LINE_BYTES } from '../core/jsonl.ts';
import { readFileChunks } from '../core/file-chunks.ts';
import { addStats, InputError, newStats, runPipeline, streamGroups, type InputSpec, type ProtocolDriver } from '../core/pipeline.ts';
import { RuleCrashError, type RuleMeta } from '../core/rule.ts';
import { FindingCounter } from '../core/summary.ts';
import { VERSION } from '../api/version.ts';
import { createReporter, FORMATS, type FormatName } from '../report/index.ts';
import type { Output } from '../report/types.ts';
import type { RuleSelection } from '../core/engine.ts';
import { outputIsInput, reportFileFor } from './output.ts';
import { addCatalogueAndFixtureVerbs, nearestRuleIds, terminalWidth, unknownRuleMessage } from './verbs.ts';

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
  /**
   * Set when a write to stdout or stderr failed (`> /dev/full`: ENOSPC, EIO, ...): the run
   * ends with exit 2 whatever it found (a report that was not written is no verdict).
   */
  writeFailed?(): boolean;
  cwd: string;
}

/** Options every `validate` run understands, after parsing. */
export interface ValidateOptions {
  format: FormatName;
  failOn: Severity;
  strict: boolean;
  maxFindings?: number;
  maxLineBytes: number;
  maxDepth: number;
  quiet: boolean;
  output?: string;
  color?: boolean;
  progress: boolean;
  /**
   * `--each` (true) / `--no-each` (false): every input its own stream, or all one stream;
   * absent: each single-document input alone, the JSONL inputs one stream (src/core/pipeline.ts `streamGroups`).
   */
  each?: boolean;
  /** `--rule ID` (repeatable): run only these rules (framing always runs); absent or empty runs all. */
  rule?: string[];
  /** Protocol-specific options (e.g. AHP `binding`, AEP caps). */
  [key: string]: unknown;
}

/** What a protocol plugs into the shared program. */
export interface CliProtocol {
  name: 'aep' | 'ahp';
  /** One line for `--help`. */
  description: string;
  /** Build the pipeline driver for one validate run. */
  driver(opts: ValidateOptions): ProtocolDriver;
  /** Known event types (coverage statistics). */
  knownTypes: readonly string[];
  /** Every rule this protocol can report (catalogue). */
  rules(): readonly RuleMeta[];
  /** Add protocol-specific options to `validate`. */
  validateOptions?(cmd: Command): void;
  /** Framing of one named input (`jsonl` by default). */
  framingFor?(path: string, opts: ValidateOptions): 'jsonl' | 'document';
  /**
   * Load what the verb named in `argv` (as `process.argv`) needs before the program is built:
   * modules only some verbs use load for those verbs only (start-up of `validate`).
   */
  prepare?(argv: readonly string[]): Promise<void>;
  /** Add further verbs (`fixtures`, `pin`, ...). */
  commands?(program: Command, io: CliIO, setExit: (code: number) => void): void;
}

/** The package version (re-exported for the verbs). */
export { VERSION };

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

function severityArg(value: string): Severity {
  if (!isSeverity(value)) throw new InvalidArgumentError('expected error, warning or info.');
  return value;
}

/** Collect a repeatable option's values, in order. */
function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/** The rule selection of `--rule` for the driver: `undefined` (every rule) when none is named. */
export function ruleSelection(opts: Pick<ValidateOptions, 'rule'>): RuleSelection {
  return opts.rule?.length ? new Set(opts.rule) : undefined;
}

/**
 * The process's standard input as chunks; a directory redirected to it (`< dir`) reads as
 * nothing on some systems, so it is refused (an unreadable input, exit 2) instead of being
 * checked as empty input.
 */
async function* processStdin(): AsyncGenerator<Uint8Array | string> {
  let dir = false;
  try {
    dir = fstatSync(0).isDirectory();
  } catch {
    // no descriptor 0 to inspect: read what the stream gives
  }
  if (dir) throw new Error('standard input is a directory (`fixtures DIR` runs a fixture directory)');
  yield* process.stdin;
}

/**
 * Open the inputs named on the command line (`-` or none = stdin). `program` names the bin in
 * hints (a directory given as input points at `fixtures DIR`). @throws InputError
 */
export function openInputs(files: readonly string[], io: CliIO, framing: (p: string) => 'jsonl' | 'document', program = 'aep'): InputSpec[] {
  const names = files.length ? files : ['-'];
  let stdinUsed = false;
  return names.map((name) => {
    if (name === '-') {
      if (stdinUsed) throw new InputError('<stdin>', new Error('standard input given twice'));
      stdinUsed = true;
      return { source: '<stdin>', open: () => io.stdin, framing: framing('-') };
    }
    let size: number;
    let regular: boolean;
    try {
      const st = statSync(name);
      if (st.isDirectory()) throw new Error(`is a directory: name the files in it to validate them (e.g. ${name.replace(/[\/]+$/, '')}/*.jsonl), or, for a fixture directory (pass/ and fail/, or an upstream corpus), run \`${program} fixtures ${name}\``);
      size = st.size;
      regular = st.isFile();
    } catch (e) {
      throw new InputError(name, e);
    }
    const spec: InputSpec = { source: name, size, open: () => readFileChunks(name), framing: framing(name) };
    if (regular) spec.path = name;
    return spec;
  });
}

/**
 * Progress line on stderr: bytes done of total and events per second. TTY only. It shows after
 * a second and at most five times a second (`AGENT_CONFORMANCE_PROGRESS_MS=<first>,<interval>`
 * changes both, for demonstrations and tests). {@link suspend} clears it before a finding is
 * written to the same terminal and {@link resume} draws it again after, so a finding never
 * lands in the middle of the progress text.
 */
function progressPrinter(io: CliIO, totalBytes: number | undefined) {
  const [first, every] = (io.env.AGENT_CONFORMANCE_PROGRESS_MS ?? '1000,200').split(',').map((n) => Number(n));
  const now = io.now ?? Date.now;
  const started = now();
  let lastPrint = -Infinity;
  let text = '';
  let shown = false;
  return {
    update(bytes: number, events: number) {
      const t = now();
      if (t - started < (first ?? 1000) || t - lastPrint < (every ?? 200)) return;
      lastPrint = t;
      const mb = (n: number) => (n / 1048576).toFixed(1);
      const rate = Math.round(events / (Math.max(t - started, 1) / 1000));
      // a compressed input decompresses to more than its size: then no percentage
      const of = totalBytes && bytes <= totalBytes ? ` of ${mb(totalBytes)} MiB (${Math.floor((bytes / totalBytes) * 100)}%)` : ' MiB';
      text = `${mb(bytes)}${of}, ${rate} events/s`;
      shown = true;
      io.stderr.write(`\r\x1b[K${text}`);
    },
    suspend() {
      if (shown) io.stderr.write('\r\x1b[K');
    },
    resume() {
      if (shown) io.stderr.write(text);
    },
    clear() {
      if (shown) io.stderr.write('\r\x1b[K');
      shown = false;
    },
  };
}

/**
 * Run one `validate`. Returns the exit code.
 * @throws nothing: I/O and internal errors become messages on stderr and exit 2.
 */
export async function runValidate(protocol: CliProtocol, files: string[], opts: ValidateOptions, io: CliIO): Promise<number> {
  const known = new Set(protocol.rules().map((r) => r.id));
  const unknownRule = opts.rule?.find((id) => !known.has(id));
  if (unknownRule !== undefined) {
    io.stderr.write(unknownRuleMessage(protocol, unknownRule, 'validate --rule'));
    return 2;
  }
  let inputs: InputSpec[];
  try {
    inputs = openInputs(files, io, (p) => protocol.framingFor?.(p, opts) ?? 'jsonl', protocol.name);
  } catch (e) {
    io.stderr.write(`${protocol.name}: ${(e as Error).message}\n`);
    return 2;
  }
  if (opts.output !== undefined) {
    // the report would replace the log it reports on
    const same = outputIsInput(opts.output, files);
    if (same !== undefined) {
      io.stderr.write(`${protocol.name}: --output ${opts.output} is the input ${same}: writing the report there would destroy it; name another file\n`);
      return 2;
    }
  }
  // waiting on a terminal for typed input looks like a hang: say what it waits for
  if (io.stdinIsTTY && inputs.some((i) => i.source === '<stdin>') && !opts.quiet) io.stderr.write(`${protocol.name}: reading standard input (end it with Ctrl-D; name files to check them instead)\n`);
  const toFile = reportFileFor(protocol.name, opts.output, io.stderr);
  if (toFile === null) return 2;
  const total = inputs.every((i) => i.size !== undefined) ? inputs.reduce((a, i) => a + (i.size ?? 0), 0) : undefined;
  const progress = opts.progress && io.stderrIsTTY && !opts.quiet ? progressPrinter(io, total) : undefined;
  // on a terminal the report and the progress line share the screen: clear it around each write
  const out: Output = toFile ?? (progress ? { write: (s) => (progress.suspend(), io.stdout.write(s), progress.resume()) } : io.stdout);
  const color = opts.color ?? (toFile ? false : defaultColor(io));
  const reporter = createReporter(opts.format, out, {
    protocol: protocol.name,
    version: VERSION,
    color,
    quiet: opts.quiet,
    failOn: opts.failOn,
    rules: protocol.rules(),
    sources: inputs.map((i) => i.source),
    width: toFile ? undefined : terminalWidth(io),
  });
  const counter = new FindingCounter((f: Finding) => reporter.finding(f), { strict: opts.strict, maxFindings: opts.maxFindings });
  const groups = streamGroups(inputs, opts.each as boolean | undefined);
  const stats = newStats();
  try {
    let done = 0;
    for (const group of groups) {
      // each stream has its own state (a fresh checker) and, when there are several, its own summary line
      const own = new FindingCounter(counter.sink);
      let statsRef: { events: number } | undefined;
      const driver = protocol.driver(opts);
      const wrapped: ProtocolDriver = {
        ...driver,
        createChecker: (sink, st) => {
          statsRef = st;
          return driver.createChecker(sink, st);
        },
      };
      const base = done;
      const st = await runPipeline(group, wrapped, own.sink, {
        maxDepth: opts.maxDepth,
        maxLineBytes: opts.maxLineBytes,
        onProgress: progress ? (b) => progress.update(base + b, stats.events + (statsRef?.events ?? 0)) : undefined,
      });
      done += st.bytes;
      addStats(stats, st);
      if (groups.length > 1) reporter.inputSummary?.(group.map((i) => i.source).join(' + '), own.summary(st, protocol.knownTypes));
    }
  } catch (e) {
    progress?.clear();
    toFile?.abort();
    return reportRunError(protocol.name, e, io);
  }
  progress?.clear();
  reporter.finish(counter.summary(stats, protocol.knownTypes));
  if (toFile) {
    const failed = toFile.commit();
    if (failed !== undefined) {
      io.stderr.write(`${protocol.name}: cannot write ${opts.output}: ${failed}\n`);
      return 2;
    }
  }
  return counter.reached(opts.failOn) ? 1 : 0;
}

/**
 * Print why a run stopped and return exit code 2. `expected` errors (unreadable input, bad
 * fixture layout, ...) get one line; a rule that threw names the rule and line with its stack;
 * anything else is an internal error with its stack.
 */
export function reportRunError(name: string, e: unknown, io: CliIO, expected: readonly (abstract new (...args: never[]) => Error)[] = [InputError]): 2 {
  if (expected.some((k) => e instanceof k)) io.stderr.write(`${name}: ${(e as Error).message}\n`);
  else if (e instanceof RuleCrashError) io.stderr.write(`${name}: ${e.message}\n${e.cause instanceof Error && e.cause.stack ? e.cause.stack + '\n' : ''}`);
  else io.stderr.write(`${name}: internal error: ${(e as Error)?.stack ?? String(e)}\n`);
  return 2;
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
    .addOption(new Option('--fail-on <severity>', 'exit 1 when a finding is at or above this severity').argParser(severityArg).default('error'))
    .option('--strict', 'raise warnings to errors', false)
    .addOption(new Option('--max-findings <n>', 'report at most n findings (the rest are counted; 0: the summary only)').argParser(nonNegativeInt))
    .option('-o, --output <file>', 'write the report to a file instead of stdout')
    .option('-q, --quiet', 'print only what is at or above --fail-on, and the summary; no progress line', false)
    .option('--no-color', 'never colour text output');
}

/**
 * Build the program for one protocol. `setExit` receives the exit code of the verb that ran.
 */
function buildProgram(protocol: CliProtocol, io: CliIO, setExit: (code: number) => void): Command {
  const program = new Command(protocol.name)
    .description(protocol.description)
    .version(VERSION)
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
      // a usage error is one line, prefixed like every other error of the CLI
      outputError: (s, write) => write(`${protocol.name}: ${s.replace(/^error: /, '').trimEnd().replace(/\s*\n\s*/g, ' ')} (run with --help for usage)\n`),
    });

  const validate = program
    .command('validate')
    .description('check JSONL streams (files, or - / nothing for stdin) and print findings')
    .argument('[files...]', 'JSONL files; - reads standard input');
  addReportOptions(validate)
    .addOption(new Option('--max-line-bytes <n>', 'longest line accepted, in bytes').argParser(positiveInt).default(DEFAULT_MAX_LINE_BYTES))
    .addOption(new Option('--max-depth <n>', 'deepest nesting of arrays/objects accepted').argParser(positiveInt).default(DEFAULT_MAX_DEPTH))
    .option('--rule <id>', `run only this rule (repeatable; framing jsonl/* and json/* findings always appear); \`${protocol.name} rules\` lists the ids`, collect)
    .option('--no-progress', 'never show the progress line')
    .option('--each', 'check every input as its own stream, with its own summary line (default: each HTTP body or registration document alone, JSONL inputs one stream)')
    .option('--no-each', 'check all inputs as one stream, in the order given');
  protocol.validateOptions?.(validate);
  validate.action(async (files: string[], raw: Record<string, unknown>) => {
    const opts = { ...raw, color: raw.color === false ? false : undefined } as ValidateOptions;
    setExit(await runValidate(protocol, files, opts, io));
  });
  addCatalogueAndFixtureVerbs(program, protocol, io, setExit);
  protocol.commands?.(program, io, setExit);
  return program;
}

/**
 * The usage error for a verb `program` does not have among `args` (the command line after the
 * bin), or `undefined`. Commander answers `aep nosuchverb --help` with the top-level help and
 * exit 0; an unknown verb is a usage error however it is asked, with the nearest verb (or the
 * list of verbs) as the suggestion. Descends through verbs that have verbs of their own (`ahp pin`).
 */
export function unknownCommand(program: Command, args: readonly string[]): string | undefined {
  let cmd = program;
  for (let i = 0; i < args.length && cmd.commands.length > 0; i++) {
    const a = args[i]!;
    if (a === '--') return undefined;
    if (a.startsWith('-')) continue;
    const names = cmd.commands.flatMap((c) => [c.name(), ...c.aliases()]);
    // commander's own `help` verb (`aep help validate`)
    if (a === 'help') return undefined;
    const next = cmd.commands.find((c) => c.name() === a || c.aliases().includes(a));
    if (!next) {
      const near = nearestRuleIds(names, a, 1);
      const at = cmd === program ? '' : ` of '${cmd.name()}'`;
      return near.length ? `unknown command '${a}'${at} (Did you mean ${near[0]}?)` : `unknown command '${a}'${at}; the commands are ${names.join(', ')}`;
    }
    cmd = next;
  }
  return undefined;
}

/**
 * Run the CLI with `argv` (as `process.argv`). Returns the exit code.
 */
export async function main(protocol: CliProtocol, argv: string[], io: CliIO): Promise<number> {
  let code = 0;
  await protocol.prepare?.(argv);
  const program = buildProgram(protocol, io, (c) => (code = c));
  const unknown = unknownCommand(program, argv.slice(2));
  if (unknown !== undefined) {
    io.stderr.write(`${protocol.name}: ${unknown} (run with --help for usage)\n`);
    return 2;
  }
  try {
    await program.parseAsync(argv);
  } catch (e) {
    if (e instanceof CommanderError) {
      if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help') return 0;
      return 2;
    }
    io.stderr.write(`${protocol.name}: internal error: ${(e as Error)?.stack ?? String(e)}\n`);
    return 2;
  }
  return io.writeFailed?.() ? 2 : code;
}

/**
 * The real process as a {@link CliIO}; `program` (`aep`, `ahp`) names the bin in messages.
 */
export function processIO(program = basename(process.argv[1] ?? 'aep').replace(/\.[cm]?js$/, '')): CliIO {
  // A reader that goes away (`aep validate big.jsonl | head`) closes the pipe: stop writing to
  // it, finish the run and keep the exit code it earns, never a stack trace. Any other failed
  // write (`> /dev/full`: ENOSPC; EIO) is one line on stderr and exit 2, for every verb: the
  // report was not written, so the run gave no verdict. The error may come after the run has
  // returned its code (writes to pipes are asynchronous), so it also sets the exit code itself.
  const closed = { stdout: false, stderr: false };
  let failed = false;
  for (const name of ['stdout', 'stderr'] as const) {
    process[name].on('error', (e: NodeJS.ErrnoException) => {
      closed[name] = true;
      if (e.code === 'EPIPE') return;
      if (!failed && name === 'stdout' && !closed.stderr) process.stderr.write(`${program}: cannot write to standard output: ${e.message}\n`);
      failed = true;
      process.exitCode = 2;
    });
  }
  return {
    stdout: { write: (s) => void (closed.stdout || process.stdout.write(s)) },
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
