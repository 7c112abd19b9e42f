/**
 * The commander program of `aep` and `ahp`: `validate`, the shared verbs (verbs.ts) and a bin's own. All process access
 * goes through the CliIO passed in, so tests drive it. Exit codes: README §Exit codes.
 */
import { EXIT } from '../core/exit.ts';
import { Command, CommanderError, Option } from 'commander';
import type { Finding, Severity } from '../core/finding.ts';
import { DEFAULT_MAX_DEPTH } from '../core/json.ts';
import { DEFAULT_MAX_LINE_BYTES } from '../core/jsonl.ts';
import type { InputSpec } from '../core/pipeline.ts';
import { createReporter, type FormatName } from '../report/index.ts';
import type { Output } from '../report/types.ts';
import { unitOf } from '../report/util.ts';
import { optionsFromFlags, unknownRuleId, type ProtocolDefinition } from '../core/protocol.ts';
import { exitCodeOf, runInputs, type RunResult } from '../run/run.ts';
import {
  addReportOptions,
  collect,
  defaultColor,
  githubWorkspaceOf,
  hintChoices,
  openInputs,
  positiveInt,
  processIO,
  reportRunError,
  VALIDATE_READS,
  VERSION,
  type CliBin,
  type CliExtras,
  type CliIO,
} from './common.ts';
import { positiveNumber, refuseEmptyPaths } from './args.ts';
import { outputIsInput, outputIsReadMessage, reportFileFor } from './output.ts';
import { exitHelp } from './exit-help.ts';
import { addCatalogueAndFixtureVerbs, nearestRuleIds, terminalWidth, validateRuleMessage } from './verbs.ts';
import { dashIsStdout, impliedFormat } from './output-name.ts';

export { formatOfOutputName } from './output-name.ts';

export { processIO, type CliBin, type CliExtras, type CliIO };

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
  /** `--each` / `--no-each`; absent: document inputs alone, JSONL inputs one stream. */
  each?: boolean;
  /** `--rule ID` (repeatable): run only these rules (framing always runs); absent or empty runs all. */
  rule?: string[];
  [key: string]: unknown;
}

/** TTY progress on stderr after a second, at most 5 a second; cleared around each finding on the same terminal. */
function progressPrinter(io: CliIO, totalBytes: number | undefined, protocol: string) {
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
      const of =
        totalBytes && bytes <= totalBytes
          ? ` of ${mb(totalBytes)} MiB (${Math.floor((bytes / totalBytes) * 100)}%)`
          : ' MiB';
      text = `${mb(bytes)}${of}, ${rate} ${unitOf(protocol)}s/s`;
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

/** Run one `validate` and return its exit code; never throws (errors become a line on stderr and exit 2). */
export async function runValidate(
  def: ProtocolDefinition,
  files: string[],
  opts: ValidateOptions,
  io: CliIO,
): Promise<number> {
  const unknownRule = unknownRuleId(def, opts.rule);
  if (unknownRule !== undefined) {
    io.stderr.write(await validateRuleMessage(def, unknownRule));
    return EXIT.usage;
  }
  for (const f of def.flags) {
    const needs = f.requires;
    if (
      needs &&
      opts[f.name] !== undefined &&
      !(typeof needs.value === 'string' ? [needs.value] : needs.value).includes(opts[needs.name] as string)
    ) {
      io.stderr.write(
        `${def.name}: ${f.flags.split(' ')[0]} applies only with ${needs.flags} (run with --help for usage)\n`,
      );
      return EXIT.usage;
    }
  }
  const options = optionsFromFlags(def, opts);
  let inputs: InputSpec[];
  try {
    inputs = openInputs(files, io, (p) => def.framing(p, options), def.name);
  } catch (e) {
    io.stderr.write(`${def.name}: ${(e as Error).message}\n`);
    return EXIT.io;
  }
  if (opts.output !== undefined) {
    // the report would replace the log it reports on
    const same = outputIsInput(opts.output, files);
    if (same !== undefined) {
      io.stderr.write(outputIsReadMessage(def.name, opts.output, `the input ${same}`));
      return EXIT.usage;
    }
  }
  // waiting on a terminal for typed input looks like a hang: say what it waits for
  if (io.stdinIsTTY && inputs.some((i) => i.source === '<stdin>') && !opts.quiet)
    io.stderr.write(`${def.name}: reading standard input (end it with Ctrl-D; name files to check them instead)\n`);
  const toFile = reportFileFor(def.name, opts.output, io.stderr);
  if (toFile === null) return EXIT.io;
  const total = inputs.every((i) => i.size !== undefined) ? inputs.reduce((a, i) => a + (i.size ?? 0), 0) : undefined;
  const progress = opts.progress && io.stderrIsTTY && !opts.quiet ? progressPrinter(io, total, def.name) : undefined;
  // on a terminal the report and the progress line share the screen: clear it around each write
  const out: Output =
    toFile ??
    (progress
      ? {
          write: (s) => {
            progress.suspend();
            io.stdout.write(s);
            progress.resume();
          },
        }
      : io.stdout);
  const color = opts.color ?? (toFile ? false : defaultColor(io));
  const reporter = createReporter(opts.format, out, {
    protocol: def.name,
    version: VERSION,
    color,
    quiet: opts.quiet,
    failOn: opts.failOn,
    rules: def.rules(),
    knownTypes: def.knownTypes(),
    sources: inputs.map((i) => i.source),
    width: toFile ? undefined : terminalWidth(io),

    ...githubWorkspaceOf(io),
  });
  const debug =
    io.env.AGENT_CONFORMANCE_DEBUG !== undefined &&
    io.env.AGENT_CONFORMANCE_DEBUG !== '' &&
    io.env.AGENT_CONFORMANCE_DEBUG !== '0';
  let result: RunResult;
  try {
    result = await runInputs(
      def,
      inputs,
      { ...options, maxFindings: opts.maxFindings, each: opts.each as boolean | undefined },
      {
        finding: (f: Finding) => reporter.finding(f),
        ...(reporter.event ? { facts: reporter.event } : {}),
        streamEnd: (sources, summary) => reporter.inputSummary?.(sources.join(' + '), summary),
        ...(progress ? { progress: (b: number, events: number) => progress.update(b, events) } : {}),
        // the finding says what threw; the stack only when asked for (AGENT_CONFORMANCE_DEBUG=1)
        ...(debug
          ? {
              crash: (e) =>
                void io.stderr.write(
                  `${def.name}: ${e.message}\n${e.cause instanceof Error && e.cause.stack ? e.cause.stack + '\n' : ''}`,
                ),
            }
          : {}),
      },
    );
  } catch (e) {
    progress?.clear();
    toFile?.abort();
    return reportRunError(def.name, e, io);
  }
  progress?.clear();
  const code = exitCodeOf(result, opts.failOn);
  reporter.finish(result.summary, { exitCode: code });
  if (toFile) {
    const failed = toFile.commit();
    if (failed !== undefined) {
      io.stderr.write(`${def.name}: cannot write ${opts.output}: ${failed}\n`);
      return EXIT.io;
    }
  }
  if (result.incomplete)
    io.stderr.write(
      `${def.name}: a rule threw while checking (internal/rule-error above): the verdict is incomplete; set AGENT_CONFORMANCE_DEBUG=1 for the stack, and please report it\n`,
    );
  return code;
}

/** Build the program for one protocol; `setExit` receives the exit code of the verb that ran. */
function buildProgram(bin: CliBin, io: CliIO, setExit: (code: number) => void): Command {
  const { def, extras } = bin;
  const program = new Command(def.name)
    .description(def.description)
    .version(VERSION)
    .exitOverride()
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
      // a usage error is one line, prefixed like every other error of the CLI
      outputError: (s, write) =>
        write(
          `${def.name}: ${s
            .replace(/^error: /, '')
            .trimEnd()
            .replace(/\s*\n\s*/g, ' ')}${otherBinOption(def.name, s)} (run with --help for usage)\n`,
        ),
    });

  const reads = VALIDATE_READS[def.name] ?? VALIDATE_READS.aep!;
  const validate = program
    .command('validate')
    .description(`${reads.what} from files, or - / nothing for stdin, and print findings`)
    .argument('[files...]', `${reads.files}; - reads standard input`);
  addReportOptions(validate)
    .addOption(
      new Option('--max-line-bytes <n>', 'longest line accepted, in bytes')
        .argParser(positiveInt)
        .default(DEFAULT_MAX_LINE_BYTES),
    )
    .addOption(
      new Option('--max-depth <n>', 'deepest nesting of arrays/objects accepted')
        .argParser(positiveInt)
        .default(DEFAULT_MAX_DEPTH),
    )
    .option(
      '--rule <id>',
      `run only this rule (repeatable; framing jsonl/* and json/* findings, and lines of another format, always appear); \`${def.name} rules\` lists the ids`,
      collect,
    )
    .option('--no-progress', 'never show the progress line')
    .option(
      '--each',
      'check every input as its own stream, with its own summary line (default: each HTTP body or registration document alone, JSONL inputs one stream)',
    )
    .option('--no-each', 'check all inputs as one stream, in the order given');
  for (const f of def.flags) {
    const o = new Option(f.flags, f.description);
    if (f.kind === 'choice') o.choices(f.choices as string[]);
    else o.argParser(f.kind === 'positive-int' ? positiveInt : positiveNumber);
    if (f.default !== undefined) o.default(f.default);
    validate.addOption(o);
  }
  validate.action(async (files: string[], raw: Record<string, unknown>) => {
    const opts = { ...raw, color: raw.color === false ? false : undefined } as ValidateOptions;
    setExit(await runValidate(def, files, opts, io));
  });
  addCatalogueAndFixtureVerbs(program, def, io, setExit);
  extras.commands?.(program, io, setExit);
  for (const cmd of leafCommands(program)) {
    // every verb accepts --no-color, even one that never colours, so a wrapper can pass it to all
    if (!cmd.options.some((o) => o.long === '--no-color')) cmd.option('--no-color', 'never colour text output');
    for (const o of cmd.options) {
      if (o.mandatory && !o.description.endsWith('(required)')) o.description += ' (required)';
      if (o.argChoices) hintChoices(o, o.argChoices);
    }
    refuseEmptyPaths(cmd);
    if (cmd.options.some((o) => o.long === '--output')) cmd.hook('preAction', dashIsStdout);
    // the exit codes of this verb only (the whole list: README §Exit codes)
    const path = cmd.parent && cmd.parent !== program ? `${cmd.parent.name()} ${cmd.name()}` : cmd.name();
    cmd.addHelpText('after', exitHelp(path));
    if (cmd.options.some((o) => o.long === '--format') && cmd.options.some((o) => o.long === '--output'))
      cmd.hook('preAction', (c) => impliedFormat(c, (note) => io.stderr.write(`${def.name} ${path}: note: ${note}\n`)));
  }
  return program;
}

/** Every command of `cmd` that runs an action (no subcommands of its own). */
function leafCommands(cmd: Command): Command[] {
  return cmd.commands.flatMap((c) => (c.commands.length ? leafCommands(c) : [c]));
}

/** Verbs and options only the other bin has, by bin: a usage error that names one points to it. */
const OTHER_BIN: Readonly<Record<string, { bin: string; verbs: readonly string[]; options: readonly string[] }>> = {
  aep: { bin: 'ahp', verbs: ['pin'], options: ['--binding'] },
  ahp: {
    bin: 'aep',
    verbs: ['live', 'redact', 'downlevel', 'filter', 'convert'],
    options: ['--from', '--max-capture', '--forms', '--profile'],
  },
};

/** `; --binding is an option of ahp` when commander's `error` names an option only the other bin has, else `''`. */
function otherBinOption(bin: string, error: string): string {
  const other = OTHER_BIN[bin];
  const named = /unknown option '([^'=]+)/.exec(error)?.[1];
  return other && named && other.options.includes(named) ? `; ${named} is an option of ${other.bin}` : '';
}

/** The usage error for an unknown verb in `args` (commander would answer `--help` with exit 0), or `undefined`. */
export function unknownCommand(program: Command, args: readonly string[]): string | undefined {
  let cmd = program;
  for (let i = 0; i < args.length && cmd.commands.length > 0; i++) {
    const a = args[i]!;
    if (a === '--') return undefined;
    if (a.startsWith('-')) continue;
    const names = cmd.commands.flatMap((c) => [c.name(), ...c.aliases()]);
    // commander's own `help` verb (`aep help validate`): the verb it names must exist, as for `VERB --help`
    if (a === 'help') {
      const named = args.slice(i + 1).find((x) => !x.startsWith('-'));
      if (named === undefined || names.includes(named)) return undefined;
      const near = nearestRuleIds(names, named, 1);
      return near.length
        ? `unknown command '${named}' (Did you mean ${near[0]}?)`
        : `unknown command '${named}'; the commands are ${names.join(', ')}`;
    }
    const next = cmd.commands.find((c) => c.name() === a || c.aliases().includes(a));
    const other = cmd === program ? OTHER_BIN[program.name()] : undefined;
    if (!next && other?.verbs.includes(a))
      return `unknown command '${a}': it is a verb of ${other.bin} (\`${other.bin} ${a}\`)`;
    if (!next) {
      const near = nearestRuleIds(names, a, 1);
      const at = cmd === program ? '' : ` of '${cmd.name()}'`;
      return near.length
        ? `unknown command '${a}'${at} (Did you mean ${near[0]}?)`
        : `unknown command '${a}'${at}; the commands are ${names.join(', ')}`;
    }
    cmd = next;
  }
  return undefined;
}

/** Run the CLI with `argv` (as `process.argv`); returns the exit code. */
export async function main(bin: CliBin, argv: string[], io: CliIO): Promise<number> {
  let code = 0;
  await bin.extras.prepare?.(argv);
  const program = buildProgram(bin, io, (c) => (code = c));
  const unknown = unknownCommand(program, argv.slice(2));
  if (unknown !== undefined) {
    io.stderr.write(`${bin.def.name}: ${unknown} (run with --help for usage)\n`);
    return EXIT.usage;
  }
  try {
    await program.parseAsync(argv);
  } catch (e) {
    if (e instanceof CommanderError) {
      if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version') return EXIT.ok;
      // no verb (`aep`) or no subcommand (`ahp pin`): commander prints the help on stderr; a usage error (README §Exit codes)
      if (e.code === 'commander.help') return argv.slice(2).includes('help') ? EXIT.ok : EXIT.usage;
      return EXIT.usage;
    }
    io.stderr.write(`${bin.def.name}: internal error: ${(e as Error)?.stack ?? String(e)}\n`);
    return EXIT.internal;
  }
  return io.writeFailed?.() ? EXIT.io : code;
}
