/**
 * AEP stream filters (`aep downlevel`, `aep redact`): read JSONL through the run (the reader,
 * parser, schema stage and per-event rules of `validate`; src/run/run.ts), and write each valid event as one JSONL
 * line. A line with an error finding of its own (framing, parse, envelope, payload, or a
 * per-event rule such as `aep/capture-level`; `aep/redaction-leak` only with `refuseLeaks`) is not written: a filter cannot vouch for an
 * event it cannot read, nor pass on one that already breaks its capture level. Stream rules
 * do not run (ordering and correlation are not a filter's concern). An event the transform
 * leaves alone is written byte for byte (its line text, LF-terminated); a changed one as
 * `JSON.stringify` output with the exact literals of integers beyond 2^53 kept.
 */
import type { FindingSink } from '../core/finding.ts';
import { asciiJson, serializeEvent } from '../core/serialize.ts';
import type { InputSpec } from '../core/pipeline.ts';
import type { ParsedEvent } from '../core/rule.ts';
import { runInputs, type RunResult } from './run.ts';
import { AEP } from '../aep/definition.ts';
import { AEP_EVENT_RULES, AEP_SCHEMA_RULES } from '../aep/rules/index.ts';

/**
 * What a filter transform returns for one valid event: a new value, `undefined` to keep the
 * line as it is, or `null` to write nothing for it (`aep convert --to ocsf`: no OCSF class).
 */
export type EventTransform = (ev: ParsedEvent) => Record<string, unknown> | undefined | null;

/** Options of {@link runAepFilter}. */
export interface AepFilterOptions {
  maxLineBytes?: number;
  maxDepth?: number;
  /**
   * Refuse a line with `aep/redaction-leak` too: for a filter that writes redacted-gated text as
   * it is (`downlevel` at a `redacted` or `full` ceiling). `aep redact` repairs leaks, so never.
   */
  refuseLeaks?: boolean;
  /** Write changed events as ASCII-only JSON (`aep convert`: the bytes of the upstream pins). */
  ascii?: boolean;
}

/** The outcome of a filter run: the run's result, and the lines written and refused. */
export interface AepFilterResult extends RunResult {
  /** Events written. */
  written: number;
  /** Lines with an error finding, not written. */
  rejected: number;
}

const FILTER_RULES: readonly string[] = [...AEP_SCHEMA_RULES.map((r) => r.id), ...AEP_EVENT_RULES.map((r) => r.id)];
// `aep redact` repairs both leak rules' findings, so neither is reported on its input
const FILTER_RULES_NO_LEAK: readonly string[] = FILTER_RULES.filter(
  (id) => id !== 'aep/redaction-leak' && id !== 'aep/redaction-leak-provider',
);

/**
 * Run `transform` over every valid event of `inputs` (one stream, in order), writing each
 * output line (with its LF) to `write` and every finding to `sink`.
 * @throws InputError when an input cannot be read.
 */
export async function runAepFilter(
  inputs: readonly InputSpec[],
  transform: EventTransform,
  write: (line: string) => void,
  sink: FindingSink,
  opts: AepFilterOptions = {},
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
    },
  );
  return { ...result, written, rejected };
}

export { serializeEvent };
