/**
 * Test helpers for test/ahp: where the shared read-only corpus lives, a verdict helper, and
 * `ahp validate`'s pipeline run in-process on stdio text (`runPipeline` + `ahpDriver`).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isAhpValid } from '../../src/run/ahp-message.ts';
import type { Finding } from '../../src/core/finding.ts';
import { ahpDriver, runPipeline } from '../run.ts';
import { SHARED, sharedPath } from '../shared.ts';

/** The upstream AHP draft fixture corpus (with its manifest.json); it may be absent (test/shared.ts). */
export const AHP_CORPUS_DIR = sharedPath(SHARED.ahpCorpus) + '/';

/** `<repo>/` resolved from this file. */
export const REPO_DIR = fileURLToPath(new URL('../../', import.meta.url));

/** Compact description of issues for assertion messages. */
export function show(issues: readonly Pick<Finding, 'ruleId' | 'pointer' | 'message'>[]): string {
  return JSON.stringify(
    issues.map((i) => [i.ruleId, i.pointer, i.message]),
    null,
    1,
  );
}

export { isAhpValid };

/**
 * Check stdio `text` the way `ahp validate` does (one JSONL input through `runPipeline` and
 * `ahpDriver`, framing included); every finding, in order. `rules` is the driver's rule
 * selection (framing findings always appear).
 */
export async function runStdio(text: string, rules?: ReadonlySet<string>, source = 'case.jsonl'): Promise<Finding[]> {
  const findings: Finding[] = [];
  await runPipeline(
    [
      {
        source,
        open: async function* () {
          yield text;
        },
      },
    ],
    ahpDriver({ rules }),
    (f) => findings.push(f),
  );
  return findings;
}

/** Every file under `dir`, depth first. */
export const filesUnder = (dir: string): string[] =>
  readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });

/** Every JSON value of a .jsonl file (one a line) or a .json file (one document); unparsable lines are skipped. */
export function jsonValuesOf(path: string): unknown[] {
  const text = readFileSync(path, 'utf8');
  return (path.endsWith('.jsonl') ? text.split('\n') : [text]).flatMap((d) => {
    try {
      return d.trim() ? [JSON.parse(d)] : [];
    } catch {
      return [];
    }
  });
}

/** One stdio `hooks/observe` line (AHP draft) carrying `event`. */
export const observeLine = (event: object): string =>
  JSON.stringify({ jsonrpc: '2.0', method: 'hooks/observe', params: { protocolVersion: 'draft', event } });
