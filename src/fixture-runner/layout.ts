/** Our layout's names: `*.jsonl` / `*.json` cases in `pass/` or `fail/`, expectations in `<stem>.expected.json`. */
import { existsSync, readdirSync } from 'node:fs';

/** The sidecar suffix of a failing case. */
export const SIDECAR = '.expected.json';

/** Case files in `dir` (sorted): `*.jsonl` and `*.json` that are not sidecars; none when `dir` is absent. */
export function caseFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isFile() && (e.name.endsWith('.jsonl') || (e.name.endsWith('.json') && !e.name.endsWith(SIDECAR))))
    .map((e) => e.name)
    .sort();
}

/** A case file's name without `.jsonl` / `.json`: its sidecar is `caseStem(name) + SIDECAR`. */
export function caseStem(name: string): string {
  return name.replace(/\.jsonl?$/, '');
}
