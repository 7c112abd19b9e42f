/**
 * GitHub Actions workflow-command reporters: one `::error file=…,line=…,col=…,title=…::message` per finding or failing
 * case, then a summary line; escaping as `@actions/core` does (`%`, CR, LF; in properties also `:` and `,`).
 */
import type { Finding, Severity } from '../core/finding.ts';
import type { CaseResult } from '../core/fixture-result.ts';
import { fixtureSummaryLine, summaryLine } from './text.ts';
import type { FixtureReporter, Output, ReportContext, Reporter } from './types.ts';
import { atOrAbove, isPseudoSource, pointerText, unitOf, workspacePath } from './util.ts';

function escapeData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

const COMMAND: Record<Severity, 'error' | 'warning' | 'notice'> = {
  error: 'error',
  warning: 'warning',
  info: 'notice',
};

/** Build one annotation line. Properties with an undefined value are left out. */
function annotation(
  command: 'error' | 'warning' | 'notice',
  props: Record<string, string | number | undefined>,
  message: string,
): string {
  const p = Object.entries(props)
    .filter(([, v]) => v !== undefined && v !== '')
    .map(([k, v]) => `${k}=${escapeProperty(String(v))}`)
    .join(',');
  return `::${command}${p ? ' ' + p : ''}::${escapeData(message)}\n`;
}

/** An annotation's `file`: the runner reads a relative one from GITHUB_WORKSPACE; none for stdin, `<name>`, a URL. */
export function annotationFile(source: string, ws: ReportContext['githubWorkspace']): string | undefined {
  return source === '' || isPseudoSource(source) ? undefined : workspacePath(source, ws);
}

/** Create the GitHub annotations reporter for `validate`. */
export function githubReporter(out: Output, ctx: ReportContext): Reporter {
  const threshold = ctx.failOn ?? 'error';
  return {
    finding(f: Finding) {
      if (ctx.quiet && !atOrAbove(f.severity, threshold)) return;
      // the citation too, as every other format keeps it
      const message = `${f.pointer ? `${f.message} (at ${pointerText(f.pointer)})` : f.message}${f.spec ? ` [${f.spec}]` : ''}`;
      out.write(
        annotation(
          COMMAND[f.severity],
          {
            file: annotationFile(f.source, ctx.githubWorkspace),
            line: f.line,
            col: f.line !== undefined ? f.column : undefined,
            title: f.ruleId,
          },
          message,
        ),
      );
    },
    finish(s) {
      out.write(`${ctx.protocol}: ${summaryLine(s, unitOf(ctx.protocol))}\n`);
    },
  };
}

/** Create the GitHub annotations reporter for `fixtures`. */
export function fixtureGithubReporter(out: Output, ctx: ReportContext): FixtureReporter {
  return {
    caseResult(c: CaseResult) {
      if (c.status !== 'fail' && c.status !== 'error' && c.status !== 'deviation') return;
      if (ctx.quiet && c.status === 'deviation') return;
      const command = c.status === 'deviation' ? 'notice' : 'error';
      const title =
        c.status === 'deviation'
          ? `known deviation: ${c.id}`
          : c.status === 'error'
            ? `harness error: ${c.id}`
            : `fixture failed: ${c.id}`;
      const message = [
        c.expected && c.actual ? `Expected ${c.expected}; got ${c.actual}.` : '',
        c.status === 'deviation' ? (c.deviationReason ?? '') : (c.detail ?? ''),
      ]
        .filter(Boolean)
        .join(' ');
      out.write(
        annotation(
          command,
          { file: c.file && annotationFile(c.file, ctx.githubWorkspace), line: c.line, title },
          message || c.status,
        ),
      );
    },
    finish(s) {
      out.write(`${ctx.protocol} fixtures: ${fixtureSummaryLine(s)}\n`);
    },
  };
}
