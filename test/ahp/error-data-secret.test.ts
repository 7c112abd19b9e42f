// ahp/error-data-secret (AHP base/errors.md §JSON-RPC errors: "Error `data` MUST NOT contain
// secrets"): every string of `error.data` through the one credential detector, alone or as the
// member it is written in; `error.message` and results are not read.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { intercept, runRule, toolBefore, type AhpRuleId } from '../ahp-stream/helpers.ts';

const RULE: AhpRuleId = 'ahp/error-data-secret';
const failWith = (id: string, data: unknown, message = 'backend_unavailable') => ({
  jsonrpc: '2.0',
  id,
  error: { code: -32003, message, data },
});

test('a credential in error.data is an error at the string that carries it', async () => {
  const lines = [
    intercept(toolBefore('e1')),
    failWith('e1', { nested: [{ hint: 'use ghp_ABCDEFGHIJKLMNOPQRSTUVWXyz0123456789' }] }),
    intercept(toolBefore('e2', {}, 1)),
    failWith('e2', { client_secret: 'Wq0-plain-looking', api_key: '[REDACTED]' }),
    intercept(toolBefore('e3', {}, 2)),
    failWith('e3', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1bml0In0.c2ln'),
    intercept(toolBefore('e4', {}, 3)),
    // a number is a value too, read with its name
    failWith('e4', { api_key: 12345678901234, retryAfterMs: 250, pin: 4321 }),
  ];
  assert.deepEqual(await runRule(RULE, lines), [
    `error:${RULE}@2/error/data/nested/0/hint`,
    `error:${RULE}@4/error/data/client_secret`,
    `error:${RULE}@6/error/data`,
    `error:${RULE}@8/error/data/api_key`,
    `error:${RULE}@8/error/data/pin`,
  ]);
});

test('no finding without a credential shape, outside error.data, or on a result', async () => {
  const lines = [
    intercept(toolBefore('e1')),
    // the sentence names `data`: a secret in `message` is not this rule's concern
    failWith('e1', { retryAfterMs: 250, tokenCount: 12, token_type: 'bearer' }, 'token=abc123def456'),
    intercept(toolBefore('e2', {}, 1)),
    { jsonrpc: '2.0', id: 'e2', result: { protocolVersion: 'draft', effects: [], data: 'AKIAIOSFODNN7EXAMPLE' } },
    intercept(toolBefore('e3', {}, 2)),
    { jsonrpc: '2.0', id: 'e3', error: { code: -32004, message: 'failed' } },
  ];
  assert.deepEqual(await runRule(RULE, lines), []);
});
