/**
 * `aep live`'s check list in the text report (src/report/text.ts): the count line and a line per status, a check
 * passed with a binding left unjudged counted and listed apart as partly judged (README §Check a running endpoint (`aep live`)).
 */
import type { ChalkInstance } from 'chalk';
import type { CheckOutcome } from '../core/check-outcome.ts';
import type { Severity } from '../core/finding.ts';
import { checkCounts, checkStatus, partlyJudged, unjudgedText } from './util.ts';

/** One physical line: control line breaks in a message become spaces (a finding is one line). */
export function oneLine(s: string): string {
  return s.replace(/\r\n|[\r\n]/g, ' ');
}

/**
 * `aep live`'s checks, compact: a count line, the passed ones on one line, a line per failed one (its findings'
 * counts) and per reason of the skipped ones; with `quiet`, the count line and the failed ones.
 */
export function checkLines(
  checks: readonly CheckOutcome[],
  chalk: ChalkInstance,
  threshold: Severity,
  quiet?: boolean,
): string {
  const by = {
    passed: [] as CheckOutcome[],
    partly: [] as CheckOutcome[],
    failed: [] as CheckOutcome[],
    skipped: [] as CheckOutcome[],
  };
  // a check that passed over one binding and left another unjudged is no pass: counted and listed apart
  for (const c of checks) by[partlyJudged(c, threshold) ? 'partly' : checkStatus(c, threshold)].push(c);
  const ran = checks.filter((c) => c.status !== 'skipped' && !c.implicit).length;
  const partly = by.partly.length ? `, ${by.partly.length} partly judged` : '';
  const head =
    ran === 0
      ? chalk.yellow(`checks: none asked for ran (${by.skipped.length} skipped): nothing was verified`)
      : `checks: ${by.passed.length} passed${partly}, ${by.failed.length} failed, ${by.skipped.length} skipped`;
  const lines = [head];
  if (ran === 0 && by.passed.length)
    lines.push(`  ${chalk.dim('read')}     ${by.passed.map((c) => c.check).join(', ')}`);
  else if (!quiet && by.passed.length)
    lines.push(
      `  ${chalk.green('passed')}   ${by.passed.map((c) => c.check + (checkCounts(c) ? ` (${checkCounts(c)})` : '')).join(', ')}`,
    );
  // said even when quiet: like a skip, what it did not judge is not verified
  for (const c of by.partly)
    lines.push(`  ${chalk.yellow('partly')}   ${c.check}: passed, ${unjudgedText(c)} (${checkCounts(c)})`);
  for (const c of by.failed) lines.push(`  ${chalk.red('failed')}   ${c.check} (${checkCounts(c)})`);
  // checks skipped for one reason share a line
  const why = new Map<string, string[]>();
  for (const c of by.skipped) why.set(c.reason ?? '', [...(why.get(c.reason ?? '') ?? []), c.check]);
  // at --fail-on info a skip counts against the run: said even when quiet (the text stream has no line per skip)
  if (!quiet || threshold === 'info')
    for (const [reason, names] of why) lines.push(`  ${chalk.dim('skipped')}  ${names.join(', ')}: ${oneLine(reason)}`);
  return `${lines.join('\n')}\n`;
}
