/**
 * `aep live URL`: conformance of a running collector, relay or fan-out endpoint (src/live/check.ts), through the
 * same reporters and exit codes as `validate`; the Events it delivered are checked by the `validate` rules too and,
 * with `--record FILE`, written there as JSONL.
 */
import { resolve } from 'node:path';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { AEP } from '../aep/definition.ts';
import { EXIT } from '../core/exit.ts';
import { nearestWord } from '../core/nearest.ts';
import type { Finding, Severity } from '../core/finding.ts';
import type { LiveResult } from '../live/check.ts';
import { BACKPRESSURE_MAX_MIB, BACKPRESSURE_MIB } from '../live/backpressure-rules.ts';
import { LIVE_CHECKS, LIVE_DESTRUCTIVE, LIVE_RULES, LIVE_SLOW, type LiveCheck } from '../live/rules.ts';
import { createReporter, type FormatName } from '../report/index.ts';
import { exitCodeOf, runInputs, tallyFindings } from '../run/run.ts';
import { addReportOptions, type CliIO, defaultColor, githubWorkspaceOf, VERSION } from './common.ts';
import { reportFileFor } from './output.ts';

interface LiveFlags {
  format: FormatName;
  failOn: Severity;
  strict: boolean;
  output?: string;
  quiet: boolean;
  color?: boolean;
  token?: string;
  checks?: LiveCheck[];
  timeout: number;
  heartbeat?: number;
  backpressureMib?: number;
  record?: string;
  destructive: boolean;
  identity: 'strict' | 'floor';
  controlSession?: string;
  ackWindow?: number;
  controlAccepts?: string;
  controlUndeclared?: string;
  controlCancel?: string;
  controlSource?: string;
}

function checksArg(v: string): LiveCheck[] {
  const list = v.split(',').map((s) => s.trim());
  if (list.includes(''))
    throw new InvalidArgumentError(`an empty check name in the list (checks: ${LIVE_CHECKS.join(', ')})`);
  const bad = list.filter((c) => !(LIVE_CHECKS as readonly string[]).includes(c));
  if (bad.length) {
    const near = bad.length === 1 ? nearestWord(bad[0]!, LIVE_CHECKS, true) : undefined;
    throw new InvalidArgumentError(
      `unknown check ${bad.join(', ')}${near ? ` (did you mean ${near}?)` : ''} (checks: ${LIVE_CHECKS.join(', ')})`,
    );
  }
  return list as LiveCheck[];
}

function msArg(v: string): number {
  if (!/^[1-9][0-9]*$/.test(v)) throw new InvalidArgumentError('expected a positive number of milliseconds.');
  return Number(v);
}

function mibArg(v: string): number {
  if (!/^[1-9][0-9]*$/.test(v) || Number(v) > BACKPRESSURE_MAX_MIB)
    throw new InvalidArgumentError(`expected a whole number of MiB from 1 to ${BACKPRESSURE_MAX_MIB}.`);
  return Number(v);
}

/** Register `live` on the `aep` program. */
export function addLiveVerb(program: Command, io: CliIO, setExit: (code: number) => void): void {
  const live = program
    .command('live')
    .description(
      'check a running collector, relay or fan-out endpoint over the AEP-0003 bindings (discovery, POST ingest, SSE, WebSocket); the Events it delivers are validated too',
    )
    .argument('<url>', 'the endpoint base URL, e.g. http://127.0.0.1:8080');
  addReportOptions(live)
    .option(
      '--token <token>',
      "bearer token for every request but the token check's probes, sent without one (AEP-0003 §8.1); also AEP_TOKEN",
    )
    .addOption(
      new Option(
        '--checks <list>',
        `comma-separated checks (default all but the destructive ${[...LIVE_DESTRUCTIVE].join(', ')} and the slow ${[...LIVE_SLOW].join(', ')}): ${LIVE_CHECKS.join(', ')}`,
      ).argParser(checksArg),
    )
    .option(
      '--destructive',
      `also run the checks that fill the endpoint's replay buffer or post large Events (${[...LIVE_DESTRUCTIVE].join(', ')}); not against a shared production endpoint`,
      false,
    )
    .addOption(
      new Option(
        '--identity <mode>',
        'how byte-identity compares: the AEP-0001 §4.2 floor (core attributes and data unaltered), or the bytes posted',
      )
        .choices(['floor', 'strict'])
        .default('floor'),
    )
    .addOption(new Option('--timeout <ms>', 'how long one check waits for an answer').argParser(msArg).default(5000))
    .addOption(
      new Option(
        '--heartbeat <ms>',
        'the SSE heartbeat interval the heartbeat check judges (default 30000, AEP-0003 §3.3 #4); that check runs only when named in --checks',
      ).argParser(msArg),
    )
    .addOption(
      new Option(
        '--backpressure-mib <n>',
        `the most the backpressure check posts toward its paused consumer, in MiB (default ${BACKPRESSURE_MIB}, AEP-0003 §8.4); that check runs with --destructive or when named in --checks`,
      ).argParser(mibArg),
    )
    .option('--record <file>', 'write every Event the endpoint delivered to FILE as JSONL')
    // scripts pass validate's flags to every verb: live draws no progress line, so this is accepted and does nothing
    .option('--no-progress', 'accepted as validate takes it (live draws no progress line)')
    .option(
      '--control-session <session>',
      'opt-in: a session a connected control target claims; the control-ack, -dedupe, -unsupported checks send it real commands (AEP-0004)',
    )
    .addOption(
      new Option(
        '--ack-window <ms>',
        "how long a control check waits for an ack (default: the endpoint's hello ack_window_ms, else 10000)",
      ).argParser(msArg),
    )
    .option('--control-accepts <type>', 'a command type the target declares (default control.attention.respond)')
    .option(
      '--control-undeclared <type>',
      'a command type the target does not declare, also the probe of control-no-route and control-ambiguous (default x.agent-conformance.control.probe)',
    )
    .option(
      '--control-cancel <run>',
      'DESTRUCTIVE, opt-in: cancel this run of the --control-session target (control-cancel check)',
    )
    .option(
      '--control-source <uri>',
      'the source of the commands sent, which the target dedupes on (default aep://agent-conformance/live/control)',
    );
  live.action(async (url: string, raw: LiveFlags) => setExit(await runLive(url, raw, io)));
}

async function runLive(url: string, o: LiveFlags, io: CliIO): Promise<number> {
  let base: URL;
  try {
    base = new URL(url);
    if (base.protocol !== 'http:' && base.protocol !== 'https:') throw new Error('not http(s)');
  } catch {
    // `localhost:8080` parses as scheme "localhost:": a URL without its scheme, most likely
    const bare = /^[\w.-]+(:\d+)?(\/|$)/.test(url) || /^\[[\d:a-fA-F.]+\](:\d+)?(\/|$)/.test(url);
    const hint = bare ? `; did you mean http://${url}?` : '';
    io.stderr.write(`aep live: ${url} is not an http: or https: URL${hint}\n`);
    return EXIT.usage;
  }
  // discovery is `{base}/events` (AEP-0003 §3.4): a base ending in it is most likely the discovery URL given by mistake
  if (/\/events\/?$/.test(base.pathname))
    io.stderr.write(
      `aep live: note: discovery is asked at ${url.replace(/\/$/, '')}/events; if ${url} is the discovery document itself, give the base URL without /events\n`,
    );
  if (o.record !== undefined && o.output !== undefined && resolve(o.record) === resolve(o.output)) {
    io.stderr.write(`aep live: --record and -o name the same file (${o.record})\n`);
    return EXIT.usage;
  }
  const toFile = reportFileFor('aep', o.output, io.stderr);
  if (toFile === null) return EXIT.io;
  // written beside and renamed when the run completed, like -o: a failed run leaves an earlier record as it was
  const recordFile = reportFileFor('aep', o.record, io.stderr);
  if (recordFile === null) {
    toFile?.abort();
    return EXIT.io;
  }
  const { checkEndpoint } = await import('../live/check.ts');
  const { LiveConnectError } = await import('../live/client.ts');
  const progress = io.stderrIsTTY && !o.quiet;
  let result: LiveResult;
  try {
    result = await checkEndpoint(base, {
      token: o.token ?? io.env.AEP_TOKEN,
      ...(o.checks ? { checks: o.checks } : {}),
      timeoutMs: o.timeout,
      ...(o.heartbeat !== undefined ? { heartbeatMs: o.heartbeat } : {}),
      ...(o.backpressureMib !== undefined ? { backpressureMib: o.backpressureMib } : {}),
      destructive: o.destructive,
      identity: o.identity,
      control: {
        ...(o.controlSession !== undefined ? { session: o.controlSession } : {}),
        ...(o.ackWindow !== undefined ? { ackWindowMs: o.ackWindow } : {}),
        ...(o.controlAccepts !== undefined ? { accepts: o.controlAccepts } : {}),
        ...(o.controlUndeclared !== undefined ? { undeclared: o.controlUndeclared } : {}),
        ...(o.controlCancel !== undefined ? { cancelRun: o.controlCancel } : {}),
        ...(o.controlSource !== undefined ? { source: o.controlSource } : {}),
      },
      ...(progress ? { onCheck: (c: LiveCheck) => void io.stderr.write(`\r\u001b[Kaep live: checking ${c}...`) } : {}),
    });
  } catch (e) {
    if (progress) io.stderr.write('\r\u001b[K');
    // unreachable, but the base URL alone was judged (a plain off-host base): the report says both, exit 1
    const judged = e instanceof LiveConnectError ? e.result : undefined;
    if (judged?.findings.some((f) => f.ruleId !== 'aep/live-skipped' && f.ruleId !== 'aep/live-timeout'))
      result = judged;
    else {
      toFile?.abort();
      recordFile?.abort();
      if (!(e instanceof LiveConnectError)) throw e;
      io.stderr.write(`aep live: ${e.message}\n`);
      return EXIT.io;
    }
  }
  if (progress) io.stderr.write('\r\u001b[K');
  const findings: Finding[] = [...result.findings];
  // the delivered Events themselves, checked by the validate rules as one stream
  const source = o.record ?? '<delivered>';
  const text = result.delivered.map((l) => `${l}\n`).join('');
  if (recordFile) {
    recordFile.write(text);
    const failed = recordFile.commit();
    if (failed !== undefined) {
      io.stderr.write(`aep live: cannot write ${o.record}: ${failed}\n`);
      toFile?.abort();
      return EXIT.io;
    }
  }
  const checks = o.strict
    ? result.checks.map((c) => ({
        ...c,
        errors: c.errors + c.warnings,
        warnings: 0,
        ...(c.status === 'passed' && c.warnings ? { status: 'failed' as const } : {}),
      }))
    : result.checks;
  const reporter = createReporter(o.format, toFile ?? io.stdout, {
    protocol: 'aep',
    kind: 'live',
    checks,
    version: VERSION,
    color: o.color === false || toFile ? false : defaultColor(io),
    quiet: o.quiet,
    failOn: o.failOn,
    rules: [...AEP.rules(), ...LIVE_RULES],
    knownTypes: AEP.knownTypes(),
    sources: [base.href, ...(text ? [source] : [])],

    ...githubWorkspaceOf(io),
  });
  const delivered = !text
    ? undefined
    : await runInputs(
        AEP,
        [
          {
            source,
            framing: 'jsonl',
            open: async function* () {
              yield Buffer.from(text);
            },
          },
        ],
        {},
        { finding: (f) => void findings.push(f), ...(reporter.event ? { facts: reporter.event } : {}) },
      );
  // in text the check list names the skipped checks together, by reason: a line per skip finding would say each again
  // (18 times when discovery fails); the machine formats and html keep every finding beside their check list. A
  // binding left unjudged by a check that ran (messageId `binding`) is in no list: it keeps its line
  const saidByChecks = (f: Finding) =>
    o.format === 'text' && f.ruleId === 'aep/live-skipped' && f.messageId === 'skipped';
  const r = tallyFindings(
    findings.map((f) => (o.strict && f.severity === 'warning' ? { ...f, severity: 'error' as const } : f)),
    (f) => saidByChecks(f) || reporter.finding(f),
  );
  // the counts are the run's; the statistics (events, lines, bytes, coverage) those of the delivered Events checked
  const stats = delivered?.summary;
  let code = exitCodeOf(r, o.failOn);
  const noneRan = code === EXIT.ok && result.ran.length === 0;
  // checks skipped for refused credentials verified nothing: never a pass (README, "Credentials refused")
  const refused = result.credentials;
  if (noneRan || (code === EXIT.ok && refused)) code = EXIT.incomplete;
  // `inputs` is the one endpoint checked; bytes, lines and events those of the Events it delivered (README)
  const counts = pick(r.summary, ['errors', 'warnings', 'infos', 'byRule', 'omitted']);
  reporter.finish(stats ? { ...stats, ...counts, inputs: 1 } : { ...r.summary, inputs: 1 }, { exitCode: code });
  if (toFile) {
    const failed = toFile.commit();
    if (failed !== undefined) {
      io.stderr.write(`aep live: cannot write ${o.output}: ${failed}\n`);
      return EXIT.io;
    }
  }
  // said once, whatever the format: which option to pass, and how many checks it left unrun
  if (refused) {
    const n = refused.skipped.length;
    // the count is of every surface refused (POST, SSE GET, WebSocket subscribe), not only the one the reason names
    io.stderr.write(
      `aep live: ${refused.reason}; ${n} check${n === 1 ? ' was' : 's were'} skipped for refused credentials\n`,
    );
  }
  if (noneRan && !refused)
    io.stderr.write(
      `aep live: none of the checks asked for ran (${result.skipped.length} skipped): nothing was verified\n`,
    );
  return code;
}

function pick<T extends object, K extends keyof T>(o: T, keys: readonly K[]): Pick<T, K> {
  return Object.fromEntries(keys.map((k) => [k, o[k]])) as Pick<T, K>;
}
