/**
 * The test step of `npm test`: every `test/<folder>/<name>.test.ts` through node's test runner, three processes at a
 * time, with each test file's tests under a suite named by its path.
 *
 * Why not one process per file (node's default): each process loads tsx and some 300 source modules through its
 * loader hooks, about a second of CPU, which was most of the time of the ~110 light files. So light files share a
 * process: a group entry imports them one after another, each inside `describe(path)` (its `before`/`after` hooks stay
 * its own). Files whose weight (test/weights.json: seconds of a full-scale run; `npm run test:weights` refreshes
 * it) is at least ALONE, and files that say `test-run: own process`, still run in their own process, heaviest first,
 * then the groups, heaviest first, so the processes end together. A file absent from the weights counts as light.
 * Three processes on two cores: the live and packaging tests wait on sockets, timers and npm, and a third process
 * uses the core they leave (measured: README §Development).
 *
 * `node tools/test-run.mjs [FILE...]` runs the given files (default: all); `--write-weights` rewrites test/weights.json
 * from this run (`npm run test:weights` does it at full scale); other arguments starting with `-` go to `node --test`
 * (e.g. `--test-name-pattern=...`). Exit code: node's.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const REPO = fileURLToPath(new URL('../', import.meta.url));
/** CPU seconds at which a file gets a process of its own. */
const ALONE = 8;
/** CPU seconds a group of light files aims at. */
const GROUP = 20;

/** Every test file, repo-relative, in name order. */
function allFiles() {
  const out = [];
  for (const dir of readdirSync(join(REPO, 'test'), { withFileTypes: true }))
    if (dir.isDirectory())
      for (const f of readdirSync(join(REPO, 'test', dir.name)))
        if (f.endsWith('.test.ts')) out.push(`test/${dir.name}/${f}`);
  return out.sort();
}

function weights() {
  const p = join(REPO, 'test/weights.json');
  return existsSync(p) ? JSON.parse(readFileSync(p, 'utf8')) : {};
}

/** The marker of a file that needs a process of its own (it observes what its process has loaded, say). */
export const OWN_PROCESS = 'test-run: own process';

/**
 * Entries for node --test: heavy files and those with {@link OWN_PROCESS} alone, then the light ones packed into
 * groups (longest first). `own(f)`: whether `f` has the marker.
 */
export function plan(files, w, own = () => false) {
  const weight = (f) => w[f] ?? 1;
  const alone = (f) => weight(f) >= ALONE || own(f);
  const heavy = files.filter(alone).sort((a, b) => weight(b) - weight(a));
  const light = files.filter((f) => !alone(f)).sort((a, b) => weight(b) - weight(a));
  const total = light.reduce((s, f) => s + weight(f), 0);
  const groups = Array.from({ length: Math.max(1, Math.min(light.length, Math.round(total / GROUP))) }, () => ({
    files: [],
    weight: 0,
  }));
  for (const f of light) {
    const g = groups.reduce((a, b) => (b.weight < a.weight ? b : a));
    g.files.push(f);
    g.weight += weight(f);
  }
  groups.sort((a, b) => b.weight - a.weight);
  return { heavy, groups: groups.filter((g) => g.files.length > 0).map((g) => g.files) };
}

/**
 * The source of a group entry: each file imported inside a suite named by its path. A file that throws while it loads
 * fails a test of its own (`loads`), as it fails its process when run alone; without it node counts only "cancelled".
 */
export function groupSource(files, root = REPO) {
  const lines = [`import { describe, test } from 'node:test';`];
  for (const f of files) {
    const url = JSON.stringify(pathToFileURL(join(root, f)).href);
    lines.push(
      `describe(${JSON.stringify(f)}, async () => { try { await import(${url}); } catch (e) { test('loads', () => { throw e; }); } });`,
    );
  }
  return `${lines.join('\n')}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  // --write-weights: the reporter writes this run's seconds per file to test/weights.json
  const writeWeights = args.includes('--write-weights');
  const flags = args.filter((a) => a.startsWith('-') && a !== '--write-weights');
  const named = args.filter((a) => !a.startsWith('-')).map((a) => relative(REPO, join(process.cwd(), a)));
  const own = (f) => readFileSync(join(REPO, f), 'utf8').includes(OWN_PROCESS);
  const { heavy, groups } = plan(named.length > 0 ? named : allFiles(), weights(), own);
  const dir = mkdtempSync(join(tmpdir(), 'agent-conformance-tests-'));
  // node --test runs its files in name order, whatever order they are given in: the names keep the plan's order. A
  // file run alone is a group of one, so that every file's tests sit under a suite named by its path.
  const order = [...heavy.map((f) => [f]), ...groups];
  const entries = order.map((files, i) => {
    const p = join(dir, `${String(i + 1).padStart(3, '0')}.mjs`);
    writeFileSync(p, groupSource(files));
    return p;
  });
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '--test',
      '--test-concurrency=3',
      `--test-reporter=${join(REPO, 'tools/test-summary.mjs')}`,
      ...flags,
      ...entries,
    ],
    {
      cwd: REPO,
      stdio: 'inherit',
      env: writeWeights
        ? { ...process.env, AGENT_CONFORMANCE_TEST_WEIGHTS: join(REPO, 'test/weights.json') }
        : process.env,
    },
  );
  const done = (code) => {
    rmSync(dir, { recursive: true, force: true });
    process.exitCode = code;
  };
  child.on('exit', (code, signal) => done(code ?? (signal ? 1 : 0)));
  for (const s of ['SIGINT', 'SIGTERM']) process.on(s, () => child.kill(s));
}
