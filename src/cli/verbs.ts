/** The `fixtures DIR`, `rules` and `explain RULE` verbs of both bins. */
import { EXIT } from '../core/exit.ts';
import { Option, type Command } from 'commander';
import type { Severity } from '../core/finding.ts';
import { createFixtureReporter, fixtureFormatsFor, type FixtureFormatName } from '../report/index.ts';
import type { Output } from '../report/types.ts';
import type { ProtocolDefinition } from '../core/protocol.ts';
import type { RuleMeta } from '../core/rule.ts';
import { addReportOptions, defaultColor, githubWorkspaceOf, reportRunError, VERSION, type CliIO } from './common.ts';
import { outputInTrees, outputIsReadMessage, outputUnderTrees, reportFileFor } from './output.ts';
import { editDistance } from '../core/nearest.ts';

/** Options of `fixtures`, after parsing. */
export interface FixturesOptions {
  format: FixtureFormatName;
  failOn: Severity;
  strict: boolean;
  maxFindings?: number;
  output?: string;
  quiet: boolean;
  color?: boolean;
  progress: boolean;
  deviations?: string;
  /** `--require-all`: an absent case file fails the run (instead of a skip). */
  requireAll?: boolean;
}

/** Run `fixtures DIR` and return its exit code; never throws (problems become a line on stderr and exit 2). */
export async function runFixturesVerb(
  protocol: ProtocolDefinition,
  dir: string,
  opts: FixturesOptions,
  io: CliIO,
): Promise<number> {
  const { fixtureExitCode, runFixtures } = await import('../fixture-runner/index.ts');
  if (opts.output !== undefined) {
    // the report would replace a case, the manifest, a sidecar or the deviations file it is about to read
    const same = outputInTrees(opts.output, [dir], opts.deviations !== undefined ? [opts.deviations] : []);
    if (same !== undefined) {
      const what =
        same === opts.deviations
          ? 'the deviations file'
          : `${same === opts.output ? 'a file' : `${same}, a file`} of the fixture directory ${dir}`;
      io.stderr.write(outputIsReadMessage(protocol.name, opts.output, what, `, outside ${dir}`));
      return EXIT.usage;
    }
    // a new file would join the cases, so the next run would read the report as one
    if (outputUnderTrees(opts.output, [dir]) !== undefined) {
      io.stderr.write(
        `${protocol.name}: --output ${opts.output} is inside the fixture directory ${dir}: the next run would read the report as one of its files; name another file, outside ${dir}\n`,
      );
      return EXIT.usage;
    }
  }
  // a report file is replaced only on success (src/cli/output.ts)
  const toFile = reportFileFor(protocol.name, opts.output, io.stderr);
  if (toFile === null) return EXIT.io;
  const out: Output = toFile ?? io.stdout;
  const color = opts.color ?? (toFile ? false : defaultColor(io));
  const reporter = createFixtureReporter(opts.format, out, {
    protocol: protocol.name,
    version: VERSION,
    color,
    quiet: opts.quiet,
    failOn: opts.failOn,
    rules: protocol.rules(),

    ...githubWorkspaceOf(io),
  });
  const showProgress = opts.progress && io.stderrIsTTY && !opts.quiet;
  let n = 0;
  let code: number;
  try {
    // the fixture runner and the catalogue load when their verb runs (not for validate, --help, --version)
    const run = await runFixtures({ def: protocol, options: {} }, dir, {
      strict: opts.strict,
      failOn: opts.failOn,
      ...(opts.maxFindings !== undefined ? { maxFindings: opts.maxFindings } : {}),
      ...(opts.deviations !== undefined ? { deviations: opts.deviations } : {}),
      ...(opts.requireAll ? { requireAll: true } : {}),
      cwd: io.cwd,
      onCase: (c) => {
        n++;
        if (showProgress) io.stderr.write('\r\x1b[K');
        reporter.caseResult(c);
        if (showProgress) io.stderr.write(`[${n}] ${c.id}`.slice(0, 100));
      },
    });
    if (showProgress) io.stderr.write('\r\x1b[K');
    // our sidecars list every finding exactly and a pass case must give none at all, so the
    // severity options cannot move a verdict there (README §Gate a CI job on a fixture directory)
    if (run.summary.layout === 'ours' && (opts.strict || opts.failOn !== 'error'))
      io.stderr.write(
        `${protocol.name}: note: --strict and --fail-on do not change the verdicts of our layout (a pass case must give no finding at all, a fail case exactly its sidecar's findings); they apply to the upstream corpora\n`,
      );
    code = fixtureExitCode(run.summary);
    reporter.finish(run.summary, { exitCode: code });
    if (code !== EXIT.ok && code !== EXIT.findings && run.summary.counts.error === 0)
      io.stderr.write(`${protocol.name}: no case in ${dir} was checked (all skipped or not run)\n`);
  } catch (e) {
    if (showProgress) io.stderr.write('\r\x1b[K');
    toFile?.abort();
    return reportRunError(protocol.name, e, io);
  }
  if (toFile) {
    const failed = toFile.commit();
    if (failed !== undefined) {
      io.stderr.write(`${protocol.name}: cannot write ${opts.output}: ${failed}\n`);
      return EXIT.io;
    }
  }
  return code;
}

/** Terminal columns when stdout is a terminal (`COLUMNS`, else 100), `undefined` when piped. */
export function terminalWidth(io: CliIO): number | undefined {
  if (!io.stdoutIsTTY) return undefined;
  const cols = io.columns || Number(io.env.COLUMNS);
  return Number.isInteger(cols) && cols > 0 ? cols : 100;
}

/**
 * Known ids near `wanted` by edit distance (whole id or name after the prefix, ignoring case), at most a third of its
 * length and at least 2, so `bogus` gets no suggestion.
 */
export function nearestRuleIds(ids: readonly string[], wanted: string, max = 3): string[] {
  const w = wanted.toLowerCase();
  const scored = ids.map((id) => {
    const l = id.toLowerCase();
    return { id, d: Math.min(editDistance(l, w), editDistance(l.slice(l.indexOf('/') + 1), w)) };
  });
  const best = Math.min(...scored.map((s) => s.d));
  if (best > Math.max(2, Math.floor(w.length / 3))) return [];
  return scored
    .filter((s) => s.d === best)
    .slice(0, max)
    .map((s) => s.id);
}

/** The usage error for an unknown rule id: the other protocol's bin, or the nearest ids; then `<protocol> rules`. */
export function unknownRuleMessage(
  protocol: ProtocolDefinition,
  id: string,
  verb: string,
  more: readonly RuleMeta[] = [],
): string {
  const other = protocol.name === 'aep' ? 'ahp' : 'aep';
  const near = nearestRuleIds(
    [...protocol.rules(), ...more].map((r) => r.id),
    id,
  );
  const hint = id.startsWith(`${other}/`)
    ? `; that is an ${other} rule: try \`${other} ${verb} ${id}\``
    : near.length
      ? `; did you mean ${near.join(', ')}?`
      : '';
  return `${protocol.name}: unknown rule "${id}"${hint} (\`${protocol.name} rules\` lists them all)\n`;
}

/** A bin's rules that `validate` does not run: `aep live` (a running endpoint), `ahp pin verify` (a pin folder). */
interface VerbRules {
  /** The `rules --verb` value that lists them. */
  verb: 'live' | 'pin';
  /** The verb that reports them. */
  name: string;
  /** Its command line. */
  command: string;
  /** What they judge, for the usage error of `validate --rule`. */
  judges: string;
  /** Where their cases are, for `explain` (they have no fixture files). */
  cases: string;
  load(): Promise<readonly RuleMeta[]>;
}

const VERB_RULES: Readonly<Record<ProtocolDefinition['name'], VerbRules>> = {
  aep: {
    verb: 'live',
    name: 'live',
    command: 'aep live URL',
    judges: 'a running endpoint',
    cases:
      'An `aep live` rule judges a running endpoint, so its cases are endpoints: the compliant test endpoint (test/live/endpoint.ts in the repository) passes it, and the broken variants listed for it in test/live/cases.ts fail it and no other check (test/live/live.test.ts). Run: aep live URL (`aep live --help` lists the checks).',
    load: async () => (await import('../live/rules.ts')).LIVE_RULES as unknown as readonly RuleMeta[],
  },
  ahp: {
    verb: 'pin',
    name: 'pin verify',
    command: 'ahp pin verify',
    judges: 'a pin folder: pin.json, the vendored MCP files and their extraction',
    cases:
      'A `pin/*` rule judges a pin folder (pin.json, the vendored upstream files, the committed extraction), so its cases are folders built in the tests: test/pin/verify.test.ts (pin verify) and test/pin/refresh.test.ts (pin refresh) raise each rule in a folder built for it, beside a well-pinned folder that raises none. Run: ahp pin verify [--dir DIR] (`ahp pin --help`).',
    load: async () => (await import('../pin/rules.ts')).PIN_RULES as unknown as readonly RuleMeta[],
  },
};

/** The rules of `verb` for `rules --verb` (`validate`: the protocol's own). */
async function rulesOfVerb(protocol: ProtocolDefinition, verb: string | undefined): Promise<readonly RuleMeta[]> {
  const other = VERB_RULES[protocol.name];
  return verb === other.verb ? other.load() : protocol.rules();
}

/**
 * The usage error of `validate --rule ID` for an id `validate` does not run: a rule of another verb (`aep live`,
 * `ahp pin verify`) is named as such; any other id gets {@link unknownRuleMessage}.
 */
export async function validateRuleMessage(protocol: ProtocolDefinition, id: string): Promise<string> {
  const other = VERB_RULES[protocol.name];
  const rules = await other.load();
  if (rules.some((r) => r.id === id))
    return `${protocol.name}: "${id}" is a rule of \`${other.command}\`, which judges ${other.judges}; \`validate\` does not run it (\`${protocol.name} rules --verb ${other.verb}\` lists these)\n`;
  return unknownRuleMessage(protocol, id, 'validate --rule', rules);
}

/** The rule id `explain --help` gives as its example, one of each protocol's own (a test checks both exist). */
export const EXPLAIN_EXAMPLE: Readonly<Record<ProtocolDefinition['name'], string>> = {
  aep: 'aep/time-format',
  ahp: 'ahp/event-id-reuse',
};

/** Register `fixtures`, `rules` and `explain` on `program`. */
export function addCatalogueAndFixtureVerbs(
  program: Command,
  protocol: ProtocolDefinition,
  io: CliIO,
  setExit: (code: number) => void,
): void {
  const fixtures = program
    .command('fixtures')
    .description(
      protocol.name === 'aep'
        ? 'run a fixture directory (ours: pass/ + fail/, or the upstream AEP corpus) and print one verdict per case'
        : 'run a fixture directory (ours: pass/ + fail/, or the upstream AHP manifest.json) and print one verdict per case',
    )
    .argument('<dir>', 'fixture directory');
  addReportOptions(fixtures, fixtureFormatsFor(protocol.name))
    .option(
      '--deviations <file>',
      'known disagreements [{"id", "reason"}]; a listed case that no longer deviates or no longer exists fails the run',
    )
    .option('--require-all', 'a case whose file is absent (AHP manifest) fails the run instead of being skipped', false)
    .option('--no-progress', 'never show the progress line');
  fixtures.action(async (dir: string, raw: Record<string, unknown>) => {
    const opts = { ...raw, color: raw.color === false ? false : undefined } as unknown as FixturesOptions;
    setExit(await runFixturesVerb(protocol, dir, opts, io));
  });

  const rulesVerb = program
    .command('rules')
    .description('list every rule: id, default severity, spec citation, one line')
    .addOption(new Option('-f, --format <format>', 'output format').choices(['text', 'json']).default('text'));
  const other = VERB_RULES[protocol.name];
  rulesVerb.addOption(
    new Option('--verb <verb>', `the rules of \`validate\` (streams) or of \`${other.name}\` (${other.judges})`)
      .choices(['validate', other.verb])
      .default('validate'),
  );
  rulesVerb.action(async (o: { format: 'text' | 'json'; verb?: string }) => {
    const { catalogueRows, renderRulesText } = await import('../report/catalogue.ts');
    const rules = await rulesOfVerb(protocol, o.verb);
    io.stdout.write(
      o.format === 'json'
        ? JSON.stringify(catalogueRows(rules, protocol.name), null, 2) + '\n'
        : renderRulesText(rules, terminalWidth(io)),
    );
    setExit(EXIT.ok);
  });

  program
    .command('explain')
    .description('describe one rule, with its citation and a failing and a passing example')
    .argument('<rule>', `rule id, e.g. ${EXPLAIN_EXAMPLE[protocol.name]}`)
    .action(async (id: string) => {
      const [{ renderExplain }, { findExamples }] = await Promise.all([
        import('../report/catalogue.ts'),
        import('../fixture-runner/examples.ts'),
      ]);
      const rules = protocol.rules();
      const other = VERB_RULES[protocol.name];
      const live = await other.load();
      const rule = rules.find((r) => r.id === id) ?? live.find((r) => r.id === id);
      if (!rule) {
        io.stderr.write(unknownRuleMessage(protocol, id, 'explain', live));
        setExit(EXIT.usage);
        return;
      }
      const width = terminalWidth(io);
      if (live.includes(rule)) {
        io.stdout.write(
          renderExplain(
            rule,
            { fail: [], pass: [] },
            {
              protocol: protocol.name,
              ...(width !== undefined ? { width } : {}),
              cases: other.cases,
            },
          ),
        );
        setExit(EXIT.ok);
        return;
      }
      io.stdout.write(
        renderExplain(
          rule,
          findExamples(
            protocol.name,
            rule.id,
            rules.map((r) => r.id),
          ),
          { protocol: protocol.name, ...(width !== undefined ? { width } : {}) },
        ),
      );
      setExit(EXIT.ok);
    });
}
