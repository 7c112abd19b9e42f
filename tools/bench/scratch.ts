/**
 * The bench's scratch folders (generated inputs of 100 MB and more). Each caller removes its folder in a `finally`,
 * which an interrupted run skips (Ctrl-C, `timeout`): a folder not kept is removed on SIGINT, SIGTERM and SIGHUP too,
 * and the run still dies of the signal, as src/cli/output.ts does for its temporaries.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const live = new Set<string>();
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

function onSignal(signal: NodeJS.Signals): void {
  for (const dir of live) rmSync(dir, { recursive: true, force: true });
  live.clear();
  for (const s of SIGNALS) process.off(s, onSignal);
  if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
}

/** A new `<tmpdir>/<prefix>XXXXXX`; unless `keep`, removed if the run is interrupted before {@link removeScratch}. */
export function scratchDir(prefix: string, keep = false): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  if (keep) return dir;
  if (live.size === 0) for (const s of SIGNALS) process.on(s, onSignal);
  live.add(dir);
  return dir;
}

/** Remove a folder of {@link scratchDir} with everything in it. */
export function removeScratch(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  live.delete(dir);
  if (live.size === 0) for (const s of SIGNALS) process.off(s, onSignal);
}
