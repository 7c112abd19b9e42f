/**
 * Intercept effects: every effect type, closed variants, unknown types.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { msg, response, text } from '../ahp/builders.ts';
import { show } from '../ahp/helpers.ts';
import { obsOf, ruleRows } from './helpers.ts';
import CONTENT_SCHEMA from '../../schemas/ahp/content.schema.json' with { type: 'json' };

const { valid, invalid, validate } = ruleRows(['ahp/content-part', 'ahp/effect']);

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
        'A `denied` outcome\'s execution needs both `status` "skipped" and `reason` "policy", and one of them is missing (execution-payloads.md: denial uses skipped/policy).',
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
    // one finding is the schema's own for a message where a part belongs (content.schema.json#/$defs/notAMessage)
    const notAMessage = String(CONTENT_SCHEMA.$defs.notAMessage.then['x-message']).toLowerCase();
    assert.ok(
      asParts.some((i) => i.messageId === 'x-message' && String(i.args?.text).toLowerCase() === notAMessage),
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
