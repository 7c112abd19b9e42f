/**
 * `aep live`'s checks in the html report, as the text report lists them (src/report/text.ts `checkLines`): the count
 * line, then a row per check in run order with its status at `--fail-on`, its findings' counts or why it was skipped.
 */
import type { CheckOutcome } from '../core/check-outcome.ts';
import type { Severity } from '../core/finding.ts';
import { htmlEscape as esc } from './html-page.ts';
import { NUMBER } from './html-parts.ts';
import { checkCounts, checkStatus, partlyJudged, unjudgedText } from './util.ts';

const MARK = {
  passed: ['pass', '✔ pass'],
  partly: ['skip', '◐ partly'],
  failed: ['fail', '✖ fail'],
  skipped: ['skip', '○ skip'],
} as const;

/** A check's row status: {@link checkStatus}, a pass with a binding left unjudged told apart as `partly`. */
const rowStatus = (c: CheckOutcome, threshold: Severity) =>
  partlyJudged(c, threshold) ? 'partly' : checkStatus(c, threshold);

/** Each check's status at `threshold`, and the count line (`none asked for ran` when no check asked for ran). */
export function checkTally(checks: readonly CheckOutcome[], threshold: Severity) {
  const n = { passed: 0, partly: 0, failed: 0, skipped: 0 };
  for (const c of checks) n[rowStatus(c, threshold)]++;
  const ran = checks.filter((c) => c.status !== 'skipped' && !c.implicit).length;
  const partly = n.partly ? `, ${NUMBER.format(n.partly)} partly judged` : '';
  const line =
    ran === 0
      ? `none asked for ran (${NUMBER.format(n.skipped)} skipped): nothing was verified`
      : `${NUMBER.format(n.passed)} passed${partly}, ${NUMBER.format(n.failed)} failed, ${NUMBER.format(n.skipped)} skipped`;
  return { ...n, line };
}

/** The "Checks" section: every check with pass, fail or skip, and the skip reason. */
export function checksSection(checks: readonly CheckOutcome[], threshold: Severity): string {
  const rows = checks.map((c) => {
    const status = rowStatus(c, threshold);
    const [cls, mark] = MARK[status];
    const implicit = c.implicit ? ' <span class="note">(always run first, not asked for)</span>' : '';
    const counts = checkCounts(c) || 'no findings';
    const detail =
      status === 'skipped' ? esc(c.reason ?? '') : esc(status === 'partly' ? `${unjudgedText(c)}; ${counts}` : counts);
    return `<tr class="check" data-status="${status}"><td class="st st-${cls}">${mark}</td><td><code>${esc(c.check)}</code>${implicit}</td><td>${detail}</td></tr>\n`;
  });
  return `<section class="block" id="checks"><h2>Checks</h2><div class="line-sum">${esc(checkTally(checks, threshold).line)}</div>
<table class="cases checks"><tbody>
${rows.join('')}</tbody></table></section>\n`;
}
