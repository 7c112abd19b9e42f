/**
 * Our own stdio capture examples: examples/ahp/session.jsonl is a realistic valid capture
 * (capabilities exchange, intercept requests with interaction events including an MCP
 * elicitation form request and accepted result, responses, an error response, observe
 * notifications); examples/ahp/session-broken.jsonl is its twin with distinct problems on
 * some lines, and every per-message finding (framing included) must sit on exactly those lines.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { AHP_MESSAGE_RULES } from '../../src/ahp/rules/index.ts';
import { REPO_DIR, runStdio, show } from './helpers.ts';

/** The per-message rules (the stream rules' consequences of the broken lines are tested in test/ahp-stream). */
const PER_MESSAGE = new Set(AHP_MESSAGE_RULES.map((r) => r.id));

const read = (name: string) => readFileSync(REPO_DIR + 'examples/ahp/' + name, 'utf8');

/** Broken line -> the rule it was broken for. */
const BROKEN: Record<number, string> = {
  1: 'jsonl/carriage-return', // CRLF line ending
  2: 'ahp/capabilities', // managed scope with disableable true
  3: 'ahp/message-role', // inbound message with role assistant
  6: 'ahp/effect', // deny without reason
  7: 'ahp/overlay', // denied outcome with executed execution
  8: 'ahp/elicitation-body', // MCP form field with the unsupported `pattern` keyword
  10: 'ahp/elicitation-action-mismatch', // envelope decline, MCP accept
  13: 'ahp/intercept-id-mismatch', // JSON-RPC id differs from params.event.id
  16: 'ahp/envelope', // compact ISO timestamp
  17: 'ahp/content-part', // +json attachment media type
  21: 'ahp/overlay', // hook.failure without parentEventId
};

test('examples/ahp/session.jsonl is a clean capture', async () => {
  const text = read('session.jsonl');
  assert.ok(text.split('\n').length > 15, 'the example should be a realistic multi-message capture');
  const issues = await runStdio(text);
  assert.deepEqual(issues, [], show(issues));
});

test('examples/ahp/session-broken.jsonl has findings on exactly the broken lines', async () => {
  const good = read('session.jsonl').split('\n');
  const broken = read('session-broken.jsonl').split('\n');
  assert.equal(broken.length, good.length, 'the twin has the same number of lines');
  // the twin differs from the clean capture exactly on the broken lines
  const differing = good.map((l, i) => (l !== broken[i] ? i + 1 : 0)).filter(Boolean);
  assert.deepEqual(differing, Object.keys(BROKEN).map(Number));
  const issues = await runStdio(read('session-broken.jsonl'), PER_MESSAGE);
  const lines = [...new Set(issues.map((i) => i.line ?? 0))].sort((a, b) => a - b);
  assert.deepEqual(lines, Object.keys(BROKEN).map(Number), show(issues));
  for (const [line, rule] of Object.entries(BROKEN)) {
    assert.ok(
      issues.some((i) => i.line === Number(line) && i.ruleId === rule),
      `line ${line} should report ${rule}: ${show(issues.filter((i) => i.line === Number(line)))}`,
    );
  }
  assert.ok(issues.every((i) => i.severity === 'error'));
});
