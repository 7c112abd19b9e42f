/**
 * Run the `aep` / `ahp` CLI in-process through `main(protocol, argv, io)` with a fake
 * {@link CliIO}: the same program, verbs, exit codes and output as the bins, without a process
 * per run. The few tests that need a real process (EPIPE, the bin entry) spawn one instead.
 */
import { fileURLToPath } from 'node:url';
import { aepCli } from '../../src/cli/aep.ts';
import { ahpCli } from '../../src/cli/ahp.ts';
import { main, type CliIO } from '../../src/cli/program.ts';

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
