/** The pieces both HTML reporters draw with: counts as read, severity badges, citations, the filter bar, the footer. */
import type { Finding, Severity } from '../core/finding.ts';
import { byColumn, SEVERITY_RANK } from '../core/finding.ts';
import { htmlEscape as esc } from './html-page.ts';
import { specUrl } from './spec-links.ts';
import { TIMELINE_KEEP_ALL } from './timeline.ts';
import type { ReportContext } from './types.ts';
import { cmpText } from './util.ts';

const SEVERITIES: readonly Severity[] = ['error', 'warning', 'info'];
let numberFormat: Intl.NumberFormat | undefined;
/**
 * Counts in the page as a person reads them. The formatter is made on first use: building one loads ICU's number data,
 * ~7 MB of the RSS of every run, html or not (docs/benchmarks.md §Memory).
 */
export const NUMBER = {
  format: (n: number): string => (numberFormat ??= new Intl.NumberFormat('en-US')).format(n),
};

/** `1 error`, `150,000 errors`: counts as a person reads them. */
export function plural(n: number, word: string): string {
  return `${NUMBER.format(n)} ${word}${n === 1 ? '' : 's'}`;
}

/** Report order of the page's lists: input, then severity (worst first), rule, line, column, pointer. */
export function byRuleOrder(sources: readonly string[] = []): (a: Finding, b: Finding) => number {
  const rank = new Map(sources.map((s, i) => [s, i]));
  return (a, b) =>
    (rank.get(a.source) ?? Infinity) - (rank.get(b.source) ?? Infinity) ||
    cmpText(a.source, b.source) ||
    SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity] ||
    cmpText(a.ruleId, b.ruleId) ||
    (a.line ?? 0) - (b.line ?? 0) ||
    byColumn(a, b) ||
    cmpText(a.pointer, b.pointer);
}

/** A severity as a coloured badge. */
export function sevBadge(s: Severity): string {
  return `<span class="sev ${s}">${s}</span>`;
}

/** A citation: a link to the spec section where its URL is known, else its text. */
export function citation(spec: string | undefined): string {
  if (typeof spec !== 'string' || spec === '') return '';
  const url = specUrl(spec);
  return url
    ? `<a class="cite" href="${esc(url)}" rel="noreferrer noopener" target="_blank">${esc(spec)}</a>`
    : `<span class="cite">${esc(spec)}</span>`;
}

/** `2 errors, 0 warnings, 1 info`. */
export function countsLine(c: { errors: number; warnings: number; infos: number }): string {
  return `${plural(c.errors, 'error')}, ${plural(c.warnings, 'warning')}, ${plural(c.infos, 'info')}`;
}

/** True when the counts `c` fail the run at threshold `t` (`--fail-on`). */
export function reached(c: { errors: number; warnings: number; infos: number }, t: Severity): boolean {
  return t === 'error'
    ? c.errors > 0
    : t === 'warning'
      ? c.errors + c.warnings > 0
      : c.errors + c.warnings + c.infos > 0;
}

/** The filter bar: a box per severity, a choice of rule, the count shown. */
export function filterBar(bySev: Record<Severity, number>, byRule: Record<string, number>, extra = ''): string {
  const boxes = SEVERITIES.map(
    (s) =>
      `<label><input type="checkbox" checked data-filter-sev="${s}"> ${sevBadge(s)} ${NUMBER.format(bySev[s])}</label>`,
  ).join('');
  const rules = Object.entries(byRule)
    .map(([r, n]) => `<option value="${esc(r)}">${esc(r)} (${NUMBER.format(n)})</option>`)
    .join('');
  return `<nav class="filters" aria-label="filters">${extra}${boxes}<label>rule <select id="rule-filter"><option value="">all rules</option>${rules}</select></label><span class="shown" id="shown"></span></nav>\n`;
}

/** The page footer: version, protocol and what the page leaves out. */
export function footer(ctx: ReportContext): string {
  return `<footer>agent-conformance ${esc(ctx.version)} · ${esc(ctx.protocol)}. No payload value is shown: the timeline has each event's line, type, time and seq. A run of more than ${NUMBER.format(TIMELINE_KEEP_ALL)} events keeps in its timeline the events around findings and their pairs; every finding is in the list by rule.</footer>\n`;
}
