/**
 * A line of an AEP stream that gave no event (README §Decisions on unreadable lines): verdicts that an event is absent
 * become infos naming that line. Each row cuts one line of one of our pass cases short.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { checkBytes } from '../../src/fixture-runner/check.ts';
import { PROTOCOLS } from '../../src/run/protocols.ts';

const ROOT = new URL('../../conformance/aep/pass/', import.meta.url);
const POLICY = { strict: false, failOn: 'error' } as const;

const ROWS = [
  // the absent verdict, the info that replaces it (rule, message), at the line of the verdict
  {
    file: 'aep.respond-request-missing.jsonl',
    cut: 2,
    was: 'aep/respond-request-missing',
    rule: 'aep/attention-unknown-request',
    messageId: 'unreadable',
    line: 3,
  },
  {
    file: 'aep.ended-with-open-attention.jsonl',
    cut: 5,
    was: 'aep/ended-with-open-attention',
    rule: 'aep/absence-unverifiable',
    messageId: 'open',
    line: 6,
  },
  {
    file: 'aep.ack-overdue.jsonl',
    cut: 4,
    was: 'aep/ack-overdue',
    rule: 'aep/absence-unverifiable',
    messageId: 'overdue',
    line: 5,
  },
  {
    file: 'aep.stream-fact-missing.aep-0007.jsonl',
    cut: 5,
    was: 'aep/stream-fact-missing',
    rule: 'aep/absence-unverifiable',
    messageId: 'fact',
    line: 4,
  },
] as const;

for (const row of ROWS) {
  test(`${row.file}, line ${row.cut} cut: ${row.rule} (${row.messageId}) instead of ${row.was}`, async () => {
    const lines = readFileSync(new URL(row.file, ROOT), 'utf8').split('\n');
    lines[row.cut - 1] = lines[row.cut - 1]!.slice(0, 30);
    const def = PROTOCOLS.aep;
    const options = def.caseOptions?.(row.file) ?? {};
    const { findings } = await checkBytes({ def, options }, row.file, Buffer.from(lines.join('\n')), POLICY);
    assert.deepEqual(
      findings.filter((f) => f.severity !== 'info').map((f) => `${f.ruleId}@${f.line}`),
      [`jsonl/invalid-json@${row.cut}`],
    );
    const info = findings.find((f) => f.ruleId === row.rule && f.messageId === row.messageId);
    assert.ok(info, `no ${row.rule} ${row.messageId}: ${findings.map((f) => f.ruleId).join(', ')}`);
    assert.equal(info.line, row.line);
    assert.match(info.message, new RegExp(`line ${row.cut} could not be read as an event`));
  });
}
