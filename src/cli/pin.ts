/** `ahp pin verify` / `ahp pin refresh` (AHP interaction-payloads §Pinned upstream maintenance). */
import { EXIT, exitCodeOfError } from '../core/exit.ts';
import { readdirSync, statSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Option, type Command } from 'commander';
import type { Finding } from '../core/finding.ts';
import { PACKAGE_ROOT as PACKAGE_ROOT_URL } from '../core/paths.ts';
import { exitCodeOf, tallyFindings, type RunResult } from '../run/run.ts';
import { EXTRACTION_SOURCE } from '../pin/model.ts';
import {
  DEFAULT_EXTRACTION,
  DEFAULT_PIN_DIR,
  PIN_RULES,
  pinRefresh,
  pinVerifyReport,
  type PinVerifyReport,
} from '../pin/index.ts';
import { createReporter, FORMATS, type FormatName } from '../report/index.ts';
import type { RuleMeta } from '../core/rule.ts';
import { defaultColor, githubWorkspaceOf, positiveInt, VERSION, type CliIO } from './common.ts';
import { outputInTrees, outputUnderTrees, type ReportFile, reportFileFor } from './output.ts';

const PACKAGE_ROOT = fileURLToPath(PACKAGE_ROOT_URL);

/** Running from an install (`node_modules`): pin.json ships without the upstream bytes, and it is not ours to write. */
export function isInstalledPackage(root: string = PACKAGE_ROOT): boolean {
  return resolve(root).split(sep).includes('node_modules');
}

function isInside(path: string, root: string): boolean {
  const r = relative(resolve(root), resolve(path));
  return r === '' || (!r.startsWith('..') && !r.startsWith(sep) && !/^[a-zA-Z]:/.test(r));
}

/** Why `pin refresh` must not write these paths of an installed package, or `undefined`. */
export function refreshRefusal(
  dir: string,
  extraction: string,
  adopt: boolean,
  root: string = PACKAGE_ROOT,
): string | undefined {
  if (!isInstalledPackage(root)) return undefined;
  if (isInside(dir, root))
    return `this is an installed package (${resolve(root)}) and refresh never writes inside it: pass --dir with a pin folder of your own (a copy of ${DEFAULT_PIN_DIR} holding pin.json), and --extraction with the extraction to compare`;
  if (adopt && isInside(extraction, root))
    return `--adopt would rewrite ${extraction} inside the installed package (${resolve(root)}): pass --extraction with a file of your own`;
  return undefined;
}

/** `s` as one shell word (single-quoted unless it needs no quoting). */
function shellWord(s: string): string {
  return /^[\w./:@%+=,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** The `pin refresh` command line that works where `pin verify` ran (placeholders in an installed package). */
export function refreshCommand(
  dir: string | undefined,
  extraction: string | undefined,
  cwd: string,
  root: string = PACKAGE_ROOT,
): string {
  const installed = isInstalledPackage(root);
  // in an installed package, only paths outside it are the user's own
  const own = (p: string | undefined): p is string =>
    p !== undefined && !(installed && isInside(resolve(cwd, p), root));
  const words = ['ahp pin refresh'];
  if (own(dir)) words.push('--dir', shellWord(dir));
  else if (installed) words.push('--dir <a copy of the pin folder>');
  if (own(extraction)) words.push('--extraction', shellWord(extraction));
  else if (installed) words.push('--extraction <a copy of the extraction>');
  return words.join(' ');
}

/** Resolve a user path against the working directory, a default against the package root. */
function pathArg(given: string | undefined, fallback: string, io: CliIO): string {
  return given ? resolve(io.cwd, given) : resolve(PACKAGE_ROOT, fallback);
}

/** Why `dir` cannot be a pin folder (missing, not a directory, unreadable), or `undefined`: a usage error, exit 2. */
export function pinDirProblem(dir: string, given: string | undefined): string | undefined {
  const name = given ?? dir;
  try {
    if (!statSync(dir).isDirectory()) return `--dir ${name} is not a directory (a pin folder holds pin.json)`;
    readdirSync(dir);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return code === 'ENOENT'
      ? `--dir ${name} does not exist (a pin folder holds pin.json)`
      : `--dir ${name} cannot be read: ${(e as Error).message}`;
  }
  return undefined;
}

/** `path` relative to `cwd` when inside it (as given on a command line), else absolute. */
function shown(path: string, cwd: string): string {
  return isInside(path, cwd) ? relative(cwd, path) || '.' : path;
}

/** What `pin verify` checked, one line each: sources with SHA-256 and size, or absent; then the extraction. */
export function verifiedLines(r: PinVerifyReport, dir: string, cwd: string): string {
  let out = `pin folder ${shown(dir, cwd)}${r.version ? ` (MCP ${r.version})` : ''}:\n`;
  for (const s of r.sources) {
    if (s.status === 'absent') out += `  ○ ${s.name}: absent, not checked (pinned sha256 ${s.pinned})\n`;
    else if (s.status === 'verified') out += `  ✔ ${s.name}: sha256 ${s.actual} (${s.bytes} bytes) equals pin.json\n`;
    else out += `  ✖ ${s.name}: sha256 ${s.actual} (${s.bytes} bytes), pin.json pins ${s.pinned}\n`;
  }
  const x = shown(r.extraction.path, cwd);
  // the extraction is compared with what the schema.json present gives: only a verified one is the pinned one
  const drifted = r.sources.find((s) => s.name === EXTRACTION_SOURCE)?.status === 'mismatch';
  const of = drifted
    ? `the schema.json present, which is not the pinned one (its sha256 differs, above)`
    : 'the pinned schema.json';
  const what: Record<PinVerifyReport['extraction']['status'], string> = {
    verified: `${drifted ? '✖' : '✔'} extraction ${x}: equals the extraction of ${of}`,
    mismatch: `✖ extraction ${x}: differs from the extraction of ${of}`,
    failed: `✖ extraction ${x}: ${drifted ? 'the schema.json present (not the pinned one)' : 'the pinned schema.json'} cannot be extracted`,
    missing: `✖ extraction ${x}: the committed file does not exist`,
    skipped: `○ extraction ${x}: not checked (schema.json absent)`,
    'not-run': `○ extraction ${x}: not checked (pin.json unusable)`,
  };
  out += `  ${what[r.extraction.status]}\n`;
  const checked = r.sources.filter((s) => s.status !== 'absent').length;
  if (checked === 0)
    out += `  nothing verified: no pinned source is present${r.sources.length ? '' : ' (pin.json unusable)'}\n`;
  return out + '\n';
}

/** Report `findings`; the sources are the files the verb looked at (`checked`), then any other a finding names. */
function report(
  kind: 'pin-verify' | 'pin-refresh',
  findings: readonly Finding[],
  format: FormatName,
  io: CliIO,
  color: boolean | undefined,
  checked: readonly string[] = [],
  toFile?: ReportFile,
): RunResult {
  const sources = [...new Set([...checked, ...findings.map((f) => f.source)])];
  const reporter = createReporter(format, toFile ?? io.stdout, {
    protocol: 'ahp',
    kind,
    sources,
    version: VERSION,
    color: color ?? (toFile ? false : defaultColor(io)),
    rules: PIN_RULES as unknown as readonly RuleMeta[],

    ...githubWorkspaceOf(io),
  });
  const tally = tallyFindings(findings, (f) => reporter.finding(f));
  reporter.finish(tally.summary);
  return tally;
}

/** The findings of a download that did not complete (network, redirect, size): `pin refresh` exits 2. */
const DOWNLOAD_FAILURES: ReadonlySet<string> = new Set([
  'pin/fetch-failed',
  'pin/redirect-refused',
  'pin/response-too-large',
]);

const OUTPUT_HELP =
  'write the report to a file instead of stdout (-: stdout); without --format, a name ending in .html, .sarif, .json, .ndjson or .jsonl (ndjson) or .xml (junit) picks that format';

/**
 * `-o FILE` of a pin verb, opened (README §Options of `validate`, `-o`): refused (exit 2) when it is one of the files the verb reads or
 * writes or lies in the pin folder, where `refresh --adopt` writes and `verify` reads every file; `null` after the
 * refusal or an open that failed (said on stderr), `undefined` without `-o`.
 */
function pinReportFile(
  verb: string,
  output: string | undefined,
  dir: string,
  extraction: string,
  io: CliIO,
  setExit: (code: number) => void,
): ReportFile | undefined | null {
  if (output === undefined) return undefined;
  const same = outputInTrees(output, [dir], [extraction]);
  const under = same ?? outputUnderTrees(output, [dir]);
  if (under !== undefined) {
    const shown = relative(io.cwd, dir) || '.';
    const what = same === extraction ? 'the extraction' : `inside the pin folder ${shown}`;
    io.stderr.write(
      `ahp ${verb}: --output ${output} is ${what}: writing the report there would change what the pin verifies; name another file${same === extraction ? '' : `, outside ${shown}`}\n`,
    );
    setExit(EXIT.usage);
    return null;
  }
  const toFile = reportFileFor(`ahp ${verb}`, output, io.stderr);
  if (toFile === null) setExit(EXIT.io);
  return toFile;
}

/** Rename a finished report into place: false (and exit 2, said on stderr) when it could not be written. */
function commitReport(
  verb: string,
  toFile: ReportFile | undefined,
  output: string | undefined,
  io: CliIO,
  setExit: (code: number) => void,
): boolean {
  const failed = toFile?.commit();
  if (failed === undefined) return true;
  io.stderr.write(`ahp ${verb}: cannot write ${output}: ${failed}\n`);
  setExit(EXIT.io);
  return false;
}

/** Register `pin verify` and `pin refresh` on the `ahp` program. */
export function registerPinCommands(program: Command, io: CliIO, setExit: (code: number) => void): void {
  const pin = program.command('pin').description('verify or refresh the pinned MCP 2025-11-25 elicitation files');
  pin
    .command('verify')
    .description('offline: check pinned digests and that the committed extraction matches the pinned schema.json')
    .option(
      '--dir <dir>',
      `pin folder holding pin.json and the vendored files (default: ${DEFAULT_PIN_DIR} in this package)`,
    )
    .option('--extraction <file>', `committed extraction to compare (default: ${DEFAULT_EXTRACTION} in this package)`)
    .option('--allow-missing', 'a pinned source file that is absent is a warning, not an error', false)
    .addOption(
      new Option('-f, --format <format>', 'output format').choices(FORMATS as unknown as string[]).default('text'),
    )
    .option('-o, --output <file>', OUTPUT_HELP)
    .option('--no-color', 'never colour text output')
    .action(
      async (o: {
        dir?: string;
        extraction?: string;
        allowMissing: boolean;
        format: FormatName;
        output?: string;
        color: boolean;
      }) => {
        let toFile: ReportFile | undefined;
        try {
          // an installed package ships pin.json, not the upstream bytes: verify what it ships
          const own = o.dir === undefined && isInstalledPackage();
          if (own && !o.allowMissing)
            io.stderr.write(
              `ahp pin verify: installed package: the pinned upstream files are not shipped, so absent ones are warnings (as with --allow-missing); pass --dir with a folder holding them to check them all\n`,
            );
          const dir = pathArg(o.dir, DEFAULT_PIN_DIR, io);
          const problem = pinDirProblem(dir, o.dir);
          if (problem !== undefined) {
            io.stderr.write(`ahp pin verify: ${problem}\n`);
            setExit(EXIT.io);
            return;
          }
          const extraction = pathArg(o.extraction, DEFAULT_EXTRACTION, io);
          const opened = pinReportFile('pin verify', o.output, dir, extraction, io, setExit);
          if (opened === null) return;
          toFile = opened;
          const r = await pinVerifyReport({
            dir,
            extraction,
            allowMissing: o.allowMissing || own,
            refreshCommand: refreshCommand(o.dir, o.extraction, io.cwd),
          });
          // what was verified: on stdout before the text report, on stderr beside a machine format
          (o.format === 'text' && !toFile ? io.stdout : io.stderr).write(verifiedLines(r, dir, io.cwd));
          const c = report(
            'pin-verify',
            r.findings,
            o.format,
            io,
            o.color === false ? false : undefined,
            [...r.sources.map((x) => x.path), r.extraction.path],
            toFile,
          );
          if (commitReport('pin verify', toFile, o.output, io, setExit)) setExit(exitCodeOf(c, 'error'));
        } catch (e) {
          toFile?.abort();
          io.stderr.write(`ahp pin verify: ${(e as Error).message}\n`);
          setExit(exitCodeOfError(e));
        }
      },
    );
  pin
    .command('refresh')
    .description('download exactly the pinned URLs into a staging folder, compare, and adopt only with --adopt')
    .option('--dir <dir>', `pin folder (default: ${DEFAULT_PIN_DIR} in this package)`)
    .option('--extraction <file>', `committed extraction (default: ${DEFAULT_EXTRACTION} in this package)`)
    .option('--base-url <url>', 'mirror replacing the URL prefix up to the version folder (http only on loopback)')
    .option('--adopt', 'replace the vendored files, the digests in pin.json and the extraction (atomically)', false)
    .addOption(new Option('--timeout <ms>', 'per-request timeout in milliseconds').argParser(positiveInt))
    .addOption(new Option('--max-bytes <n>', 'largest accepted download, in bytes').argParser(positiveInt))
    .addOption(
      new Option('-f, --format <format>', 'output format for findings')
        .choices(FORMATS as unknown as string[])
        .default('text'),
    )
    .option('-o, --output <file>', OUTPUT_HELP)
    .option('--no-color', 'never colour text output')
    .action(
      async (o: {
        dir?: string;
        extraction?: string;
        output?: string;
        baseUrl?: string;
        adopt: boolean;
        timeout?: number;
        maxBytes?: number;
        format: FormatName;
        color: boolean;
      }) => {
        const dir = pathArg(o.dir, DEFAULT_PIN_DIR, io);
        const extraction = pathArg(o.extraction, DEFAULT_EXTRACTION, io);
        const refusal = pinDirProblem(dir, o.dir) ?? refreshRefusal(dir, extraction, o.adopt);
        if (refusal) {
          io.stderr.write(`ahp pin refresh: ${refusal}\n`);
          setExit(EXIT.usage);
          return;
        }
        const toFile = pinReportFile('pin refresh', o.output, dir, extraction, io, setExit);
        if (toFile === null) return;
        try {
          const r = await pinRefresh({
            dir,
            extraction,
            baseUrl: o.baseUrl,
            adopt: o.adopt,
            timeoutMs: o.timeout,
            maxBytes: o.maxBytes,
            log: (line) => io.stderr.write(line.endsWith('\n') ? line : line + '\n'),
          });
          // the maintainer's report is prose: on stdout before a text report, on stderr beside a
          // machine format (stdout then holds exactly one JSON / SARIF / ... document)
          if (r.report)
            (o.format === 'text' && !toFile ? io.stdout : io.stderr).write(
              r.report.endsWith('\n') ? r.report : r.report + '\n',
            );
          const c = report('pin-refresh', r.findings, o.format, io, o.color === false ? false : undefined, [], toFile);
          if (!commitReport('pin refresh', toFile, o.output, io, setExit)) return;
          // a download that did not complete gave no verdict on the pin: exit 2, as unreadable input (README §Exit codes)
          const incomplete = r.findings.some((f) => DOWNLOAD_FAILURES.has(f.ruleId));
          setExit(incomplete ? EXIT.incomplete : r.changed ? EXIT.findings : exitCodeOf(c, 'error'));
        } catch (e) {
          toFile?.abort();
          io.stderr.write(`ahp pin refresh: ${(e as Error).message}\n`);
          setExit(exitCodeOfError(e));
        }
      },
    );
}
