import { describe, test } from 'node:test';
import { capabilitiesResponse, event, intercept, minimalManifest } from '../ahp/builders.ts';
import { ruleRows } from './helpers.ts';

const { valid, invalid } = ruleRows(['ahp/capabilities']);

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
  // capability-auth.md §Event-semantic capability bounds: "Message is valid at any interceptable event", and
  // "General flow rules permit stop on supported turn/tool/permission/model boundaries" (both MAYs the tool lets pass)
  test('message at every interceptable event, and flow stop at every turn, tool, permission and model boundary', () => {
    const interceptable = [
      'session.start',
      'config.change.before',
      'turn.start',
      'turn.finish.before',
      'model.request.before',
      'model.response.after',
      'model.switch.before',
      'tool.before',
      'tool.after',
      'tool.permission.request',
      'tool.batch.after',
      'context.compact.before',
      'context.compact.after',
      'task.change.before',
      'user.elicitation.request',
      'user.elicitation.result',
      'user.message.inbound',
      'user.message.outbound',
      'workspace.change.before',
    ];
    // tool.before always advertises deny (base/capabilities.md AHP-CAP-002)
    const effects = (type: string, e: string) => (type === 'tool.before' ? ['deny', e] : [e]);
    for (const type of interceptable) valid(caps(type, { effects: effects(type, 'message') }));
    const stop = { effects: ['flow'], flow: { operations: ['stop'] } };
    for (const type of interceptable.filter((t) => /^(turn|tool|model)\./.test(t) && !t.startsWith('tool.batch')))
      valid(caps(type, { ...stop, effects: effects(type, 'flow') }));
    // the bound is real: stop is no control of a session or configuration boundary
    invalid(caps('session.start', stop), 'ahp/capabilities');
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
