/**
 * `npm run bench`: throughput and memory of `validate` against a parse-only baseline.
 *
 * For each protocol (AEP; AHP once `ahp validate` exists) it generates synthetic streams in a
 * temporary folder (nothing from ../shared is needed), then, in the same run, times:
 *   (a) the parse-only baseline: the same bytes split into lines and `JSON.parse`d, nothing
 *       else (tools/bench/baseline.ts, `split` mode), and
 *   (b) full `validate` through the real CLI entry (`node bin/<protocol>.js validate FILE
 *       --format json --quiet`),
 * each in its own child process, measuring wall time and the child's peak RSS. Both sizes
 * (the full size and a quarter of it) are measured, so a flat RSS shows that stream state is
 * released as sessions close. Prints events/s, MB/s, peak RSS and the ratio (b)/(a), and ends
 * with one JSON line per protocol. At the full size it also measures the state a run retains (after GC, at each
 * quarter of the file: tools/bench/state-probe.ts), per event, id, session and request.
 *
 * Options:
 *   --events N        AEP events at the full size (default 200000)
 *   --ahp-events N    AHP messages at the full size (default 300000)
 *   --protocol P      aep | ahp | all (default all)
 *   --runs R          best of R runs for each timing (default 3; the baseline and validate take turns)
 *   --readline        also time a node:readline baseline (slow on Node 20; informational)
 *   --keep            keep the generated files (their folder is printed)
 *
 * `--startup` measures start-up instead: R runs (default 9, interleaved) of `node -e 0`,
 * `aep validate examples/aep/session.jsonl`, `ahp validate examples/ahp/session.jsonl`,
 * `aep --version` and `aep --help`, each through the checkout's own entry (`node bin/aep.js`,
 * `node bin/ahp.js`: whatever the bins run), and prints the median wall time in seconds, the
 * median peak RSS in MB and the ratio to `node -e 0` of the same run, against the targets.
 *   --root DIR        the checkout whose bins and examples to run (default this one)
 *
 * `--findings N` measures reports instead: an AEP stream of N/5 lines that give five findings
 * each (N findings in all, default 150000) is validated once per `--format`, the report written
 * with `-o` to a file, and the peak RSS and wall time of each run are printed against the
 * target (peak RSS at most 200 MB for every format; a run that does not report N findings fails).
 *
 * `--bridges N` measures the bridge inputs instead: an AEP stream of N events (default 50000)
 * is converted with `aep convert --to cloudevents` and `--to otlp` (at `--max-capture full`),
 * and each form is validated with `aep validate --from ...`, beside the split+JSON.parse
 * baseline of the same file and the AEP stream itself (one row each).
 *
 * `--routes [N]` measures the routes instead (tools/bench/routes.ts): file, stdin, pipe, gzip,
 * library stream and session over the same bytes, each against the file, and the verbs that write
 * a stream with a reader that waits `--slow-ms` (default 15000) before it drains.
 */
import { spawn } from 'node:child_process';
import { existsSync, rmSync, statSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateAep, LineWriter } from './generate-aep.ts';
import { generateAhp } from './generate-ahp.ts';
import { removeScratch, scratchDir } from './scratch.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Loaded into every measured child (`node -r`): reports its peak RSS and CPU time on stderr at exit. */
const USAGE_HOOK = join(ROOT, 'tools/bench/usage-hook.cjs');

/** Parsed command line. */
interface BenchOptions {
  events: number;
  ahpEvents: number;
  protocols: ('aep' | 'ahp')[];
  runs: number;
  readline: boolean;
  keep: boolean;
  startup: boolean;
  root: string;
  /** `--findings N`: the report bench's finding count (0: not asked for). */
  findings: number;
  /** `--bridges N`: the bridge bench's event count (0: not asked for). */
  bridges: number;
  /** `--routes [N]`: the route bench (tools/bench/routes.ts); N events, or each protocol's default. */
  routes: boolean;
  routeEvents?: number;
  /** `--slow-ms MS`: how long the route bench's slow reader waits before it drains. */
  slowMs: number;
}

function parseArgs(argv: string[]): BenchOptions {
  const o: BenchOptions = {
    events: 200_000,
    ahpEvents: 300_000,
    protocols: ['aep', 'ahp'],
    runs: 0,
    readline: false,
    keep: false,
    startup: false,
    root: ROOT,
    findings: 0,
    bridges: 0,
    routes: false,
    slowMs: 15_000,
  };
  const num = (i: number) => {
    const v = Number(argv[i + 1]);
    if (!Number.isSafeInteger(v) || v < 1) throw new Error(`${argv[i]} needs a positive integer`);
    return v;
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--events') o.events = num(i++);
    else if (a === '--ahp-events') o.ahpEvents = num(i++);
    else if (a === '--runs') o.runs = num(i++);
    else if (a === '--readline') o.readline = true;
    else if (a === '--keep') o.keep = true;
    else if (a === '--startup') o.startup = true;
    else if (a === '--findings') o.findings = /^[1-9][0-9]*$/.test(argv[i + 1] ?? '') ? num(i++) : 150_000;
    else if (a === '--bridges') o.bridges = /^[1-9][0-9]*$/.test(argv[i + 1] ?? '') ? num(i++) : 50_000;
    else if (a === '--routes') {
      o.routes = true;
      if (/^[1-9][0-9]*$/.test(argv[i + 1] ?? '')) o.routeEvents = num(i++);
    } else if (a === '--slow-ms') o.slowMs = num(i++);
    else if (a === '--root') {
      if (argv[i + 1] === undefined) throw new Error('--root needs a directory');
      o.root = argv[++i];
    } else if (a === '--protocol') {
      const p = argv[++i];
      if (p === 'all') o.protocols = ['aep', 'ahp'];
      else if (p === 'aep' || p === 'ahp') o.protocols = [p];
      else throw new Error('--protocol takes aep, ahp or all');
    } else throw new Error(`unknown option ${a}`);
  }
  if (o.runs === 0) o.runs = o.startup ? 9 : o.findings || o.bridges ? 1 : 3;
  return o;
}

/** One measured child process. */
interface Measured {
  wallMs: number;
  maxRssMB: number;
  cpuMs: number;
  code: number | null;
  stdout: string;
  stderr: string;
}

function runChild(args: string[], cwd = ROOT, env: NodeJS.ProcessEnv = process.env): Promise<Measured> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['-r', USAGE_HOOK, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', reject);
    child.on('close', (code) => {
      const wallMs = performance.now() - started;
      const stderr = Buffer.concat(err).toString('utf8');
      const m = /@@usage (\{.*\})/.exec(stderr);
      const u = m
        ? (JSON.parse(m[1]) as { maxRSS: number; user: number; system: number })
        : { maxRSS: NaN, user: NaN, system: NaN };
      resolve({
        wallMs,
        maxRssMB: u.maxRSS / 1024,
        cpuMs: (u.user + u.system) / 1000,
        code,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: stderr.replace(/\n?@@usage .*\n?/, ''),
      });
    });
  });
}

/** The faster of two runs of one command, with the higher peak RSS of the two (memory is never the best case). */
function faster(b: Measured | undefined, m: Measured): Measured {
  if (!b) return m;
  return m.wallMs < b.wallMs
    ? { ...m, maxRssMB: Math.max(m.maxRssMB, b.maxRssMB) }
    : { ...b, maxRssMB: Math.max(m.maxRssMB, b.maxRssMB) };
}

async function best(runs: number, args: string[]): Promise<Measured> {
  let b: Measured | undefined;
  for (let i = 0; i < runs; i++) {
    const m = await runChild(args);
    if (m.code !== 0) return m;
    b = faster(b, m);
  }
  return b!;
}

/** Figures for one file. */
interface SizeResult {
  events: number;
  bytes: number;
  baseline: Measured;
  readline?: Measured;
  validate: Measured;
  /** Findings per rule on the (valid) generated input; expected empty. */
  findings: Record<string, number>;
}

async function measureFile(
  protocol: 'aep' | 'ahp',
  file: string,
  events: number,
  o: BenchOptions,
): Promise<SizeResult> {
  const bytes = statSync(file).size;
  const args = [`bin/${protocol}.js`, 'validate', file, '--format', 'json', '--quiet', '--no-progress'];
  // the baseline and validate take turns, so a slow minute on this machine falls on both, not on one of them
  let baseline: Measured | undefined;
  let readline: Measured | undefined;
  let validate: Measured | undefined;
  for (let i = 0; i < o.runs; i++) {
    const base = await runChild(['--import', 'tsx', 'tools/bench/baseline.ts', 'split', file]);
    if (base.code !== 0) throw new Error(`baseline failed: ${base.stderr}`);
    baseline = faster(baseline, base);
    if (o.readline)
      readline = faster(readline, await runChild(['--import', 'tsx', 'tools/bench/baseline.ts', 'readline', file]));
    const m = await runChild(args);
    validate = m.code !== 0 ? m : faster(validate, m);
    if (m.code !== 0) break;
  }
  if (!baseline || !validate) throw new Error('--runs must be at least 1');
  if (validate.code !== 0) {
    throw new Error(
      `${protocol} validate exited ${validate.code} on generated input (it must be valid):\n${validate.stderr.slice(0, 2000)}\n${validate.stdout.slice(0, 2000)}`,
    );
  }
  const report = JSON.parse(validate.stdout) as {
    summary: { events: number; errors: number; warnings: number; infos: number; byRule: Record<string, number> };
  };
  if (report.summary.events !== events)
    throw new Error(`${protocol} validate saw ${report.summary.events} events of ${events}`);
  validate.stdout = '';
  // the generated streams are valid: any finding is a validator limit (a cap) or a bug, shown, not hidden
  return { events, bytes, baseline, readline, validate, findings: report.summary.byRule };
}

const fmt = (n: number, d = 0) => n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });

function describe(label: string, m: Measured, events: number, bytes: number): string {
  const s = m.wallMs / 1000;
  return `    ${label.padEnd(22)} ${fmt(s, 2).padStart(7)} s  ${fmt(events / s).padStart(10)} events/s  ${fmt(bytes / 1048576 / s, 1).padStart(6)} MB/s  peak RSS ${fmt(m.maxRssMB, 0).padStart(4)} MB  cpu ${fmt(m.cpuMs / 1000, 2)} s`;
}

async function benchProtocol(
  protocol: 'aep' | 'ahp',
  dir: string,
  o: BenchOptions,
): Promise<Record<string, unknown> | undefined> {
  if (protocol === 'ahp' && !(existsSync(join(ROOT, 'src/cli/ahp.ts')) && existsSync(join(ROOT, 'bin/ahp.js')))) {
    console.log('ahp: skipped (ahp validate is not available yet)');
    return undefined;
  }
  const full = protocol === 'aep' ? o.events : o.ahpEvents;
  const small = Math.max(1, Math.floor(full / 4));
  const results: SizeResult[] = [];
  let state: StateProbe | undefined;
  for (const n of [small, full]) {
    const file = join(dir, `${protocol}-${n}.jsonl`);
    const t = performance.now();
    const g = protocol === 'aep' ? generateAep(file, { events: n }) : generateAhp(file, { messages: n });
    console.log(
      `${protocol}: generated ${fmt(n)} events, ${fmt(g.bytes / 1048576, 1)} MB in ${fmt((performance.now() - t) / 1000, 1)} s`,
    );
    results.push(await measureFile(protocol, file, n, o));
    if (n === full) state = await probeState(protocol, file);
    if (!o.keep) rmSync(file);
  }
  const [a, b] = results;
  for (const r of results) {
    console.log(`  ${fmt(r.events)} events (${fmt(r.bytes / 1048576, 1)} MB):`);
    console.log(describe('(a) split+JSON.parse', r.baseline, r.events, r.bytes));
    if (r.readline) console.log(describe('    readline+JSON.parse', r.readline, r.events, r.bytes));
    console.log(describe(`(b) ${protocol} validate`, r.validate, r.events, r.bytes));
    console.log(
      `    ratio (b)/(a) ${fmt(r.validate.wallMs / r.baseline.wallMs, 2)}${r.readline ? `  (vs readline ${fmt(r.validate.wallMs / r.readline.wallMs, 2)})` : ''}`,
    );
    const found = Object.entries(r.findings);
    if (found.length)
      console.log(`    NOTE: findings on valid generated input: ${found.map(([k, n]) => `${k} x${n}`).join(', ')}`);
  }
  const rssGrowth = b.validate.maxRssMB - a.validate.maxRssMB;
  console.log(
    `  peak RSS at ${fmt(a.events)} vs ${fmt(b.events)} events: ${fmt(a.validate.maxRssMB)} MB -> ${fmt(b.validate.maxRssMB)} MB (${rssGrowth >= 0 ? '+' : ''}${fmt(rssGrowth)} MB)`,
  );
  if (state) {
    const [q, , , end] = state.points;
    const per = Object.entries(state.bytesPer)
      .map(([k, v]) => `${v === null ? '-' : fmt(v)} B per ${k}`)
      .join(', ');
    console.log(
      `  retained state after GC (tools/bench/state-probe.ts) at ${fmt(q!.events)} vs ${fmt(end!.events)} events: ${fmt(q!.retainedMB, 1)} MB -> ${fmt(end!.retainedMB, 1)} MB (+${fmt(state.growthMB, 1)} MB): ${per}`,
    );
  }
  return {
    protocol,
    events: b.events,
    bytes: b.bytes,
    ratio: round(b.validate.wallMs / b.baseline.wallMs, 2),
    ...(b.readline ? { ratioVsReadline: round(b.validate.wallMs / b.readline.wallMs, 2) } : {}),
    validateSeconds: round(b.validate.wallMs / 1000, 2),
    baselineSeconds: round(b.baseline.wallMs / 1000, 2),
    eventsPerSecond: Math.round(b.events / (b.validate.wallMs / 1000)),
    mbPerSecond: round(b.bytes / 1048576 / (b.validate.wallMs / 1000), 1),
    peakRssMB: Math.round(b.validate.maxRssMB),
    smallEvents: a.events,
    smallPeakRssMB: Math.round(a.validate.maxRssMB),
    smallRatio: round(a.validate.wallMs / a.baseline.wallMs, 2),
    findingsOnValidInput: b.findings,
    ...(state ? { state } : {}),
  };
}

/** What tools/bench/state-probe.ts prints. */
interface StateProbe {
  points: { events: number; ids: number; sessions: number; requests: number; retainedMB: number }[];
  growthMB: number;
  bytesPer: Record<'event' | 'id' | 'session' | 'request', number | null>;
}

/** The state `validate` retains on `file`, measured after GC at each quarter (tools/bench/state-probe.ts). */
async function probeState(protocol: 'aep' | 'ahp', file: string): Promise<StateProbe> {
  const m = await runChild(['--expose-gc', '--import', 'tsx', 'tools/bench/state-probe.ts', protocol, file]);
  if (m.code !== 0) throw new Error(`state probe failed: ${m.stderr.slice(0, 2000)}`);
  const { points, growthMB, bytesPer } = JSON.parse(m.stdout) as StateProbe;
  return { points, growthMB, bytesPer };
}

function round(n: number, d: number): number {
  const f = 10 ** d;
  return Math.round(n * f) / f;
}

/** A start-up case: its label, node arguments, and targets (seconds, ratio to `node -e 0`, MB). */
interface StartupCase {
  label: string;
  args: string[];
  target?: { s: number; ratio: number; mb: number };
}

const STARTUP_CASES: StartupCase[] = [
  { label: 'node -e 0', args: ['-e', '0'] },
  {
    label: 'aep validate examples/aep/session.jsonl',
    args: ['bin/aep.js', 'validate', 'examples/aep/session.jsonl'],
    target: { s: 0.2, ratio: 3.5, mb: 70 },
  },
  {
    label: 'ahp validate examples/ahp/session.jsonl',
    args: ['bin/ahp.js', 'validate', 'examples/ahp/session.jsonl'],
    target: { s: 0.25, ratio: 4, mb: 70 },
  },
  { label: 'aep --version', args: ['bin/aep.js', '--version'] },
  { label: 'aep --help', args: ['bin/aep.js', '--help'] },
];

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/**
 * `--startup`: interleaved runs of every case; medians, ratios to `node -e 0`, target verdicts.
 * When NODE_EXTRA_CA_CERTS is set, node reads and parses that certificate bundle at start-up,
 * before any of our code (~90 ms with the system bundle on these machines: `node -e 0` 0.04 s
 * becomes 0.13 s), so the cases also run without it, in the same rounds, and both are printed.
 */
async function startup(o: BenchOptions): Promise<void> {
  console.log(
    `node ${process.version}, ${cpus().length} CPUs (${cpus()[0]?.model ?? 'unknown'}), start-up of ${o.root}, median of ${o.runs} runs`,
  );
  const envs: { name: string; env: NodeJS.ProcessEnv }[] = [{ name: 'environment as given', env: process.env }];
  if (process.env.NODE_EXTRA_CA_CERTS !== undefined) {
    const { NODE_EXTRA_CA_CERTS: _, ...rest } = process.env;
    envs[0]!.name = `environment as given (NODE_EXTRA_CA_CERTS=${process.env.NODE_EXTRA_CA_CERTS})`;
    envs.push({ name: 'without NODE_EXTRA_CA_CERTS', env: rest });
  }
  const runs = envs.map(() => STARTUP_CASES.map(() => [] as Measured[]));
  for (let r = 0; r < o.runs; r++) {
    for (const [e, { env }] of envs.entries()) {
      for (const [i, c] of STARTUP_CASES.entries()) {
        const m = await runChild(c.args, o.root, env);
        if (m.code !== 0) throw new Error(`${c.label} exited with ${m.code}: ${m.stderr.trim().split('\n')[0] ?? ''}`);
        runs[e]![i]!.push(m);
      }
    }
  }
  const results = envs.map(({ name }, e) => {
    const node = median(runs[e]![0]!.map((m) => m.wallMs));
    const rows = STARTUP_CASES.map((c, i) => ({
      label: c.label,
      s: median(runs[e]![i]!.map((m) => m.wallMs)) / 1000,
      mb: median(runs[e]![i]!.map((m) => m.maxRssMB)),
      target: c.target,
    }));
    let met = true;
    console.log(`${name}:`);
    for (const row of rows) {
      const ratio = (row.s * 1000) / node;
      let verdict = '';
      if (row.target) {
        const ok = row.s <= row.target.s && ratio <= row.target.ratio && row.mb <= row.target.mb;
        met &&= ok;
        verdict = `  target <= ${row.target.s} s, <= ${row.target.ratio}x, <= ${row.target.mb} MB: ${ok ? 'met' : 'NOT met'}`;
      }
      console.log(
        `  ${row.label.padEnd(42)} ${fmt(row.s, 3)} s  ${fmt(row.mb, 1).padStart(6)} MB  ${fmt(ratio, 2).padStart(5)}x${verdict}`,
      );
    }
    return {
      environment: name,
      startup: rows.map(({ label, s, mb }) => ({
        label,
        s: round(s, 3),
        mb: round(mb, 1),
        ratio: round((s * 1000) / node, 2),
      })),
      met,
    };
  });
  console.log(JSON.stringify({ runs: o.runs, results }));
}

/** Report formats of `validate`, each measured by {@link reports}. */
const REPORT_FORMATS = ['text', 'json', 'ndjson', 'sarif', 'junit', 'github', 'html'] as const;

/**
 * `--findings N`: peak RSS of one `aep validate -o FILE` per format over a stream giving N
 * findings (five per line: no session, no seq, no agent, a type outside the grammar, a day that
 * does not exist), against the 200 MB target.
 */
async function reports(o: BenchOptions): Promise<void> {
  const dir = scratchDir('agent-conformance-bench-', o.keep);
  try {
    const file = join(dir, 'findings.jsonl');
    const lines = Math.ceil(o.findings / 5);
    const w = new LineWriter(file);
    for (let i = 0; i < lines; i++)
      w.line(`{"aep":"0.1","id":"e${i}","type":"x.bench.tick","source":"urn:bench","time":"2026-11-31T00:00:00Z"}`);
    w.close();
    console.log(
      `node ${process.version}: ${fmt(lines)} lines, ${fmt(lines * 5)} findings, ${fmt(statSync(file).size / 1048576, 1)} MiB`,
    );
    const rows = [];
    for (const format of REPORT_FORMATS) {
      const out = join(dir, `report.${format}`);
      const m = await best(o.runs, ['bin/aep.js', 'validate', file, '--format', format, '--no-progress', '-o', out]);
      if (m.code !== 1) throw new Error(`--format ${format} exited ${m.code}: ${m.stderr.slice(0, 500)}`);
      const size = statSync(out).size;
      rows.push({
        format,
        s: round(m.wallMs / 1000, 1),
        mb: round(m.maxRssMB, 1),
        reportMiB: round(size / 1048576, 1),
      });
      console.log(
        `  ${format.padEnd(7)} ${fmt(m.wallMs / 1000, 1).padStart(6)} s  peak RSS ${fmt(m.maxRssMB, 1).padStart(6)} MB  report ${fmt(size / 1048576, 1)} MiB  target <= 200 MB: ${m.maxRssMB <= 200 ? 'met' : 'NOT met'}`,
      );
      rmSync(out, { force: true });
    }
    console.log(JSON.stringify({ findings: lines * 5, reports: rows }));
  } finally {
    if (!o.keep) removeScratch(dir);
  }
}

/** `--bridges N`: `aep validate --from cloudevents|otlp` beside the AEP stream they were converted from. */
async function bridges(o: BenchOptions): Promise<void> {
  const dir = scratchDir('agent-conformance-bench-', o.keep);
  try {
    const aep = join(dir, 'aep.jsonl');
    generateAep(aep, { events: o.bridges });
    const rows = [];
    for (const [label, from, to] of [
      ['aep', undefined, undefined],
      ['cloudevents', 'cloudevents', 'cloudevents'],
      ['otlp', 'otlp', 'otlp'],
    ] as const) {
      let file = aep;
      if (to) {
        file = join(dir, `${to}.jsonl`);
        const c = await runChild([
          '-e',
          `const {spawnSync}=require('node:child_process');const fs=require('node:fs');const r=spawnSync(process.execPath,['bin/aep.js','convert','--to','${to}','--max-capture','full',${JSON.stringify(aep)}],{maxBuffer:1<<30});fs.writeFileSync(${JSON.stringify(file)},r.stdout);process.exitCode=r.status;`,
        ]);
        if (c.code !== 0) throw new Error(`aep convert --to ${to} exited ${c.code}: ${c.stderr.slice(0, 500)}`);
      }
      const bytes = statSync(file).size;
      const baseline = await best(o.runs, ['--import', 'tsx', 'tools/bench/baseline.ts', 'split', file]);
      const m = await best(o.runs, [
        'bin/aep.js',
        'validate',
        ...(from ? ['--from', from, '--max-capture', 'full'] : []),
        file,
        '--format',
        'json',
        '--quiet',
        '--no-progress',
      ]);
      if (m.code !== 0)
        throw new Error(
          `aep validate${from ? ` --from ${from}` : ''} exited ${m.code} on converted valid input: ${m.stdout.slice(0, 1000)}`,
        );
      console.log(`  ${label}: ${fmt(bytes / 1048576, 1)} MiB`);
      console.log(describe('(a) split+JSON.parse', baseline, o.bridges, bytes));
      console.log(describe(`(b) aep validate${from ? ` --from ${from}` : ''}`, m, o.bridges, bytes));
      console.log(`    ratio (b)/(a) ${fmt(m.wallMs / baseline.wallMs, 2)}`);
      rows.push({
        input: label,
        events: o.bridges,
        s: round(m.wallMs / 1000, 2),
        ratio: round(m.wallMs / baseline.wallMs, 2),
        mb: round(m.maxRssMB, 1),
      });
    }
    console.log(JSON.stringify({ bridges: rows }));
  } finally {
    if (!o.keep) removeScratch(dir);
  }
}

async function main(): Promise<void> {
  const o = parseArgs(process.argv.slice(2));
  if (o.startup) return startup(o);
  if (o.findings) return reports(o);
  if (o.bridges) return bridges(o);
  if (o.routes) {
    const { routes } = await import('./routes.ts');
    const rows = await routes({ protocols: o.protocols, events: o.routeEvents, runs: o.runs, slowMs: o.slowMs });
    for (const r of rows) console.log(JSON.stringify(r));
    return;
  }
  const dir = scratchDir('agent-conformance-bench-', o.keep);
  const started = performance.now();
  console.log(`node ${process.version}, ${cpus().length} CPUs (${cpus()[0]?.model ?? 'unknown'}), files in ${dir}`);
  const lines: Record<string, unknown>[] = [];
  try {
    for (const p of o.protocols) {
      const r = await benchProtocol(p, dir, o);
      if (r) lines.push(r);
    }
  } finally {
    if (!o.keep) removeScratch(dir);
  }
  console.log(`bench finished in ${fmt((performance.now() - started) / 1000, 1)} s`);
  for (const l of lines) console.log(JSON.stringify(l));
}

main().catch((e: unknown) => {
  process.stderr.write(`bench: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exitCode = 1;
});
