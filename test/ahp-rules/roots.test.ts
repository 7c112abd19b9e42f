/**
 * Validation roots: the upstream manifest's schema paths map to our roots; an unknown root is a programming error.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { validateAhpMessage as rawValidate } from '../../src/run/ahp-message.ts';
import { beyondAggregateRoot } from '../../src/fixture-runner/ahp-manifest.ts';
import { event, intercept, response } from '../ahp/builders.ts';
import { obsOf, ruleRows } from './helpers.ts';

const { valid, invalid } = ruleRows([
  'ahp/effect',
  'ahp/jsonrpc',
  'ahp/method',
  'ahp/method-result',
  'ahp/overlay',
  'ahp/capabilities',
]);

describe('roots', () => {
  test('upstream manifest schema paths map to our roots', () => {
    const deny = response([
      { type: 'deny', reason: 'a' },
      { type: 'deny', reason: 'b' },
    ]);
    invalid(deny, 'ahp/method-result', '/result/effects', { root: 'schema/draft/intercept-deny-response.schema.json' }); // deny-response-multiple (absent)
    // the sentence (AHP-DEC-001) makes the wire root reject it too; the upstream aggregate verdict (the schema's) does not
    invalid(deny, 'ahp/effect', '/result/effects/1', { root: 'schema/draft/schema.json' });
    assert.deepEqual(
      rawValidate(deny, { root: 'schema/draft/schema.json' }).filter((f) => !beyondAggregateRoot(f)),
      [],
    );
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
