/**
 * `ahp/elicitation-result-credential`: a URL-mode ElicitResult carries no credential (MCP 2025-11-25 elicitation
 * §Understanding the Distinction: third-party credentials never transit through the MCP client).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { text } from '../ahp/builders.ts';
import { show } from '../ahp/helpers.ts';
import { obsOf, ruleRows } from './helpers.ts';

const { validate, invalid } = ruleRows(['ahp/elicitation-result-credential']);
const RULE = 'ahp/elicitation-result-credential';
const POINTER = '/params/event/elicitation/result/text';
const JWT = `eyJhbGciOiJIUzI1NiJ9.${btoa('{"sub":"1234567890"}').replace(/=+$/, '')}.SflKxwRJSMeKKF2QT4fwpMeJf36P`;

/** A `user.elicitation.result` observation with AHP `mode` and the serialized ElicitResult `body`. */
const result = (mode: string, body: Record<string, unknown>) =>
  obsOf('user.elicitation.result', {
    elicitation: { server: 'mcp:x', mode, action: body.action, result: text(JSON.stringify(body)) },
  });

describe('ahp/elicitation-result-credential', () => {
  test('a credential-shaped value anywhere in a URL-mode result is an error, named by member and class', () => {
    const issues = invalid(result('url', { action: 'accept', _meta: { session: JWT } }), RULE, POINTER);
    assert.deepEqual(
      issues.map((i) => i.args?.member),
      ['/_meta/session'],
    );
    assert.ok(!issues.some((i) => i.message.includes(JWT)), show(issues));
    invalid(result('url', { action: 'decline', _meta: { h: ['Bearer abcDEF12345678xyz'] } }), RULE, POINTER);
  });
  test('a credential-named member is read with its value (an assignment); `progressToken` is no credential name', () => {
    invalid(result('url', { action: 'accept', _meta: { access_token: 'x7Rk2pLq9ZmW' } }), RULE, POINTER);
    // a name the detector reads as an assignment's key, as ahp/event-secret reads it
    invalid(result('url', { action: 'accept', _meta: { id_token: 'x7Rk2pLq9ZmW' } }), RULE, POINTER);
    assert.deepEqual(validate(result('url', { action: 'accept', _meta: { progressToken: 'tok-1' } })), []);
  });
  test('content in a URL-mode result with a credential: this error beside ahp/elicitation-content', () => {
    invalid(result('url', { action: 'accept', content: { k: JWT } }), [RULE, 'ahp/elicitation-content'], POINTER);
  });
  test('a form-mode answer is not read: the form asked for it', () => {
    assert.deepEqual(
      validate(result('form', { action: 'accept', content: { note: JWT } })).filter((i) => i.ruleId === RULE),
      [],
    );
  });
});
