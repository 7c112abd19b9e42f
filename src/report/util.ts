/**
 * Helpers shared by the reporters: deterministic finding order, XML escaping, plural words.
 * Style-anchors §2.2 "Determinism": sort by source, line, column, rule id and pointer.
 */
import { SEVERITY_RANK, type Finding, type Severity } from '../core/finding.ts';

/**
 * Sort findings by source (in `sources` order, then by name), line, column, rule id and
 * pointer. Findings without a line come first within their source (run-level findings).
 */
export function sortFindings(findings: readonly Finding[], sources: readonly string[] = []): Finding[] {
  const rank = new Map(sources.map((s, i) => [s, i]));
  const cmp = (a: string | undefined, b: string | undefined) => ((a ?? '') < (b ?? '') ? -1 : (a ?? '') > (b ?? '') ? 1 : 0);
  return [...findings].sort(
    (a, b) =>
      (rank.get(a.source) ?? Infinity) - (rank.get(b.source) ?? Infinity) ||
      cmp(a.source, b.source) ||
      (a.line ?? 0) - (b.line ?? 0) ||
      (a.column ?? 0) - (b.column ?? 0) ||
      cmp(a.ruleId, b.ruleId) ||
      cmp(a.pointer, b.pointer),
  );
}

/** True when `s` is at or above `threshold`. */
export function atOrAbove(s: Severity, threshold: Severity): boolean {
  return SEVERITY_RANK[s] >= SEVERITY_RANK[threshold];
}

/**
 * Escape text for XML 1.0 character data and attribute values: `& < > " '`, and characters
 * XML 1.0 cannot carry at all (C0 controls other than tab/LF/CR, lone surrogates, U+FFFE/F)
 * are replaced by U+FFFD.
 */
export function xmlEscape(s: string): string {
  return s
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/** Plural helper: `1 error`, `2 errors`. */
export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** `source:line:column` (parts that are unknown are left out). */
export function formatLocation(f: Pick<Finding, 'source' | 'line' | 'column'>): string {
  let s = f.source || '<run>';
  if (f.line !== undefined) s += `:${f.line}`;
  if (f.line !== undefined && f.column !== undefined) s += `:${f.column}`;
  return s;
}
