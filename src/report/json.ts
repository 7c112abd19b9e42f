/**
 * JSON reporter: one object `{"findings": [...], "summary": {...}}` printed at the end.
 * Shape: schemas/report.schema.json. Findings keep their fields as produced (see
 * src/core/finding.ts); absent locations are omitted, never null.
 */
import type { Finding } from '../core/finding.ts';
import type { Output, ReportContext, Reporter } from './types.ts';

/** Create the JSON reporter. */
export function jsonReporter(out: Output, ctx: ReportContext): Reporter {
  const findings: Finding[] = [];
  return {
    finding(f) {
      findings.push(f);
    },
    finish(summary) {
      const doc = {
        tool: { name: 'agent-conformance', version: ctx.version, protocol: ctx.protocol },
        findings: findings.map(orderFinding),
        summary,
      };
      out.write(JSON.stringify(doc, null, 2) + '\n');
    },
  };
}

/** Stable key order for a finding. */
function orderFinding(f: Finding): Finding {
  const o: Finding = {
    ruleId: f.ruleId,
    severity: f.severity,
    message: f.message,
    source: f.source,
  } as Finding;
  if (f.line !== undefined) o.line = f.line;
  if (f.column !== undefined) o.column = f.column;
  if (f.byteOffset !== undefined) o.byteOffset = f.byteOffset;
  if (f.pointer !== undefined) o.pointer = f.pointer;
  o.spec = f.spec;
  if (f.related) o.related = f.related;
  if (f.data) o.data = f.data;
  return o;
}
