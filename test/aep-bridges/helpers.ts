/**
 * Run bridge input text through the `--from` decorator (src/aep/bridges/checker.ts) over the
 * AEP checker, as `aep validate --from cloudevents|otlp` will: JSONL reader, parse with
 * arrays accepted, then the decorator. Returns every finding.
 */
import { aepDriver } from '../../src/aep/protocol.ts';
import { bridgeChecker, type BridgeFrom } from '../../src/aep/bridges/checker.ts';
import type { AepCaptureLevel } from '../../src/aep/schemas.ts';
import type { Finding } from '../../src/core/finding.ts';
import { runPipeline } from '../../src/core/pipeline.ts';

/** All findings of `text` read `--from from`. */
export async function checkBridgeText(text: string | Buffer, from: BridgeFrom, opts: { source?: string; maxCapture?: AepCaptureLevel } = {}): Promise<Finding[]> {
  const findings: Finding[] = [];
  const inner = aepDriver();
  await runPipeline(
    [{ source: opts.source ?? 'input', open: async function* () { yield typeof text === 'string' ? Buffer.from(text) : text; } }],
    { name: 'aep', cr: 'accept-crlf', createChecker: (sink, stats) => bridgeChecker(from, opts.maxCapture ?? 'metadata', (s) => inner.createChecker(s, stats), sink) },
    (f) => findings.push(f),
    { acceptArrays: true },
  );
  return findings;
}

/** `ruleId@line pointer` of each finding, sorted (for messages). */
export function briefFindings(fs: readonly Finding[]): string {
  return fs.map((f) => `${f.ruleId}@${f.line ?? '*'}${f.pointer ?? ''}`).sort().join(', ');
}
