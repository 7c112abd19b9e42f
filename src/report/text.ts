/**
 * Text reporter: one line per finding, streamed as found, then a summary line.
 * `source:line:column  severity  ruleId  message  pointer`. The only module that uses chalk.
 * Colour follows chalk's detection (NO_COLOR, FORCE_COLOR, TTY) unless forced off.
 */
import { Chalk } from 'chalk';
import type { Finding, Severity } from '../core/finding.ts';
import type { Summary } from '../core/summary.ts';
import type { Output, ReportContext, Reporter } from './types.ts';

/** `source:line:column` (parts that are unknown are left out). */
export function formatLocation(f: Pick<Finding, 'source' | 'line' | 'column'>): string {
  let s = f.source || '<run>';
  if (f.line !== undefined) s += `:${f.line}`;
  if (f.line !== undefined && f.column !== undefined) s += `:${f.column}`;
  return s;
}

/** Plural helper: `1 error`, `2 errors`. */
export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** The summary sentence shared by text output and progress. */
export function summaryLine(s: Summary): string {
  const parts = [plural(s.events, 'event'), plural(s.errors, 'error'), plural(s.warnings, 'warning'), plural(s.infos, 'info')];
  let line = parts.join(', ');
  if (s.inputs > 1) line = `${plural(s.inputs, 'input')}: ${line}`;
  if (s.omitted) line += ` (${s.omitted} more not shown: --max-findings)`;
  return line;
}

/** Create the text reporter. */
export function textReporter(out: Output, ctx: ReportContext): Reporter {
  const chalk = new Chalk(ctx.color ? {} : { level: 0 });
  const sev: Record<Severity, (s: string) => string> = {
    error: (s) => chalk.red.bold(s),
    warning: (s) => chalk.yellow(s),
    info: (s) => chalk.cyan(s),
  };
  let lastSource: string | undefined;
  return {
    finding(f) {
      if (ctx.quiet && f.severity !== 'error') return;
      if (f.source !== lastSource) {
        if (lastSource !== undefined) out.write('\n');
        lastSource = f.source;
      }
      const ptr = f.pointer ? `  ${chalk.dim(f.pointer)}` : '';
      out.write(`${chalk.bold(formatLocation(f))}  ${sev[f.severity](f.severity)}  ${chalk.dim(f.ruleId)}  ${f.message}${ptr}\n`);
    },
    finish(s) {
      if (lastSource !== undefined) out.write('\n');
      const verdict = s.errors > 0 ? chalk.red.bold('✖') : chalk.green.bold('✔');
      out.write(`${verdict} ${summaryLine(s)}\n`);
      if (!ctx.quiet && Object.keys(s.byRule).length > 0) {
        const rows = Object.entries(s.byRule)
          .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
          .map(([r, n]) => `${r} ${n}`);
        out.write(chalk.dim(`  by rule: ${rows.join(', ')}\n`));
      }
      if (!ctx.quiet && s.coverage) {
        out.write(chalk.dim(`  types: ${s.coverage.exercised} of ${s.coverage.known} known event types exercised` + (Object.keys(s.coverage.unknown).length ? `, ${Object.keys(s.coverage.unknown).length} other types` : '') + '\n'));
      }
    },
  };
}
