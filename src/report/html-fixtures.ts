/** The `fixtures` HTML page: the verdict of each case with its findings. */
import type { Severity } from '../core/finding.ts';
import type { CaseResult, CaseStatus, FixtureSummary } from '../core/fixture-result.ts';
import { htmlEscape as esc, pageHead, pageTail } from './html-page.ts';
import type { FixtureReporter, Output, ReportContext } from './types.ts';
import { chunkedOutput, cmpText } from './util.ts';
import { citation, filterBar, footer, NUMBER, plural, sevBadge } from './html-parts.ts';

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
      const nothing = s.counts.pass + s.counts.deviation === 0;
      const bad = s.counts.fail + s.counts.error > 0 || nothing;
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
<div class="verdict ${bad ? 'fail' : 'pass'}">${bad ? (nothing && s.counts.fail + s.counts.error === 0 ? '✖ no case was checked' : '✖ fails') : s.counts.skip ? '◐ passes what ran' : '✔ passes'}</div>
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
