/**
 * ahp/http-status-unverifiable (base/transports/http.md §Request and response): an HTTP body that is a JSON object with
 * no jsonrpc, method, id or result may be a non-success status's body, which a capture of bodies cannot verify.
 * The routes and the edges are in test/ahp-stream/http-status-body.test.ts; these are the rule's rows.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Finding } from '../../src/core/finding.ts';
import { ahpDriver, runPipeline } from '../run.ts';
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

/** The findings of `text` read as `ahp validate` reads an HTTP body file: one document. */
async function document(
  text: string,
  source = 'body.json',
): Promise<{ severity: string; ruleId: string; messageId?: string }[]> {
  const out: Finding[] = [];
  const open = async function* () {
    yield text;
  };
  await runPipeline([{ source, framing: 'document', open }], ahpDriver(), (f) => out.push(f));
  return out;
}

test('an empty HTTP body is not verified (info): an accepted observe is answered with no body; whitespace is no JSON', async () => {
  // base/transports/http.md: "A successfully accepted observe notification MUST use 202 … or 204 … and no response body"
  const empty = await document('');
  assert.deepEqual(rulesOf(empty), ['info:ahp/http-status-unverifiable']);
  assert.equal(empty[0]!.messageId, 'empty');
  assert.deepEqual(rulesOf(await document('\uFEFF')), ['error:jsonl/bom', 'info:ahp/http-status-unverifiable']);
  assert.deepEqual(rulesOf(await document(' \n')), ['error:jsonl/empty-input']);
  // a registration document and a stdio input are never empty by right
  assert.deepEqual(rulesOf(await document('', 'hooks.registration.json')), ['error:jsonl/empty-input']);
  assert.deepEqual(rulesOf(await stdio('')), ['error:jsonl/empty-input']);
  // the rule's own row (this file's coverage)
  assert.deepEqual(rulesOf(await body('{"error":"rejected"}\n')), ['info:ahp/http-status-unverifiable']);
});
