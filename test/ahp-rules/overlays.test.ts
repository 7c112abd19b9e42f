/**
 * The event overlays: closed interaction payloads, required members, roles, attention parts, tool outcomes, MCP
 * descriptors, model, task, workspace and file payloads.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isAhpValid } from '../../src/run/ahp-message.ts';
import { MINIMAL, event, msg, observe, text } from '../ahp/builders.ts';
import { show } from '../ahp/helpers.ts';
import { obsOf, ruleRows } from './helpers.ts';

const { validate, valid, invalid } = ruleRows([
  'ahp/overlay',
  'ahp/message-role',
  'ahp/attention-shape',
  'ahp/content-part',
  'ahp/config-managed-secret',
]);

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
    // the sentence says what the role must be, never reads as a description of the input
    assert.deepEqual(
      validate(obsOf('user.message.outbound', { message: { channel: 'c', messages: [msg('user')] } })).map(
        (i) => i.message,
      ),
      [
        'A message of `user.message.outbound` must have role "assistant" (interaction-payloads.md: outbound messages have role assistant).',
      ],
    );
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
    // the prose's singular part: a list of one or none passes (the upstream catalogue fixture has empty lists), two warn
    for (const [n, expected] of [
      [0, 0],
      [1, 0],
      [2, 1],
      [3, 1],
    ]) {
      const parts = Array.from({ length: n }, (_, i) => ({ ...text(`p${i}`), id: `t${i}` }));
      const several = validate(obsOf('user.attention', { attention: { kind: 'idle', message: parts, title: parts } }));
      assert.ok(isAhpValid(several), show(several));
      assert.deepEqual(
        several.map((i) => [i.ruleId, i.severity, i.pointer]),
        ['message', 'title']
          .slice(0, expected * 2)
          .map((m) => ['ahp/attention-shape', 'warning', `/params/event/attention/${m}/1`]),
        show(several),
      );
    }
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
    ); // an observed tool.before is a proposal: every resolved-outcome member belongs to tool.after (observation-disposition.md)
    for (const resolved of [
      { outcome: 'denied' },
      { execution: { status: 'executed' } },
      { error: { class: 'tool', message: 'exit status 1' } },
    ])
      invalid(obsOf('tool.before', resolved), 'ahp/overlay', '/params/event');
    valid(obsOf('tool.after', { outcome: 'error', error: { class: 'tool', message: 'exit status 1' } }));
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
    // one finding per missing member, each saying the connection has neither it nor its gap
    assert.deepEqual(
      validate(obsOf('tool.before', mcp({ transport: 'stdio', args: [] }))).map((i) => i.message),
      ['command', 'cwd'].map(
        (m) =>
          `A stdio MCP connection needs \`${m}\` or an explicit gap with path "${m}", and this one has neither (execution-payloads.md: unavailable URL/command/args/cwd fields use explicit field-path gaps).`,
      ),
    );
    assert.deepEqual(
      validate(obsOf('tool.before', mcp({ transport: 'sse' }))).map((i) => i.message),
      [
        'An HTTP/SSE MCP connection needs `url` or an explicit gap with path "url", and this one has neither (execution-payloads.md).',
      ],
    );
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
    // `batch: {id, callIds}`: the maintainers' valid catalogue-tool.batch.after fixture omits callIds (README §Decisions)
    valid(obsOf('tool.batch.after', { batch: { id: 'b' } }));
    invalid(obsOf('tool.batch.after', { batch: { callIds: ['c'] } }), 'ahp/overlay', '/params/event/batch');
    invalid(obsOf('model.request.before', { attempt: { id: 'a' } }), 'ahp/overlay', '/params/event/attempt');
  });
});
