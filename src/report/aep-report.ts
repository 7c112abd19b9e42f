/**
 * The AEP conformance report (`aep-conformance-report`, formatVersion 1) of `aep fixtures`, as the upstream AEP corpus
 * defines it; `summary.total == checks.length`, `ok == (fail == 0)`, no `detail` on a passing check. `tool` is
 * "agent-conformance": we are none of the corpus's three runners and we do report `skip`, so claiming one would
 * misstate
 * who produced a self-certification. Known deviations report `fail` (the report states conformance to the corpus).
 */
import type { CaseResult, FixtureSummary } from '../core/fixture-result.ts';
import type { FixtureReporter, Output, ReportContext } from './types.ts';

const AEP_REPORT_TOOL = 'agent-conformance';

/** One check of the report. */
export interface AepReportCheck {
  name: string;
  status: 'pass' | 'fail' | 'skip';
  detail?: string;
}

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
