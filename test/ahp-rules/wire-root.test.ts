import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { capabilitiesResponse, event, intercept, minimalManifest, response } from '../ahp/builders.ts';
import { obsOf, ruleRows } from './helpers.ts';

const { valid, invalid, validate } = ruleRows([
  'ahp/wire-root',
  'ahp/jsonrpc',
  'ahp/method',
  'ahp/protocol-version',
  'ahp/protocol-version-offered',
  'ahp/method-params',
  'ahp/method-result',
  'ahp/intercept-id-mismatch',
  'ahp/capabilities',
]);

describe('wire root and JSON-RPC', () => {
  test('batches and non-objects are not wire messages', () => {
    invalid([obsOf('turn.start')], 'ahp/wire-root', '');
    invalid('hooks/observe', 'ahp/wire-root', '');
    invalid(null, 'ahp/wire-root', '');
  });
  test('an object that is neither request nor response', () => {
    invalid({ jsonrpc: '2.0', id: 1 }, 'ahp/jsonrpc', '');
  });
  test('unknown method', () => {
    invalid({ jsonrpc: '2.0', id: 1, method: 'hooks/approve', params: {} }, 'ahp/method', '/method');
  });
  test('jsonrpc must be "2.0"', () => {
    invalid({ ...capabilitiesResponse(), jsonrpc: '1.0' }, 'ahp/jsonrpc', '/jsonrpc');
  });
  test('observe-with-id (absent upstream case): a notification carries no id', () => {
    invalid({ ...obsOf('turn.start'), id: 'x' }, 'ahp/jsonrpc', '/id');
  });
  test('error-response-result (absent upstream case): result xor error', () => {
    const both = {
      jsonrpc: '2.0',
      id: 'e1',
      error: { code: -32003, message: 'backend_unavailable' },
      result: { protocolVersion: 'draft', effects: [] },
    };
    invalid(both, 'ahp/jsonrpc', '/result');
    invalid(both, 'ahp/jsonrpc', '/result', { root: 'schema/draft/json-rpc-message.schema.json' });
    valid({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } });
    invalid({ jsonrpc: '2.0', id: 'e1', error: { code: 'busy', message: 'x' } }, 'ahp/jsonrpc', '/error/code');
  });
  test('request ids are non-empty strings or integers', () => {
    valid({ jsonrpc: '2.0', id: 7, method: 'hooks/capabilities', params: { protocolVersion: 'draft' } });
    invalid(
      { jsonrpc: '2.0', id: '', method: 'hooks/capabilities', params: { protocolVersion: 'draft' } },
      'ahp/jsonrpc',
      '/id',
    );
    invalid(
      { jsonrpc: '2.0', id: 1.5, method: 'hooks/capabilities', params: { protocolVersion: 'draft' } },
      'ahp/jsonrpc',
      '/id',
    );
  });
  test('an intercept request needs an id', () => {
    const m = intercept(event('tool.before'));
    delete m.id;
    invalid(m, 'ahp/jsonrpc', '');
  });
  test('intercept-request-id-mismatch (absent upstream case)', () => {
    invalid({ ...intercept(event('tool.before')), id: 'evt2' }, 'ahp/intercept-id-mismatch', '/id');
    invalid({ ...intercept(event('tool.before')), id: 7 }, 'ahp/intercept-id-mismatch', '/id');
  });
  test('protocolVersion is exactly "draft" in params and results', () => {
    const m = obsOf('turn.start') as { params: { protocolVersion: string } };
    m.params.protocolVersion = '2026-08-27';
    invalid(m, 'ahp/protocol-version', '/params/protocolVersion');
    invalid({ jsonrpc: '2.0', id: 'd', method: 'hooks/capabilities', params: {} }, 'ahp/method-params', '/params');
  });
  test('a request offering another snapshot is the info, not a draft violation (base/versioning.md)', () => {
    // a backend that does not support the supplied version returns -32001: the harness may supply one it lacks
    const offered = (m: unknown) => {
      const out = validate(m);
      assert.deepEqual(
        out.map((f) => [f.ruleId, f.severity, f.pointer]),
        [['ahp/protocol-version-offered', 'info', '/params/protocolVersion']],
      );
    };
    const discovery = {
      jsonrpc: '2.0',
      id: 'd',
      method: 'hooks/capabilities',
      params: { protocolVersion: '2026-08-27' },
    };
    offered(discovery);
    const request = intercept(event('tool.before')) as { params: { protocolVersion: string } };
    request.params.protocolVersion = '2025-11-25';
    offered(request);
    // no snapshot identifier at all (neither "draft" nor a real YYYY-MM-DD date), or not a string: still the error
    for (const pv of ['v99', '2026-13-01', '2026-02-30', '2025-02-29', 'Draft', 7])
      invalid({ ...discovery, params: { protocolVersion: pv } }, 'ahp/protocol-version', '/params/protocolVersion');
    // a notification has no answer to decline it, a result is the backend's own: both stay the error
    const result = response([]) as { result: { protocolVersion: string } };
    result.result.protocolVersion = '2026-08-27';
    invalid(result, 'ahp/protocol-version', '/result/protocolVersion');
  });
  test('an unknown params or result member is ignored in every method (base/versioning.md §Unknown fields)', () => {
    // The upstream capabilities-request schema closes params; the sentence decides (README §Decisions).
    const extra = { session: { id: 's9' }, 'com.example.client': { build: '7' } };
    const discovery = { jsonrpc: '2.0', id: 'd', method: 'hooks/capabilities', params: { protocolVersion: 'draft' } };
    const observe = obsOf('turn.start') as { params: Record<string, unknown> };
    const request = intercept(event('tool.before')) as { params: Record<string, unknown> };
    for (const m of [discovery, observe, request]) valid({ ...m, params: { ...m.params, ...extra } });
    const answer = capabilitiesResponse() as { result: Record<string, unknown> };
    valid({ ...answer, result: { ...answer.result, note: 'x' } });
  });
  test('observe params need the event', () => {
    invalid(
      { jsonrpc: '2.0', method: 'hooks/observe', params: { protocolVersion: 'draft' } },
      'ahp/method-params',
      '/params',
    );
  });
  test('intercept requests need capabilities.effects (AHP-CAP-002)', () => {
    const m = intercept(event('tool.before')) as { params: Record<string, unknown> };
    delete m.params.capabilities;
    invalid(m, 'ahp/capabilities', '/params');
  });
  test('discovery and interception results are never combined', () => {
    const cap = capabilitiesResponse() as { result: Record<string, unknown> };
    cap.result.effects = [];
    invalid(cap, 'ahp/method-result', '/result/effects');
    const r = response([]) as { result: Record<string, unknown> };
    r.result.manifest = minimalManifest();
    invalid(r, 'ahp/method-result', '/result/effects');
    invalid(r, 'ahp/method-result', '/result/manifest', { root: 'schema/draft/intercept-response.schema.json' });
  });
});
