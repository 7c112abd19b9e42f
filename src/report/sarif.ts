/**
 * SARIF 2.1.0 reporters, validated in tests against the 2.1.0 schema. validate: the whole catalogue as
 * `tool.driver.rules`, a result per finding (UTF-16 columns, the pointer as a logical location); fixtures: a result per
 * case, a known deviation suppressed with its reason.
 */
import type { Finding, Severity } from '../core/finding.ts';
import { renderPlaceholder, templateParts, type Placeholder } from '../core/message.ts';
import { RULE_ERROR, type RuleMeta } from '../core/rule.ts';
import { visible } from '../core/visible.ts';
import type { CaseResult, FixtureSummary } from '../core/fixture-result.ts';
import { specUrl } from './spec-links.ts';
import type { FixtureReporter, Output, ReportContext, Reporter, RunEnd } from './types.ts';
import { ITEMS, writeDocumentWithArray } from './json.ts';
import { FindingSpool } from './spool.ts';
import { findingOrder, isPseudoSource, workspacePath } from './util.ts';

const SARIF_SCHEMA_URI = 'https://docs.oasis-open.org/sarif/sarif/v2.1.0/os/schemas/sarif-schema-2.1.0.json';

const LEVEL: Record<Severity, 'error' | 'warning' | 'note'> = { error: 'error', warning: 'warning', info: 'note' };

/**
 * A path as a SARIF URI reference: relative stays relative (`./x:y`: RFC 3986 §4.2, no scheme); absolute or a drive
 * path a `file:` URI (GitHub makes it relative to its checkout); `<stdin>` or a URL one encoded segment.
 */
export function sarifUri(source: string): string {
  // GitHub refuses a whole log for an absolute URI of a scheme other than its checkout's `file:`
  if (isPseudoSource(source)) return encodeURIComponent(source);
  const path = source
    .split('\\')
    .join('/')
    .split('/')
    .map((seg) => encodeURIComponent(seg).replace(/%3A/gi, ':'))
    .join('/');
  if (/^[A-Za-z]:\//.test(path)) return `file:///${path}`;
  if (path.startsWith('/')) return `file://${path}`;
  return path.split('/', 1)[0]!.includes(':') ? `./${path}` : path;
}

/** A template in SARIF's syntax (SARIF 2.1.0 §3.11.5): `{0}`, `{1}`, ... and literal braces doubled. */
interface SarifTemplate {
  text: string;
  slots: Placeholder[];
}

function sarifTemplate(template: string): SarifTemplate {
  const slots: Placeholder[] = [];
  let text = '';
  for (const part of templateParts(template)) {
    if (typeof part === 'string') text += part.replace(/[{}]/g, '$&$&');
    else text += `{${slots.push(part) - 1}}`;
  }
  return { text, slots };
}

/** `rules[].messageStrings` of one rule (SARIF 2.1.0 §3.49.11), by its message keys. */
function messageStrings(r: RuleMeta): Map<string, SarifTemplate> | undefined {
  const entries = Object.entries(r.messages ?? {});
  return entries.length ? new Map(entries.map(([k, t]) => [k, sarifTemplate(t)])) : undefined;
}

/**
 * `toolComponent.globalMessageStrings` (SARIF 2.1.0 §3.19.22): the tables rules share (the schema stages' wording), a
 * key once; a key two tables word differently is left out (its results then keep their text only).
 */
function globalMessageStrings(rules: readonly RuleMeta[]): Map<string, SarifTemplate> {
  const texts = new Map<string, string | null>();
  for (const table of new Set(rules.map((r) => r.sharedMessages))) {
    for (const [k, t] of Object.entries(table ?? {})) texts.set(k, texts.has(k) && texts.get(k) !== t ? null : t);
  }
  const out = new Map<string, SarifTemplate>();
  for (const [k, t] of texts) if (t !== null) out.set(k, sarifTemplate(t));
  return out;
}

/**
 * The SARIF message of `f`, with `id` and `arguments` (§3.11.10-11) when its template (the rule's own, else a global
 * one: the lookup order of §3.11.7) renders exactly that text.
 */
function sarifMessage(
  f: Finding,
  templates: Map<string, SarifTemplate> | undefined,
  global: Map<string, SarifTemplate>,
) {
  const t = f.messageId === undefined ? undefined : (templates?.get(f.messageId) ?? global.get(f.messageId));
  if (!t) return { text: f.message };
  let args: string[];
  try {
    args = t.slots.map((p) => visible(renderPlaceholder(p, f.args, f.source)));
  } catch {
    return { text: f.message };
  }
  const again = t.text.replace(/\{(\d+)\}|\{\{|\}\}/g, (m, i?: string) => (i === undefined ? m[0]! : args[+i]!));
  return again === f.message ? { text: f.message, id: f.messageId, arguments: args } : { text: f.message };
}

function driver(ctx: ReportContext, rules: readonly RuleMeta[], global = new Map<string, SarifTemplate>()) {
  return {
    name: 'agent-conformance',
    semanticVersion: ctx.version,
    ...(global.size
      ? { globalMessageStrings: Object.fromEntries([...global].map(([k, t]) => [k, { text: t.text }])) }
      : {}),
    rules: rules.map((r) => {
      const url = specUrl(r.spec);
      const strings = messageStrings(r);
      return {
        id: r.id,
        shortDescription: { text: r.description },
        ...(r.detail ? { fullDescription: { text: `${r.description} ${r.detail}` } } : {}),
        ...(url ? { helpUri: url } : {}),
        help: {
          text: `${r.description}${r.detail ? ` ${r.detail}` : ''}${r.spec ? ` Spec: ${r.spec}${r.quote ? ` ("${r.quote}")` : ''}.` : ''}`,
        },
        ...(strings ? { messageStrings: Object.fromEntries([...strings].map(([k, t]) => [k, { text: t.text }])) } : {}),
        defaultConfiguration: { level: LEVEL[r.severity] },
        ...(r.spec ? { properties: { spec: r.spec } } : {}),
      };
    }),
  };
}

function log(run: Record<string, unknown>): string {
  return JSON.stringify({ $schema: SARIF_SCHEMA_URI, version: '2.1.0', runs: [run] }, null, 2) + '\n';
}

/** SARIF 2.1.0 §3.20.13-14: the exit code when known; no verdict (exit 2), not findings, is an unsuccessful execution. */
function invocationEnd(end: RunEnd | undefined, ok: boolean): { executionSuccessful: boolean; exitCode?: number } {
  return end ? { executionSuccessful: ok && end.exitCode !== 2, exitCode: end.exitCode } : { executionSuccessful: ok };
}

/** One SARIF location for a finding; one that names no input (a library caller's) is located at `<input>`. */
function findingLocation(f: Finding, ws: ReportContext['githubWorkspace']) {
  // GitHub code scanning refuses a whole log for one result without a location
  const source = f.source || '<input>';
  const region: Record<string, number> = {};
  if (f.line !== undefined) region.startLine = f.line;
  if (f.line !== undefined && f.column !== undefined) region.startColumn = f.column;
  const loc: Record<string, unknown> = {
    physicalLocation: {
      artifactLocation: { uri: sarifUri(workspacePath(source, ws)) },
      ...(Object.keys(region).length ? { region } : {}),
    },
  };
  if (f.pointer) loc.logicalLocations = [{ fullyQualifiedName: f.pointer, kind: 'value' }];
  return loc;
}

/**
 * The `validate` SARIF reporter: findings spooled (rules outside the catalogue kept aside), results written at the end.
 */
export function sarifReporter(out: Output, ctx: ReportContext): Reporter {
  const spool = new FindingSpool(findingOrder(ctx.sources), ctx.memoryFindings);
  const rules = [...(ctx.rules ?? [])];
  const known = new Set(rules.map((r) => r.id));
  return {
    finding(f) {
      // a finding whose rule is not in the catalogue still gets a descriptor (never an index miss)
      if (!known.has(f.ruleId)) {
        known.add(f.ruleId);
        rules.push({ id: f.ruleId, severity: f.severity, description: `Rule ${f.ruleId}.`, spec: f.spec });
      }
      spool.add(f);
    },
    finish(summary, end) {
      const index = new Map(rules.map((r, i) => [r.id, i]));
      const templates = new Map(rules.map((r) => [r.id, messageStrings(r)]));
      const global = globalMessageStrings(rules);
      const result = (f: Finding) => {
        const loc = findingLocation(f, ctx.githubWorkspace);
        const props: Record<string, unknown> = {};
        if (f.pointer !== undefined) props.pointer = f.pointer;
        if (f.byteOffset !== undefined) props.byteOffset = f.byteOffset;
        if (f.spec !== undefined) props.spec = f.spec;
        const r: Record<string, unknown> = {
          ruleId: f.ruleId,
          ruleIndex: index.get(f.ruleId)!,
          level: LEVEL[f.severity],
          message: sarifMessage(f, templates.get(f.ruleId), global),
        };
        r.locations = [loc];
        if (f.related?.length) {
          r.relatedLocations = f.related.map((rel, i) => ({
            id: i + 1,
            ...findingLocation({ ...f, ...rel, related: undefined } as Finding, ctx.githubWorkspace),
          }));
        }
        r.properties = props;
        return r;
      };
      const doc = {
        $schema: SARIF_SCHEMA_URI,
        version: '2.1.0',
        runs: [
          {
            tool: { driver: driver(ctx, rules, global) },
            columnKind: 'utf16CodeUnits',
            invocations: [
              {
                ...invocationEnd(end, !summary.byRule[RULE_ERROR.id]),
                properties: { summary, ...(ctx.checks ? { checks: ctx.checks } : {}) },
              },
            ],
            results: ITEMS,
          },
        ],
      };
      writeDocumentWithArray(out, doc, 8, (each) => spool.drain((f) => each(result(f))));
    },
  };
}

const FIXTURE_RULES: readonly RuleMeta[] = [
  {
    id: 'fixtures/case-mismatch',
    severity: 'error',
    description: 'A fixture case gave a different verdict than the corpus expects.',
    spec: 'agent-conformance docs/architecture.md §Fixtures and upstream corpora',
  },
  {
    id: 'fixtures/stale-deviation',
    severity: 'error',
    description: 'A deviations-file entry names a case that no longer deviates or no longer exists.',
    spec: 'agent-conformance docs/architecture.md §Fixtures and upstream corpora',
  },
  {
    id: 'fixtures/harness-error',
    severity: 'error',
    description: 'A fixture case could not be run (missing or malformed sidecar, unreadable case).',
    spec: 'agent-conformance docs/architecture.md §Fixtures and upstream corpora',
  },
  {
    id: 'fixtures/case-not-run',
    severity: 'info',
    description:
      'A fixture case was not judged: its file is absent from this copy of the corpus (skipped), or the runner does not cover it (not run); neither is a pass.',
    spec: 'agent-conformance docs/architecture.md §Fixtures and upstream corpora',
  },
];

/** The rule (index into FIXTURE_RULES) a case that is not a pass is reported under. */
function fixtureRuleIndex(c: CaseResult): number {
  if (c.status === 'error') return 2;
  if (c.status === 'skip' || c.status === 'not-run') return 3;
  const stale = c.group === 'deviations' || (c.status === 'fail' && c.deviationReason !== undefined);
  return stale ? 1 : 0;
}

/** Create the SARIF reporter for `fixtures`. */
export function fixtureSarifReporter(out: Output, ctx: ReportContext): FixtureReporter {
  const cases: CaseResult[] = [];
  return {
    caseResult(c) {
      cases.push(c);
    },
    finish(s: FixtureSummary, end) {
      // a passing case is no result, as a clean validate run has none: its rules name failures, and GitHub code
      // scanning does not document `kind`, so a `pass` result could become an alert; the counts keep the passes
      const results = cases.flatMap((c) => {
        if (c.status === 'pass') return [];
        const ruleIndex = fixtureRuleIndex(c);
        const kind = ruleIndex === 3 ? 'notApplicable' : 'fail';
        const text = [
          `${c.id}: ${c.status}.`,
          c.expected && c.actual ? `Expected ${c.expected}; got ${c.actual}.` : '',
          c.detail ?? '',
        ]
          .filter(Boolean)
          .join(' ');
        const r: Record<string, unknown> = {
          ruleId: FIXTURE_RULES[ruleIndex]!.id,
          ruleIndex,
          kind,
          level: kind === 'fail' ? 'error' : 'none',
          message: { text },
        };
        if (c.file) {
          r.locations = [
            {
              physicalLocation: {
                artifactLocation: { uri: sarifUri(workspacePath(c.file, ctx.githubWorkspace)) },
                ...(c.line ? { region: { startLine: c.line } } : {}),
              },
              logicalLocations: [{ fullyQualifiedName: c.id, kind: 'object' }],
            },
          ];
        }
        if (c.status === 'deviation')
          r.suppressions = [{ kind: 'external', status: 'accepted', justification: c.deviationReason ?? '' }];
        r.properties = { caseId: c.id, group: c.group, status: c.status };
        return [r];
      });
      out.write(
        log({
          tool: { driver: driver(ctx, FIXTURE_RULES) },
          // SARIF 2.1.0 §3.14.27: a run of text artifacts with results says its column unit
          ...(results.length ? { columnKind: 'utf16CodeUnits' } : {}),
          invocations: [
            {
              ...invocationEnd(end, s.counts.error === 0),
              properties: { dir: s.dir, layout: s.layout, counts: s.counts },
            },
          ],
          results,
        }),
      );
    },
  };
}
