/**
 * The one way a test makes a temporary folder, so that none outlives its test run (/tmp once held hundreds of
 * leftovers, 8.7 MB each for some). Each folder is removed by the hook of its scope (its test, its file, its
 * process) and, as a backstop, when its process exits or is ended by SIGINT, SIGTERM or SIGHUP (an interrupted
 * `node --test` ends its files' processes so, and no hook runs then). test/meta/temp-dirs.test.ts refuses
 * `mkdtemp` and `tmpdir` anywhere else in test/.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, type TestContext } from 'node:test';

/** Folders not yet removed; the one exit listener removes what is left. */
const live = new Set<string>();

function remove(dir: string): void {
  live.delete(dir);
  rmSync(dir, { recursive: true, force: true });
}

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

function removeAll(): void {
  for (const dir of [...live]) remove(dir);
}

/** As src/cli/output.ts does for its temporaries: remove, then die of the signal unless another listener is left. */
function onSignal(signal: NodeJS.Signals): void {
  removeAll();
  for (const s of SIGNALS) process.off(s, onSignal);
  if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
}

let watching = false;

function make(prefix: string): string {
  if (!watching) {
    watching = true;
    process.on('exit', removeAll);
    for (const s of SIGNALS) process.on(s, onSignal);
  }
  const dir = mkdtempSync(join(tmpdir(), prefix));
  live.add(dir);
  return dir;
}

/** A new folder `<tmpdir>/<prefix>XXXXXX`, removed with everything in it when test `t` ends (passed or not). */
export function tempDir(t: TestContext, prefix: string): string {
  const dir = make(prefix);
  t.after(() => remove(dir));
  return dir;
}

/** A folder for a whole test file (call it at module level): removed by the file's `after` hook. */
export function fileTempDir(prefix: string): string {
  const dir = make(prefix);
  after(() => remove(dir));
  return dir;
}

/** A folder made lazily and shared by several files of one process: removed when the process exits. */
export function processTempDir(prefix: string): string {
  return make(prefix);
}

/** `use` given a new folder, removed when `use` returns or throws (a folder that lives within one call). */
export function withTempDir<T>(prefix: string, use: (dir: string) => T): T {
  const dir = make(prefix);
  try {
    return use(dir);
  } finally {
    remove(dir);
  }
}
