/**
 * Run the `aep` / `ahp` CLI in-process through `main(protocol, argv, io)` with a fake
 * {@link CliIO}: the same program, verbs, exit codes and output as the bins, without a process
 * per run. The few tests that need a real process (EPIPE, the bin entry) spawn one instead.
 */
import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { aepCli } from '../../src/cli/aep.ts';
import { ahpCli } from '../../src/cli/ahp.ts';
import { main, type CliIO } from '../../src/cli/program.ts';
import { fileTempDir } from '../temp.ts';

/** Repository root; relative paths in tests are taken from here (as the spawned bins were). */
export const REPO = fileURLToPath(new URL('../../', import.meta.url));
process.chdir(REPO);

/** Exit code and captured output of one run. */
export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Run `<bin> args...` with `stdin` as standard input (no terminal, `NO_COLOR=1`, no CI
 * environment, working directory {@link REPO}; `over` replaces any of these {@link CliIO}
 * fields, e.g. terminals). Returns the exit code the bin would exit with.
 */
export async function runCli(
  bin: 'aep' | 'ahp',
  args: readonly string[],
  stdin: string | Uint8Array = '',
  over: Partial<CliIO> = {},
): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const io: CliIO = {
    stdout: { write: (s) => void (stdout += s) },
    stderr: { write: (s) => void (stderr += s) },
    stdin: (async function* () {
      if (stdin.length) yield typeof stdin === 'string' ? Buffer.from(stdin) : stdin;
    })(),
    env: { NO_COLOR: '1' },
    stdoutIsTTY: false,
    stderrIsTTY: false,
    cwd: REPO,
    ...over,
  };
  const code = await main(bin === 'aep' ? aepCli : ahpCli, ['node', bin, ...args], io);
  return { code, stdout, stderr };
}

/**
 * A fixture folder in our layout holding the first `n` passing and `n` failing cases of conformance/<protocol> (with
 * their sidecars), removed when the calling file's tests end: for tests of what `fixtures` does with a folder (quiet,
 * output files, exit codes on a broken write), not of the verdict of every case, which test/fixture-runner checks.
 */
export function fixtureSample(protocol: 'aep' | 'ahp', n = 3): string {
  const dir = fileTempDir(`ac-${protocol}-sample-`);
  for (const group of ['pass', 'fail']) {
    const from = join(REPO, 'conformance', protocol, group);
    mkdirSync(join(dir, group));
    const names = readdirSync(from).sort();
    const cases = names.filter((f) => /\.jsonl?$/.test(f) && !f.endsWith('.expected.json')).slice(0, n);
    for (const c of cases) {
      copyFileSync(join(from, c), join(dir, group, c));
      const sidecar = c.replace(/\.jsonl?$/, '.expected.json');
      if (names.includes(sidecar)) copyFileSync(join(from, sidecar), join(dir, group, sidecar));
    }
  }
  return dir;
}
