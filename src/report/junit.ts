/**
 * JUnit XML reporters (the de-facto Ant/Surefire shape CI systems read), hand-written with
 * {@link xmlEscape}; rendered once at the end.
 *
 * validate: one `<testsuite>` per input; in it one `<testcase>` per rule that reported
 * (classname = input, name = rule id). The testcase fails (`<failure>`, one line per finding)
 * when one of its findings is at or above `--fail-on`; findings below it go to
 * `<system-out>`. An input without findings has one passing testcase `conformance`.
 *
 * fixtures: one `<testsuite>` per case group (`pass`, `fail`, `invalid`, a binding, ...), one
 * `<testcase>` per case: `fail` -> `<failure>`, `error` -> `<error>`, `skip` / `not-run` ->
 * `<skipped>`, `deviation` -> passing with the reason in `<system-out>`.
 */
import type { Finding } from '../core/finding.ts';
import type { CaseResult, FixtureSummary } from '../fixture-runner/types.ts';
import type { FixtureReporter, Output, ReportContext, Reporter } from './types.ts';
import { atOrAbove, formatLocation, sortFindings, xmlEscape as x } from './util.ts';

function findingLine(f: Finding): string {
  return `${formatLocation(f)} ${f.severity} ${f.ruleId}: ${f.message}${f.pointer ? ` (at ${f.pointer})` : ''}`;
}

/** Create the JUnit reporter for `validate`. */
export function junitReporter(out: Output, ctx: ReportContext): Reporter {
  const findings: Finding[] = [];
  const threshold = ctx.failOn ?? 'error';
  return {
    finding(f) {
      findings.push(f);
    },
    finish() {
      const sorted = sortFindings(findings, ctx.sources);
      const sources = [...(ctx.sources ?? [])];
      for (const f of sorted) if (!sources.includes(f.source)) sources.push(f.source);
      let tests = 0;
      let failures = 0;
      const suites: string[] = [];
      for (const source of sources) {
        const mine = sorted.filter((f) => f.source === source);
        const byRule = new Map<string, Finding[]>();
        for (const f of mine) byRule.set(f.ruleId, [...(byRule.get(f.ruleId) ?? []), f]);
        const cases: string[] = [];
        let suiteFailures = 0;
        const name = source || '<run>';
        if (byRule.size === 0) cases.push(`    <testcase classname="${x(name)}" name="conformance"/>`);
        for (const [rule, fs] of [...byRule].sort(([a], [b]) => (a < b ? -1 : 1))) {
          const failing = fs.filter((f) => atOrAbove(f.severity, threshold));
          const rest = fs.filter((f) => !atOrAbove(f.severity, threshold));
          let body = '';
          if (failing.length) {
            suiteFailures++;
            body += `      <failure type="${x(rule)}" message="${x(`${failing.length} finding${failing.length === 1 ? '' : 's'} at or above ${threshold}: ${failing[0]!.message}`)}">${x(failing.map(findingLine).join('\n'))}</failure>\n`;
          }
          if (rest.length) body += `      <system-out>${x(rest.map(findingLine).join('\n'))}</system-out>\n`;
          cases.push(body ? `    <testcase classname="${x(name)}" name="${x(rule)}">\n${body}    </testcase>` : `    <testcase classname="${x(name)}" name="${x(rule)}"/>`);
        }
        const n = Math.max(byRule.size, 1);
        tests += n;
        failures += suiteFailures;
        suites.push(`  <testsuite name="${x(name)}" tests="${n}" failures="${suiteFailures}" errors="0" skipped="0">\n${cases.join('\n')}\n  </testsuite>`);
      }
      out.write(
        `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="${x(`${ctx.protocol} validate`)}" tests="${tests}" failures="${failures}" errors="0">\n${suites.join('\n')}${suites.length ? '\n' : ''}</testsuites>\n`,
      );
    },
  };
}

/** Create the JUnit reporter for `fixtures`. */
export function fixtureJunitReporter(out: Output, ctx: ReportContext): FixtureReporter {
  const cases: CaseResult[] = [];
  return {
    caseResult(c) {
      cases.push(c);
    },
    finish(s: FixtureSummary) {
      const groups = new Map<string, CaseResult[]>();
      for (const c of cases) groups.set(c.group, [...(groups.get(c.group) ?? []), c]);
      const suites: string[] = [];
      for (const [group, cs] of groups) {
        const count = (st: CaseResult['status'][]) => cs.filter((c) => st.includes(c.status)).length;
        const body = cs.map((c) => {
          const attrs = `classname="${x(group)}" name="${x(c.id)}"${c.file ? ` file="${x(c.file)}"` : ''}${c.line ? ` line="${c.line}"` : ''}`;
          const text = [c.expected && c.actual ? `expected ${c.expected}; got ${c.actual}` : '', c.detail ?? '', ...(c.findings ?? []).map(findingLine)].filter(Boolean).join('\n');
          switch (c.status) {
            case 'pass':
              return `    <testcase ${attrs}/>`;
            case 'fail':
              return `    <testcase ${attrs}>\n      <failure type="fixture-mismatch" message="${x(c.detail ?? 'verdict differs')}">${x(text)}</failure>\n    </testcase>`;
            case 'error':
              return `    <testcase ${attrs}>\n      <error type="harness-error" message="${x(c.detail ?? 'harness error')}">${x(text)}</error>\n    </testcase>`;
            case 'skip':
            case 'not-run':
              return `    <testcase ${attrs}>\n      <skipped message="${x(c.detail ?? c.status)}"/>\n    </testcase>`;
            case 'deviation':
              return `    <testcase ${attrs}>\n      <system-out>${x(`known deviation: ${c.deviationReason ?? ''}\n${text}`)}</system-out>\n    </testcase>`;
          }
        });
        suites.push(
          `  <testsuite name="${x(group)}" tests="${cs.length}" failures="${count(['fail'])}" errors="${count(['error'])}" skipped="${count(['skip', 'not-run'])}">\n${body.join('\n')}\n  </testsuite>`,
        );
      }
      const c = s.counts;
      out.write(
        `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="${x(`${ctx.protocol} fixtures ${s.dir}`)}" tests="${s.total}" failures="${c.fail}" errors="${c.error}" skipped="${c.skip + c['not-run']}">\n${suites.join('\n')}\n</testsuites>\n`,
      );
    },
  };
}
