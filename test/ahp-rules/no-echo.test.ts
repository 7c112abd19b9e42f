/**
 * No finding echoes a content value: invalid values are described by type and length only.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { event, intercept, response, text } from '../ahp/builders.ts';
import { obsOf, ruleRows } from './helpers.ts';

const { validate } = ruleRows([
  'ahp/method',
  'ahp/intercept-id-mismatch',
  'ahp/envelope',
  'ahp/content-part',
  'ahp/canonical-message',
  'ahp/content-selection',
  'ahp/elicitation-body',
  'ahp/elicitation-action-mismatch',
  'ahp/elicitation-content',
  'ahp/effect',
  'ahp/registration',
  'ahp/registration-literal-secret',
]);

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
