/**
 * formatReport over a caller's own findings: every format takes a finding missing any optional member (each alone, and
 * all at once) and shows its rule id and message; a finding missing a required member (ruleId, severity, message) is
 * the same TypeError naming that member in every format, never a crash inside a reporter.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatReport, type Finding } from '../../src/index.ts';
import type { Summary } from '../../src/core/summary.ts';

const FORMATS = ['text', 'json', 'ndjson', 'sarif', 'junit', 'github', 'html'] as const;
const FULL = {
  ruleId: 'my/own-rule',
  severity: 'error',
  message: 'Own message here.',
  spec: 'AEP-0001 §1',
  source: 'mine.jsonl',
  line: 2,
  column: 3,
  byteOffset: 4,
  pointer: '/a',
  related: [{ source: 'mine.jsonl', line: 1 }],
  messageId: 'own',
  args: { a: 1 },
} as const;
const OPTIONAL = ['spec', 'source', 'line', 'column', 'byteOffset', 'pointer', 'related', 'messageId', 'args'] as const;
const REQUIRED = ['ruleId', 'severity', 'message'] as const;
const SUMMARY: Summary = {
  inputs: 1,
  bytes: 10,
  lines: 2,
  events: 2,
  errors: 1,
  warnings: 0,
  infos: 0,
  byRule: { 'my/own-rule': 1 },
  omitted: 0,
};

function without(members: readonly string[]): Finding {
  const f: Record<string, unknown> = { ...FULL };
  for (const m of members) delete f[m];
  return f as unknown as Finding;
}

test('every format × a finding missing each optional member (and all of them): a report naming its rule and message', () => {
  for (const format of FORMATS)
    for (const missing of [...OPTIONAL.map((m) => [m]), [...OPTIONAL]]) {
      const out = formatReport([without(missing)], SUMMARY, { protocol: 'aep', format });
      assert.ok(out.includes('my/own-rule'), `${format} without ${missing.join(',')}: rule id`);
      assert.ok(out.includes('Own message here'), `${format} without ${missing.join(',')}: message`);
    }
});

test('every format × a finding missing each required member: the same TypeError naming it', () => {
  for (const member of REQUIRED) {
    const messages = new Set<string>();
    for (const format of FORMATS)
      assert.throws(
        () => formatReport([without([member])], SUMMARY, { protocol: 'aep', format }),
        (e: Error) => {
          assert.ok(e instanceof TypeError, `${format} ${member}: ${e}`);
          assert.match(e.message, new RegExp(`finding 1 needs ${member} `));
          messages.add(e.message);
          return true;
        },
      );
    assert.equal(messages.size, 1, `${member}: one message for every format`);
  }
});
