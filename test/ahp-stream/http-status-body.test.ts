/**
 * An HTTP body without its status (base/transports/http.md §Request and response; README §Decisions on HTTP bodies
 * without their status): a JSON object that is no JSON-RPC message is not verified, anything claiming JSON-RPC is
 * judged as JSON-RPC, and a stdio frame has no status to excuse it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { validate } from '../../src/index.ts';

const rulesOf = async (text: string, source: string, binding?: 'http' | 'stdio') =>
  (await validate('ahp', { text, source }, binding ? { binding } : {})).findings.map(
    (f) => `${f.severity}:${f.ruleId}`,
  );

test('a JSON object with no jsonrpc, method, id or result, as an HTTP body: one info, no ahp/jsonrpc error', async () => {
  for (const body of [
    '{"error":"rejected"}',
    '{}',
    '{"detail":"invalid canonical message","code":400}',
    '{"error":{"code":-32003,"message":"x"}}',
  ]) {
    assert.deepEqual(await rulesOf(body, 'answer.json'), ['info:ahp/http-status-unverifiable'], body);
    assert.deepEqual(await rulesOf(body, 'answer.txt', 'http'), ['info:ahp/http-status-unverifiable'], body);
  }
});

test('a body that claims JSON-RPC, is not an object, or is not JSON keeps its errors; a stdio frame has no status', async () => {
  for (const body of ['{"jsonrpc":"2.0","error":"rejected"}', '{"id":"e1","error":"rejected"}', '{"result":{}}']) {
    const rules = await rulesOf(body, 'answer.json');
    assert.ok(rules.length > 0 && rules.every((r) => r.startsWith('error:ahp/')), `${body}: ${rules}`);
    assert.ok(!rules.includes('info:ahp/http-status-unverifiable'), body);
  }
  assert.deepEqual(await rulesOf('[{"error":"x"}]', 'answer.json'), ['error:jsonl/not-object']);
  const text = await rulesOf('Bad Request', 'answer.json');
  assert.ok(text.length > 0 && text.every((r) => r.startsWith('error:json')), text.join(' '));
  const stdio = await rulesOf('{"error":"rejected"}\n', 'capture.jsonl');
  assert.ok(stdio.length > 0 && stdio.every((r) => r === 'error:ahp/jsonrpc'), stdio.join(' '));
  // a JSON-RPC error body passes
  assert.deepEqual(
    await rulesOf('{"jsonrpc":"2.0","id":"e1","error":{"code":-32003,"message":"backend_unavailable"}}', 'answer.json'),
    [],
  );
});
