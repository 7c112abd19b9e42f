/**
 * Text reporters, the only module that uses chalk: validate prints a line per finding as found, grouped per source,
 * then summary and coverage; fixtures a line per case. Colour is the caller's decision (`ctx.color`); off, no escape
 * code is written.
 */
import { Chalk, type ChalkInstance } from 'chalk';
import { byColumn, type Finding, type Severity } from '../core/finding.ts';
import type { Summary } from '../core/summary.ts';
import type { CaseResult, CaseStatus, FixtureSummary } from '../core/fixture-result.ts';
import type { FixtureReporter, Output, ReportContext, Reporter } from './types.ts';
import { checkLines, oneLine } from './text-checks.ts';
import { atOrAbove, formatLocation, plural, shownPointer, unitOf } from './util.ts';
import { visible } from '../core/visible.ts';

export { formatLocation, plural } from './util.ts';

/**
 * The summary sentence of text and github output: `64 events, 0 errors, ...`, AHP's `64 messages, ...` (`unit`,
 * {@link unitOf}).
 */
export function summaryLine(s: Summary, unit: 'message' | 'event' = 'event'): string {
  // no input stream (e.g. `ahp pin verify`): there are no events to count
  const parts = [
    ...(s.inputs > 0 ? [eventCount(s, unit)] : []),
    plural(s.errors, 'error'),
    plural(s.warnings, 'warning'),
    plural(s.infos, 'info'),
  ];
  let line = parts.join(', ');
  if (s.inputs > 1) line = `${plural(s.inputs, 'input')}: ${line}`;
  if (s.omitted) line += ` (${s.omitted} more not shown: --max-findings)`;
  return line;
}

/**
 * `9 events`, or with lines set aside `0 events checked (9 lines of another format not checked)`; registration
 * documents are named as such, never counted as events (`1 registration document`, `3 messages, 1 registration
 * document`).
 */
function eventCount(s: Summary, unit: 'message' | 'event'): string {
  const docs = s.documents ? plural(s.documents, 'registration document') : '';
  const events = s.unchecked
    ? `${plural(s.events, unit)} checked (${plural(s.unchecked, 'line')} of another format not checked)`
    : docs && s.events === 0
      ? ''
      : plural(s.events, unit);
  return [events, docs].filter(Boolean).join(', ');
}

/**
 * The message of `f` plus a related location in another input its arguments do not name ("(see line 4 of a.jsonl)").
 */
export function messageWithRelated(f: Pick<Finding, 'message' | 'source' | 'related' | 'args'>): string {
  if (!f.related?.length) return f.message;
  const named = new Set<string>();
  for (const a of Object.values(f.args ?? {}))
    if (typeof a === 'object' && a.line !== undefined) named.add(`${a.line}\u0000${a.source}`);
  const extra: string[] = [];
  for (const r of f.related) {
    if (r.source === f.source || r.line === undefined) continue;
    const key = `${r.line}\u0000${r.source}`;
    if (named.has(key)) continue;
    named.add(key);
    extra.push(`line ${r.line} of ${visible(r.source)}`);
  }
  return extra.length ? `${f.message} (see ${extra.join(', ')})` : f.message;
}

function makeChalk(color: boolean): ChalkInstance {
  // level 1 (16 colours) keeps output identical across terminals; 0 writes no escape codes
  return new Chalk({ level: color ? 1 : 0 });
}

function severityStyles(chalk: ChalkInstance): Record<Severity, (s: string) => string> {
  return { error: (s) => chalk.red.bold(s), warning: (s) => chalk.yellow(s), info: (s) => chalk.cyan(s) };
}

/** The statistics lines under the summary line (by rule, coverage), dimmed; wrapped to `width` when given (a terminal). */
function statisticsLines(s: Summary, chalk: ChalkInstance, width?: number): string {
  let out = '';
  if (Object.keys(s.byRule).length > 0) {
    const rows = Object.entries(s.byRule)
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .map(([r, n]) => `${r} ${n}`);
    const line = `by rule: ${rows.join(', ')}`;
    if (width === undefined) out += chalk.dim(`  ${line}\n`);
    // a rule and its count stay together on a line
    else
      out += wrapWords(
        ['by', 'rule:', ...rows.map((r, i) => (i < rows.length - 1 ? `${r},` : r))].map((text) => ({
          text,
          style: (x) => chalk.dim(x),
          gap: 1,
        })),
        Math.max(width, 40),
        2,
        4,
      );
  }
  // a run of registration documents only has no event whose type could be counted
  if (s.coverage && !(s.documents && s.events === 0 && !s.unchecked)) {
    const other = Object.keys(s.coverage.unknown).length;
    out += chalk.dim(
      `  types: ${s.coverage.exercised} of ${s.coverage.known} known event types exercised${other ? `, ${plural(other, 'other type')}` : ''}\n`,
    );
  }
  return out;
}

/** `mark` and a summary sentence, wrapped as the `by rule:` line is to `width` when given (a terminal). */
function markedLine(mark: string, text: string, width?: number): string {
  if (width === undefined) return `${mark} ${text}\n`;
  const words = text.split(' ').map((t): Word => ({ text: t, style: (x) => x, gap: 1 }));
  // the mark is one column whatever its colour codes
  return `${mark} ${wrapWords(words, Math.max(width, 40), 2, 2).slice(2)}`;
}

/** A word of wrapped output: its text, its style, and the spaces before it on a line. */
interface Word {
  text: string;
  style: (s: string) => string;
  gap: number;
}

/** `words` in lines of at most `width` columns, indented; styles apply after measuring. */
function wrapWords(words: readonly Word[], width: number, first: number, indent: number): string {
  const lines: string[] = [];
  let line = ' '.repeat(first);
  let used = first;
  let empty = true;
  const newLine = () => {
    lines.push(line);
    line = ' '.repeat(indent);
    used = indent;
    empty = true;
  };
  for (const w of words) {
    let text = w.text;
    while (text.length > 0) {
      const gap = empty ? 0 : w.gap;
      if (used + gap + text.length <= width) {
        line += ' '.repeat(gap) + w.style(text);
        used += gap + text.length;
        empty = false;
        break;
      }
      if (!empty) {
        newLine();
        continue;
      }
      // alone on its line and still too long: the line takes what fits, the rest goes on
      const take = Math.max(1, width - used);
      line += w.style(text.slice(0, take));
      used += take;
      empty = false;
      text = text.slice(take);
    }
  }
  if (!empty) lines.push(line);
  return lines.join('\n') + '\n';
}

/** One finding wrapped to `width`: location, severity, rule, pointer; then the sentence and dimmed citation. */
export function wrappedFinding(
  f: Finding,
  width: number,
  chalk: ChalkInstance = makeChalk(false),
  sev: Record<Severity, (s: string) => string> = severityStyles(chalk),
): string {
  const plain = (s: string) => s;
  const head: Word[] = [
    { text: formatLocation(f), style: (s) => chalk.bold(s), gap: 2 },
    { text: f.severity, style: sev[f.severity], gap: 2 },
    { text: f.ruleId, style: plain, gap: 2 },
  ];
  if (f.pointer) head.push({ text: shownPointer(f.pointer), style: (s) => chalk.dim(s), gap: 2 });
  const body: Word[] = oneLine(messageWithRelated(f))
    .split(' ')
    .filter((w) => w !== '')
    .map((text) => ({ text, style: plain, gap: 1 }));
  // a very narrow terminal still gets whole words where it can: 40 columns at least
  const w = Math.max(width, 40);
  // the citation is one piece when it fits on a line (it then moves to the next line whole), else its words
  const citation = `[${f.spec}]`;
  const spec: Word[] = (citation.length <= w - 4 ? [citation] : citation.split(' ')).map((text, i) => ({
    text,
    style: (s) => chalk.dim(s),
    gap: i === 0 ? 2 : 1,
  }));
  return wrapWords(head, w, 0, 4) + wrapWords([...body, ...spec], w, 4, 4);
}

/** True when `s` counts a finding at or above `threshold` (the run fails). */
function reached(s: Summary, threshold: Severity): boolean {
  return threshold === 'error'
    ? s.errors > 0
    : threshold === 'warning'
      ? s.errors + s.warnings > 0
      : s.errors + s.warnings + s.infos > 0;
}

/** Create the text reporter for `validate`. With `ctx.quiet`, findings below `ctx.failOn` are not printed. */
export function textReporter(out: Output, ctx: ReportContext): Reporter {
  const chalk = makeChalk(ctx.color);
  const sev = severityStyles(chalk);
  const threshold = ctx.failOn ?? 'error';
  let lastSource: string | undefined;
  let lastLine = 0;
  let lateSaid = false;
  const write = (f: Finding) => {
    if (f.source !== lastSource) {
      if (lastSource !== undefined) out.write('\n');
      lastSource = f.source;
      lastLine = 0;
      lateSaid = false;
    }
    if (ctx.width === undefined) {
      const ptr = f.pointer ? `  ${chalk.dim(shownPointer(f.pointer))}` : '';
      // the citation last and dimmed: where the spec says so, without crowding the message
      out.write(
        `${chalk.bold(formatLocation(f))}  ${sev[f.severity](f.severity)}  ${f.ruleId}  ${oneLine(messageWithRelated(f))}${ptr}  ${chalk.dim(`[${f.spec}]`)}\n`,
      );
      return;
    }
    // a finding made later about an earlier line (an exchange left open at the end, a respond its target did not reject
    // as invalid): said once, so the jump back in line numbers reads as intended
    if (f.line !== undefined && f.line < lastLine && !lateSaid) {
      out.write(chalk.dim('  found later in the input, about earlier lines:\n'));
      lateSaid = true;
    }
    lastLine = Math.max(lastLine, f.line ?? 0);
    out.write(wrappedFinding(f, ctx.width, chalk, sev));
  };
  // One line's findings arrive together but not by column: held until another line's finding, the end or the next tick
  // (a live stream's last line is not held back), then printed by column.
  let held: Finding[] = [];
  let flushScheduled = false;
  const flush = () => {
    if (held.length > 1) held.sort(byColumn);
    for (const f of held) write(f);
    held = [];
  };
  return {
    finding(f) {
      if (ctx.quiet && !atOrAbove(f.severity, threshold)) return;
      const first = held[0];
      if (first && (first.source !== f.source || first.line !== f.line || f.line === undefined)) flush();
      held.push(f);
      if (!flushScheduled) {
        flushScheduled = true;
        setImmediate(() => {
          flushScheduled = false;
          flush();
        });
      }
    },
    inputSummary(source, s) {
      flush();
      // --quiet: a passing input says nothing (the total line still counts it)
      if (ctx.quiet && !reached(s, threshold)) return;
      // right under the input's findings; the next input's findings start after a blank line
      const mark = reached(s, threshold) ? chalk.red('✖') : chalk.green('✔');
      out.write(markedLine(mark, `${visible(source)}: ${summaryLine(s, unitOf(ctx.protocol))}`, ctx.width));
      lastSource ??= source;
    },
    finish(s, end) {
      flush();
      if (lastSource !== undefined) out.write('\n');
      if (ctx.checks) out.write(checkLines(ctx.checks, chalk, threshold, ctx.quiet));
      const failed = reached(s, threshold);
      // exit 2 without a failure (aep live: checks left unrun for credentials, or none ran) is no pass
      const mark = failed ? chalk.red.bold('✖') : end?.exitCode === 2 ? chalk.yellow.bold('◐') : chalk.green.bold('✔');
      out.write(markedLine(mark, summaryLine(s, unitOf(ctx.protocol)), ctx.width));
      if (!ctx.quiet) out.write(statisticsLines(s, chalk, ctx.width));
    },
  };
}

const STATUS_LABEL: Record<CaseStatus, string> = {
  pass: '✔ pass',
  fail: '✖ fail',
  deviation: '≈ deviation',
  skip: '○ skip',
  'not-run': '– not run',
  error: '! error',
};

/**
 * `150 cases: 90 passed, 3 failed, 30 skipped (file absent), 0 known deviations`; not run and errors only when present.
 */
export function fixtureSummaryLine(s: FixtureSummary): string {
  const c = s.counts;
  const parts = [
    `${c.pass} passed`,
    `${c.fail} failed`,
    `${c.skip} skipped (file absent)`,
    `${plural(c.deviation, 'known deviation')}`,
  ];
  if (c['not-run']) parts.push(`${c['not-run']} not run (out of scope)`);
  if (c.error) parts.push(`${plural(c.error, 'harness error')}`);
  return `${plural(s.total, 'case')}: ${parts.join(', ')}`;
}

/** Create the text reporter for `fixtures`. With `ctx.quiet`, only failing and erroring cases are printed. */
export function fixtureTextReporter(out: Output, ctx: ReportContext): FixtureReporter {
  const chalk = makeChalk(ctx.color);
  const sev = severityStyles(chalk);
  const style: Record<CaseStatus, (s: string) => string> = {
    pass: (s) => chalk.green(s),
    fail: (s) => chalk.red.bold(s),
    deviation: (s) => chalk.yellow(s),
    skip: (s) => chalk.dim(s),
    'not-run': (s) => chalk.dim(s),
    error: (s) => chalk.magenta.bold(s),
  };
  return {
    caseResult(c: CaseResult) {
      if (ctx.quiet && c.status !== 'fail' && c.status !== 'error') return;
      // a case that is its file is named once, by its path (`conformance/aep/pass/x.jsonl`, not `pass/x.jsonl  conformance/aep/pass/x.jsonl`)
      const isFile = c.file !== undefined && !c.line && (c.file === c.id || c.file.endsWith(`/${c.id}`));
      const name = isFile ? c.file! : c.id;
      const where = c.file && !isFile ? chalk.dim(`  ${c.file}${c.line ? `:${c.line}` : ''}`) : '';
      out.write(`${style[c.status](STATUS_LABEL[c.status].padEnd(11))} ${name}${where}\n`);
      if (c.status === 'pass') return;
      if (c.status === 'fail' && c.expected && c.actual) out.write(`    expected ${c.expected}; got ${c.actual}\n`);
      if (c.deviationReason) out.write(`    deviation: ${c.deviationReason}\n`);
      if (c.detail) out.write(`    ${oneLine(c.detail)}\n`);
      if (c.status === 'fail' || c.status === 'deviation') {
        for (const f of c.findings ?? []) {
          out.write(
            `      ${chalk.bold(formatLocation(f))}  ${sev[f.severity](f.severity)}  ${f.ruleId}  ${oneLine(f.message)}${f.pointer ? `  ${chalk.dim(shownPointer(f.pointer))}` : ''}\n`,
          );
        }
        if (c.omittedFindings)
          out.write(chalk.dim(`      (${c.omittedFindings} more findings not shown: --max-findings)\n`));
      }
    },
    finish(s) {
      // a run that checked no case fails (exit 2) whatever it skipped: never the mark of a pass
      const bad = s.counts.fail + s.counts.error > 0 || s.counts.pass + s.counts.deviation === 0;
      // a run that skipped cases passed only what it ran: a different mark and colour, and how to require them all
      const skipped = s.counts.skip > 0;
      const mark = bad ? chalk.red.bold('✖') : skipped ? chalk.yellow.bold('◐') : chalk.green.bold('✔');
      out.write(`\n${mark} ${fixtureSummaryLine(s)}\n`);
      if (!bad && skipped)
        out.write(
          chalk.yellow(
            `  ${plural(s.counts.skip, 'case')} not run (file absent): only the rest passed; --require-all fails a run that skips any\n`,
          ),
        );
      // the statistics of the case runs (what was read and found), below the verdicts; none
      // when no case validated a stream (the capture cases run downlevel and redact)
      if (!ctx.quiet && s.findings.inputs > 0) {
        out.write(chalk.dim(`  case runs: ${summaryLine(s.findings, unitOf(ctx.protocol))}\n`));
        out.write(statisticsLines(s.findings, chalk));
      }
    },
  };
}
