/**
 * Shared by the spill tests (test/aep-stream/spill.test.ts, test/ahp-stream/spill.test.ts): a file's two routes (a
 * re-readable file: line places read back; a stream: digests), the cases under a folder, and the relation they hold:
 * the same report with a spill threshold of 2 and of 5 rows as with the default.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openInputs, type CliIO } from '../src/cli/common.ts';
import type { InputSpec } from '../src/core/pipeline.ts';

const ROOT = new URL('../', import.meta.url).pathname;

/** `path` as a regular file, as the CLI opens it. */
export const onFile = (path: string) => (): InputSpec[] => openInputs([path], {} as CliIO, () => 'jsonl');

/** `path` as one chunk of a stream (no file to read back). */
export const onStream = (path: string) => (): InputSpec[] => [
  {
    source: path,
    open: async function* () {
      yield readFileSync(path);
    },
  },
];

/** The `.jsonl` files under `d` (relative to the repository), sorted. */
export function jsonlFiles(d: string): string[] {
  return readdirSync(join(ROOT, d), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.jsonl'))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

/** The same `report` with spill thresholds 2 and 5 as with the default, on both routes; the default reports. */
export async function sameSpilled(
  path: string,
  report: (inputs: () => InputSpec[], spillRows?: number) => Promise<string>,
): Promise<string[]> {
  const reports: string[] = [];
  for (const route of [onFile, onStream]) {
    const want = await report(route(path));
    for (const rows of [2, 5]) assert.equal(await report(route(path), rows), want, `${path}, spillRows ${rows}`);
    reports.push(want);
  }
  return reports;
}
