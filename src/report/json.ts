/**
 * JSON reporters: one pretty-printed document (schemas/report.schema.json), validate findings spooled (spool.ts) and
 * written at the end in a stable key order; absent locations are omitted, never null.
 */
import type { Finding } from '../core/finding.ts';
import type { CaseResult, FixtureSummary } from '../core/fixture-result.ts';
import type { FixtureReporter, Output, ReportContext, Reporter } from './types.ts';
import { FindingSpool } from './spool.ts';
import { chunkedOutput, findingOrder } from './util.ts';

/** Version of the JSON report shape; bumped on any breaking change. */
const JSON_REPORT_VERSION = 1;

function toolOf(ctx: ReportContext) {
  return { name: 'agent-conformance', version: ctx.version, protocol: ctx.protocol };
}

/** Where {@link writeDocumentWithArray} puts the streamed array in a document. */
export const ITEMS: unique symbol = Symbol('items');

/** `JSON.stringify(doc, null, 2)`'s bytes, its ITEMS member written item by item from `items`, never built whole. */
export function writeDocumentWithArray(
  out: Output,
  doc: unknown,
  indent: number,
  items: (each: (item: unknown) => void) => void,
): void {
  const mark = '\u0000items\u0000';
  const text = JSON.stringify(doc, (_k, v: unknown) => (v === ITEMS ? [mark] : v), 2);
  const quoted = JSON.stringify(mark);
  const at = text.indexOf(quoted);
  // the array's own lines around the marker: "[\n<indent>" before it, "\n<indent-2>]" after
  const head = text.slice(0, at - indent - 2);
  const tail = text.slice(at + quoted.length) + '\n';
  const pad = ' '.repeat(indent);
  const w = chunkedOutput(out);
  let n = 0;
  items((item) => {
    w.write((n++ === 0 ? `${head}[\n${pad}` : `,\n${pad}`) + JSON.stringify(item, null, 2).replace(/\n/g, `\n${pad}`));
  });
  w.write(n === 0 ? `${head}[]${tail.slice(indent)}` : tail);
  w.flush();
}

/** The `validate` JSON reporter: findings spooled as they arrive, written in report order at the end. */
export function jsonReporter(out: Output, ctx: ReportContext): Reporter {
  const spool = new FindingSpool(findingOrder(ctx.sources), ctx.memoryFindings);
  return {
    finding(f) {
      spool.add(f);
    },
    finish(summary) {
      const doc = {
        schemaVersion: JSON_REPORT_VERSION,
        kind: ctx.kind ?? 'validate',
        tool: toolOf(ctx),
        sources: [...(ctx.sources ?? [])],
        findings: ITEMS,
        ...(ctx.checks ? { checks: ctx.checks } : {}),
        summary,
      };
      writeDocumentWithArray(out, doc, 4, (each) => spool.drain((f) => each(orderFinding(f))));
    },
  };
}

/**
 * The NDJSON reporter (`--format ndjson`): one finding per line as found (no `kind`, so `select(.ruleId)` keeps them),
 * an `input-summary` line per input with `--each`, then a `summary` line.
 */
export function ndjsonReporter(out: Output, ctx: ReportContext): Reporter {
  return {
    finding(f) {
      out.write(JSON.stringify(orderFinding(f)) + '\n');
    },
    inputSummary(source, summary) {
      out.write(JSON.stringify({ kind: 'input-summary', source, summary }) + '\n');
    },
    finish(summary) {
      out.write(
        JSON.stringify({
          kind: 'summary',
          schemaVersion: JSON_REPORT_VERSION,
          tool: toolOf(ctx),
          sources: [...(ctx.sources ?? [])],
          ...(ctx.checks ? { checks: ctx.checks } : {}),
          summary,
        }) + '\n',
      );
    },
  };
}

/** Create the JSON reporter for `fixtures`. */
export function fixtureJsonReporter(out: Output, ctx: ReportContext): FixtureReporter {
  const cases: CaseResult[] = [];
  return {
    caseResult(c) {
      cases.push(c);
    },
    finish(s: FixtureSummary) {
      const doc = {
        schemaVersion: JSON_REPORT_VERSION,
        kind: 'fixtures',
        tool: toolOf(ctx),
        dir: s.dir,
        layout: s.layout,
        cases: cases.map(orderCase),
        summary: { total: s.total, counts: s.counts, findings: s.findings },
      };
      out.write(JSON.stringify(doc, null, 2) + '\n');
    },
  };
}

function orderFinding(f: Finding): Finding {
  const o = { ruleId: f.ruleId, severity: f.severity, message: f.message, source: f.source } as Finding;
  if (f.line !== undefined) o.line = f.line;
  if (f.column !== undefined) o.column = f.column;
  if (f.byteOffset !== undefined) o.byteOffset = f.byteOffset;
  if (f.pointer !== undefined) o.pointer = f.pointer;
  o.spec = f.spec;
  if (f.related) o.related = f.related;
  if (f.messageId !== undefined) o.messageId = f.messageId;
  if (f.args) o.args = f.args;
  return o;
}

function orderCase(c: CaseResult): CaseResult {
  const o: CaseResult = { id: c.id, group: c.group, status: c.status };
  for (const k of ['file', 'line', 'expected', 'actual', 'detail', 'deviationReason'] as const)
    if (c[k] !== undefined) (o as unknown as Record<string, unknown>)[k] = c[k];
  if (c.findings) o.findings = c.findings.map(orderFinding);
  if (c.omittedFindings) o.omittedFindings = c.omittedFindings;
  return o;
}
