/**
 * AEP-0001 §5.2 scopes by category and §6 puts a vendor type's category after `x.{vendor}.`: the envelope schema, the
 * fast path's branch and the analyzers' scope class agree that `x.{vendor}.agent.*` is agent-scoped (README §Decision:
 * vendor x.{vendor}.agent.* types are agent-scoped).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scopeOf } from '../../src/aep/event.ts';
import { typeBranch } from '../../src/aep/schema/envelope-fast.ts';
import { compileAll } from './helpers.ts';

const AGENT_BRANCH = typeBranch('agent.heartbeat');

test('category agent, core or vendor, is agent-scoped in the schema, the fast path and scopeOf; other vendor types are not', () => {
  const envelope = compileAll().envelope;
  const base = { aep: '0.1', id: 'v1', time: '2026-11-30T10:00:00Z', source: 'aep://h/', agent: 'a' };
  const cases: [string, 'agent' | 'session' | 'foreign'][] = [
    ['agent.heartbeat', 'agent'],
    ['x.acme.agent.ping', 'agent'],
    ['x.acme-co.agent.ping.now', 'agent'],
    ['x.agent.tool.ran', 'session'],
    ['x.acme.tool.agent', 'session'],
    ['x.acme.control.pause', 'foreign'],
  ];
  for (const [type, scope] of cases) {
    assert.equal(scopeOf(type), scope, type);
    assert.equal(typeBranch(type) === AGENT_BRANCH, scope === 'agent', type);
    // agent-scoped: valid bare, refused with session and seq; session-scoped: the reverse
    assert.equal(envelope({ ...base, type }), scope === 'agent', `${type} bare`);
    assert.equal(envelope({ ...base, type, session: 's', seq: 0 }), scope === 'session', `${type} with session, seq`);
  }
});
