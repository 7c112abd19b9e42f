/**
 * AEP filters (`aep downlevel`, `aep redact`, `aep convert`) over the run without stream rules. A line with an error of
 * its
 * own is not written: a filter cannot vouch for an event it cannot read. Unchanged events are written byte for byte.
 */
import type { FindingSink } from '../core/finding.ts';
import { asciiJson, serializeEvent } from '../core/serialize.ts';
import type { InputSpec } from '../core/pipeline.ts';
import type { ParsedEvent } from '../core/rule.ts';
import { type RunHooks, runInputs, type RunResult } from './run.ts';
import { AEP } from '../aep/definition.ts';
import { AEP_EVENT_RULES, AEP_SCHEMA_RULES } from '../aep/rules/index.ts';
import { RECOMMENDED_FORM_RULES } from '../aep/protocol.ts';

/**
 * A new value, `undefined` to keep the line as is, or `null` to write nothing (`aep convert --to ocsf`: no OCSF class).
 */
export type EventTransform = (ev: ParsedEvent) => Record<string, unknown> | undefined | null;

/** Options of {@link runAepFilter}. */
export interface AepFilterOptions {
  maxLineBytes?: number;
  maxDepth?: number;
  /** Also refuse `aep/redaction-leak` lines (`downlevel` at `redacted` / `full` passes gated text as is). */
  refuseLeaks?: boolean;
  /** Write changed events as ASCII-only JSON (`aep convert`: the bytes of the upstream pins). */
  ascii?: boolean;
}

/** The outcome of a filter run: the run's result, and the lines written and refused. */
export interface AepFilterResult extends RunResult {
  written: number;
  rejected: number;
}

// the RECOMMENDED-form rules run only when asked for (--forms recommended), never in a filter
const FILTER_RULES: readonly string[] = [
  ...AEP_SCHEMA_RULES.map((r) => r.id),
  ...AEP_EVENT_RULES.map((r) => r.id),
].filter((id) => !RECOMMENDED_FORM_RULES.includes(id));
// `aep redact` repairs what the leak, home-path and PII rules report, so none is reported on its input
const REPAIRED = [
  'aep/redaction-leak',
  'aep/redaction-leak-provider',
  'aep/redaction-home-path',
  'aep/redaction-leak-pii',
];
const FILTER_RULES_NO_LEAK: readonly string[] = FILTER_RULES.filter((id) => !REPAIRED.includes(id));

/** Run `transform` over every valid event of `inputs` (one stream), output lines to `write`. @throws InputError. */
export async function runAepFilter(
  inputs: readonly InputSpec[],
  transform: EventTransform,
  write: (line: string) => void,
  sink: FindingSink,
  opts: AepFilterOptions = {},
  ready?: RunHooks['ready'],
): Promise<AepFilterResult> {
  let written = 0;
  // lines with an error finding: framing findings (a BOM, a bad byte) come before the line
  // reaches the checker, the others while it is checked; either refuses the line
  let rejected = 0;
  let last = '';
  const rules = opts.refuseLeaks ? FILTER_RULES : FILTER_RULES_NO_LEAK;
  const result = await runInputs(
    AEP,
    inputs,
    { ...opts, rules, each: false },
    {
      finding(f) {
        const at = f.line === undefined ? '' : `${f.source}\n${f.line}`;
        if (f.severity === 'error' && at !== '' && at !== last) {
          last = at;
          rejected++;
        }
        sink(f);
      },
      event(ev, bad) {
        if (bad) return;
        const out = transform(ev);
        if (out === null) return;
        const text = out === undefined ? ev.text : serializeEvent(out, ev.bigIntegers);
        write((opts.ascii && out !== undefined ? asciiJson(text) : text) + '\n');
        written++;
      },
      ready,
    },
  );
  return { ...result, written, rejected };
}

export { serializeEvent };
