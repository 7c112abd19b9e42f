/** The finding model: plain data that the CLI and reporters render (docs/architecture.md §Findings). */

import type { RuleId } from '../generated/rule-ids.ts';
import type { MessageArgs } from './message.ts';

/** Finding severity. Ordered `info < warning < error` (see {@link SEVERITY_RANK}). */
export type Severity = 'error' | 'warning' | 'info';

/** Numeric rank of each severity: higher is more severe. */
export const SEVERITY_RANK: Readonly<Record<Severity, number>> = { info: 0, warning: 1, error: 2 };

/** True when `s` is at or above `threshold` (the one severity comparison: --fail-on, --strict, filters). */
export function severityAtLeast(s: Severity, threshold: Severity): boolean {
  return SEVERITY_RANK[s] >= SEVERITY_RANK[threshold];
}

/** The severity a finding of severity `s` counts as: `--strict` raises a warning to an error (the one place it is applied). */
export function strictSeverity(s: Severity, strict: boolean | undefined): Severity {
  return strict && s === 'warning' ? 'error' : s;
}

/** Column order within one line; a finding at no column (the line's end, the whole input) comes after those at one. */
export function byColumn(a: Pick<Location, 'column'>, b: Pick<Location, 'column'>): number {
  return (a.column ?? Number.MAX_SAFE_INTEGER) - (b.column ?? Number.MAX_SAFE_INTEGER);
}

/** True when `s` is a {@link Severity} string. */
export function isSeverity(s: unknown): s is Severity {
  return s === 'error' || s === 'warning' || s === 'info';
}

/**
 * A place in the input: `source` (path or `<stdin>`), 1-based `line`, 1-based `column` in UTF-16 code units, 0-based
 * `byteOffset` (a BOM counts), `pointer` (RFC 6901, `""` the whole event).
 */
export interface Location {
  source: string;
  line?: number;
  column?: number;
  byteOffset?: number;
  pointer?: string;
}

/** One problem. `message` is one plain sentence that never echoes a value a capture level or secret forbids. */
export interface Finding extends Location {
  /** One of our rule ids (`KnownRuleId`, which editors complete), or another tool's when you report its findings. */
  ruleId: RuleId;
  severity: Severity;
  message: string;
  spec: string;
  /** Other locations that explain this finding (e.g. the request an answer fails to match). */
  related?: Location[];
  /** Key of the rule's message template the message was rendered from (src/core/message.ts). */
  messageId?: string;
  /** The template's arguments: machine-readable details; never gated content. */
  args?: MessageArgs;
}

/** Receives findings as they are produced. The core never prints: a sink decides. */
export type FindingSink = (finding: Finding) => void;

function plainCount(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** Describe a JSON value for a message without echoing it: `string (12 characters)`, `object`, ... */
export function describeValue(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return `array (${plainCount(v.length, 'item')})`;
  // the unit of JSON Schema lengths: Unicode code points (an emoji is one character)
  if (typeof v === 'string') return `string (${plainCount([...v].length, 'character')})`;
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}
