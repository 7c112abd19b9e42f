/**
 * Unit tables for `validateAhpMessage` (the message-schema stage and the per-event rules, run
 * on one value): every catalogue event, the wire root and JSON-RPC rules, envelope formats,
 * overlays, content parts, effects, capabilities, registration, the MCP elicitation binding,
 * roots, and stdio framing through `ahp validate`'s pipeline. Several cases rebuild
 * upstream manifest cases whose files are absent from the shared corpus (named in the test).
 * The last tests check that every rule id emitted here is catalogued and every catalogued rule
 * is exercised.
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { describe, test } from 'node:test';
import { isDateTime as isRfc3339DateTime } from '../../src/core/schema/formats.ts';
import { ahpEventTypes, ahpInterceptableEventTypes } from '../../src/ahp/schema/schemas.ts';
import { AHP_MESSAGE_RULES, AHP_RULES } from '../../src/ahp/rules/index.ts';
import { isAhpValid, validateAhpMessage as rawValidate, type ValidateAhpOptions } from '../../src/run/ahp-message.ts';
import type { Finding } from '../../src/core/finding.ts';
import {
  MINIMAL,
  capabilitiesResponse,
  event,
  intercept,
  minimalManifest,
  msg,
  observe,
  registration,
  response,
  text,
} from './builders.ts';
import { REPO_DIR, runStdio, show } from './helpers.ts';

const emitted = new Set<string>();
function validate(value: unknown, opts?: ValidateAhpOptions): Finding[] {
  const issues = rawValidate(value, opts);
  for (const i of issues) emitted.add(i.ruleId);
  return issues;
}
/** The per-message rules: stdio framing plus these, as one message at a time sees them (no stream rules). */
const PER_MESSAGE = new Set(AHP_MESSAGE_RULES.map((r) => r.id));
async function stdio(t: string): Promise<Finding[]> {
  const findings = await runStdio(t, PER_MESSAGE);
  for (const f of findings) emitted.add(f.ruleId);
  return findings;
}

function valid(value: unknown, opts?: ValidateAhpOptions): void {
  const issues = validate(value, opts);
  assert.deepEqual(
    issues.filter((i) => i.severity === 'error'),
    [],
    show(issues),
  );
}

/** Assert the value is invalid, every error has one of `rules`, each rule occurs, and (when given) some issue points at `pointer`. */
function invalid(value: unknown, rules: string | string[], pointer?: string, opts?: ValidateAhpOptions): Finding[] {
  const want = Array.isArray(rules) ? rules : [rules];
  const issues = validate(value, opts);
  const errors = issues.filter((i) => i.severity === 'error');
  assert.ok(errors.length > 0, 'expected at least one error');
  for (const r of want)
    assert.ok(
      errors.some((i) => i.ruleId === r),
      `expected ${r}: ${show(issues)}`,
    );
  for (const e of errors) assert.ok(want.includes(e.ruleId), `unexpected ${e.ruleId}: ${show(issues)}`);
  if (pointer !== undefined)
    assert.ok(
      issues.some((i) => i.pointer === pointer),
      `expected an issue at ${pointer}: ${show(issues)}`,
    );
  return issues;
}

const obsOf = (type: string, extra: Record<string, unknown> = {}) => observe(event(type, extra));

describe('catalogue', () => {
  test('the catalogue has 32 event types, 19 of them interceptable', () => {
    assert.equal(ahpEventTypes().length, 32);
    assert.equal(ahpInterceptableEventTypes().length, 19);
    assert.deepEqual(Object.keys(MINIMAL).sort(), [...ahpEventTypes()].sort());
  });
  for (const type of Object.keys(MINIMAL)) {
    test(`a minimal ${type} is valid through hooks/observe`, () => valid(obsOf(type)));
  }
  test('every interceptable event is valid through hooks/intercept; every other one is an event-type error', () => {
    for (const type of ahpEventTypes()) {
      const msg = intercept(event(type));
      if (ahpInterceptableEventTypes().includes(type)) valid(msg);
      else invalid(msg, 'ahp/event-type', '/params/event/type');
    }
  });
  test('an overlay is never validated alone: the event root requires the envelope', () => {
    const overlayOnly = { type: 'user.attention', attention: MINIMAL['user.attention'].attention };
    const issues = invalid(overlayOnly, 'ahp/envelope', '', {
      root: 'schema/draft/catalogue-event.schema.json#/$defs/user.attention',
    });
    assert.deepEqual(issues.map((i) => i.message).sort(), [
      '`id` is required in every event (base/events.md §Common event fields); the user.attention event has none.',
      '`source` is required in every event (base/events.md §Common event fields); the user.attention event has none.',
      '`time` is required in every event (base/events.md §Common event fields); the user.attention event has none.',
    ]);
    valid(event('user.attention'), { root: 'schema/draft/interaction-event.schema.json#/$defs/user.attention' });
  });
  test('an unknown event type is unsupported semantics', () => {
    invalid(observe({ ...event('tool.before'), type: 'tool.error' }), 'ahp/event-type', '/params/event/type');
  });
  test('unknown top-level event members are ignored (open envelope)', () =>
    valid(obsOf('turn.start', { 'x-vendor': { a: 1 }, trigger: 'user' })));
});

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

describe('envelope', () => {
  test('time is strict RFC 3339', () => {
    for (const good of [
      '2026-09-15T12:00:00Z',
      '2026-09-15t12:00:00.123456z',
      '2026-09-15T12:00:00+05:30',
      '2016-12-31T23:59:60Z',
      '2016-12-31T18:59:60-05:00',
      '2024-02-29T00:00:00Z',
    ]) {
      assert.ok(isRfc3339DateTime(good), good);
    }
    for (const bad of [
      '20260915T120000Z',
      '2026-09-15 12:00:00Z',
      '2026-09-15T12:00:00',
      '2026-09-15T12:00:00+0100',
      '2026-09-15T12:00:00+01',
      '2026-02-29T00:00:00Z',
      '2026-09-15T24:00:00Z',
      '2026-09-15T23:59:60Z',
      '2026-06-30T12:59:60Z',
      '2026-09-15T12:00:00+24:00',
      '2026-9-15T12:00:00Z',
    ]) {
      assert.ok(!isRfc3339DateTime(bad), bad);
    }
    invalid(obsOf('turn.start', { time: '20260915T120000Z' }), 'ahp/envelope', '/params/event/time'); // timestamp-compact (absent upstream case)
  });
  test('source is an absolute URI', () => {
    valid(obsOf('turn.start', { source: 'https://harness.example/runtime/42' }));
    valid(obsOf('turn.start', { source: 'urn:uuid:5b7de29e-a9e0-41a8-bf26-d94b05f0656d' }));
    invalid(obsOf('turn.start', { source: 'harness-42' }), 'ahp/envelope', '/params/event/source');
    invalid(obsOf('turn.start', { source: 'https://bad host/%zz' }), 'ahp/envelope', '/params/event/source');
  });
  test('id and type are required, non-empty strings', () => {
    invalid(obsOf('turn.start', { id: '' }), 'ahp/envelope', '/params/event/id');
    const e = event('turn.start');
    delete e.id;
    invalid(observe(e), 'ahp/envelope', '/params/event');
  });
  test('extension keys are reverse-DNS (AHP-EXT-001)', () => {
    valid(
      obsOf('turn.start', {
        extensions: { 'org.w3c.trace_context': { traceparent: 'x' }, 'com.example-corp.audit': true },
      }),
    );
    invalid(obsOf('turn.start', { extensions: { trace: {} } }), 'ahp/extensions', '/params/event/extensions/trace');
  });
  test('synthesized markers are JSON booleans', () => {
    valid(
      obsOf('tool.after', {
        synthesized: true,
        call: { id: 'c1', synthesized: true },
        turn: { id: 't', synthesized: true },
      }),
    );
    invalid(
      obsOf('tool.after', { call: { id: 'c1', synthesized: 'true' } }),
      'ahp/overlay',
      '/params/event/call/synthesized',
    ); // synthesized-call-string (absent upstream case)
    invalid(
      obsOf('turn.start', { session: { id: 's', synthesized: 'true' } }),
      'ahp/envelope',
      '/params/event/session/synthesized',
    );
    invalid(obsOf('turn.start', { synthesized: 1 }), 'ahp/envelope', '/params/event/synthesized');
  });
  test('session, turn, gaps and parentEventId shapes', () => {
    invalid(obsOf('turn.start', { session: { cwd: '/x' } }), 'ahp/envelope', '/params/event/session');
    invalid(
      obsOf('turn.start', { session: { id: 's', agent: { type: 'sub' } } }),
      'ahp/envelope',
      '/params/event/session/agent',
    );
    invalid(obsOf('tool.before', { turn: {} }), 'ahp/envelope', '/params/event/turn');
    invalid(obsOf('tool.before', { gaps: [{ path: 'tool.input' }] }), 'ahp/envelope', '/params/event/gaps/0');
    invalid(obsOf('tool.before', { parentEventId: '' }), 'ahp/envelope', '/params/event/parentEventId');
  });
  test('`tool` belongs to tool events only', () => {
    invalid(
      obsOf('session.start', { tool: { name: 'x', input: {}, origin: 'native' } }),
      'ahp/envelope',
      '/params/event/tool',
    );
  });
});

describe('overlays', () => {
  test('interaction payloads are closed', () => {
    invalid(
      obsOf('config.change.before', { change: { ...(MINIMAL['config.change.before'].change as object), diff: 'x' } }),
      'ahp/overlay',
      '/params/event/change/diff',
    );
    invalid(
      obsOf('user.message.outbound', { message: { channel: 'c', sender: 'bot', messages: [] } }),
      'ahp/overlay',
      '/params/event/message/sender',
    );
    invalid(
      obsOf('user.elicitation.request', { elicitation: { server: 's', mode: 'form', extra: 1 } }),
      'ahp/overlay',
      '/params/event/elicitation/extra',
    );
    invalid(
      obsOf('hook.failure', { failure: { backendId: 'b', reason: 'r', policy: 'fail-open', subscription: 's' } }),
      'ahp/overlay',
      '/params/event/failure/subscription',
    );
  });
  test('required payload members', () => {
    invalid(
      obsOf('config.change.after', { change: { source: 's', scope: 'p', settings: [] } }),
      'ahp/overlay',
      '/params/event/change',
    );
    invalid(
      obsOf('user.message.inbound', { message: { channel: 'c', messages: [] } }),
      'ahp/overlay',
      '/params/event/message',
    );
    invalid(
      obsOf('user.elicitation.result', { elicitation: { server: 's', mode: 'form' } }),
      'ahp/overlay',
      '/params/event/elicitation',
    );
    invalid(
      obsOf('user.elicitation.request', { elicitation: { server: 's', mode: 'browser' } }),
      'ahp/overlay',
      '/params/event/elicitation/mode',
    );
    const e = event('hook.failure');
    delete e.parentEventId;
    invalid(observe(e), 'ahp/overlay', '/params/event'); // catalogue-hook.failure needs parentEventId
    invalid(
      obsOf('hook.failure', { failure: { backendId: 'b', reason: 'r', policy: 'fail-soft' } }),
      'ahp/overlay',
      '/params/event/failure/policy',
    );
  });
  test('a configuration change carries no managed secret in its summary or setting names', () => {
    const change = (summary: string, settings: string[]) => ({
      change: { source: 'user-settings', scope: 'user', settings, summary },
    });
    invalid(
      obsOf('config.change.after', change('Set key AKIAIOSFODNN7EXAMPLE.', ['aws.key'])),
      'ahp/config-managed-secret',
      '/params/event/change/summary',
    );
    invalid(
      obsOf('config.change.before', change('Changed.', ['env.TOKEN=abc123def'])),
      'ahp/config-managed-secret',
      '/params/event/change/settings/0',
    );
    const issues = invalid(
      obsOf('config.change.after', change('Authorization: Bearer abc123.def456', ['x'])),
      'ahp/config-managed-secret',
    );
    assert.ok(
      issues.every((i) => !i.message.includes('abc123')),
      'the message never shows the value',
    );
    valid(
      obsOf(
        'config.change.after',
        change('Rotate the deploy token; it is now read from the keychain.', ['env.DEPLOY_TOKEN', 'auth.tokenRef']),
      ),
    );
    // the AEP-0003 §9.4(a) assignment shape takes any word as the value, in AHP as in AEP
    invalid(
      obsOf(
        'config.change.after',
        change('Rotate the deploy token: now read from the keychain.', ['env.DEPLOY_TOKEN']),
      ),
      'ahp/config-managed-secret',
      '/params/event/change/summary',
    );
  });
  test('inbound messages have role user, outbound role assistant', () => {
    invalid(
      obsOf('user.message.inbound', { message: { channel: 'c', sender: 's', messages: [msg('assistant')] } }),
      'ahp/message-role',
      '/params/event/message/messages/0/role',
    );
    invalid(
      obsOf('user.message.outbound', { message: { channel: 'c', messages: [msg('user')] } }),
      'ahp/message-role',
      '/params/event/message/messages/0/role',
    ); // user-message-outbound-wrong-role (absent)
  });
  test('attention message and title are text parts (a single part is accepted with a warning)', () => {
    const single = obsOf('user.attention', {
      attention: { kind: 'idle', message: text('Waiting.'), title: [text('Idle')] },
    });
    const issues = validate(single);
    assert.ok(isAhpValid(issues), show(issues));
    assert.deepEqual(
      issues.map((i) => [i.ruleId, i.severity, i.pointer]),
      [['ahp/attention-shape', 'warning', '/params/event/attention/message']],
    );
    invalid(
      obsOf('user.attention', { attention: { kind: 'idle', message: 'Waiting.', title: [] } }),
      'ahp/content-part',
      '/params/event/attention/message',
    );
    const image = { id: 'i', kind: 'attachment', mediaType: 'image/png', selection: 'body', body: { ref: 'r' } };
    invalid(
      obsOf('user.attention', { attention: { kind: 'idle', message: [image], title: [] } }),
      'ahp/content-part',
      '/params/event/attention/message/0/kind',
    );
  });
  test('tool outcomes, errors and denial', () => {
    invalid(obsOf('tool.after', { outcome: 'error' }), 'ahp/overlay', '/params/event');
    valid(obsOf('tool.after', { outcome: 'error', error: { class: 'tool', message: 'failed' } }));
    invalid(
      obsOf('tool.after', { outcome: 'error', error: { class: 'tool', message: 'failed' }, output: 'partial' }),
      'ahp/overlay',
      '/params/event/output',
    ); // observe-tool-error-output (absent)
    invalid(
      obsOf('tool.after', {
        outcome: 'error',
        error: { class: 'tool', message: 'failed' },
        tool: { name: 'Bash', input: {}, origin: 'native', output: null },
      }),
      'ahp/overlay',
      '/params/event/tool/output',
    );
    invalid(
      obsOf('tool.after', { tool: { name: 'Bash', input: {}, origin: 'native', output: { stdout: '' } } }),
      'ahp/overlay',
      '/params/event/tool/output',
    );
    invalid(obsOf('tool.after', { outcome: 'denied' }), 'ahp/overlay', '/params/event/execution/status');
    valid(obsOf('tool.after', { outcome: 'denied', execution: { status: 'skipped', reason: 'policy' } }));
    invalid(obsOf('tool.after', { outcome: 'skipped' }), 'ahp/overlay', '/params/event/outcome');
    invalid(obsOf('tool.after', { execution: { status: 'skipped' } }), 'ahp/overlay', '/params/event/execution');
    invalid(
      obsOf('tool.after', { execution: { status: 'skipped', reason: 'supplied' } }),
      'ahp/overlay',
      '/params/event/execution/reason',
    );
    invalid(
      obsOf('tool.before', { tool: { name: 'x', input: '{"a":1}', origin: 'native' } }),
      'ahp/overlay',
      '/params/event/tool/input',
    );
  });
  test('MCP tool descriptors', () => {
    const mcp = (connection: object) => ({
      tool: { name: 'read', input: {}, origin: 'mcp', mcp: { server: { id: 'srv' }, toolName: 'read', connection } },
    });
    valid(obsOf('tool.before', mcp({ transport: 'stdio', command: 'srv', args: [], cwd: '/w' })));
    const undisclosed = ['command', 'args', 'cwd'].map((path) => ({ path, reason: 'not disclosed' }));
    valid(obsOf('tool.before', mcp({ transport: 'stdio', gaps: undisclosed })));
    valid(obsOf('tool.before', mcp({ transport: 'sse', url: 'https://mcp.example/sse' })));
    invalid(obsOf('tool.before', mcp({ transport: 'stdio' })), 'ahp/overlay', '/params/event/tool/mcp/connection'); // mcp-stdio-location-missing (absent)
    // args and cwd: the member or its gap, like command (upstream execution-event.schema.json, mcp-stdio-gap)
    invalid(
      obsOf('tool.before', mcp({ transport: 'stdio', command: 'srv' })),
      'ahp/overlay',
      '/params/event/tool/mcp/connection',
    );
    invalid(
      obsOf('tool.before', mcp({ transport: 'unix', url: 'https://x.example' })),
      'ahp/overlay',
      '/params/event/tool/mcp/connection/transport',
    );
    valid(obsOf('tool.before', mcp({ transport: '_unix', gaps: [{ path: 'address', reason: 'not disclosed' }] })));
    invalid(
      obsOf('tool.before', { tool: { name: 'read', input: {}, origin: 'mcp' } }),
      'ahp/overlay',
      '/params/event/tool',
    );
    invalid(
      obsOf('tool.before', {
        tool: { ...mcp({ transport: 'stdio', command: 'x', args: [], cwd: '/w' }).tool, origin: 'native' },
      }),
      'ahp/overlay',
      '/params/event/tool/mcp',
    );
  });
  test('model, task, workspace and file payloads', () => {
    invalid(obsOf('model.error', { attempt: { id: 'a', number: 0 } }), 'ahp/overlay', '/params/event/attempt/number');
    invalid(
      obsOf('model.switch.before', { pricing: { currency: 'usd' } }),
      'ahp/overlay',
      '/params/event/pricing/currency',
    );
    invalid(
      obsOf('model.switch.before', { pricing: { currency: 'USD', outputPerMillionTokens: -1 } }),
      'ahp/overlay',
      '/params/event/pricing/outputPerMillionTokens',
    );
    // pricing sits on the event (upstream execution-event.schema.json), not inside a model
    invalid(
      obsOf('model.switch.before', { proposed: { id: 'm', provider: 'p', pricing: { currency: 'USD' } } }),
      'ahp/overlay',
      '/params/event/proposed/pricing',
    );
    const usage = { kind: 'amount', scope: 'attempt', completeness: 'complete', provenance: 'provider' };
    valid(
      obsOf('model.response.after', {
        usage: { ...usage, inputTokens: 3, cost: { amount: 0.1, currency: 'EUR', basis: 'billed' } },
      }),
    );
    valid(obsOf('turn.end', { usage: { ...usage, kind: 'total', scope: 'turn', provenance: 'mixed' } }));
    invalid(
      obsOf('model.response.after', { usage: { ...usage, provenance: 'mixed' } }),
      'ahp/overlay',
      '/params/event/usage/provenance',
    );
    invalid(
      obsOf('model.response.after', { usage: { ...usage, kind: 'total' } }),
      'ahp/overlay',
      '/params/event/usage/kind',
    );
    invalid(obsOf('turn.end', { usage }), 'ahp/overlay', '/params/event/usage/kind');
    invalid(
      obsOf('model.error', { usage: { ...usage, outputTokens: -1 } }),
      'ahp/overlay',
      '/params/event/usage/outputTokens',
    );
    invalid(
      obsOf('model.response.after', { usage: { ...usage, cost: { amount: 1, currency: 'USD', basis: 'guess' } } }),
      'ahp/overlay',
      '/params/event/usage/cost/basis',
    );
    const supplied = { execution: { status: 'skipped', reason: 'supplied_result' } };
    valid(obsOf('model.response.after', supplied));
    invalid(obsOf('model.response.after', { ...supplied, usage }), 'ahp/overlay', '/params/event');
    invalid(obsOf('model.response.after', { ...supplied, latencyMs: 3 }), 'ahp/overlay', '/params/event');
    invalid(
      obsOf('model.response.after', { execution: { status: 'skipped', reason: 'policy' } }),
      'ahp/overlay',
      '/params/event/execution/reason',
    );
    invalid(
      obsOf('task.change.before', { task: { id: 't', operation: 'delete', change: {} } }),
      'ahp/overlay',
      '/params/event/task/operation',
    );
    invalid(
      obsOf('task.change.before', { task: { id: 't', operation: 'create', change: {}, owner: 'x' } }),
      'ahp/overlay',
      '/params/event/task/owner',
    );
    valid(obsOf('task.change.before', { task: { id: 't', operation: 'remove', change: {} } }));
    invalid(
      obsOf('workspace.change.before', { workspace: { kind: 'cwd', change: {} } }),
      'ahp/overlay',
      '/params/event/workspace/change',
    );
    invalid(obsOf('file.changed', { changes: [] }), 'ahp/overlay', '/params/event/changes');
    invalid(
      obsOf('tool.batch.after', { batch: { id: 'b', callIds: ['c', 'c'] } }),
      'ahp/overlay',
      '/params/event/batch/callIds',
    );
  });
});

describe('content parts and canonical messages', () => {
  const part = (p: object) => obsOf('task.change.after', { items: [p] });
  const base = { id: 'i1', category: 'tool_result' };
  const sha = 'a'.repeat(64);
  test('the eight variants', () => {
    valid(part({ ...base, kind: 'text', mediaType: 'text/plain', selection: 'body', text: 'hi', synthesized: true }));
    valid(
      part({
        ...base,
        kind: 'text',
        mediaType: 'text/plain',
        selection: 'body',
        gap: { reason: 'unavailable', path: 'x' },
        size: 3,
        sha256: sha,
      }),
    );
    valid(part({ ...base, kind: 'text', mediaType: 'text/plain', selection: 'metadata', size: 0, sha256: sha }));
    valid(part({ ...base, kind: 'text', mediaType: 'text/plain', selection: 'omit' })); // text-omit (absent upstream case)
    valid(
      part({ ...base, kind: 'attachment', mediaType: 'image/svg+xml', selection: 'body', body: { ref: 'upload-1' } }),
    );
    valid(
      part({
        ...base,
        kind: 'attachment',
        mediaType: 'application/pdf',
        selection: 'body',
        gap: { reason: 'too large' },
      }),
    );
    valid(part({ ...base, kind: 'attachment', mediaType: 'audio/ogg', selection: 'metadata', size: 10 }));
    valid(part({ ...base, kind: 'attachment', mediaType: 'video/mp4', selection: 'omit', sha256: sha }));
  });
  test('text parts are inline text/plain text', () => {
    invalid(
      part({ ...base, kind: 'text', mediaType: 'text/plain', selection: 'body', body: { ref: 'r' } }),
      'ahp/content-part',
      '/params/event/items/0',
    ); // text-as-ref (absent)
    invalid(
      part({ ...base, kind: 'text', mediaType: 'text/markdown', selection: 'body', text: 'x' }),
      'ahp/content-part',
      '/params/event/items/0/mediaType',
    );
    invalid(
      part({ ...base, kind: 'text', mediaType: 'text/plain', selection: 'body', text: 'x', size: 1 }),
      'ahp/content-part',
      '/params/event/items/0/size',
    );
    invalid(
      part({ ...base, kind: 'reasoning', mediaType: 'text/plain', selection: 'body', text: 'x' }),
      'ahp/content-part',
      '/params/event/items/0/kind',
    );
  });
  test('metadata, omit and gap views carry neither text nor body', () => {
    invalid(
      part({ ...base, kind: 'text', mediaType: 'text/plain', selection: 'omit', text: 'leak' }),
      'ahp/content-part',
      '/params/event/items/0/text',
    ); // omit-text-leak (absent)
    invalid(
      part({ ...base, kind: 'attachment', mediaType: 'image/png', selection: 'omit', body: { ref: 'r' } }),
      'ahp/content-part',
      '/params/event/items/0/body',
    );
    invalid(
      part({
        ...base,
        kind: 'attachment',
        mediaType: 'image/png',
        selection: 'body',
        gap: { reason: 'x' },
        body: { ref: 'r' },
      }),
      'ahp/content-part',
      '/params/event/items/0/body',
    );
    invalid(
      part({ ...base, kind: 'text', mediaType: 'text/plain', selection: 'body', gap: {} }),
      'ahp/content-part',
      '/params/event/items/0/gap',
    );
    invalid(
      part({ ...base, kind: 'text', mediaType: 'text/plain', selection: 'metadata', sha256: sha.toUpperCase() }),
      'ahp/content-part',
      '/params/event/items/0/sha256',
    );
    invalid(
      part({ ...base, kind: 'text', mediaType: 'text/plain', selection: 'metadata', size: -1 }),
      'ahp/content-part',
      '/params/event/items/0/size',
    );
    invalid(
      part({ ...base, kind: 'text', mediaType: 'text/plain', selection: 'full' }),
      'ahp/content-part',
      '/params/event/items/0/selection',
    );
  });
  test('attachments are never text or JSON media and carry only {ref}', () => {
    for (const mt of [
      'application/ld+json',
      'application/json; charset=utf-8',
      'TEXT/html',
      'Application/JSON',
      'text/csv',
    ]) {
      invalid(
        part({ ...base, kind: 'attachment', mediaType: mt, selection: 'body', body: { ref: 'r' } }),
        'ahp/content-part',
        '/params/event/items/0/mediaType',
      ); // attachment-json-suffix (absent)
    }
    invalid(
      part({ ...base, kind: 'attachment', mediaType: 'image/png', selection: 'body', body: { ref: '' } }),
      'ahp/content-part',
      '/params/event/items/0/body/ref',
    );
  });
  test('role belongs to the message', () => {
    invalid(
      obsOf('turn.start', { items: [{ id: 'm', role: 1, parts: [] }] }),
      'ahp/canonical-message',
      '/params/event/items/0/role',
    ); // message-role-wrong-type (absent)
    invalid(
      obsOf('model.request.before', { items: [{ id: 'm', parts: [text('x')] }] }),
      'ahp/canonical-message',
      '/params/event/items/0',
    ); // model-child-role-missing (absent)
    invalid(
      obsOf('turn.start', { items: [{ ...msg('user'), parentItemId: 'x' }] }),
      'ahp/canonical-message',
      '/params/event/items/0/parentItemId',
    );
    invalid(
      obsOf('turn.start', { items: [{ ...msg('user'), synthesized: 'yes' }] }),
      'ahp/canonical-message',
      '/params/event/items/0/synthesized',
    );
    invalid(obsOf('turn.progress', { delta: text('x') }), 'ahp/canonical-message', '/params/event/delta');
    // generic slots hold bare parts, not messages
    invalid(obsOf('file.changed', { items: [msg('user')] }), 'ahp/content-part', '/params/event/items/0');
  });
});

describe('effects', () => {
  const ok = (...effects: unknown[]) => valid(response(effects));
  const bad = (effect: unknown, pointer: string) => invalid(response([effect]), 'ahp/effect', pointer);
  const messages = [msg('assistant')];
  test('every effect type', () => {
    ok(
      { type: 'deny', reason: 'no', code: 'com.example.no', extensions: { 'com.example': {} } },
      { type: 'allow' },
      { type: 'ask' },
    );
    ok({ type: 'message', text: '' }, { type: 'return', value: null }, { type: 'return', value: [text('summary')] }); // return-summary-parts (absent)
    ok(
      { type: 'flow', operation: 'stop', reason: 'done' },
      { type: 'flow', operation: 'continue' },
      { type: 'flow', operation: 'continue', instruction: 'go on' },
    );
    ok({ type: 'inject', target: 'context', operation: 'append', deliverAt: 'now', value: messages });
    ok(
      { type: 'modify', target: 'input', operation: 'merge', value: { a: null } },
      { type: 'modify', target: 'workspace', operation: 'replace', value: {} },
    );
    ok({ type: 'modify', target: 'instructions', operation: 'merge', value: [text('more')] }); // modify-instructions-merge (absent)
    ok({ type: 'modify', target: 'summary', operation: 'replace', value: [] });
    ok(
      { type: 'modify', target: 'content', operation: 'merge', value: { notify: false } },
      { type: 'modify', target: 'content', operation: 'replace', value: messages },
    );
    ok({ type: 'modify', target: 'response', operation: 'replace', value: messages });
  });
  test('a missing member names the effect or outcome that requires it', () => {
    const said = (m: unknown, pointer: string) =>
      validate(m)
        .filter((f) => f.pointer === pointer)
        .map((f) => f.message);
    assert.deepEqual(said(response([{ type: 'deny' }]), '/result/effects/0'), [
      '`reason` is required in a "deny" effect.',
    ]);
    assert.deepEqual(said(response([{ type: 'flow', operation: 'stop' }]), '/result/effects/0'), [
      '`reason` is required in a "flow" effect.',
    ]);
    assert.ok(
      said(
        obsOf('tool.after', { outcome: 'denied', execution: { status: 'skipped' } }),
        '/params/event/execution',
      ).includes(
        'A `denied` outcome requires execution `status` "skipped" and `reason` "policy" (execution-payloads.md: denial uses skipped/policy).',
      ),
    );
  });
  test('closed variants and unknown types', () => {
    bad({ type: 'flow', operation: 'stop' }, '/result/effects/0'); // stop-no-reason (absent)
    bad(
      { type: 'inject', target: 'context', operation: 'replace', deliverAt: 'now', value: [] },
      '/result/effects/0/operation',
    ); // inject-wrong-operation (absent)
    bad({ type: 'modify', target: 'input', operation: 'merge', value: {}, path: '/a' }, '/result/effects/0/path'); // modify-invalid-path (absent)
    bad({ type: 'deny', reason: '' }, '/result/effects/0/reason');
    bad({ type: 'deny', reason: 'x', code: 'force_push' }, '/result/effects/0/code');
    bad({ type: 'allow', reason: 'x' }, '/result/effects/0/reason');
    bad({ type: 'message', text: 1 }, '/result/effects/0/text');
    bad({ type: 'flow', operation: 'pause' }, '/result/effects/0/operation');
    // an unknown core-looking type; a reverse-DNS experimental effect (`com.example.audit`) is valid here and judged by
    // its advertisement (base/capabilities.md; ahp/effect-not-advertised)
    bad({ type: 'audit' }, '/result/effects/0/type');
    bad({ type: 'modify', target: 'content', operation: 'append', value: {} }, '/result/effects/0/operation');
    bad({ type: 'modify', target: 'content', operation: 'merge', value: 'text' }, '/result/effects/0/value');
    bad({ type: 'modify', target: 'input', operation: 'merge', value: [] }, '/result/effects/0/value');
    const asParts = invalid(
      response([{ type: 'modify', target: 'summary', operation: 'merge', value: messages }]),
      'ahp/content-part',
      '/result/effects/0/value/0',
    );
    assert.ok(
      asParts.some((i) => /not a canonical message/.test(i.message)),
      show(asParts),
    );
    bad(
      { type: 'inject', target: 'context', operation: 'append', deliverAt: 'later', value: [] },
      '/result/effects/0/deliverAt',
    );
  });
  test('one unknown effect invalidates the whole response', () => {
    const issues = invalid(
      response([{ type: 'deny', reason: 'ok' }, { type: 'unknown' }]),
      'ahp/effect',
      '/result/effects/1/type',
    );
    assert.equal(issues.length, 1);
  });
});

describe('capabilities and manifests', () => {
  const caps = (type: string, c: object) => intercept(event(type), c as Record<string, unknown>);
  test('valid advertisements', () => {
    valid(
      caps('tool.before', {
        effects: ['deny', 'allow', 'ask', 'modify', 'flow', 'return', 'message', 'inject', 'com.example.audit'],
        modify: { input: { replace: true, merge: false } },
        flow: { operations: ['stop'] },
        inject: { context: { append: true, deliverAt: ['now', 'next_turn'] } },
      }),
    );
    valid(
      caps('turn.finish.before', {
        effects: ['flow'],
        flow: {
          operations: ['stop', 'continue'],
          remainingContinuations: 2,
          continuationCount: 0,
          maxContinuations: 2,
        },
      }),
    );
    valid(caps('user.elicitation.request', { effects: ['deny', 'return', 'message'], elicitation: {} }));
    valid(
      caps('user.elicitation.result', {
        effects: ['modify'],
        modify: { content: { replace: false, merge: true } },
        elicitation: { form: {}, url: {} },
      }),
    );
  });
  test('modify targets need replace or merge, and option blocks pair with their effect', () => {
    invalid(
      caps('user.message.inbound', { effects: ['modify'], modify: { prompt: { replace: false, merge: false } } }),
      'ahp/capabilities',
      '/params/capabilities/modify/prompt',
    );
    invalid(
      caps('user.message.inbound', { effects: ['modify'], modify: {} }),
      'ahp/capabilities',
      '/params/capabilities/modify',
    );
    invalid(caps('user.message.inbound', { effects: ['modify'] }), 'ahp/capabilities', '/params/capabilities');
    invalid(
      caps('user.message.inbound', { effects: ['deny'], modify: { prompt: { replace: true, merge: true } } }),
      'ahp/capabilities',
      '/params/capabilities/effects',
    );
    invalid(
      caps('turn.finish.before', { effects: ['flow'], flow: { operations: ['continue'] } }),
      'ahp/capabilities',
      '/params/capabilities/flow',
    );
    invalid(
      caps('tool.before', { effects: ['inject'], inject: { context: { append: false, deliverAt: [] } } }),
      'ahp/capabilities',
    );
    invalid(caps('tool.before', { effects: ['deny', 'deny'] }), 'ahp/capabilities', '/params/capabilities/effects');
    invalid(caps('tool.before', { effects: ['veto'] }), 'ahp/capabilities', '/params/capabilities/effects/0');
    invalid(
      caps('user.elicitation.request', { effects: [], elicitation: { form: true } }),
      'ahp/capabilities',
      '/params/capabilities/elicitation/form',
    );
  });
  test('event-semantic bounds', () => {
    invalid(
      caps('user.elicitation.request', { effects: ['modify'], modify: { request: { replace: true, merge: false } } }),
      'ahp/capabilities',
      '/params/capabilities/effects/0',
    );
    invalid(
      caps('user.elicitation.result', { effects: ['modify'], modify: { result: { replace: true, merge: false } } }),
      'ahp/capabilities',
      '/params/capabilities/modify/result',
    );
    invalid(
      caps('config.change.before', { effects: ['return'] }),
      'ahp/capabilities',
      '/params/capabilities/effects/0',
    );
    invalid(caps('tool.after', { effects: ['return'] }), 'ahp/capabilities', '/params/capabilities/effects/0');
  });
  test('manifest rules', () => {
    valid(capabilitiesResponse());
    const m = (edit: (x: Record<string, unknown>) => void) => {
      const x = minimalManifest();
      edit(x);
      return capabilitiesResponse(x);
    };
    invalid(
      m((x) => (x.events = [{ event: 'turn.end', modes: ['intercept'], capabilities: { effects: [] } }])),
      'ahp/capabilities',
      '/result/manifest/events/0/modes',
    );
    invalid(
      m((x) => (x.events = [{ event: 'tool.after', modes: ['observe'], capabilities: { effects: ['deny'] } }])),
      'ahp/capabilities',
      '/result/manifest/events/0/capabilities/effects',
    );
    invalid(
      m((x) => (x.events = [{ event: 'tool.before', modes: ['intercept'] }])),
      'ahp/capabilities',
      '/result/manifest/events/0',
    );
    invalid(
      m((x) => (x.events = [{ event: 'tool.before', modes: [] }])),
      'ahp/capabilities',
      '/result/manifest/events/0/modes',
    );
    invalid(
      m((x) => (x.identity = { principal: 'x' })),
      'ahp/capabilities',
      '/result/manifest/identity',
    );
    invalid(
      m((x) => (x.managedPolicy = { scopes: ['managed'], disableable: true })),
      'ahp/capabilities',
      '/result/manifest/managedPolicy/disableable',
    );
    invalid(
      m((x) => (x.transports = ['grpc'])),
      'ahp/capabilities',
      '/result/manifest/transports/0',
    );
    invalid(
      m((x) => (x.authentication = ['mtls'])),
      'ahp/capabilities',
      '/result/manifest/authentication/0',
    );
    invalid(
      m((x) => delete x.limits),
      'ahp/capabilities',
      '/result/manifest',
    );
    invalid(
      m((x) => (x.limits = { maxUploadBytes: -1 })),
      'ahp/capabilities',
      '/result/manifest/limits/maxUploadBytes',
    );
  });
});

describe('registration', () => {
  const R = { root: 'registration' };
  // biome-ignore lint/suspicious/noExplicitAny: the cases edit a registration document at any depth
  const edit = (f: (d: any) => void) => {
    const d = registration();
    f(d);
    return d;
  };
  test('portable registration and wildcards', () => {
    valid(registration(), R);
    valid(
      edit((d) => (d.hooks[0].subscriptions[0].events = ['*'])),
      R,
    );
    valid(
      edit((d) => (d.hooks[1].subscriptions[0].events = ['model.*', 'user.attention'])),
      R,
    ); // model-family-selection (absent)
    valid(
      edit(
        (d) =>
          (d.hooks[0].subscriptions[0].upload = {
            endpoint: 'http://127.0.0.1:8080/bytes',
            timeoutMs: 500,
            maxBytes: 0,
            auth: { type: 'bearer', tokenRef: 'secrets/upload' },
          }),
      ),
      R,
    );
    valid(
      edit(
        (d) =>
          (d.hooks[0].authentication = {
            type: 'oauth',
            issuer: 'https://id.example',
            resource: 'https://policy.example.com',
            clientId: 'c',
            flow: 'client_credentials',
            clientSecretRef: 'secrets/c',
          }),
      ),
      R,
    );
    valid(
      edit((d) => (d.hooks[0].futureField = { x: 1 })),
      R,
    );
  });
  test('schema rules', () => {
    invalid(
      edit((d) => (d.hooks[0].subscriptions[0].events = ['tool.be*'])),
      'ahp/registration',
      '/hooks/0/subscriptions/0/events/0',
      R,
    );
    invalid(
      edit((d) => (d.hooks[0].subscriptions[0].events = [])),
      'ahp/registration',
      '/hooks/0/subscriptions/0/events',
      R,
    );
    invalid(
      edit((d) => (d.hooks[0].subscriptions[0].events = ['hook.failure'])),
      'ahp/registration',
      '/hooks/0/subscriptions/0/events/0',
      R,
    );
    invalid(
      edit((d) => delete d.hooks[0].subscriptions[0].failurePolicy),
      'ahp/registration',
      '/hooks/0/subscriptions/0',
      R,
    );
    invalid(
      edit((d) => (d.hooks[0].subscriptions[0].timeoutMs = 0)),
      'ahp/registration',
      '/hooks/0/subscriptions/0/timeoutMs',
      R,
    );
    invalid(
      edit((d) => (d.hooks[1].subscriptions[0].failurePolicy = 'fail-open')),
      'ahp/registration',
      '/hooks/1/subscriptions/0/failurePolicy',
      R,
    );
    invalid(
      edit((d) => (d.hooks[0].id = 'policy')),
      'ahp/registration',
      '/hooks/0/id',
      R,
    );
    invalid(
      edit((d) => delete d.hooks[1].transport.lifecycle),
      'ahp/registration',
      '/hooks/1/transport',
      R,
    );
    invalid(
      edit((d) => (d.hooks[0].transport = { type: 'http', url: 'ftp://policy.example.com' })),
      'ahp/registration',
      '/hooks/0/transport/url',
      R,
    );
    invalid(
      edit(
        (d) =>
          (d.hooks[0].authentication = { type: 'mtls', certificateRef: 'a', privateKeyRef: 'b', trustRootsRef: 'c' }),
      ),
      'ahp/registration',
      '/hooks/0/authentication/type',
      R,
    );
    invalid(
      edit((d) => (d.hooks[0].authentication = { type: 'bearer', tokenEnv: 'A', tokenRef: 'b' })),
      'ahp/registration',
      '/hooks/0/authentication',
      R,
    );
    invalid(
      edit(
        (d) =>
          (d.hooks[0].authentication = {
            type: 'oauth',
            issuer: 'http://id.example',
            resource: 'https://r',
            clientId: 'c',
            flow: 'f',
          }),
      ),
      'ahp/registration',
      '/hooks/0/authentication/issuer',
      R,
    );
    invalid(
      edit(
        (d) =>
          (d.hooks[0].subscriptions[0].upload = {
            endpoint: 'http://uploads.example/bytes',
            timeoutMs: 1,
            maxBytes: 1,
          }),
      ),
      'ahp/endpoint-insecure',
      '/hooks/0/subscriptions/0/upload/endpoint',
      R,
    );
    invalid(
      edit((d) => (d.protocolVersion = '2026-08-27')),
      'ahp/protocol-version',
      '/protocolVersion',
      R,
    );
    invalid(
      edit((d) => (d.hooks[0].subscriptions[0].content = { default: 'full' })),
      'ahp/content-selection',
      '/hooks/0/subscriptions/0/content/default',
      R,
    );
    invalid(
      edit((d) => (d.hooks[1].subscriptions[0].content = { default: 'body', images: 'upload' })),
      'ahp/content-selection',
      '/hooks/1/subscriptions/0/content/images',
      R,
    );
  });
  test('literal-token (absent upstream case): credentials are references, never literal values', () => {
    invalid(
      edit((d) => (d.hooks[0].authentication = { type: 'bearer', tokenEnv: 'AHP_TOKEN', token: 'abc123' })),
      'ahp/registration-literal-secret',
      '/hooks/0/authentication/token',
      R,
    );
    invalid(
      edit((d) => (d.hooks[0].authentication = { type: 'bearer', token: 'abc123' })),
      ['ahp/registration', 'ahp/registration-literal-secret'],
      '/hooks/0/authentication/token',
      R,
    );
    invalid(
      edit(
        (d) =>
          (d.hooks[0].subscriptions[0].upload = {
            endpoint: 'https://u.example',
            timeoutMs: 1,
            maxBytes: 1,
            auth: {
              type: 'oauth',
              issuer: 'https://i',
              resource: 'https://r',
              clientId: 'c',
              flow: 'f',
              client_secret: 's',
            },
          }),
      ),
      'ahp/registration-literal-secret',
      '/hooks/0/subscriptions/0/upload/auth/client_secret',
      R,
    );
  });
  test('backend ids are unique', () => {
    invalid(
      edit((d) => (d.hooks[1].id = d.hooks[0].id)),
      'ahp/registration-duplicate-id',
      '/hooks/1/id',
      R,
    );
  });
});

describe('MCP elicitation binding', () => {
  const reqEvent = (t: string | object, mode = 'form') =>
    obsOf('user.elicitation.request', {
      elicitation: { server: 'mcp:x', mode, request: typeof t === 'string' ? text(t) : t },
    });
  const resEvent = (t: string, action = 'accept', mode = 'form') =>
    obsOf('user.elicitation.result', { elicitation: { server: 'mcp:x', mode, action, result: text(t) } });
  const form = (props: object, extra: object = {}) =>
    JSON.stringify({ message: 'm', requestedSchema: { type: 'object', properties: props, ...extra } });
  const P = '/params/event/elicitation/request/text';
  const inner = (issues: Finding[]) => issues.map((i) => i.args?.innerPointer as string | undefined);
  test('published field shapes are accepted, with and without mode', () => {
    const fields = {
      s: { type: 'string', title: 'S', description: 'd', minLength: 1, maxLength: 1.5, format: 'email', default: 'a' },
      n: { type: 'integer', minimum: 0, maximum: 10, default: 3 },
      b: { type: 'boolean', default: false },
      u: { type: 'string', enum: ['a', 'b'], default: 'a' },
      t: { type: 'string', oneOf: [{ const: 'a', title: 'A' }] },
      l: { type: 'string', enum: ['a'], enumNames: ['A'] },
      um: { type: 'array', items: { type: 'string', enum: ['a', 'b'] }, minItems: 1, maxItems: 2, default: ['a'] },
      tm: { type: 'array', items: { anyOf: [{ const: 'a', title: 'A' }] } },
    };
    valid(reqEvent(form(fields, { required: ['s'], $schema: 'https://json-schema.org/draft/2020-12/schema' })));
    valid(
      reqEvent(
        JSON.stringify({
          mode: 'form',
          message: 'm',
          requestedSchema: { type: 'object', properties: {} },
          _meta: { progressToken: 3, 'vendor/x': 1 },
          task: { ttl: 1.5 },
          vendorField: true,
        }),
      ),
    );
    valid(
      reqEvent(
        JSON.stringify({
          mode: 'url',
          message: 'Sign in',
          url: 'https://auth.example/flow?id=1',
          elicitationId: 'e-1',
        }),
        'url',
      ),
    );
  });
  test('the subset is closed and typed', () => {
    let issues = invalid(reqEvent(form({ a: { type: 'string', pattern: '^x' } })), 'ahp/elicitation-body', P);
    assert.deepEqual(inner(issues), ['/requestedSchema/properties/a/pattern']);
    assert.deepEqual(
      [issues[0]!.args?.partPointer, issues[0]!.args?.innerPointer],
      ['/params/event/elicitation/request', '/requestedSchema/properties/a/pattern'],
    );
    issues = invalid(reqEvent(form({ a: { type: 'string', format: 'password' } })), 'ahp/elicitation-body', P);
    assert.deepEqual(inner(issues), ['/requestedSchema/properties/a/format']);
    issues = invalid(reqEvent(form({ a: { type: 'string', enum: [1] } })), 'ahp/elicitation-body', P);
    assert.deepEqual(inner(issues), ['/requestedSchema/properties/a/enum/0']);
    issues = invalid(reqEvent(form({ a: { type: 'object' } })), 'ahp/elicitation-body', P);
    assert.deepEqual(inner(issues), ['/requestedSchema/properties/a']);
    issues = invalid(reqEvent(form({ a: { type: 'array', items: { type: 'number' } } })), 'ahp/elicitation-body', P);
    assert.ok(
      inner(issues).every((p) => p!.startsWith('/requestedSchema/properties/a/items')),
      show(issues),
    );
    issues = invalid(reqEvent(form({}, { additionalProperties: false })), 'ahp/elicitation-body', P);
    assert.deepEqual(inner(issues), ['/requestedSchema/additionalProperties']);
    issues = invalid(
      reqEvent(JSON.stringify({ requestedSchema: { type: 'object', properties: {} } })),
      'ahp/elicitation-body',
      P,
    );
    assert.deepEqual(inner(issues), ['']);
    invalid(reqEvent(JSON.stringify({ message: 'm', requestedSchema: true })), 'ahp/elicitation-body', P);
  });
  test('URL requests need mode, message, url and elicitationId', () => {
    const issues = invalid(
      reqEvent(JSON.stringify({ mode: 'url', message: 'm', url: 'not a url' }), 'url'),
      'ahp/elicitation-body',
      P,
    );
    assert.deepEqual(inner(issues).sort(), ['', '/url']);
    invalid(
      reqEvent(JSON.stringify({ mode: 'FORM', message: 'm', requestedSchema: { type: 'object', properties: {} } })),
      'ahp/elicitation-body',
      P,
    );
  });
  test('the text is JSON without duplicate keys', () => {
    let issues = invalid(
      reqEvent('{"message":"m","message":"n","requestedSchema":{"type":"object","properties":{}}}'),
      'ahp/elicitation-body',
      P,
    );
    assert.deepEqual(inner(issues), ['/message']);
    issues = invalid(reqEvent('{"message": "m", "requestedSchema": '), 'ahp/elicitation-body', P);
    assert.match(issues[0]!.message, /syntax error at character \d+/);
    invalid(
      reqEvent(
        '{"message":"m","requestedSchema":{"type":"object","properties":{"a":{"type":"number","default":NaN}}}}',
      ),
      'ahp/elicitation-body',
      P,
    );
  });
  test('metadata, omit and gap views are never parsed', () => {
    valid(reqEvent({ id: 'p', kind: 'text', mediaType: 'text/plain', selection: 'metadata', size: 12 }));
    valid(reqEvent({ id: 'p', kind: 'text', mediaType: 'text/plain', selection: 'omit' }));
    valid(reqEvent({ id: 'p', kind: 'text', mediaType: 'text/plain', selection: 'body', gap: { reason: 'denied' } }));
    valid(obsOf('user.elicitation.request', { elicitation: { server: 's', mode: 'url' } }));
  });
  test('an inline MCP object is not a text part', () => {
    invalid(reqEvent({ message: 'm', requestedSchema: {} }), 'ahp/content-part', '/params/event/elicitation/request');
  });
  test('envelope mode equals the parsed mode (absent = form)', () => {
    let issues = invalid(reqEvent(form({}), 'url'), 'ahp/elicitation-mode-mismatch', '/params/event/elicitation/mode');
    assert.deepEqual(inner(issues), ['']);
    issues = invalid(
      reqEvent(JSON.stringify({ mode: 'url', message: 'm', url: 'https://x.example', elicitationId: 'e' })),
      'ahp/elicitation-mode-mismatch',
      '/params/event/elicitation/mode',
    );
    assert.deepEqual(inner(issues), ['/mode']);
  });
  test('results: action agreement and content only for accepted forms', () => {
    const R = '/params/event/elicitation/result/text';
    valid(
      resEvent(
        JSON.stringify({ action: 'accept', content: { a: 'x', b: 1.5, c: false, d: ['x'] }, _meta: {}, vendor: 1 }),
      ),
    );
    valid(resEvent(JSON.stringify({ action: 'accept' }), 'accept', 'url'));
    valid(resEvent(JSON.stringify({ action: 'decline' }), 'decline'));
    valid(resEvent(JSON.stringify({ action: 'cancel' }), 'cancel', 'url'));
    invalid(
      resEvent(JSON.stringify({ action: 'accept' }), 'decline'),
      'ahp/elicitation-action-mismatch',
      '/params/event/elicitation/action',
    );
    invalid(
      resEvent(JSON.stringify({ action: 'decline', content: { a: 'x' } }), 'decline'),
      'ahp/elicitation-content',
      R,
    );
    invalid(resEvent(JSON.stringify({ action: 'accept', content: {} }), 'accept', 'url'), 'ahp/elicitation-content', R);
    let issues = invalid(
      resEvent(JSON.stringify({ action: 'accept', content: { a: null, b: { c: 1 }, d: [1] } })),
      'ahp/elicitation-body',
      R,
    );
    assert.deepEqual(inner(issues), ['/content/a', '/content/b', '/content/d']);
    issues = invalid(resEvent(JSON.stringify({ action: 'submitted' })), 'ahp/elicitation-body', R);
    assert.deepEqual(inner(issues), ['/action']);
    issues = invalid(resEvent(JSON.stringify({ action: 'accept', content: [] })), 'ahp/elicitation-body', R);
    assert.deepEqual(inner(issues), ['/content']);
    invalid(resEvent('[]'), 'ahp/elicitation-body', R);
  });
  test('checks run for intercepted elicitation events and for event roots', () => {
    const ev = event('user.elicitation.request', {
      elicitation: { server: 's', mode: 'url', request: text(form({})) },
    });
    invalid(intercept(ev, { effects: [] }), 'ahp/elicitation-mode-mismatch', '/params/event/elicitation/mode');
    invalid(ev, 'ahp/elicitation-mode-mismatch', '/elicitation/mode', {
      root: 'catalogue-event.schema.json#/$defs/user.elicitation.request',
    });
  });
  test('a schema-invalid elicitation payload is not parsed', () => {
    const issues = invalid(
      obsOf('user.elicitation.request', {
        elicitation: { server: 's', mode: 'form', request: text('not json'), extra: 1 },
      }),
      'ahp/overlay',
    );
    assert.equal(issues.length, 1);
  });
});

describe('roots', () => {
  test('upstream manifest schema paths map to our roots', () => {
    const deny = response([
      { type: 'deny', reason: 'a' },
      { type: 'deny', reason: 'b' },
    ]);
    invalid(deny, 'ahp/method-result', '/result/effects', { root: 'schema/draft/intercept-deny-response.schema.json' }); // deny-response-multiple (absent)
    valid(deny, { root: 'schema/draft/schema.json' });
    invalid(response([{ type: 'allow' }]), 'ahp/method-result', '/result/effects/0/type', {
      root: 'schema/draft/intercept-deny-response.schema.json',
    });
    invalid(response([{ type: 'allow' }]), 'ahp/method-result', '/result/effects', {
      root: 'schema/draft/intercept-no-effect-response.schema.json',
    });
    valid(response([]), { root: 'schema/draft/intercept-no-effect-response.schema.json' });
    valid(intercept(event('tool.before')), { root: 'schema/draft/intercept-request.schema.json' });
    valid(
      { jsonrpc: '2.0', id: 'e', error: { code: -32002, message: 'unsupported_event' } },
      { root: 'schema/draft/json-rpc-message.schema.json' },
    );
    valid(event('tool.after'), { root: 'schema/draft/tool-after.schema.json' });
    valid(event('session.start'), { root: 'session-start' });
    invalid(event('tool.before'), 'ahp/overlay', '', { root: 'schema/draft/tool-after.schema.json' });
    valid(event('turn.end'), { root: 'schema/draft/event.schema.json' });
    invalid(obsOf('turn.start'), ['ahp/method', 'ahp/jsonrpc', 'ahp/capabilities'], '/method', {
      root: 'schema/draft/intercept-request.schema.json',
    });
    valid(obsOf('tool.before'), {
      root: 'schema/draft/observe-notification.schema.json',
      eventSchema: 'schema/draft/tool-before.schema.json',
    });
    invalid(obsOf('tool.before'), 'ahp/overlay', '/params/event/type', {
      root: 'schema/draft/observe-notification.schema.json',
      eventSchema: 'schema/draft/tool-after.schema.json',
    });
  });
  test('unknown roots are a programming error', () => {
    assert.throws(() => rawValidate({}, { root: 'schema/draft/nothing.schema.json' }), /unknown AHP validation root/);
    assert.throws(
      () => rawValidate({}, { root: 'message', eventSchema: 'intercept-request' }),
      /does not name an event schema/,
    );
  });
});

describe("stdio framing (through ahp validate's pipeline)", () => {
  const line = JSON.stringify(response([]));
  const at = (fs: Finding[]) => fs.map((i) => [i.line, i.ruleId]);
  test('one object per LF-terminated line', async () => {
    assert.deepEqual(await stdio(`${line}\n${line}\n`), []);
    assert.deepEqual(at(await stdio(`${line}\r\n`)), [[1, 'jsonl/carriage-return']]);
    assert.deepEqual(at(await stdio(`${line}\n\n${line}\n`)), [[2, 'jsonl/blank-line']]);
    assert.deepEqual(at(await stdio(line)), [[1, 'jsonl/no-final-newline']]);
    assert.deepEqual(
      (await stdio('')).map((i) => i.ruleId),
      ['jsonl/empty-input'],
    );
    const pretty = await stdio(JSON.stringify(response([]), null, 2) + '\n');
    // a pretty-printed message is one finding naming the binding that reads it (issue 26 item 3), not one per line
    assert.ok(
      pretty.length === 1 && pretty[0]!.ruleId === 'jsonl/invalid-json' && /--binding http/.test(pretty[0]!.message),
      show(pretty),
    );
    assert.deepEqual(
      (
        await stdio('{"jsonrpc":"2.0","jsonrpc":"2.0","id":"e","result":{"protocolVersion":"draft","effects":[]}}\n')
      ).map((i) => [i.ruleId, i.pointer]),
      [['json/duplicate-key', '/jsonrpc']],
    );
    assert.deepEqual(at(await stdio(`${line}\n[1]\n`)), [[2, 'jsonl/not-object']]);
  });
});

describe('messages never echo content values', () => {
  const MARK = 'S3CR3T-do-not-echo';
  test('invalid values are described by type and length only', () => {
    const values: unknown[] = [
      obsOf('turn.start', { time: MARK, source: MARK, id: 7 }),
      obsOf('turn.start', {
        items: [
          { id: 'm', role: MARK, parts: [{ id: 'p', kind: MARK, mediaType: MARK, selection: MARK, text: MARK }] },
        ],
      }),
      obsOf('user.elicitation.result', {
        elicitation: {
          server: 's',
          mode: 'form',
          action: 'decline',
          result: text(JSON.stringify({ action: 'accept', content: { a: MARK, b: { c: MARK } } })),
        },
      }),
      obsOf('user.elicitation.request', {
        elicitation: { server: 's', mode: 'form', request: text(`{"message":"${MARK}",`) },
      }),
      { jsonrpc: '2.0', id: MARK, method: MARK, params: {} },
      { ...intercept(event('tool.before')), id: MARK },
      response([{ type: MARK }, { type: 'modify', target: MARK, operation: MARK, value: MARK }]),
      {
        protocolVersion: 'draft',
        hooks: [
          {
            id: MARK,
            transport: { type: 'http', url: MARK },
            authentication: { type: 'bearer', tokenEnv: 'X', token: MARK },
            subscriptions: [{ events: [MARK], mode: 'observe', content: { default: MARK } }],
          },
        ],
      },
    ];
    for (const v of values) {
      const root = isRegistration(v) ? 'registration' : 'message';
      const issues = validate(v, { root });
      assert.ok(issues.length > 0);
      for (const i of issues) assert.ok(!i.message.includes(MARK), `echoed a value: ${i.message}`);
    }
  });
  function isRegistration(v: unknown): boolean {
    return typeof v === 'object' && v !== null && 'hooks' in v;
  }
});

describe('sensitive elicitation and no-op changes', () => {
  const req = (mcp: unknown, mode: string) =>
    obsOf('user.elicitation.request', { elicitation: { server: 'mcp:x', mode, request: text(JSON.stringify(mcp)) } });
  // `severity`: the rule's own; an error rule's findings make the message invalid
  const warned = (value: unknown, rule: string, count: number, severity = 'warning') => {
    const issues = validate(value);
    if (severity === 'warning' || count === 0) assert.ok(isAhpValid(issues), show(issues));
    assert.deepEqual(
      issues.map((i) => [i.ruleId, i.severity]),
      Array.from({ length: count }, () => [rule, severity]),
      show(issues),
    );
  };
  // a credential the detector sees is an error in every AHP rule that reads it (issue 43: one string, one answer)
  const exposed = (value: unknown, count: number) => {
    const issues = validate(value);
    assert.deepEqual(
      issues.map((i) => [i.ruleId, i.severity]),
      Array.from({ length: count }, () => ['ahp/credential-exposed', 'error']),
      show(issues),
    );
  };
  test('a form asking for a credential, a URL carrying one', () => {
    const form = (properties: unknown) =>
      req({ message: 'm', requestedSchema: { type: 'object', properties } }, 'form');
    warned(
      form({
        password: { type: 'string' },
        f: { type: 'string', title: 'API key' },
        pin: { type: 'integer', title: 'Card number' },
      }),
      'ahp/elicitation-form-sensitive',
      3,
    );
    warned(
      form({ max_tokens: { type: 'integer' }, secretary: { type: 'string' }, remember_password: { type: 'boolean' } }),
      'ahp/elicitation-form-sensitive',
      0,
    );
    const url = (u: string) => req({ mode: 'url', message: 'm', url: u, elicitationId: 'e' }, 'url');
    warned(url('https://u:p@x.example/a?token=1&step=2'), 'ahp/elicitation-url-secret', 2);
    warned(url('https://x.example/a?step=2&max_tokens=5'), 'ahp/elicitation-url-secret', 0);
  });
  test('a credential in an MCP descriptor or in the event source', () => {
    const mcp = (connection: unknown) =>
      obsOf('tool.before', {
        tool: { name: 's', input: {}, origin: 'mcp', mcp: { server: { id: 'docs' }, toolName: 's', connection } },
      });
    exposed(mcp({ transport: 'http', url: 'https://u:p@mcp.example/sse?token=1' }), 1);
    exposed(
      mcp({
        transport: 'stdio',
        command: 'srv',
        args: ['--api-key=abc123', '-H', 'Authorization: Bearer abcdefgh12345678'],
        cwd: '/w',
        env: { K: 'ghp_0123456789abcdefghijABCDEFGHIJ0123' },
      }),
      3,
    );
    exposed(
      mcp({
        transport: 'stdio',
        command: 'srv',
        args: ['--token-file', '/run/secrets/t', '--max-tokens=5'],
        cwd: '/home/dev',
      }),
      0,
    );
    exposed(mcp({ transport: 'http', url: 'https://mcp.example/sse?max_tokens=5&token_type=bearer' }), 0);
    exposed(obsOf('tool.before', { source: 'https://h.example/agent?access_token=x' }), 1);
    exposed(obsOf('tool.before', { source: 'urn:uuid:6d1f2c3a-0b4e-4c7a-9e21-5f8a7b6c4d30' }), 0);
  });
  test('a secret in native metadata, extensions, a reason or a deny reason; an unknown currency', () => {
    invalid(
      obsOf('tool.before', { native: { provider: 'p', eventName: 'E', payload: { auth: 'Bearer abcdefgh12345678' } } }),
      'ahp/event-secret',
      '/params/event/native/payload/auth',
    );
    invalid(
      obsOf('tool.before', { extensions: { 'com.example.x': { password: 'hunter2hunter2' } } }),
      'ahp/event-secret',
      '/params/event/extensions/com.example.x/password',
    );
    // content text, tool input and model params are not read
    valid(obsOf('model.request.before', { params: { api_key: 'sk-0123456789abcdefghijklmnop' } }));
    const deny = {
      jsonrpc: '2.0',
      id: 'r1',
      result: { protocolVersion: 'draft', effects: [{ type: 'deny', reason: 'Bearer abcdefgh12345678' }] },
    };
    invalid(deny, 'ahp/event-secret', '/result/effects/0/reason');
    invalid(
      obsOf('model.switch.before', { pricing: { currency: 'ABC' } }),
      'ahp/currency-unknown',
      '/params/event/pricing/currency',
    );
    valid(obsOf('model.switch.before', { pricing: { currency: 'JPY' } }));
  });
  test('a secret in the data of a JSON-RPC error response', () => {
    const err = (data: unknown) => ({
      jsonrpc: '2.0',
      id: 'e1',
      error: { code: -32003, message: 'backend_unavailable', data },
    });
    invalid(err({ auth: 'Authorization: Bearer Zq81pLm3Xv7TnRk2Wd9sYh' }), 'ahp/error-data-secret', '/error/data/auth');
    invalid(err({ db: { password: 'hunter2sequel' } }), 'ahp/error-data-secret', '/error/data/db/password');
    valid(err({ supported: ['draft'], retryAfterMs: 500, tokenCount: 3 }));
  });
  test('a reasoning part outside an assistant message', () => {
    const part = (category?: string) => ({
      id: 'p',
      kind: 'text',
      mediaType: 'text/plain',
      selection: 'body',
      text: 't',
      ...(category ? { category } : {}),
    });
    const items = (role: string, category?: string) =>
      obsOf('model.response.after', { items: [{ id: 'm', role, parts: [part(category)] }] });
    warned(items('user', 'reasoning'), 'ahp/reasoning-outside-assistant', 1, 'error');
    warned(items('tool', 'reasoning'), 'ahp/reasoning-outside-assistant', 1, 'error');
    warned(items('assistant', 'reasoning'), 'ahp/reasoning-outside-assistant', 0, 'error');
    warned(items('user', 'skill'), 'ahp/reasoning-outside-assistant', 0, 'error');
  });
  test('after events and file updates that change nothing', () => {
    const task = (t: unknown) => obsOf('task.change.after', { task: t });
    invalid(
      task({ id: 't', operation: 'update', change: { status: 'open' }, prior: { status: 'open' } }),
      'ahp/change-after-noop',
      '/params/event/task/change',
    );
    valid(task({ id: 't', operation: 'update', change: { status: 'done' }, prior: { status: 'open' } }));
    invalid(task({ id: 't', operation: 'update', change: {} }), 'ahp/overlay', '/params/event/task/change');
    invalid(
      obsOf('workspace.change.after', { workspace: { kind: 'cwd', change: { cwd: '/a' }, prior: { cwd: '/a' } } }),
      'ahp/change-after-noop',
      '/params/event/workspace/change',
    );
    const snap = (t: string, id: string) => ({ id, kind: 'text', mediaType: 'text/plain', selection: 'body', text: t });
    const file = (before: unknown, after: unknown) =>
      obsOf('file.changed', { changes: [{ path: '/a.txt', operation: 'update', agentCaused: true, before, after }] });
    warned(file(snap('x', 'b'), snap('x', 'a')), 'ahp/file-change-noop', 1);
    warned(file(snap('x', 'b'), snap('y', 'a')), 'ahp/file-change-noop', 0);
    const settings = (s: unknown[]) =>
      obsOf('config.change.after', { change: { source: 'user-settings', scope: 'user', settings: s, summary: 'x' } });
    warned(settings([]), 'ahp/config-after-unchanged', 1);
    warned(settings(['model']), 'ahp/config-after-unchanged', 0);
  });
});

describe('rule catalogue', () => {
  test('each rule has an id, severity, description and citation', () => {
    const ids = AHP_MESSAGE_RULES.map((r) => r.id);
    assert.equal(new Set(ids).size, ids.length);
    for (const r of AHP_MESSAGE_RULES) {
      assert.match(r.id, /^ahp\/[a-z][a-z0-9-]*$/);
      assert.ok(['error', 'warning', 'info'].includes(r.severity));
      assert.ok(r.description.length > 20 && r.spec.length > 5, r.id);
    }
  });
  test('every rule id in our sources and schemas is catalogued', () => {
    const listed = new Set<string>(AHP_RULES.map((r) => r.id));
    const found = new Set<string>();
    for (const dir of ['src/ahp/', 'src/ahp/schema/', 'src/ahp/analyzers/', 'src/ahp/rules/']) {
      for (const f of readdirSync(REPO_DIR + dir)) {
        if (!f.endsWith('.ts')) continue;
        for (const m of readFileSync(REPO_DIR + dir + f, 'utf8').matchAll(/'(ahp\/[a-z-]+)'/g)) found.add(m[1]!);
      }
    }
    for (const f of readdirSync(REPO_DIR + 'schemas/ahp')) {
      for (const m of readFileSync(REPO_DIR + 'schemas/ahp/' + f, 'utf8').matchAll(/"x-rule": "(ahp\/[a-z-]+)"/g))
        found.add(m[1]!);
    }
    assert.ok(found.size >= AHP_MESSAGE_RULES.length, 'the scan found the rule ids');
    for (const id of found) assert.ok(listed.has(id), `${id} is emitted but not in AHP_RULES`);
  });
  test('every catalogued rule was emitted by this suite', () => {
    const missing = AHP_MESSAGE_RULES.map((r) => r.id).filter((id) => !emitted.has(id));
    assert.deepEqual(missing, []);
  });
});
