/**
 * Shared setup for the hostile-input tests: run the real pipeline in-process on bytes given
 * as chunk arrays, and build valid AEP events (the CLI itself: test/cli/helpers.ts).
 */
import { fileURLToPath } from 'node:url';
import { aepRules } from '../../src/aep/protocol.ts';
import type { AepStreamOptions } from '../../src/aep/analyzers/options.ts';
import type { Finding } from '../../src/core/finding.ts';
import type { RunStats } from '../../src/core/pipeline.ts';
import { type TestDriver, aepDriver, runPipeline } from '../run.ts';

/** Repository root. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Options of one in-process run. */
export interface RunOptions {
  maxLineBytes?: number;
  maxDepth?: number;
  stream?: Partial<AepStreamOptions>;
  driver?: TestDriver;
}

/** Findings and statistics of one run. */
export interface RunResult {
  findings: Finding[];
  stats: RunStats;
}

/** Run the AEP checker (or `opts.driver`) on one input made of `chunks`, in order. */
export async function run(
  chunks: string | Uint8Array | readonly (string | Uint8Array)[],
  opts: RunOptions = {},
): Promise<RunResult> {
  const list = typeof chunks === 'string' || chunks instanceof Uint8Array ? [chunks] : chunks;
  const findings: Finding[] = [];
  const stats = await runPipeline(
    [
      {
        source: 'hostile.jsonl',
        open: async function* () {
          yield* list;
        },
      },
    ],
    opts.driver ?? aepDriver({ stream: opts.stream }),
    (f) => findings.push(f),
    opts,
  );
  return { findings, stats };
}

/** `rule@line:column` for each finding (compact, for assertions). */
export function brief(findings: readonly Finding[]): string[] {
  return findings.map((f) => `${f.ruleId}@${f.line ?? '-'}:${f.column ?? '-'}`);
}

/** Rule ids of the findings. */
export function ids(findings: readonly Finding[]): string[] {
  return findings.map((f) => f.ruleId);
}

/** True when the AEP checker knows rule `id` (stream rules may land separately). */
export function hasAepRule(id: string): boolean {
  return aepRules().some((r) => r.id === id);
}

let counter = 0;
/** A valid session-scoped AEP event; `over` replaces or adds members (`undefined` deletes). */
export function aepEvent(
  type: string,
  seq: number | undefined,
  over: Record<string, unknown> = {},
): Record<string, unknown> {
  const e: Record<string, unknown> = {
    aep: '0.1',
    id: `h-${++counter}`,
    type,
    time: '2026-11-30T12:00:00Z',
    source: 'aep://hostile-host/agent/probe/session/h_1',
    agent: 'probe',
    session: 'h_1',
  };
  if (seq !== undefined) e.seq = seq;
  // the SHOULDs of AEP-0002 §4.1 and §7 item 1 (aep/attention-severity, aep/attention-cause), unless `over` says
  if (type === 'attention.requested') e.severity = 'notice';
  for (const [k, v] of Object.entries(over)) {
    if (v === undefined) delete e[k];
    else e[k] = v;
  }
  if (ATTENTION_FOLLOWERS.includes(type) && !('cause' in over) && typeof e.subject === 'string') e.cause = e.subject;
  return e;
}

/** The lifecycle events after attention.requested (AEP-0002 §7). */
const ATTENTION_FOLLOWERS = ['attention.routed', 'attention.answered', 'attention.resolved', 'attention.timeout'];

/** Events as JSONL text (compact lines, final newline); strings are taken as lines verbatim. */
export function jsonl(events: readonly unknown[]): string {
  return events.map((e) => (typeof e === 'string' ? e : JSON.stringify(e))).join('\n') + '\n';
}

/** True when `text` looks like a JavaScript stack trace. */
export function hasStackTrace(text: string): boolean {
  return /^\s+at .+(:\d+:\d+\)?|\(native\))$/m.test(text);
}
