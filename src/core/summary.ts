/** Severity policy and summary statistics of a run (docs/architecture.md §Severity and exit codes). */
import { severityAtLeast, strictSeverity, type Finding, type FindingSink, type Severity } from './finding.ts';
import type { RunStats } from './pipeline.ts';

/** Summary printed by the text reporter and embedded in JSON/SARIF/JUnit output. */
export interface Summary {
  inputs: number;
  bytes: number;
  lines: number;
  /** Lines (or documents) that parsed to a JSON object. */
  events: number;
  /** Lines that parsed but were set aside unchecked, another format than the checker reads; absent when none. */
  unchecked?: number;
  /** AHP registration documents checked (`--binding registration`), not counted in `events`; absent when none. */
  documents?: number;
  errors: number;
  warnings: number;
  infos: number;
  /** Findings per rule id (before `--max-findings` truncation). */
  byRule: Record<string, number>;
  /** Known event types the input exercised, and how many known types there are. */
  coverage?: { seen: Record<string, number>; exercised: number; known: number; unknown: Record<string, number> };
  omitted: number;
}

/** Options of the severity policy. */
export interface PolicyOptions {
  strict?: boolean;
  /** Hand at most this many findings to the reporter (the rest are only counted). */
  maxFindings?: number;
}

/** Wraps a reporter's sink: applies `--strict`, counts by severity and rule, cuts at `--max-findings`. */
export class FindingCounter {
  errors = 0;
  warnings = 0;
  infos = 0;
  omitted = 0;
  readonly byRule = new Map<string, number>();
  worst: Severity | undefined;
  readonly sink: FindingSink;

  constructor(downstream: FindingSink, opts: PolicyOptions = {}) {
    const max = opts.maxFindings ?? Infinity;
    let passed = 0;
    this.sink = (f: Finding) => {
      const severity = strictSeverity(f.severity, opts.strict);
      if (severity !== f.severity) f = { ...f, severity };
      if (f.severity === 'error') this.errors++;
      else if (f.severity === 'warning') this.warnings++;
      else this.infos++;
      this.byRule.set(f.ruleId, (this.byRule.get(f.ruleId) ?? 0) + 1);
      if (this.worst === undefined || !severityAtLeast(this.worst, f.severity)) this.worst = f.severity;
      if (passed < max) {
        passed++;
        downstream(f);
      } else this.omitted++;
    };
  }

  reached(threshold: Severity): boolean {
    return this.worst !== undefined && severityAtLeast(this.worst, threshold);
  }

  summary(stats: RunStats, knownTypes?: readonly string[]): Summary {
    const s: Summary = {
      inputs: stats.inputs,
      bytes: stats.bytes,
      lines: stats.lines,
      events: stats.events,
      errors: this.errors,
      warnings: this.warnings,
      infos: this.infos,
      byRule: Object.fromEntries([...this.byRule.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
      omitted: this.omitted,
    };
    if (stats.unchecked) s.unchecked = stats.unchecked;
    if (stats.documents) s.documents = stats.documents;
    if (knownTypes) {
      const known = new Set(knownTypes);
      stats.sync?.();
      const entries = [...stats.types.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      // Object.fromEntries defines own properties: a type named "__proto__" stays ordinary data
      const seen: Record<string, number> = Object.fromEntries(entries.filter(([t]) => known.has(t)));
      const unknown: Record<string, number> = Object.fromEntries(entries.filter(([t]) => !known.has(t)));
      s.coverage = { seen, exercised: Object.keys(seen).length, known: known.size, unknown };
    }
    return s;
  }
}

/** A summary of nothing (the start of a sum of summaries). */
export function emptySummary(): Summary {
  return { inputs: 0, bytes: 0, lines: 0, events: 0, errors: 0, warnings: 0, infos: 0, byRule: {}, omitted: 0 };
}

/** Add `s` into `total` (the fixture runner's total over its case runs). */
export function addSummary(total: Summary, s: Summary): void {
  total.inputs += s.inputs;
  total.bytes += s.bytes;
  total.lines += s.lines;
  total.events += s.events;
  if (s.unchecked) total.unchecked = (total.unchecked ?? 0) + s.unchecked;
  if (s.documents) total.documents = (total.documents ?? 0) + s.documents;
  total.errors += s.errors;
  total.warnings += s.warnings;
  total.infos += s.infos;
  total.omitted += s.omitted;
  const byRule: Record<string, number> = { ...total.byRule };
  for (const [r, n] of Object.entries(s.byRule)) byRule[r] = (byRule[r] ?? 0) + n;
  total.byRule = Object.fromEntries(Object.entries(byRule).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  if (s.coverage) {
    const c = (total.coverage ??= { seen: {}, exercised: 0, known: s.coverage.known, unknown: {} });
    const merge = (into: Record<string, number>, from: Record<string, number>) => {
      const m = new Map(Object.entries(into));
      for (const [t, n] of Object.entries(from)) m.set(t, (m.get(t) ?? 0) + n);
      return Object.fromEntries([...m].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    };
    c.seen = merge(c.seen, s.coverage.seen);
    c.unknown = merge(c.unknown, s.coverage.unknown);
    c.exercised = Object.keys(c.seen).length;
  }
}
