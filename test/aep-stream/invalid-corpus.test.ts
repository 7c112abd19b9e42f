/**
 * Upstream `invalid/cases.json` (aep-rules.md §7.2): every case, written to a temp JSONL
 * (`event` = one line, `events` = one stream), is rejected: at least one error, and among the
 * findings the rule the case is about. `golden/golden.jsonl` gives nothing above info.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { brief, checkText, CORPUS_DIR, jsonl } from './helpers.ts';
import { needShared, SHARED } from '../shared.ts';
import { tempDir } from '../temp.ts';

/** Case name -> the rule that must report it. */
const EXPECTED_RULE: Readonly<Record<string, string>> = {
  // single events: envelope, type and payload schema
  'session-scoped without session': 'aep/scope-session',
  'session-scoped without seq': 'aep/scope-session',
  'agent-scoped with session': 'aep/scope-agent',
  'agent-scoped with seq': 'aep/scope-agent',
  'command with seq': 'aep/scope-foreign',
  'attention.routed with seq': 'aep/scope-foreign',
  'single-segment type': 'aep/type-grammar',
  'unknown category': 'aep/type-grammar',
  'uppercase in type': 'aep/type-grammar',
  'vendor type too short (x.vendor.verb)': 'aep/type-grammar',
  'extension attribute name over 20 chars': 'aep/extension-name',
  'extension attribute with object value': 'aep/extension-value',
  'extension attribute name with illegal charset': 'aep/extension-name',
  'unknown severity': 'aep/enum',
  'malformed traceparent': 'aep/traceparent',
  'unsupported envelope version': 'aep/version',
  'negative seq': 'aep/seq-epoch',
  'form select field without choices': 'aep/form-field-spec',
  'agent.presence with an unregistered state': 'aep/payload-schema',
  'agent.presence missing the required state': 'aep/payload-schema',
  'agent.health with an unregistered status': 'aep/payload-schema',
  'session.compacted with a non-integer token count': 'aep/payload-schema',
  'state.delta with a non-array delta': 'aep/payload-schema',
  'run.finished cost missing the required currency': 'aep/payload-schema',
  'tool.completed cost total is a string (amounts are numbers, not bare-float strings)': 'aep/payload-schema',
  // streams: the stream rules
  'form answered with a non-choice string for a select without other:true': 'aep/form-values-choice',
  'second run terminal (finished then cancelled)': 'aep/run-terminal',
  'run terminal repeated (failed twice, distinct events)': 'aep/run-terminal',
  'session ends with a dangling attention request': 'aep/ended-with-open-attention',
  'id collision within one emitter (same (source,id), different content)': 'aep/id-collision',
  'seq regression without an epoch bump': 'aep/seq-regression',
  'epoch regression': 'aep/epoch-regression',
  'second ack for one command (accepted twice, distinct events)': 'aep/ack-exclusive',
  'conflicting ack decisions for one command (accepted then rejected)': 'aep/ack-exclusive',
  'second session.ended for one session (distinct events)': 'aep/session-ended',
};

interface InvalidCase {
  name: string;
  rule: string;
  event?: unknown;
  events?: unknown[];
}

function loadCases(): InvalidCase[] {
  return (JSON.parse(readFileSync(join(CORPUS_DIR, 'invalid/cases.json'), 'utf8')) as { cases: InvalidCase[] }).cases;
}

test('invalid/cases.json: every case is rejected by the rule it is about', async (t) => {
  if (!needShared(t, SHARED.aepCorpus)) return;
  const cases = loadCases();
  assert.ok(cases.length >= 35, `expected at least 35 invalid cases, got ${cases.length}`);
  const dir = tempDir(t, 'aep-invalid-');
  for (const [i, c] of cases.entries()) {
    await t.test(c.name, async () => {
      const want = EXPECTED_RULE[c.name];
      assert.ok(want, `no expected rule listed for case ${JSON.stringify(c.name)}: add it to the table`);
      const events = c.events ?? [c.event];
      const file = join(dir, `case-${i}.jsonl`);
      writeFileSync(file, jsonl(events));
      const findings = await checkText(readFileSync(file), { source: file });
      assert.ok(
        findings.some((f) => f.severity === 'error'),
        `no error: ${brief(findings)}`,
      );
      assert.ok(
        findings.some((f) => f.ruleId === want && f.severity === 'error'),
        `expected an error from ${want}, got ${brief(findings)}`,
      );
    });
  }
});

test('invalid/cases.json: the table names no case the corpus lacks', (t) => {
  if (!needShared(t, SHARED.aepCorpus)) return;
  const names = new Set(loadCases().map((c) => c.name));
  assert.deepEqual(
    Object.keys(EXPECTED_RULE).filter((n) => !names.has(n)),
    [],
  );
});

test('golden/golden.jsonl: nothing above info (open runs at the end and a digest placeholder are legal infos)', async (t) => {
  if (!needShared(t, SHARED.aepCorpus)) return;
  const findings = await checkText(readFileSync(join(CORPUS_DIR, 'golden/golden.jsonl')), { source: 'golden.jsonl' });
  const above = findings.filter((f) => f.severity !== 'info');
  assert.deepEqual(brief(above), '(none)');
  // aep/digest-labelled: the corpus writes a short `sha256:`-prefixed digest where AEP-0003
  // §9 item 3 describes 32 hex digits; an info, never a rejection (aep/digest-shape, the error, spares that form)
  for (const f of findings)
    assert.ok(f.ruleId === 'aep/open-at-end' || f.ruleId === 'aep/digest-labelled', `unexpected info ${brief([f])}`);
});
