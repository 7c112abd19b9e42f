/** The case files below a folder, for the tests that sweep our conformance cases or an upstream corpus. */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Every file below `dir` whose name `wanted` accepts, sorted by path; none when `dir` is absent. */
export function filesBelow(dir: string, wanted: (name: string) => boolean): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...filesBelow(p, wanted));
    else if (wanted(name)) out.push(p);
  }
  return out;
}

/** Every JSONL case below `dir` (sidecars and manifests aside), sorted. */
export const jsonlBelow = (dir: string): string[] => filesBelow(dir, (name) => name.endsWith('.jsonl'));
