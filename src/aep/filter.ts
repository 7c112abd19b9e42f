/**
 * AEP stream filters (`aep downlevel`, `aep redact`): read JSONL through the validate pipeline's
 * reader, parser, schema stage and per-event rules, and write each valid event as one JSONL
 * line. A line with an error finding of its own (framing, parse, envelope, payload, or a
 * per-event rule such as `aep/capture-level`; `aep/redaction-leak` only with `refuseLeaks`) is not written: a filter cannot vouch for an
 * event it cannot read, nor pass on one that already breaks its capture level. Stream rules
 * do not run (ordering and correlation are not a filter's concern). An event the transform
 * leaves alone is written byte for byte (its line text, LF-terminated); a changed one as
 * `JSON.stringify` output with the exact literals of integers beyond 2^53 kept.
 */
import type { FindingSink } from '../core/finding.ts';
import type { BigIntegerLiteral } from '../core/json.ts';
import { childPointer } from '../core/pointer.ts';
import { runPipeline, type InputSpec, type ProtocolDriver, type RunStats } from '../core/pipeline.ts';
import type { ParsedEvent } from '../core/rule.ts';
import { aepDriver } from './protocol.ts';
import { AEP_EVENT_RULES, AEP_SCHEMA_RULES } from './rules/index.ts';

/** What a filter transform returns for one valid event: a new value, or `undefined` to keep the line as it is. */
export type EventTransform = (ev: ParsedEvent) => Record<string, unknown> | undefined;

/** Options of {@link runAepFilter}. */
export interface AepFilterOptions {
  maxLineBytes?: number;
  maxDepth?: number;
  /**
   * Refuse a line with `aep/redaction-leak` too: for a filter that writes redacted-gated text as
   * it is (`downlevel` at a `redacted` or `full` ceiling). `aep redact` repairs leaks, so never.
   */
  refuseLeaks?: boolean;
}

/** The outcome of a filter run. */
export interface AepFilterResult {
  stats: RunStats;
  /** Events written. */
  written: number;
  /** Lines with an error finding, not written. */
  rejected: number;
}

const FILTER_RULES: ReadonlySet<string> = new Set([...AEP_SCHEMA_RULES.map((r) => r.id), ...AEP_EVENT_RULES.map((r) => r.id)]);
// `aep redact` repairs both leak rules' findings, so neither is reported on its input
const FILTER_RULES_NO_LEAK: ReadonlySet<string> = new Set([...FILTER_RULES].filter((id) => id !== 'aep/redaction-leak' && id !== 'aep/redaction-leak-provider'));

/**
 * Run `transform` over every valid event of `inputs` (one stream, in order), writing each
 * output line (with its LF) to `write` and every finding to `sink`.
 * @throws InputError when an input cannot be read; RuleCrashError when a rule throws.
 */
export async function runAepFilter(inputs: readonly InputSpec[], transform: EventTransform, write: (line: string) => void, sink: FindingSink, opts: AepFilterOptions = {}): Promise<AepFilterResult> {
  let written = 0;
  let rejected = 0;
  let current: ParsedEvent | undefined;
  // the last line with an error finding: framing findings (a BOM, a bad byte) come before the
  // line reaches the checker, the others while it is checked; either refuses the line
  let badSource = '';
  let badLine = 0;
  const filterSink: FindingSink = (f) => {
    const line = f.line ?? current?.line;
    if (f.severity === 'error' && line !== undefined && (f.source !== badSource || line !== badLine)) {
      badSource = f.source;
      badLine = line;
      rejected++;
    }
    sink(f);
  };
  const inner = aepDriver({ rules: opts.refuseLeaks ? FILTER_RULES : FILTER_RULES_NO_LEAK });
  const driver: ProtocolDriver = {
    name: inner.name,
    cr: inner.cr,
    createChecker(s, stats) {
      const checker = inner.createChecker(s, stats);
      return {
        onEvent(ev) {
          current = ev;
          checker.onEvent(ev);
          current = undefined;
          if (ev.source === badSource && ev.line === badLine) return;
          const out = transform(ev);
          write((out === undefined ? ev.text : serializeEvent(out, ev.bigIntegers)) + '\n');
          written++;
        },
        end() {
          checker.end();
        },
      };
    },
  };
  const stats = await runPipeline(inputs, driver, filterSink, opts);
  return { stats, written, rejected };
}

/**
 * `JSON.stringify(value)`, except that a number at a pointer of `bigIntegers` is written as
 * its literal text (`JSON.parse` rounds integers beyond 2^53; the filter must not).
 */
export function serializeEvent(value: unknown, bigIntegers: readonly BigIntegerLiteral[] = []): string {
  if (bigIntegers.length === 0) return JSON.stringify(value);
  const lit = new Map(bigIntegers.map((b) => [b.pointer, b.text]));
  const ser = (v: unknown, p: string): string => {
    if (typeof v === 'number') return lit.get(p) ?? JSON.stringify(v);
    if (v === null || typeof v !== 'object') return JSON.stringify(v) ?? 'null';
    if (Array.isArray(v)) return '[' + v.map((x, i) => ser(x, childPointer(p, i))).join(',') + ']';
    const parts: string[] = [];
    for (const [k, x] of Object.entries(v)) if (x !== undefined) parts.push(JSON.stringify(k) + ':' + ser(x, childPointer(p, k)));
    return '{' + parts.join(',') + '}';
  };
  return ser(value, '');
}
