/**
 * JUnit XML reporters (the Ant/Surefire shape). validate: a `<testsuite>` per input, a `<testcase>` per rule that
 * failed at `--fail-on` (findings below go to `<system-out>`); fixtures: a suite per group, a testcase per case.
 */
import type { Finding } from '../core/finding.ts';
import type { CaseResult, FixtureSummary } from '../core/fixture-result.ts';
import type { FixtureReporter, Output, ReportContext, Reporter } from './types.ts';
import { FindingSpool } from './spool.ts';
import { visible } from '../core/visible.ts';
import {
  atOrAbove,
  checkCounts,
  checkStatus,
  unjudgedText,
  chunkedOutput,
  cmpText,
  findingOrder,
  formatLocation,
  pointerText,
  xmlEscape as x,
} from './util.ts';

function findingLine(f: Finding): string {
  return `${formatLocation(f)} ${f.severity} ${f.ruleId}: ${f.message}${f.pointer ? ` (at ${pointerText(f.pointer)})` : ''}`;
}

/** What the JUnit header lines need of one input's findings of one rule, kept as they arrive. */
interface RuleTally {
  failing: number;
  rest: number;
  /** The first failing finding in report order (its message is the failure's `message`). */
  first?: Finding;
}

/** The verb of each report kind, as the command line names it: the `<testsuites>` name is `PROTOCOL VERB`. */
const VERB: Readonly<Record<NonNullable<ReportContext['kind']>, string>> = {
  validate: 'validate',
  live: 'live',
  'pin-verify': 'pin verify',
  'pin-refresh': 'pin refresh',
};

/** The `validate` JUnit reporter: findings spooled (counts per input and rule held), XML written at the end. */
export function junitReporter(out: Output, ctx: ReportContext): Reporter {
  const threshold = ctx.failOn ?? 'error';
  const order = findingOrder(ctx.sources);
  const failing = (f: Finding) => atOrAbove(f.severity, threshold);
  const spool = new FindingSpool((a, b) => {
    if (a.source !== b.source) return order(a, b);
    return cmpText(a.ruleId, b.ruleId) || Number(failing(b)) - Number(failing(a)) || order(a, b);
  }, ctx.memoryFindings);
  const tally = new Map<string, Map<string, RuleTally>>();
  return {
    finding(f) {
      let rules = tally.get(f.source);
      if (!rules) tally.set(f.source, (rules = new Map()));
      let t = rules.get(f.ruleId);
      if (!t) rules.set(f.ruleId, (t = { failing: 0, rest: 0 }));
      if (failing(f)) {
        t.failing++;
        if (!t.first || order(f, t.first) < 0) t.first = f;
      } else t.rest++;
      spool.add(f);
    },
    finish() {
      const sources = [...(ctx.sources ?? [])];
      const extra = [...tally.keys()].filter((s) => !sources.includes(s)).sort(cmpText);
      sources.push(...extra);
      const suiteOf = (source: string) => {
        const rules = tally.get(source);
        const n = Math.max(rules?.size ?? 0, 1);
        const failures = [...(rules?.values() ?? [])].filter((t) => t.failing > 0).length;
        return { n, failures };
      };
      let tests = 0;
      let failures = 0;
      for (const source of sources) {
        const s = suiteOf(source);
        tests += s.n;
        failures += s.failures;
      }
      const checks = ctx.checks ?? [];
      const status = checks.map((c) => checkStatus(c, threshold));
      tests += checks.length;
      failures += status.filter((s) => s === 'failed').length;
      const w = chunkedOutput(out);
      w.write(
        `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="${x(`${ctx.protocol} ${VERB[ctx.kind ?? 'validate']}`)}" tests="${tests}" failures="${failures}" errors="0">\n`,
      );
      let next = 0;
      // the open testcase: its input and rule, and which of its elements is open
      let source: string | undefined;
      let rule: string | undefined;
      let open: 'failure' | 'system-out' | undefined;
      let inRule = 0;
      const closeElement = () => {
        if (open) w.write(`</${open}>\n`);
        open = undefined;
      };
      const closeCase = () => {
        closeElement();
        if (rule !== undefined) w.write('    </testcase>');
        rule = undefined;
      };
      const openSuite = (src: string) => {
        const s = suiteOf(src);
        const name = visible(src) || '<run>';
        w.write(
          `${next > 0 ? '\n' : ''}  <testsuite name="${x(name)}" tests="${s.n}" failures="${s.failures}" errors="0" skipped="0">\n`,
        );
        next++;
      };
      // suites up to and including `src` (inputs without findings get their passing testcase)
      const advanceTo = (src: string | undefined) => {
        if (source !== undefined) {
          closeCase();
          w.write('\n  </testsuite>');
        }
        while (next < sources.length && sources[next] !== src) {
          const empty = sources[next]!;
          openSuite(empty);
          w.write(`    <testcase classname="${x(visible(empty) || '<run>')}" name="conformance"/>\n  </testsuite>`);
        }
        source = src;
        inRule = 0;
        if (src !== undefined) openSuite(src);
      };
      spool.drain((f) => {
        if (f.source !== source) advanceTo(f.source);
        const name = x(visible(f.source) || '<run>');
        if (f.ruleId !== rule) {
          closeCase();
          rule = f.ruleId;
          w.write(`${inRule++ > 0 ? '\n' : ''}    <testcase classname="${name}" name="${x(rule)}">\n`);
        }
        if (failing(f)) {
          if (open !== 'failure') {
            const t = tally.get(f.source)!.get(f.ruleId)!;
            w.write(
              `      <failure type="${x(rule)}" message="${x(`${t.failing} finding${t.failing === 1 ? '' : 's'} at or above ${threshold}: ${t.first!.message}`)}">${x(findingLine(f))}`,
            );
            open = 'failure';
          } else w.write(`\n${x(findingLine(f))}`);
        } else if (open !== 'system-out') {
          closeElement();
          w.write(`      <system-out>${x(findingLine(f))}`);
          open = 'system-out';
        } else w.write(`\n${x(findingLine(f))}`);
      });
      advanceTo(undefined);
      if (checks.length) {
        const n = (s: string) => status.filter((t) => t === s).length;
        const suite = `${visible(ctx.sources?.[0] ?? '<run>')} checks`;
        w.write(
          `${sources.length ? '\n' : ''}  <testsuite name="${x(suite)}" tests="${checks.length}" failures="${n('failed')}" errors="0" skipped="${n('skipped')}">\n`,
        );
        checks.forEach((c, i) => {
          const head = `    <testcase classname="${x(suite)}" name="${x(c.check)}"`;
          if (status[i] === 'skipped')
            w.write(`${head}>\n      <skipped message="${x(c.reason ?? '')}"/>\n    </testcase>\n`);
          else if (status[i] === 'failed')
            w.write(
              `${head}>\n      <failure type="${x(c.check)}" message="${x(checkCounts(c))}"/>\n    </testcase>\n`,
            );
          // JUnit has no partial verdict: a pass with a binding left unjudged says so beside it
          else if (c.unjudged?.length)
            w.write(
              `${head}>\n      <system-out>${x(`partly judged: ${unjudgedText(c)}`)}</system-out>\n    </testcase>\n`,
            );
          else w.write(`${head}/>\n`);
        });
        w.write('  </testsuite>');
      }
      w.write(`${sources.length || checks.length ? '\n' : ''}</testsuites>\n`);
      w.flush();
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
          const text = [
            c.expected && c.actual ? `expected ${c.expected}; got ${c.actual}` : '',
            c.detail ?? '',
            ...(c.findings ?? []).map(findingLine),
          ]
            .filter(Boolean)
            .join('\n');
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
            default: // 'deviation'
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
