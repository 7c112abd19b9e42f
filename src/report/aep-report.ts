/**
 * The AEP conformance report (`aep-conformance-report`, formatVersion 1) for `aep fixtures`:
 * upstream conformance/README.md "The report format"; aep-rules.md §8.
 *
 * ```
 * { "format": "aep-conformance-report", "formatVersion": 1, "aep": "0.1",
 *   "tool": "agent-conformance", "target": null, "startedAt", "finishedAt",
 *   "checks": [{"name", "status": "pass"|"fail"|"skip", "detail"?}],
 *   "summary": {"pass", "fail", "skip", "total"}, "ok" }
 * ```
 * Invariants kept: `summary.total == checks.length`, `ok == (summary.fail == 0)`, `detail`
 * omitted when there is nothing to say (never attached to a passing check; cf. A-7).
 *
 * `tool`: the README defines exactly three values (`live`, `run-js`, `run-py`) and says the
 * fixture runners among them never emit `skip`. We are none of the three: claiming `run-js`
 * or `run-py` would misstate who produced a publishable self-certification artifact, and
 * this runner does report `skip` (for corpus folders outside what `validate` checks, which
 * must never count as passed). So `tool` is `"agent-conformance"` (see {@link AEP_REPORT_TOOL}).
 * Consumers that accept any string read the report unchanged; a consumer that enumerates the
 * three README values will reject it, which is the honest outcome. `target` is `null` as for
 * the fixture runners.
 *
 * Status mapping: `pass` -> pass; `fail` and `error` -> fail; `skip` and `not-run` -> skip;
 * a known deviation -> fail with detail `known deviation: <reason>` (the report states
 * conformance to the corpus; our exit code follows the deviations file instead).
 */
import type { CaseResult, FixtureSummary } from '../core/fixture-result.ts';
import type { FixtureReporter, Output, ReportContext } from './types.ts';

/** The `tool` value we emit (documented above). */
const AEP_REPORT_TOOL = 'agent-conformance';

/** One check of the report. */
export interface AepReportCheck {
  name: string;
  status: 'pass' | 'fail' | 'skip';
  detail?: string;
}

/** Map one case to a report check. */
function toCheck(c: CaseResult): AepReportCheck {
  switch (c.status) {
    case 'pass':
      return { name: c.id, status: 'pass' };
    case 'skip':
    case 'not-run':
      return { name: c.id, status: 'skip', detail: c.detail ?? 'skipped' };
    case 'deviation':
      return {
        name: c.id,
        status: 'fail',
        detail: `known deviation: ${c.deviationReason ?? ''}${c.detail ? ` (${c.detail})` : ''}`,
      };
    default: {
      const detail = [c.expected && c.actual ? `expected ${c.expected}; got ${c.actual}.` : '', c.detail ?? '']
        .filter(Boolean)
        .join(' ');
      return { name: c.id, status: 'fail', ...(detail ? { detail } : {}) };
    }
  }
}

/** Create the aep-conformance-report reporter (fixtures only). */
export function aepReportReporter(out: Output, _ctx: ReportContext): FixtureReporter {
  const checks: AepReportCheck[] = [];
  return {
    caseResult(c) {
      checks.push(toCheck(c));
    },
    finish(s: FixtureSummary) {
      const summary = {
        pass: checks.filter((c) => c.status === 'pass').length,
        fail: checks.filter((c) => c.status === 'fail').length,
        skip: checks.filter((c) => c.status === 'skip').length,
        total: checks.length,
      };
      const doc = {
        format: 'aep-conformance-report',
        formatVersion: 1,
        aep: '0.1',
        tool: AEP_REPORT_TOOL,
        target: null,
        startedAt: s.startedAt,
        finishedAt: s.finishedAt,
        checks,
        summary,
        ok: summary.fail === 0,
      };
      out.write(JSON.stringify(doc, null, 2) + '\n');
    },
  };
}
