/**
 * `--format html`: one self-contained page (styles and script inline, no network resource). validate and live: per
 * input the summary, the findings by rule with their citations linked, the event-type coverage and per session a
 * timeline of its events (src/report/timeline.ts) with the findings on their events and pairs drawn between their
 * lines; fixtures: the verdict of each case with its findings. Findings are spooled (spool.ts) and written at the end,
 * the timeline is bounded: memory does not grow with the run. Only envelope facts and finding messages are shown.
 */
import type { Finding, Severity } from '../core/finding.ts';
import { SEVERITY_RANK } from '../core/finding.ts';
import type { CaseResult, CaseStatus, FixtureSummary } from '../core/fixture-result.ts';
import type { LinkKind } from '../core/event-facts.ts';
import type { RuleMeta } from '../core/rule.ts';
import type { Summary } from '../core/summary.ts';
import { htmlEscape as esc, pageHead, pageTail } from './html-page.ts';
import { specUrl } from './spec-links.ts';
import { FindingSpool } from './spool.ts';
import {
  type SessionTimeline,
  Timeline,
  type TimelineEvent,
  TIMELINE_KEEP_ALL,
  TIMELINE_MAX_SESSIONS,
} from './timeline.ts';
import type { FixtureReporter, Output, ReportContext, Reporter } from './types.ts';
import { atOrAbove, chunkedOutput, cmpText } from './util.ts';

const SEVERITIES: readonly Severity[] = ['error', 'warning', 'info'];
const NUMBER = new Intl.NumberFormat('en-US');

/** `1 error`, `150,000 errors`: counts as a person reads them. */
function plural(n: number, word: string): string {
  return `${NUMBER.format(n)} ${word}${n === 1 ? '' : 's'}`;
}
/** A rule's findings of one input are shown open up to this many (a larger group opens on a click). */
const OPEN_RULE_FINDINGS = 200;
/** Lanes drawn for pairs in one session; a pair beyond them is named in words only. */
const MAX_LANES = 6;
const LANE_STEP = 12;

const PAIR_LABEL: Record<LinkKind, string> = {
  attention: 'answer, resolution',
  control: 'ack',
  rpc: 'response',
  elicitation: 'result',
};

const KIND_LABEL: Record<LinkKind, string> = {
  attention: 'attention request',
  control: 'command',
  rpc: 'request',
  elicitation: 'elicitation request',
};

/** Report order of the page's lists: input, then severity (worst first), rule, line, column, pointer. */
export function byRuleOrder(sources: readonly string[] = []): (a: Finding, b: Finding) => number {
  const rank = new Map(sources.map((s, i) => [s, i]));
  return (a, b) =>
    (rank.get(a.source) ?? Infinity) - (rank.get(b.source) ?? Infinity) ||
    cmpText(a.source, b.source) ||
    SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity] ||
    cmpText(a.ruleId, b.ruleId) ||
    (a.line ?? 0) - (b.line ?? 0) ||
    (a.column ?? 0) - (b.column ?? 0) ||
    cmpText(a.pointer, b.pointer);
}

function sevBadge(s: Severity): string {
  return `<span class="sev ${s}">${s}</span>`;
}

/** A citation: a link to the spec section where its URL is known, else its text. */
export function citation(spec: string): string {
  const url = specUrl(spec);
  return url
    ? `<a class="cite" href="${esc(url)}" rel="noreferrer noopener" target="_blank">${esc(spec)}</a>`
    : `<span class="cite">${esc(spec)}</span>`;
}

function countsLine(c: { errors: number; warnings: number; infos: number }): string {
  return `${plural(c.errors, 'error')}, ${plural(c.warnings, 'warning')}, ${plural(c.infos, 'info')}`;
}

function reached(c: { errors: number; warnings: number; infos: number }, t: Severity): boolean {
  return t === 'error'
    ? c.errors > 0
    : t === 'warning'
      ? c.errors + c.warnings > 0
      : c.errors + c.warnings + c.infos > 0;
}

/** The filter bar: a box per severity, a choice of rule, the count shown. */
function filterBar(bySev: Record<Severity, number>, byRule: Record<string, number>, extra = ''): string {
  const boxes = SEVERITIES.map(
    (s) =>
      `<label><input type="checkbox" checked data-filter-sev="${s}"> ${sevBadge(s)} ${NUMBER.format(bySev[s])}</label>`,
  ).join('');
  const rules = Object.entries(byRule)
    .map(([r, n]) => `<option value="${esc(r)}">${esc(r)} (${NUMBER.format(n)})</option>`)
    .join('');
  return `<nav class="filters" aria-label="filters">${extra}${boxes}<label>rule <select id="rule-filter"><option value="">all rules</option>${rules}</select></label><span class="shown" id="shown"></span></nav>\n`;
}

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
    finding(f) {
      if (ctx.quiet && !atOrAbove(f.severity, threshold)) return;
      spool.add(f);
      timeline.finding(f);
      let c = counts.get(f.source);
      if (!c) counts.set(f.source, (c = { errors: 0, warnings: 0, infos: 0, rules: new Map() }));
      if (f.severity === 'error') c.errors++;
      else if (f.severity === 'warning') c.warnings++;
      else c.infos++;
      c.rules.set(f.ruleId, (c.rules.get(f.ruleId) ?? 0) + 1);
    },
    finish(summary) {
      timeline.end();
      const w = chunkedOutput(out);
      const order = [...new Set([...sources, ...counts.keys()])];
      const rank = new Map(sources.map((s, i) => [s, i]));
      order.sort((a, b) => (rank.get(a) ?? Infinity) - (rank.get(b) ?? Infinity) || cmpText(a, b));
      const index = new Map(order.map((s, i) => [s, i]));
      const title = `${ctx.protocol.toUpperCase()} conformance report`;
      w.write(pageHead(`${title}: ${named(order)}`));
      w.write(header(title, ctx, summary, order));
      w.write(
        filterBar({ error: summary.errors, warning: summary.warnings, info: summary.infos }, shownByRule(counts)),
      );
      w.write('<main>\n');
      if (summary.omitted)
        w.write(
          `<p class="note">${plural(summary.omitted, 'more finding')} not shown (--max-findings); the counts include them.</p>\n`,
        );
      let at = 0;
      let rule: string | undefined;
      const open = (source: string) => {
        w.write(inputHead(source, index.get(source)!, counts.get(source), timeline));
      };
      const close = (source: string) => {
        if (rule !== undefined) w.write('</tbody></table></details>\n');
        rule = undefined;
        inputTail(w, source, index.get(source)!, timeline, ctx.knownTypes);
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
    ? order.join(', ')
    : `${order.slice(0, 5).join(', ')} and ${NUMBER.format(order.length - 5)} more`;
}

function shownByRule(counts: Map<string, SourceCounts>): Record<string, number> {
  const all = new Map<string, number>();
  for (const c of counts.values()) for (const [r, n] of c.rules) all.set(r, (all.get(r) ?? 0) + n);
  return Object.fromEntries([...all].sort(([a], [b]) => cmpText(a, b)));
}

function header(title: string, ctx: ReportContext, s: Summary, order: readonly string[]): string {
  const failed = reached(s, ctx.failOn ?? 'error');
  const box = (n: number, label: string) => `<div class="count"><b>${NUMBER.format(n)}</b><span>${label}</span></div>`;
  return `<header class="top"><h1>${esc(title)}</h1><div class="sub">agent-conformance ${esc(ctx.version)} · ${esc(named(order))}</div>
<div class="verdict ${failed ? 'fail' : 'pass'}">${failed ? `✖ fails at --fail-on ${ctx.failOn ?? 'error'}` : `✔ passes at --fail-on ${ctx.failOn ?? 'error'}`}</div>
<div class="counts">${box(s.errors, 'errors')}${box(s.warnings, 'warnings')}${box(s.infos, 'infos')}${box(s.events, 'events')}${box(s.lines, 'lines')}${box(s.inputs, s.inputs === 1 ? 'input' : 'inputs')}${s.coverage ? box(s.coverage.exercised, `of ${s.coverage.known} known types`) : ''}</div></header>\n`;
}

function inputHead(source: string, i: number, c: SourceCounts | undefined, timeline: Timeline): string {
  const facts = timeline.inputFacts(source);
  const events = facts ? `${plural(facts.events, 'event')} · ` : '';
  const none = c ? '' : '<p class="note">No findings.</p>\n';
  const jumps = [
    c ? `<a href="#in-${i}-rules">findings by rule</a>` : '',
    timeline.sessionsOf(source).length ? `<a href="#in-${i}-timeline">timeline</a>` : '',
    facts?.types.size ? `<a href="#in-${i}-types">event types</a>` : '',
  ].filter(Boolean);
  return `<section class="input" id="in-${i}"><h2>${esc(source)}</h2><div class="line-sum">${events}${countsLine(c ?? { errors: 0, warnings: 0, infos: 0 })}${jumps.length ? ` · ${jumps.join(' · ')}` : ''}</div>\n${c ? `<h3 id="in-${i}-rules">Findings by rule</h3>\n` : none}`;
}

function findingRow(f: Finding, i: number, timeline: Timeline): string {
  const where = f.line === undefined ? '—' : `line ${f.line}${f.column !== undefined ? `:${f.column}` : ''}`;
  const loc =
    f.line !== undefined && timeline.eventAt(f.source, f.line) ? `<a href="#e-${i}-${f.line}">${where}</a>` : where;
  return `<tr class="f" data-sev="${f.severity}" data-rule="${esc(f.ruleId)}"><td class="loc mono">${loc}</td><td class="msg">${esc(f.message)}</td><td class="ptr"><code>${f.pointer ? esc(f.pointer) : ''}</code></td></tr>\n`;
}

function inputTail(
  w: Output,
  source: string,
  i: number,
  timeline: Timeline,
  knownTypes: readonly string[] | undefined,
): void {
  const facts = timeline.inputFacts(source);
  let s = '';
  const sessions = timeline.sessionsOf(source);
  if (sessions.length) {
    s += `<h3 id="in-${i}-timeline">Timeline</h3>\n`;
    // the kinds of pair this input's timeline has
    const kinds = new Set<LinkKind>();
    for (const session of sessions)
      for (const e of session.events) for (const g of e.opens) kinds.add(timeline.group(g)?.kind ?? 'rpc');
    const legend = (['attention', 'control', 'rpc', 'elicitation'] as const)
      .filter((x) => kinds.has(x))
      .map((k) => `<span><i class="k-${k}"></i>${KIND_LABEL[k]} → ${PAIR_LABEL[k]}</span>`)
      .join('');
    if (legend) s += `<div class="legend">${legend}</div>\n`;
    w.write(s);
    s = '';
    for (const session of sessions) sessionBlock(w, session, i, timeline);
  }
  if (facts?.types.size) {
    const known = new Set(knownTypes ?? []);
    const rows = [...facts.types].sort((a, b) => b[1] - a[1] || cmpText(a[0], b[0]));
    const exercised = rows.filter(([t]) => known.has(t)).length;
    const missing = (knownTypes ?? []).filter((t) => !facts.types.has(t));
    s += `<h3 id="in-${i}-types">Event types</h3>\n<p class="note">${exercised} of ${known.size} known event types exercised${rows.length > exercised ? `, ${plural(rows.length - exercised, 'other type')}` : ''}.</p>\n<div class="types-wrap">${rows
      .map(
        ([t, n]) =>
          `<div><span><code>${esc(t)}</code>${known.size && !known.has(t) ? ' <span class="unknown">not a known type</span>' : ''}</span><span class="n">${NUMBER.format(n)}</span></div>`,
      )
      .join('')}</div>\n`;
    if (missing.length)
      s += `<details><summary class="note">${plural(missing.length, 'known type')} not exercised</summary><div class="types-wrap">${missing.map((t) => `<div><code>${esc(t)}</code></div>`).join('')}</div></details>\n`;
  }
  if (facts && (facts.offTimeline || facts.otherSessions))
    s += `<p class="note">Left out of the timeline: ${[facts.otherSessions ? `${plural(facts.otherSessions, 'event')} of sessions past the first ${TIMELINE_MAX_SESSIONS}` : '', facts.offTimeline ? `${plural(facts.offTimeline, 'finding')} whose event is not kept or that name no line` : ''].filter(Boolean).join('; ')} (every finding is in the list by rule).</p>\n`;
  w.write(`${s}</section>\n`);
}

/** Lanes of the pairs in one session's rows: for each row, what each lane draws there. */
function lanes(events: readonly TimelineEvent[]): { width: number; cells: string[][]; paired: Set<number> } {
  const members = new Map<number, number[]>();
  events.forEach((e, row) => {
    for (const g of e.opens) (members.get(g) ?? members.set(g, []).get(g)!).push(row);
    for (const j of e.joins) (members.get(j.group) ?? members.set(j.group, []).get(j.group)!).push(row);
  });
  const spans = [...members]
    .filter(([, rows]) => rows.length > 1)
    .map(([g, rows]) => ({ g, rows, from: Math.min(...rows), to: Math.max(...rows) }))
    .sort((a, b) => a.from - b.from || a.g - b.g);
  const laneEnd: number[] = [];
  const cells: string[][] = events.map(() => []);
  for (const sp of spans) {
    let lane = laneEnd.findIndex((end) => end < sp.from);
    if (lane === -1) {
      if (laneEnd.length >= MAX_LANES) continue;
      lane = laneEnd.push(0) - 1;
    }
    laneEnd[lane] = sp.to;
    const at = new Set(sp.rows);
    for (let r = sp.from; r <= sp.to; r++) {
      const part = r === sp.from ? 'start' : r === sp.to ? 'end' : 'mid';
      cells[r]!.push(`${lane}|${part}${at.has(r) ? ' dot' : ''}|${sp.g}`);
    }
  }
  return { width: laneEnd.length, cells, paired: new Set(spans.map((sp) => sp.g)) };
}

function sessionBlock(w: Output, s: SessionTimeline, i: number, timeline: Timeline): void {
  const name = s.notEvents
    ? 'lines that are not events'
    : s.session === undefined
      ? 'no session'
      : `session <code>${esc(s.session)}</code>`;
  const withF = s.events.filter((e) => e.findings.length || e.moreFindings).length;
  const kept = s.events.length;
  const head = `<h4>${name} <span class="dim">${plural(s.seen, s.notEvents ? 'line' : 'event')}${kept < s.seen ? `, ${kept} shown` : ''} · ${withF} with findings</span></h4>`;
  const { width, cells, paired } = lanes(s.events);
  const kindOf = (g: number) => timeline.group(g)?.kind ?? 'rpc';
  const gw = width ? width * LANE_STEP + 14 : 8;
  w.write(
    `<section class="session">${head}<table class="tl"><thead><tr><th></th><th>line</th><th>seq</th><th>time</th><th>type</th><th>pairs and findings</th></tr></thead><tbody>\n`,
  );
  let prev = 0;
  const gap = (n: number) =>
    `<tr class="gap"><td colspan="6">⋯ ${plural(n, 'event')} of this session not shown (no finding near them)</td></tr>\n`;
  s.events.forEach((e, row) => {
    if (e.ord - prev > 1) w.write(gap(e.ord - prev - 1));
    prev = e.ord;
    const sevs = new Set(e.findings.map((f) => f.severity));
    const cls = ['ev'];
    if (e.findings.length || e.moreFindings) cls.push('has-f');
    if (sevs.size === 1 && sevs.has('info')) cls.push('only-info');
    if (e.notEvent) cls.push('not-event');
    const g = cells[row]!.map((c) => {
      const [lane, part, grp] = c.split('|');
      return `<span class="lane ${part} k-${kindOf(Number(grp))}" style="left:${9 + Number(lane) * LANE_STEP}px"></span>`;
    }).join('');
    const links = [
      ...e.opens
        .filter((gr) => paired.has(gr))
        .map((gr) => `<span class="link k-${kindOf(gr)}">${KIND_LABEL[kindOf(gr)]}</span>`),
      ...e.joins.map((j) => {
        const grp = timeline.group(j.group);
        return `<span class="link k-${kindOf(j.group)}">${esc(j.role)}${grp ? ` ← line ${grp.line}` : ''}</span>`;
      }),
    ].join('');
    const fs = e.findings
      .map(
        (f) =>
          `<div class="tf" data-sev="${f.severity}" data-rule="${esc(f.ruleId)}">${sevBadge(f.severity)} <code>${esc(f.ruleId)}</code><span class="msg">${esc(f.message)}</span></div>`,
      )
      .join('');
    const more = e.moreFindings
      ? `<div class="more">+${plural(e.moreFindings, 'more finding')} on this line (in the list by rule)</div>`
      : '';
    const type = e.notEvent
      ? 'not an event'
      : e.type !== undefined
        ? `<code>${esc(e.type)}</code>${e.method !== undefined ? ` <span class="m">${esc(e.method)}</span>` : ''}`
        : e.method !== undefined
          ? `<span class="m">${esc(e.method)}</span>`
          : '<span class="m">no type</span>';
    w.write(
      `<tr id="e-${i}-${e.line}" class="${cls.join(' ')}"><td class="g" style="width:${gw}px">${g}</td><td class="ln mono">${e.line}</td><td class="sq mono">${e.seq ?? ''}</td><td class="tm mono">${e.time !== undefined ? esc(e.time) : ''}</td><td class="ty">${type}</td><td class="fx">${links}${fs}${more}</td></tr>\n`,
    );
  });
  if (s.seen > prev) w.write(gap(s.seen - prev));
  w.write('</tbody></table></section>\n');
}

function footer(ctx: ReportContext): string {
  return `<footer>agent-conformance ${esc(ctx.version)} · ${esc(ctx.protocol)}. No payload value is shown: the timeline has each event's line, type, time and seq. A run of more than ${NUMBER.format(TIMELINE_KEEP_ALL)} events keeps in its timeline the events around findings and their pairs; every finding is in the list by rule.</footer>\n`;
}

const STATUS_MARK: Record<CaseStatus, string> = {
  pass: '✔ pass',
  fail: '✖ fail',
  deviation: '≈ deviation',
  skip: '○ skip',
  'not-run': '– not run',
  error: '! error',
};

/** Create the `fixtures` HTML reporter: a row per case, the findings of a case that did not pass under it. */
export function fixtureHtmlReporter(out: Output, ctx: ReportContext): FixtureReporter {
  const cases: CaseResult[] = [];
  return {
    caseResult(c) {
      if (ctx.quiet && c.status !== 'fail' && c.status !== 'error') return;
      cases.push(c);
    },
    finish(s: FixtureSummary) {
      const w = chunkedOutput(out);
      const title = `${ctx.protocol.toUpperCase()} fixture run`;
      const bad = s.counts.fail + s.counts.error > 0;
      const bySev: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
      const byRule: Record<string, number> = {};
      for (const c of cases)
        for (const f of c.findings ?? []) {
          bySev[f.severity]++;
          byRule[f.ruleId] = (byRule[f.ruleId] ?? 0) + 1;
        }
      w.write(pageHead(`${title}: ${s.dir}`));
      const box = (n: number, label: string) =>
        `<div class="count"><b>${NUMBER.format(n)}</b><span>${label}</span></div>`;
      w.write(
        `<header class="top"><h1>${esc(title)}</h1><div class="sub">agent-conformance ${esc(ctx.version)} · ${esc(s.dir)} · layout ${esc(s.layout)}</div>
<div class="verdict ${bad ? 'fail' : 'pass'}">${bad ? '✖ fails' : s.counts.skip ? '◐ passes what ran' : '✔ passes'}</div>
<div class="counts">${box(s.total, 'cases')}${box(s.counts.pass, 'passed')}${box(s.counts.fail, 'failed')}${box(s.counts.skip, 'skipped')}${box(s.counts.deviation, 'known deviations')}${box(s.counts.error, 'harness errors')}</div></header>\n`,
      );
      const statuses = (Object.keys(STATUS_MARK) as CaseStatus[]).filter((st) => cases.some((c) => c.status === st));
      const statusBoxes = statuses
        .map(
          (st) =>
            `<label><input type="checkbox" checked data-filter-status="${st}"> <span class="st st-${st}">${STATUS_MARK[st]}</span> ${NUMBER.format(cases.filter((c) => c.status === st).length)}</label>`,
        )
        .join('');
      w.write(
        filterBar(bySev, Object.fromEntries(Object.entries(byRule).sort(([a], [b]) => cmpText(a, b))), statusBoxes),
      );
      w.write('<main><section class="block"><h3>Cases</h3><table class="cases"><tbody>\n');
      for (const c of cases) {
        // a case that is its file is named once (as the text report does)
        const isFile = c.file !== undefined && !c.line && (c.file === c.id || c.file.endsWith(`/${c.id}`));
        const where = c.file && !isFile ? `${esc(c.file)}${c.line ? `:${c.line}` : ''}` : '';
        const said =
          c.status === 'pass'
            ? ''
            : [
                c.expected && c.actual ? `expected ${esc(c.expected)}; got ${esc(c.actual)}` : '',
                c.deviationReason ? `deviation: ${esc(c.deviationReason)}` : '',
                c.detail ? esc(c.detail) : '',
              ]
                .filter(Boolean)
                .join('<br>');
        w.write(
          `<tr class="case" data-status="${c.status}"><td class="st st-${c.status}">${STATUS_MARK[c.status]}</td><td><code>${esc(isFile ? c.file! : c.id)}</code>${where ? ` <span class="note mono">${where}</span>` : ''}${said ? `<div>${said}</div>` : ''}`,
        );
        if (c.findings?.length) {
          w.write('<table class="findings"><tbody>');
          for (const f of c.findings)
            w.write(
              `<tr class="f" data-sev="${f.severity}" data-rule="${esc(f.ruleId)}"><td class="loc mono">${f.line !== undefined ? `line ${f.line}` : '—'}</td><td>${sevBadge(f.severity)} <code>${esc(f.ruleId)}</code> ${esc(f.message)} ${citation(f.spec)}</td></tr>`,
            );
          w.write('</tbody></table>');
        }
        if (c.omittedFindings)
          w.write(`<div class="more">+${plural(c.omittedFindings, 'more finding')} (--max-findings)</div>`);
        w.write('</td></tr>\n');
      }
      w.write('</tbody></table></section>\n');
      const cov = s.findings.coverage;
      if (cov)
        w.write(
          `<section class="block"><h3>Event types of the case runs</h3><p class="note">${cov.exercised} of ${cov.known} known event types exercised.</p><div class="types-wrap">${Object.entries(
            cov.seen,
          )
            .map(([t, n]) => `<div><code>${esc(t)}</code><span class="n">${NUMBER.format(n)}</span></div>`)
            .join('')}</div></section>\n`,
        );
      w.write('</main>\n');
      w.write(footer(ctx));
      w.write(pageTail());
      w.flush();
    },
  };
}
