import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openInputs, type CliIO } from '../../src/cli/common.ts';
import type { AepStreamState } from '../../src/aep/analyzers/model.ts';
import type { AepStreamOptions } from '../../src/aep/analyzers/options.ts';
import type { AepRuleId as AnyAepRuleId } from '../../src/generated/rule-ids.ts';
import type { RuleSelection } from '../../src/core/engine.ts';
import type { Finding } from '../../src/core/finding.ts';
import { aepDriver, runPipeline } from '../run.ts';
import { SHARED, sharedPath } from '../shared.ts';
import { processTempDir } from '../temp.ts';

/** The upstream AEP fixture corpus; it may be absent (test/shared.ts). */
export const CORPUS_DIR = sharedPath(SHARED.aepCorpus);

/** Options of one in-process run. */
export interface RunOptions {
  maxLineBytes?: number;
  maxDepth?: number;
  stream?: Partial<AepStreamOptions>;
  /** Input name used in findings. */
  source?: string;
  /** Run only these rules (framing findings always appear). */
  rules?: RuleSelection;
  /** Called with the run's stream analyzers as the run starts. */
  onStreamState?: (state: AepStreamState) => void;
  /** `aep-0007`: the message and stream sub-profile (`--profile aep-0007`). */
  profile?: 'aep-0007';
}

/** Check `text` (one JSONL input) with the AEP checker; every finding, in order. */
export async function checkText(text: string | Uint8Array, opts: RunOptions = {}): Promise<Finding[]> {
  const findings: Finding[] = [];
  await runPipeline(
    [
      {
        source: opts.source ?? 'case.jsonl',
        open: async function* () {
          yield text;
        },
      },
    ],
    aepDriver({ stream: opts.stream, rules: opts.rules, onStreamState: opts.onStreamState, profile: opts.profile }),
    (f) => findings.push(f),
    opts,
  );
  return findings;
}

/** A finding a verdict table lists: above info, or the redelivery info (a legal repeat, still told apart). */
export const judged = (f: Finding): boolean => f.severity !== 'info' || f.ruleId === 'aep/redelivery';

let routesDir: string | undefined;
/**
 * `rule@line` of the non-info findings of `text`, and of `aep/redelivery` (the info the identity tests judge), as a file
 * (read back) and as stdin (digests); asserted equal.
 */
export async function bothRoutes(text: string): Promise<string[]> {
  routesDir ??= processTempDir('aep-routes-');
  const p = join(routesDir, `in-${++n}.jsonl`);
  writeFileSync(p, text);
  const onFile: Finding[] = [];
  await runPipeline(
    openInputs([p], {} as CliIO, () => 'jsonl'),
    aepDriver(),
    (f) => onFile.push(f),
  );
  const onStdin = await checkText(text, { source: p });
  assert.deepEqual(onFile, onStdin, 'file and stdin give the same findings');
  return onFile.filter(judged).map((f) => `${f.ruleId}@${f.line}`);
}

/** Events as JSONL text, one compact line each, final newline. */
export function jsonl(events: readonly unknown[]): string {
  return events.map((e) => (typeof e === 'string' ? e : JSON.stringify(e))).join('\n') + '\n';
}

/** `aep/x@3/seq` for each finding: compact text for assertion messages. */
export function brief(findings: readonly Finding[]): string {
  return findings.map((f) => `${f.severity}:${f.ruleId}@${f.line ?? '-'}${f.pointer ?? ''}`).join(' ') || '(none)';
}

let n = 0;
/** A minimal valid session-scoped event; `over` replaces or adds members (`undefined` deletes). */
export function event(
  type: string,
  seq: number | undefined,
  over: Record<string, unknown> = {},
): Record<string, unknown> {
  const e: Record<string, unknown> = {
    aep: '0.1',
    id: `t-${++n}`,
    type,
    time: '2026-11-30T12:00:00Z',
    source: 'aep://unit-host/agent/unit/session/u_1',
    agent: 'unit',
    session: 'u_1',
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

/** An AEP rule id this helper can run alone (a closed union: a misspelled id is a compile error). */
export type AepRuleId = AnyAepRuleId;

/**
 * Run rule `id` alone (the driver's rule selection) over `events` (objects or raw lines);
 * its findings as `severity:ruleId@line/pointer`, to compare with an exact list. Framing
 * findings would appear too, so cases are valid JSONL.
 */
export async function runRule(id: AepRuleId, events: readonly unknown[], opts: RunOptions = {}): Promise<string[]> {
  const fs = await checkText(jsonl(events), { ...opts, rules: new Set([id]) });
  return fs.map((f) => `${f.severity}:${f.ruleId}@${f.line ?? '-'}${f.pointer ?? ''}`);
}

/** A form request's `data` (AEP-0006): a required string, an optional number and a one-choice select. */
export const UNIT_FORM = {
  kind: 'form',
  prompt: 'unit requests form',
  fields: [
    { id: 'name', type: 'string', label: 'Name', required: true },
    { id: 'n', type: 'number', label: 'N' },
    { id: 'tier', type: 'select', label: 'Tier', choices: [{ id: 't1', label: 'gold' }] },
  ],
};
