/**
 * Findings as data in the reporters: a finding read from a template carries `messageId` and
 * `args`; JSON and NDJSON emit them, SARIF gives each rule its `messageStrings` and each result
 * `message.id` + `arguments` that render back to `message.text` (SARIF 2.1.0 §3.11.5).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findingAt, type RuleMeta } from '../../src/core/rule.ts';
import { formatReport, validate } from '../../src/index.ts';
import { sarifReporter } from '../../src/report/sarif.ts';

/** A BOM, a blank line, a line that is not JSON, no final newline: four framing findings. */
const BROKEN = '\uFEFF{"a":1}\n\n{"b": {x}\n[1]';

interface SarifResult {
  ruleId: string;
  ruleIndex: number;
  message: { text: string; id?: string; arguments?: string[] };
}
interface SarifRule {
  id: string;
  messageStrings?: Record<string, { text: string }>;
}

/** SARIF's own substitution (§3.11.5): `{n}` from the arguments, `{{` and `}}` as literal braces. */
function sarifRender(template: string, args: readonly string[]): string {
  return template.replace(/\{(\d+)\}|\{\{|\}\}/g, (m, i?: string) => (i === undefined ? m[0]! : args[+i]!));
}

test('framing findings carry their template key and arguments', async () => {
  const { findings } = await validate('aep', { text: BROKEN, source: 'x.jsonl' });
  const byRule = new Map(findings.map((f) => [f.ruleId, f]));
  assert.equal(byRule.get('jsonl/bom')?.messageId, 'input');
  assert.equal(byRule.get('jsonl/blank-line')?.messageId, 'empty');
  const bad = byRule.get('jsonl/invalid-json')!;
  assert.equal(bad.messageId, 'invalid');
  assert.equal(typeof bad.args?.reason, 'string');
  assert.ok(bad.message.includes(bad.args!.reason as string));
  assert.deepEqual(byRule.get('jsonl/not-object')?.args, { kind: 'an array' });
  assert.equal(byRule.get('jsonl/no-final-newline')?.messageId, 'checked');
});

test('json and ndjson emit messageId and args', async () => {
  const { findings, summary } = await validate('aep', { text: BROKEN, source: 'x.jsonl' });
  const doc = JSON.parse(formatReport(findings, summary, { protocol: 'aep', format: 'json' })) as {
    findings: Array<{ ruleId: string; messageId?: string; args?: Record<string, unknown> }>;
  };
  const notObject = doc.findings.find((f) => f.ruleId === 'jsonl/not-object')!;
  assert.equal(notObject.messageId, 'notObject');
  assert.deepEqual(notObject.args, { kind: 'an array' });
  const lines = formatReport(findings, summary, { protocol: 'aep', format: 'ndjson' })
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { ruleId?: string; messageId?: string });
  assert.equal(lines.find((l) => l.ruleId === 'jsonl/bom')?.messageId, 'input');
});

test('sarif: messageStrings per rule, and every templated result renders back to its text', async () => {
  const { findings, summary } = await validate('aep', { text: BROKEN, source: 'x.jsonl' });
  const log = JSON.parse(formatReport(findings, summary, { protocol: 'aep', format: 'sarif' })) as {
    runs: Array<{ tool: { driver: { rules: SarifRule[] } }; results: SarifResult[] }>;
  };
  const run = log.runs[0]!;
  const rules = run.tool.driver.rules;
  assert.equal(
    rules.find((r) => r.id === 'jsonl/invalid-json')?.messageStrings?.invalid?.text,
    'Line is not valid JSON: {0}.',
  );
  assert.equal(run.results.length, findings.length);
  for (const r of run.results.filter((x) => x.ruleId.startsWith('jsonl/'))) {
    assert.ok(r.message.id, `${r.ruleId} has a message id`);
    const template = rules[r.ruleIndex]!.messageStrings![r.message.id]!.text;
    assert.equal(sarifRender(template, r.message.arguments ?? []), r.message.text, r.ruleId);
  }
});

test('sarif: literal braces in a template are doubled and a location argument names its file', async () => {
  const rule = {
    id: 'x/braces',
    severity: 'error',
    description: 'A rule whose template has literal braces.',
    spec: 'RFC 8259 §4',
    messages: { seen: 'Value {} is {kind:json} ({n} item{n:s}), as at {prior}.' },
  } as const satisfies RuleMeta;
  const prior = { source: 'a.jsonl', line: 3 };
  const f = findingAt(rule, { source: 'b.jsonl', line: 1 }, 'seen', { kind: 'list', n: 2, prior });
  assert.equal(f.message, 'Value {} is "list" (2 items), as at line 3 of a.jsonl.');
  const parts: string[] = [];
  const reporter = sarifReporter(
    { write: (s: string) => void parts.push(s) },
    {
      protocol: 'aep',
      version: '0',
      color: false,
      rules: [rule],
    },
  );
  reporter.finding(f);
  reporter.finish((await validate('aep', { text: '' })).summary);
  const run = (
    JSON.parse(parts.join('')) as { runs: Array<{ tool: { driver: { rules: SarifRule[] } }; results: SarifResult[] }> }
  ).runs[0]!;
  const template = run.tool.driver.rules[0]!.messageStrings!.seen!.text;
  assert.equal(template, 'Value {{}} is {0} ({1} item{2}), as at {3}.');
  const message = run.results[0]!.message;
  assert.deepEqual(message, { text: f.message, id: 'seen', arguments: ['"list"', '2', 's', 'line 3 of a.jsonl'] });
  assert.equal(sarifRender(template, message.arguments!), message.text);
});

test('sarif: a message that its template does not give back keeps only its text', async () => {
  const { findings, summary } = await validate('aep', { text: '[1]\n', source: 'x.jsonl' });
  const edited = findings.map((f) => ({ ...f, message: `${f.message} (edited)` }));
  const log = JSON.parse(formatReport(edited, summary, { protocol: 'aep', format: 'sarif' })) as {
    runs: Array<{ results: SarifResult[] }>;
  };
  for (const r of log.runs[0]!.results) assert.deepEqual(Object.keys(r.message), ['text']);
});

test('sarif and json: schema findings carry their template key and args; the shared tables are globalMessageStrings', async () => {
  // a time without offset, a null attribute, a payload member of the wrong type
  const text =
    '{"aep":"0.1","id":"e1","type":"agent.started","time":"2025-01-01T12:00:00","source":"urn:a","agent":{"id":"a"},"severity":null}\n';
  const { findings, summary } = await validate('aep', { text, source: 'x.jsonl' });
  const time = findings.find((f) => f.ruleId === 'aep/time-format')!;
  assert.equal(time.messageId, 'format-date-time.why');
  assert.deepEqual(time.args, {
    keyword: 'format',
    path: '/time',
    format: 'date-time',
    why: 'there is no time-zone offset (Z, or ±hh:mm such as +05:30)',
  });
  const doc = JSON.parse(formatReport(findings, summary, { protocol: 'aep', format: 'json' })) as {
    findings: Array<{ ruleId: string; messageId?: string; args?: Record<string, unknown> }>;
  };
  assert.deepEqual(doc.findings.find((f) => f.ruleId === 'aep/null-attribute')?.args, {
    keyword: 'type',
    attribute: 'severity',
  });
  const log = JSON.parse(formatReport(findings, summary, { protocol: 'aep', format: 'sarif' })) as {
    runs: Array<{
      tool: { driver: { rules: SarifRule[]; globalMessageStrings?: Record<string, { text: string }> } };
      results: SarifResult[];
    }>;
  };
  const run = log.runs[0]!;
  const global = run.tool.driver.globalMessageStrings!;
  assert.equal(global['format-date-time.why']?.text.includes('{0}'), true);
  let schema = 0;
  for (const r of run.results.filter((x) => x.ruleId.startsWith('aep/'))) {
    const own = run.tool.driver.rules[r.ruleIndex]!.messageStrings?.[r.message.id!];
    const template = (own ?? global[r.message.id!])!.text;
    assert.equal(sarifRender(template, r.message.arguments ?? []), r.message.text, r.ruleId);
    if (!own) schema++;
  }
  assert.ok(schema >= 2, `${schema} results from the shared table`);
});

test('sarif: a finding that names no input (a library caller may build one) still has a location, as GitHub requires', async () => {
  const { findings, summary } = await validate('aep', { text: '[1]\n', source: 'x.jsonl' });
  const log = JSON.parse(
    formatReport(
      findings.map((f) => ({ ...f, source: '' })),
      summary,
      { protocol: 'aep', format: 'sarif' },
    ),
  ) as {
    runs: Array<{ results: Array<{ locations?: Array<{ physicalLocation: { artifactLocation: { uri: string } } }> }> }>;
  };
  assert.ok(log.runs[0]!.results.length > 0);
  for (const r of log.runs[0]!.results)
    assert.equal(r.locations?.[0]?.physicalLocation.artifactLocation.uri, '%3Cinput%3E');
});

test('a count in a message agrees with its noun: no template writes "{n} chars" where n may be 1', async () => {
  const { aepRules } = await import('../../src/aep/protocol.ts');
  const { ahpRules } = await import('../../src/ahp/driver.ts');
  const { LOCATED_TEMPLATES, PHRASE_TEMPLATES } = await import('../../src/core/schema/wording.ts');
  const templates: [string, string][] = [
    ...[...aepRules(), ...ahpRules()].flatMap((r) =>
      Object.entries(r.messages ?? {}).map(([id, t]): [string, string] => [`${r.id} ${id}`, t]),
    ),
    ...Object.entries({ ...LOCATED_TEMPLATES, ...PHRASE_TEMPLATES }),
  ];
  assert.ok(templates.length > 500, `${templates.length} templates`);
  const COUNTED =
    /\{(\w+)\} (?:chars|characters|items|members|bytes|lines|events|keys|fields|values|records|attributes)\b/;
  // counts that are never 1: a fixed window or cap, "all {complete} lines" (one has its own message), an AnyValue
  // setting more than one member; `{type} records` is a verb
  const NEVER_ONE = new Set(['window', 'cap', 'complete', 'count', 'type']);
  const bad = templates
    .filter(([, t]) => [...t.matchAll(new RegExp(COUNTED, 'g'))].some((m) => !NEVER_ONE.has(m[1]!)))
    .map(([id, t]) => `${id}: ${t}`);
  assert.deepEqual(bad, []);
  // the trial's label "A": one char
  const { renderMessage } = await import('../../src/core/message.ts');
  const label = aepRules().find((r) => r.id === 'aep/form-label-placeholder')!.messages!;
  const text = Object.values(label).map((t) =>
    renderMessage(t, { capture: 'metadata', position: '1', length: 1 }, 's'),
  );
  assert.ok(
    text.some((t) => t.includes('a string of 1 char with')),
    text.join('\n'),
  );
});
