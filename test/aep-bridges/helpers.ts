/**
 * Run bridge input text as `aep validate --from cloudevents|otlp` does (the run with the
 * `--from` decorator of src/aep/bridges/checker.ts). Returns every finding.
 */
import type { AepCaptureLevel } from '../../src/aep/schema/registry.ts';
import type { BridgeFrom } from '../../src/aep/bridges/checker.ts';
import type { Finding } from '../../src/core/finding.ts';
import { validate } from '../../src/index.ts';

/** All findings of `text` read `--from from` (the library's `from` option: the run `aep validate --from` uses). */
export async function checkBridgeText(
  text: string | Buffer,
  from: BridgeFrom,
  opts: { source?: string; maxCapture?: AepCaptureLevel } = {},
): Promise<Finding[]> {
  const bytes = typeof text === 'string' ? Buffer.from(text) : text;
  return (
    await validate(
      'aep',
      { bytes, source: opts.source ?? 'input' },
      { from, ...(opts.maxCapture ? { maxCapture: opts.maxCapture } : {}) },
    )
  ).findings;
}

/** `ruleId@line pointer` of each finding, sorted (for messages). */
export function briefFindings(fs: readonly Finding[]): string {
  return fs
    .map((f) => `${f.ruleId}@${f.line ?? '*'}${f.pointer ?? ''}`)
    .sort()
    .join(', ');
}
