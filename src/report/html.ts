/**
 * `--format html`: one self-contained page (no network resource). Per input the summary, findings by rule with linked
 * citations, event-type coverage and a timeline per session (src/report/timeline.ts). Findings are spooled (spool.ts),
 * the timeline bounded: memory does not grow with the run. Only envelope facts and finding messages are shown.
 */
import type { Finding, Severity } from '../core/finding.ts';
import type { RuleMeta } from '../core/rule.ts';
import type { Summary } from '../core/summary.ts';
import { htmlEscape as esc, pageHead, pageTail } from './html-page.ts';
import { FindingSpool } from './spool.ts';
import { Timeline } from './timeline.ts';
import type { Output, ReportContext, Reporter } from './types.ts';
import { atOrAbove, chunkedOutput, cmpText, pointerText, unitOf } from './util.ts';
import { visible } from '../core/visible.ts';
import {
  byRuleOrder,
  citation,
  countsLine,
  filterBar,
  footer,
  NUMBER,
  plural,
  reached,
  sevBadge,
} from './html-parts.ts';
import { checksSection, checkTally } from './html-checks.ts';
import { inputTail } from './html-timeline.ts';

export { byRuleOrder, citation } from './html-parts.ts';
export { fixtureHtmlReporter } from './html-fixtures.ts';

/** A rule's findings of one input are shown open up to this many (a larger group opens on a click). */
const OPEN_RULE_FINDINGS = 200;

interface SourceCounts {
  errors: number;
  warnings: number;
  infos: number;
  rules: Map<string, number>;
}

/** Create the `validate` (and `live`) HTML reporter. */
export function htmlReporter(out: Output, ctx: ReportContext): Reporter {
  const sources = ctx.sources ?? [];
  const spool = new FindingSpool(byRuleOrder(sources), ctx.memoryFindings);
  const timeline = new Timeline(ctx.timelineLimits);
  const counts = new Map<string, SourceCounts>();
  const meta = new Map<string, RuleMeta>((ctx.rules ?? []).map((r) => [r.id, r]));
  const threshold = ctx.failOn ?? 'error';
  return {
    event(facts) {
      timeline.event(facts);
    },
    finding(given) {
      if (ctx.quiet && !atOrAbove(given.severity, threshold)) return;
      // a library caller's finding that names no input is grouped under `<input>`, as SARIF locates it
      const f = typeof given.source === 'string' ? given : { ...given, source: '<input>' };
      spool.add(f);
      timeline.finding(f);
      let c = counts.get(f.source);
      if (!c) counts.set(f.source, (c = { errors: 0, warnings: 0, infos: 0, rules: new Map() }));
      if (f.severity === 'error') c.errors++;
      else if (f.severity === 'warning') c.warnings++;
      else c.infos++;
      c.rules.set(f.ruleId, (c.rules.get(f.ruleId) ?? 0) + 1);
    },
    finish(summary, end) {
      timeline.end();
      const w = chunkedOutput(out);
      const order = [...new Set([...sources, ...counts.keys()])];
      const rank = new Map(sources.map((s, i) => [s, i]));
      order.sort((a, b) => (rank.get(a) ?? Infinity) - (rank.get(b) ?? Infinity) || cmpText(a, b));
      const index = new Map(order.map((s, i) => [s, i]));
      const title = `${ctx.protocol.toUpperCase()} conformance report`;
      w.write(pageHead(`${title}: ${named(order)}`));
      w.write(header(title, ctx, summary, order, threshold, end?.exitCode === 2));
      w.write(
        filterBar({ error: summary.errors, warning: summary.warnings, info: summary.infos }, shownByRule(counts)),
      );
      w.write('<main>\n');
      if (ctx.checks) w.write(checksSection(ctx.checks, threshold));
      if (summary.omitted)
        w.write(
          `<p class="note">${plural(summary.omitted, 'more finding')} not shown (--max-findings); the counts include them.</p>\n`,
        );
      let at = 0;
      let rule: string | undefined;
      // `aep live`: the first source is the endpoint (its findings, no events), the other the Events it delivered
      const endpoint = ctx.kind === 'live' ? sources[0] : undefined;
      const open = (source: string) => {
        w.write(
          inputHead(
            source,
            index.get(source)!,
            counts.get(source),
            timeline,
            role(source, endpoint),
            unitOf(ctx.protocol),
          ),
        );
      };
      const close = (source: string) => {
        if (rule !== undefined) w.write('</tbody></table></details>\n');
        rule = undefined;
        inputTail(w, source, index.get(source)!, timeline, ctx.knownTypes, unitOf(ctx.protocol));
      };
      let current: string | undefined;
      spool.drain((f) => {
        if (f.source !== current) {
          if (current !== undefined) close(current);
          // inputs with no finding between the last and this one
          while (at < order.length && order[at] !== f.source) {
            open(order[at]!);
            close(order[at]!);
            at++;
          }
          at++;
          current = f.source;
          open(current);
        }
        if (f.ruleId !== rule) {
          if (rule !== undefined) w.write('</tbody></table></details>\n');
          rule = f.ruleId;
          const n = counts.get(f.source)?.rules.get(f.ruleId) ?? 0;
          const m = meta.get(f.ruleId);
          w.write(
            `<details class="rule" data-rule="${esc(f.ruleId)}" data-sev="${f.severity}"${n <= OPEN_RULE_FINDINGS ? ' open' : ''}><summary>${sevBadge(f.severity)} <code>${esc(f.ruleId)}</code> <span class="n">${plural(n, 'finding')}</span> ${citation(f.spec)}${m ? `<span class="desc">${esc(m.description)}</span>` : ''}</summary><table class="findings"><tbody>\n`,
          );
        }
        w.write(findingRow(f, index.get(f.source)!, timeline));
      });
      if (current !== undefined) close(current);
      while (at < order.length) {
        open(order[at]!);
        close(order[at]!);
        at++;
      }
      w.write('</main>\n');
      w.write(footer(ctx));
      w.write(pageTail());
      w.flush();
    },
  };
}

/** The inputs named in the title and header: the first five, then how many more. */
function named(order: readonly string[]): string {
  if (order.length === 0) return 'no input';
  return order.length <= 5
    ? order.map((s) => visible(s)).join(', ')
    : `${order
        .slice(0, 5)
        .map((s) => visible(s))
        .join(', ')} and ${NUMBER.format(order.length - 5)} more`;
}

function shownByRule(counts: Map<string, SourceCounts>): Record<string, number> {
  const all = new Map<string, number>();
  for (const c of counts.values()) for (const [r, n] of c.rules) all.set(r, (all.get(r) ?? 0) + n);
  return Object.fromEntries([...all].sort(([a], [b]) => cmpText(a, b)));
}

/** How a live report names its two sources: the endpoint, and the Events it delivered (`undefined`: an input). */
type Role = 'endpoint' | 'delivered' | undefined;

function role(source: string, endpoint: string | undefined): Role {
  return endpoint === undefined ? undefined : source === endpoint ? 'endpoint' : 'delivered';
}

function header(
  title: string,
  ctx: ReportContext,
  s: Summary,
  order: readonly string[],
  threshold: Severity,
  /** Exit 2 (aep live: checks left unrun for credentials, or none ran): no pass, whatever the counts. */
  incomplete = false,
): string {
  const failed = reached(s, ctx.failOn ?? 'error');
  const box = (n: number, label: string) => `<div class="count"><b>${NUMBER.format(n)}</b><span>${label}</span></div>`;
  // a live run has one endpoint and the Events it delivered, not inputs: its boxes count the checks instead
  const t = ctx.checks && checkTally(ctx.checks, threshold);
  const sources = t
    ? `${box(t.passed, 'checks passed')}${t.partly ? box(t.partly, 'checks partly judged') : ''}${box(t.failed, 'checks failed')}${box(t.skipped, 'checks skipped')}`
    : box(s.inputs, s.inputs === 1 ? 'input' : 'inputs');
  const endpoint = ctx.kind === 'live' ? ctx.sources?.[0] : undefined;
  const names = endpoint
    ? order
        .map((x) => (x === endpoint ? `endpoint ${visible(x)}` : `${visible(x)} (the Events it delivered)`))
        .join(' · ')
    : named(order);
  return `<header class="top"><h1>${esc(title)}</h1><div class="sub">agent-conformance ${esc(ctx.version)} · ${esc(names)}</div>
<div class="verdict ${failed || incomplete ? 'fail' : 'pass'}">${failed ? `✖ fails at --fail-on ${ctx.failOn ?? 'error'}` : incomplete ? '◐ incomplete: checks could not run (exit 2)' : `✔ passes at --fail-on ${ctx.failOn ?? 'error'}`}</div>
<div class="counts">${box(s.errors, 'errors')}${box(s.warnings, 'warnings')}${box(s.infos, 'infos')}${box(s.events, `${unitOf(ctx.protocol)}s`)}${s.documents ? box(s.documents, 'registration documents') : ''}${box(s.lines, 'lines')}${sources}${s.coverage ? box(s.coverage.exercised, `of ${s.coverage.known} known types`) : ''}</div></header>\n`;
}

function inputHead(
  source: string,
  i: number,
  c: SourceCounts | undefined,
  timeline: Timeline,
  as: Role,
  unit: 'message' | 'event',
): string {
  const facts = timeline.inputFacts(source);
  // the endpoint's findings are about its answers: it has no events of its own (those delivered are the other source)
  const events = facts && as !== 'endpoint' ? `${plural(facts.events, unit)} · ` : '';
  const label =
    as === 'endpoint'
      ? `endpoint ${esc(visible(source))}`
      : as === 'delivered'
        ? `${esc(visible(source))} <span class="dim">the Events the endpoint delivered</span>`
        : esc(visible(source));
  const none = c ? '' : '<p class="note">No findings.</p>\n';
  const jumps = [
    c ? `<a href="#in-${i}-rules">findings by rule</a>` : '',
    timeline.sessionsOf(source).length ? `<a href="#in-${i}-timeline">timeline</a>` : '',
    facts?.types.size ? `<a href="#in-${i}-types">event types</a>` : '',
  ].filter(Boolean);
  return `<section class="input" id="in-${i}"><h2>${label}</h2><div class="line-sum">${events}${countsLine(c ?? { errors: 0, warnings: 0, infos: 0 })}${jumps.length ? ` · ${jumps.join(' · ')}` : ''}</div>\n${c ? `<h3 id="in-${i}-rules">Findings by rule</h3>\n` : none}`;
}

function findingRow(f: Finding, i: number, timeline: Timeline): string {
  const where = f.line === undefined ? '—' : `line ${f.line}${f.column !== undefined ? `:${f.column}` : ''}`;
  const loc =
    f.line !== undefined && timeline.eventAt(f.source, f.line) ? `<a href="#e-${i}-${f.line}">${where}</a>` : where;
  return `<tr class="f" data-sev="${f.severity}" data-rule="${esc(f.ruleId)}"><td class="loc mono">${loc}</td><td class="msg">${esc(f.message)}</td><td class="ptr"><code>${f.pointer ? esc(pointerText(f.pointer)) : ''}</code></td></tr>\n`;
}
