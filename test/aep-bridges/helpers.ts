/**
 * Run bridge input text as `aep validate --from cloudevents|otlp` does (the run with the
 * `--from` decorator of src/aep/bridges/checker.ts). Returns every finding.
 */
import type { AepCaptureLevel } from '../../src/aep/schema/registry.ts';
import type { BridgeFrom } from '../../src/aep/bridges/checker.ts';
import type { Finding } from '../../src/core/finding.ts';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validate } from '../../src/index.ts';
import { CORPUS_DIR } from '../aep-schemas/helpers.ts';
import { hasShared, SHARED } from '../shared.ts';

type Obj = Record<string, unknown>;

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

/** Every JSON-object line of our AEP pass cases and of golden (when present). */
export function events(): Array<{ where: string; event: Obj }> {
  const out: Array<{ where: string; event: Obj }> = [];
  const dir = new URL('../../conformance/aep/pass/', import.meta.url);
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.jsonl') && !/\.(ce|otlp|ocsf)\.jsonl$/.test(n))) {
    readFileSync(new URL(f, dir), 'utf8')
      .split(/\r?\n/)
      .forEach((l, i) => {
        try {
          const v = JSON.parse(l.replace(/^\uFEFF/, '')) as unknown;
          if (v && typeof v === 'object' && !Array.isArray(v)) out.push({ where: `${f}:${i + 1}`, event: v as Obj });
        } catch {
          // not a JSON line (the framing cases): nothing to convert
        }
      });
  }
  if (hasShared(SHARED.aepCorpus))
    for (const [i, l] of readFileSync(join(CORPUS_DIR, 'golden/golden.jsonl'), 'utf8').trimEnd().split('\n').entries())
      out.push({ where: `golden:${i + 1}`, event: JSON.parse(l) as Obj });
  return out;
}

/** A session-scoped `progress.status` event at seq `i` of session `s` (the bridge tests' plain event), with `extra` merged. */
export const bridgeEvent = (i: number, extra: Obj = {}): Obj => ({
  aep: '0.1',
  id: `e${i}`,
  type: 'progress.status',
  time: '2026-11-30T10:00:00Z',
  source: 'aep://h/agent/a/session/s',
  agent: 'a',
  session: 's',
  seq: i,
  ...extra,
});
