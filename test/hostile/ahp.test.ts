/**
 * Hostile input for `ahp validate` (stdio binding): CR is a finding, duplicate member names
 * are errors at the second key, nesting past the limit is one finding, JSON-RPC ids beyond
 * 2^53 correlate exactly, prototype-named members are data.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import type { Finding } from '../../src/core/finding.ts';
import { brief, ids, jsonl, run as runWith } from './helpers.ts';
import { ahpDriver } from '../run.ts';

const run = (text: string | Uint8Array | (string | Uint8Array)[], maxDepth?: number) =>
  runWith(text, { driver: ahpDriver(), maxDepth });

after(() => {
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  assert.equal(Object.getPrototypeOf({}), Object.prototype);
});

const text = (id: string, t: string) => ({ id, kind: 'text', mediaType: 'text/plain', selection: 'body', text: t });

function toolBefore(id: string | number, over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    jsonrpc: '2.0',
    id,
    method: 'hooks/intercept',
    params: {
      protocolVersion: 'draft',
      event: {
        id: String(id),
        source: 'https://harness.example/runtime/1',
        type: 'tool.before',
        time: '2026-08-24T08:51:14Z',
        session: { id: 's1' },
        tool: { name: 'Bash', kind: 'shell', input: { command: 'ls' }, origin: 'native' },
        call: { id: `call-${id}` },
        path: 'example',
        ...over,
      },
      capabilities: { effects: ['deny'] },
    },
  };
}

const noEffect = (id: string | number) => ({ jsonrpc: '2.0', id, result: { protocolVersion: 'draft', effects: [] } });

/** Findings other than the note about requests still open at the end. */
const real = (fs: Finding[]) => fs.filter((f) => f.ruleId !== 'ahp/open-at-end');

test('the generated request/response pair is clean (baseline for the cases below)', async () => {
  const { findings } = await run(jsonl([toolBefore('e1'), noEffect('e1')]));
  assert.deepEqual(ids(findings), []);
});

test('CRLF is one jsonl/carriage-return per line at the CR; the message is still checked', async () => {
  const lines = jsonl([toolBefore('e1'), noEffect('e1')]).replace(/\n/g, '\r\n');
  const { findings, stats } = await run(lines);
  const first = JSON.stringify(toolBefore('e1'));
  assert.deepEqual(brief(findings), [
    `jsonl/carriage-return@1:${first.length + 1}`,
    `jsonl/carriage-return@2:${JSON.stringify(noEffect('e1')).length + 1}`,
  ]);
  assert.equal(findings[0].byteOffset, Buffer.byteLength(first));
  assert.equal(stats.events, 2);
});

test('a lone CR inside a message line is a finding at its column, never a line break', async () => {
  const first = JSON.stringify(toolBefore('e1')).replace(',"method"', ',\r"method"');
  const { findings, stats } = await run(jsonl([first, noEffect('e1')]));
  assert.deepEqual(brief(findings), [`jsonl/carriage-return@1:${first.indexOf('\r') + 1}`]);
  assert.equal(stats.lines, 2);
});

test('a repeated member is an error at the second key, and the message does not take part in correlation', async () => {
  const req = JSON.stringify(toolBefore('e1')).replace('"jsonrpc":"2.0"', '"jsonrpc":"2.0","jsonrpc":"2.0"');
  const { findings } = await run(jsonl([req, noEffect('e1')]));
  const dup = findings.filter((f) => f.ruleId === 'json/duplicate-key');
  assert.equal(dup.length, 1);
  assert.equal(dup[0].severity, 'error');
  assert.equal(dup[0].pointer, '/jsonrpc');
  assert.equal(dup[0].column, req.indexOf('"jsonrpc"', 2) + 1);
});

test('nesting past the limit inside an event is one jsonl/max-depth; no overflow at 100,000 levels', async () => {
  const deep = JSON.stringify(toolBefore('e1')).replace(
    '{"command":"ls"}',
    `{"command":${'['.repeat(100_000)}${']'.repeat(100_000)}}`,
  );
  const { findings } = await run(jsonl([deep]));
  assert.deepEqual(ids(findings), ['jsonl/max-depth']);
});

test('under a raised --max-depth, 100,000 levels inside an event are checked without overflow', async () => {
  const deep = JSON.stringify(toolBefore('e1')).replace(
    '{"command":"ls"}',
    `{"command":${'['.repeat(100_000)}${']'.repeat(100_000)}}`,
  );
  const raised = await run(jsonl([deep]), 1_000_000);
  for (const f of raised.findings) assert.ok(f.line === 1, `${f.ruleId} at line ${f.line}`);
});

test('JSON-RPC ids beyond 2^53 correlate by their exact text', async () => {
  const req = JSON.stringify(toolBefore(1)).replace('"id":1,', '"id":9007199254740993,');
  const near = JSON.stringify(noEffect(1)).replace('"id":1', '"id":9007199254740992');
  const exact = JSON.stringify(noEffect(1)).replace('"id":1', '"id":9007199254740993');
  const good = await run(jsonl([req, exact]));
  assert.deepEqual(
    ids(real(good.findings)).filter((r) => r.startsWith('ahp/response')),
    [],
  );
  const bad = await run(jsonl([req, near]));
  assert.ok(ids(bad.findings).includes('ahp/response-unmatched'), ids(bad.findings).join(' '));
});

test('prototype-named members, ids and form fields are data', async () => {
  const schema = {
    type: 'object',
    properties: { __proto__: { type: 'string' }, constructor: { type: 'string' }, toString: { type: 'string' } },
    required: ['constructor', 'toString'],
  };
  const schemaText = JSON.stringify(schema)
    .replace('"properties":{', '"properties":{"__proto__":{"type":"string"},')
    .replace('"__proto__":{"type":"string"},"constructor"', '"constructor"');
  const request = {
    jsonrpc: '2.0',
    id: 'constructor',
    method: 'hooks/intercept',
    params: {
      protocolVersion: 'draft',
      event: {
        id: 'constructor',
        source: 'https://harness.example/runtime/1',
        type: 'user.elicitation.request',
        time: '2026-08-24T08:51:14Z',
        session: { id: '__proto__' },
        elicitation: {
          server: 'toString',
          mode: 'form',
          request: text('r', JSON.stringify({ message: 'm', requestedSchema: JSON.parse(schemaText) as unknown })),
        },
      },
      capabilities: { effects: ['deny'] },
    },
  };
  const result = {
    jsonrpc: '2.0',
    id: 'toString',
    method: 'hooks/intercept',
    params: {
      protocolVersion: 'draft',
      event: {
        id: 'toString',
        source: 'https://harness.example/runtime/1',
        type: 'user.elicitation.result',
        time: '2026-08-24T08:51:15Z',
        session: { id: '__proto__' },
        parentEventId: 'constructor',
        elicitation: {
          server: 'toString',
          mode: 'form',
          action: 'accept',
          result: text('a', JSON.stringify({ action: 'accept', content: {} })),
        },
      },
      capabilities: { effects: ['message'] },
    },
  };
  const { findings } = await run(jsonl([request, noEffect('constructor'), result, noEffect('toString')]));
  const missing = findings.filter((f) => f.ruleId === 'ahp/elicitation-content-schema');
  assert.ok(
    missing.length >= 2,
    `required "constructor" and "toString" are missing from {}: ${ids(findings).join(' ')}`,
  );
});
