/**
 * Instructions per JavaScript function of one command, exact and repeatable whatever the machine's load:
 *
 *   node tools/bench/instr-profile.mjs [--top N] [--keep DIR] -- bin/aep.js validate FILE --format json --quiet --no-progress
 *
 * Runs `node --predictable --perf-basic-prof ARGS` under `valgrind --tool=callgrind` (V8 compiles on the main thread
 * with `--predictable`, so the same build and input give the same counts), then names each code address callgrind
 * could not (V8's generated code) from the perf map V8 wrote (/tmp/perf-PID.map) and sums instructions by function:
 * `*name` optimized, `^name` baseline, `~name` interpreted, `RegExp:...` a compiled expression; native frames keep
 * their own names. Prints the total and the top N rows (default 40). Needs valgrind (on every machine here, README).
 * Two builds compare by running this on each: a function's row moves by exactly what changed in it.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const argv = process.argv.slice(2);
const dash = argv.indexOf('--');
if (dash < 0 || dash === argv.length - 1) {
  process.stderr.write('usage: instr-profile.mjs [--top N] [--keep DIR] -- SCRIPT ARGS...\n');
  process.exit(2);
}
const opts = argv.slice(0, dash);
const top = Number(opts[opts.indexOf('--top') + 1]) || 40;
const keep = opts.includes('--keep') ? opts[opts.indexOf('--keep') + 1] : undefined;
const dir = keep ?? mkdtempSync(join(tmpdir(), 'instr-profile-'));
const out = join(dir, 'callgrind.out');

const run = spawnSync(
  'valgrind',
  [
    '--tool=callgrind',
    `--callgrind-out-file=${out}`,
    'node',
    '--predictable',
    '--perf-basic-prof',
    ...argv.slice(dash + 1),
  ],
  { stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 1 << 26 },
);
const pid = /==(\d+)== Collected/.exec(run.stderr.toString())?.[1];
if (run.status === null || !pid) {
  process.stderr.write(`callgrind did not finish: ${run.stderr.toString().slice(-2000)}\n`);
  process.exit(1);
}
const mapFile = join('/tmp', `perf-${pid}.map`);

/** [start, size, name] of each code object V8 reported, by start. */
const symbols = readFileSync(mapFile, 'utf8')
  .trim()
  .split('\n')
  .map((line) => {
    const [start, size, ...name] = line.split(' ');
    return [Number.parseInt(start, 16), Number.parseInt(size, 16), name.join(' ').replace(/^JS:/, '')];
  })
  .sort((a, b) => a[0] - b[0]);

function nameOf(addr) {
  let lo = 0;
  let hi = symbols.length - 1;
  let at = -1;
  while (lo <= hi) {
    const m = (lo + hi) >> 1;
    if (symbols[m][0] <= addr) {
      at = m;
      lo = m + 1;
    } else hi = m - 1;
  }
  return at >= 0 && addr < symbols[at][0] + symbols[at][1] ? symbols[at][2] : '(unnamed generated code)';
}

const table = execFileSync('callgrind_annotate', ['--threshold=100', out], { maxBuffer: 1 << 28 }).toString();
const total = Number(/([\d,]+) \([^)]*\)\s+PROGRAM TOTALS/.exec(table)?.[1].replace(/,/g, '') ?? Number.NaN);
const byName = new Map();
for (const line of table.split('\n')) {
  const m = /^\s*([\d,]+) \([^)]*\)\s+(.*)$/.exec(line);
  if (!m || m[2].includes('PROGRAM TOTALS')) continue;
  // `'2`: the calls of a function from itself (callgrind's --separate-recs=2), so its own row
  const code = /^\?\?\?:0x([0-9a-f]+)(?:'\d+)? \[\?\?\?\]$/.exec(m[2]);
  const name = code ? nameOf(Number.parseInt(code[1], 16)).replace(/ \/\S*\//, ' ') : m[2].replace(/^\?\?\?:/, '');
  byName.set(name, (byName.get(name) ?? 0) + Number(m[1].replace(/,/g, '')));
}
console.log(`${(total / 1e9).toFixed(3)} G instructions in all (${argv.slice(dash + 1).join(' ')})`);
for (const [name, n] of [...byName].sort((a, b) => b[1] - a[1]).slice(0, top))
  console.log(
    `${(n / 1e6).toFixed(1).padStart(9)} M ${((100 * n) / total).toFixed(2).padStart(6)}%  ${name.slice(0, 160)}`,
  );

// with --keep, the map beside the profile, for reading callers of a row
if (keep) copyFileSync(mapFile, join(dir, 'perf.map'));
rmSync(mapFile, { force: true });
if (!keep) rmSync(dir, { recursive: true, force: true });
else if (readdirSync(dir).length) console.log(`kept: ${out}`);
