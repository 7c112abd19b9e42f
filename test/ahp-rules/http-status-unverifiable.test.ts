/**
 * ahp/http-status-unverifiable (base/transports/http.md §Request and response): an HTTP body that is a JSON object with
 * no jsonrpc, method, id or result may be a non-success status's body, which a capture of bodies cannot verify.
 * The routes and the edges are in test/ahp-stream/http-status-body.test.ts; these are the rule's rows.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ruleRows } from './helpers.ts';

const { body, stdio } = ruleRows(['ahp/http-status-unverifiable']);

const rulesOf = (fs: { severity: string; ruleId: string }[]) => fs.map((f) => `${f.severity}:${f.ruleId}`);

test('an HTTP body with none of the JSON-RPC members is not verified (info), not a JSON-RPC error', async () => {
  assert.deepEqual(rulesOf(await body('{"error":"rejected"}\n')), ['info:ahp/http-status-unverifiable']);
});

test('a JSON-RPC error body passes; the same object as a stdio frame is a JSON-RPC error', async () => {
  assert.deepEqual(rulesOf(await body('{"jsonrpc":"2.0","id":"e1","error":{"code":-32003,"message":"x"}}\n')), []);
  const frame = rulesOf(await stdio('{"error":"rejected"}\n'));
  assert.ok(frame.length > 0 && frame.every((r) => r === 'error:ahp/jsonrpc'), frame.join(' '));
});
