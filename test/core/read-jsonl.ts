/** The JSONL reader's output for a test: every line, finding and the stats of `chunks` read as `t.jsonl`. */
import type { Finding } from '../../src/core/finding.ts';
import { readJsonl, type JsonlLine, type JsonlReaderOptions } from '../../src/core/jsonl.ts';

/** `chunks` through {@link readJsonl}, collected. */
export async function readLines(chunks: (string | Uint8Array)[], opts: JsonlReaderOptions = {}) {
  const lines: JsonlLine[] = [];
  const findings: Finding[] = [];
  const stats = await readJsonl(
    chunks,
    't.jsonl',
    (l) => lines.push(l),
    (f) => findings.push(f),
    opts,
  );
  return { lines, findings, stats };
}
