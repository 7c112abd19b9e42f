/**
 * The rules catalogue: RULES.md is what `npm run rules:gen` would write (fails when stale),
 * `rules` lists every rule, `explain` shows description, detail, citation, quote and examples, and spec
 * citations resolve to links.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { aepRules } from '../../src/aep/protocol.ts';
import { ahpRules } from '../../src/ahp/driver.ts';
import { findExamples, ruleSlug } from '../../src/fixture-runner/examples.ts';
import { catalogueRows, renderExplain, renderRulesText } from '../../src/report/catalogue.ts';
import { githubSlug, specUrl } from '../../src/report/spec-links.ts';
import { buildRulesMarkdown, RULES_MD } from '../../tools/gen-rules.ts';

test('RULES.md is current (run `npm run rules:gen` after changing a rule registry)', async () => {
  assert.equal(
    readFileSync(RULES_MD, 'utf8'),
    await buildRulesMarkdown(),
    'RULES.md is stale: run `npm run rules:gen` and commit the result',
  );
});

test('RULES.md lists every AEP rule once', () => {
  const md = readFileSync(RULES_MD, 'utf8');
  for (const r of aepRules())
    assert.ok(md.includes(`| \`${r.id}\` | ${r.severity} |`), `${r.id} missing from RULES.md`);
});

test('rules text: one row per rule with id, severity, citation and description', () => {
  const rules = aepRules();
  const text = renderRulesText(rules);
  const lines = text.trimEnd().split('\n');
  assert.equal(lines.length, rules.length + 3);
  assert.match(lines[0]!, /^ID\s+SEVERITY\s+SPEC\s+DESCRIPTION$/);
  for (const r of rules)
    assert.ok(
      lines.some((l) => l.startsWith(r.id + ' ') && l.includes(r.severity) && l.includes(r.description)),
      r.id,
    );
  assert.equal(lines.at(-1), `${rules.length} rules`);
  const rows = catalogueRows(rules, 'aep');
  assert.equal(rows.length, rules.length);
});

test('explain: description, citation with link, failing and passing examples from conformance/', () => {
  const rules = aepRules();
  const rule = rules.find((r) => r.id === 'aep/time-format')!;
  const ex = findExamples(
    'aep',
    rule.id,
    rules.map((r) => r.id),
  );
  assert.ok(ex.fail.length > 0 && ex.pass.length > 0, 'conformance/aep has time-format cases');
  const text = renderExplain(rule, ex);
  assert.match(text, /^aep\/time-format \(error\)\n\n/);
  assert.ok(text.includes(rule.description));
  assert.ok(text.includes(`Spec: ${rule.spec}`));
  assert.match(text, /Failing example \(conformance\/aep\/fail\/aep\.time-format\.jsonl\):\n +>? +1 \| \{/);
  assert.match(text, /expected findings:\n +aep\/time-format line \d+/);
  assert.match(text, /Passing example \(conformance\/aep\/pass\/aep\.time-format\.jsonl\):/);
});

test('examples belong to the rule with the longest matching slug', () => {
  const ids = ['aep/form', 'aep/form-field'];
  assert.equal(ruleSlug('aep/form-field'), 'aep.form-field');
  // no conformance files for these ids in a non-existent root: empty, never throws
  assert.deepEqual(findExamples('aep', 'aep/form', ids, '/nonexistent'), { fail: [], pass: [] });
});

test('spec citations resolve to document sections', () => {
  assert.equal(githubSlug('5.2 Session-scoped and agent-scoped Events'), '52-session-scoped-and-agent-scoped-events');
  assert.match(
    specUrl('AEP-0001 §5.2')!,
    /\/spec\/AEP-0001-core-and-envelope\.md#52-session-scoped-and-agent-scoped-events$/,
  );
  assert.match(specUrl('AEP-0006; AEP-0002 §5.3')!, /\/spec\/AEP-0006-structured-input-requests\.md$/);
  assert.match(
    specUrl('AHP base/transports/stdio.md §Framing (AHP-STDIO-001)')!,
    /\/spec\/draft\/base\/transports\/stdio\.md#framing$/,
  );
  assert.match(specUrl('AHP interaction-payloads.md')!, /\/spec\/draft\/interaction-payloads\.md$/);
  assert.match(
    specUrl('AHP interaction-payloads.md §MCP elicitation binding (2025-11-25) (capabilities.elicitation)')!,
    /interaction-payloads\.md#mcp-elicitation-binding-2025-11-25$/,
  );
  assert.match(
    specUrl('AHP base/events.md §Common message envelope (AHP-RPC-002); base/failure.md')!,
    /base\/events\.md#common-message-envelope$/,
  );
  assert.equal(specUrl('RFC 8259 §8.1; AEP-0003 §3.1'), 'https://www.rfc-editor.org/rfc/rfc8259#section-8.1');
  assert.equal(specUrl('agent-conformance limits'), undefined);
});

test('rules on an 80-column terminal: no rule id or citation word broken, no line wider than the terminal', async () => {
  const { ahpRules } = await import('../../src/ahp/driver.ts');
  for (const rules of [aepRules(), ahpRules()]) {
    const text = renderRulesText(rules, 80);
    const lines = text.split('\n');
    const words = new Set(lines.flatMap((l) => l.trim().split(/\s+/)));
    for (const r of rules) {
      assert.ok(
        lines.some((l) => l.startsWith(`${r.id}  ${r.severity}`)),
        `${r.id} starts its own line whole`,
      );
      for (const w of r.spec.split(' ')) if (w.length <= 76) assert.ok(words.has(w), `${r.id}: citation word ${w}`);
    }
    for (const l of lines) assert.ok(l.length <= 80 || !l.trim().includes(' '), `too wide: ${l}`);
  }
});

test('nothing of a rule is lost: its detail and quote are in explain, RULES.md and rules --format json', async () => {
  const md = await buildRulesMarkdown();
  const none = { fail: [], pass: [] };
  const withMore = [...aepRules(), ...ahpRules()].filter((r) => r.detail || r.quote);
  assert.ok(withMore.some((r) => r.detail) && withMore.some((r) => r.quote), 'some rules have a detail and a quote');
  for (const r of withMore) {
    const [row] = catalogueRows([r], r.id.split('/')[0]!);
    assert.equal(row!.detail, r.detail, `${r.id}: rules --format json`);
    assert.equal(row!.quote, r.quote, `${r.id}: rules --format json`);
    const piped = renderExplain(r, none);
    const onTerminal = renderExplain(r, none, { protocol: 'ahp', width: 60 }).replace(/\s+/g, ' ');
    for (const text of [r.detail, r.quote && `"${r.quote}"`]) {
      if (!text) continue;
      assert.ok(piped.includes(text), `${r.id}: explain shows ${text}`);
      assert.ok(onTerminal.includes(text.replace(/\s+/g, ' ')), `${r.id}: explain on a terminal shows ${text}`);
      assert.ok(md.includes(text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|')), `${r.id}: RULES.md shows ${text}`);
    }
  }
});

test('explain: the reference, then the quote, then the link; the detail after the description', () => {
  const rule = {
    id: 'ahp/x',
    severity: 'error' as const,
    description: 'What it checks.',
    detail: 'Why, and what it leaves to others.',
    spec: 'AHP base/failure.md §Failure policy',
    quote: 'A harness MUST do it',
  };
  const text = renderExplain(rule, { fail: [], pass: [] });
  assert.match(
    text,
    /^ahp\/x \(error\)\n\nWhat it checks\.\n\nWhy, and what it leaves to others\.\n\nSpec: AHP base\/failure\.md §Failure policy\n {6}"A harness MUST do it"\n {6}https:\/\/\S+failure\.md#failure-policy\n/,
  );
  const [row] = catalogueRows([rule], 'ahp');
  assert.equal(row!.detail, rule.detail);
  assert.equal(row!.quote, rule.quote);
});

test('explain on a terminal: the finding line whole, broken after a comma or colon; a long unmarked line cut to one row', () => {
  const rules = ahpRules();
  const rule = rules.find((r) => r.id === 'ahp/request-id-pending')!;
  const ex = findExamples(
    'ahp',
    rule.id,
    rules.map((r) => r.id),
  );
  const text = renderExplain(rule, ex, { protocol: 'ahp', width: 80 });
  const lines = ex.fail[0]!.text.split('\n');
  // the spec link above may be wider (a URL is never broken); the example's rows are not
  const rows = text.slice(text.indexOf('Failing example'), text.indexOf('  run: ')).split('\n');
  for (const row of rows) assert.ok(row.length <= 80, `too wide: ${row}`);
  // the marked line: its rows joined give it back, and every row but the last ends after a comma or colon
  const at = rows.findIndex((r) => r.startsWith('  >'));
  const pieces = [rows[at]!];
  while (/^ {4} +: /.test(rows[at + pieces.length] ?? '')) pieces.push(rows[at + pieces.length]!);
  assert.ok(pieces.length > 1, 'the marked line is wider than the terminal');
  assert.equal(pieces.map((r) => r.replace(/^ *>? +\d* *[|:] /, '')).join(''), lines[1]);
  for (const r of pieces.slice(0, -1)) assert.match(r, /[,:]$/);
  // the capabilities manifest (line 3, over 1000 characters) is one row that says how long it is
  assert.ok(lines[2]!.length > 1000);
  assert.match(text, new RegExp(`\\n {6}3 \\| .* … \\(${lines[2]!.length} characters\\)\\n {6}4 \\| `));
  // piped: every line whole
  const piped = renderExplain(rule, ex, { protocol: 'ahp' });
  for (const l of lines.filter(Boolean)) assert.ok(piped.includes(l));
});
