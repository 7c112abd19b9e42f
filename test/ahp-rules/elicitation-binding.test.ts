/**
 * The MCP elicitation binding: published field shapes, the closed subset, URL requests, JSON text without duplicate
 * keys, views never parsed, envelope mode, results.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Finding } from '../../src/core/finding.ts';
import { event, intercept, text } from '../ahp/builders.ts';
import { show } from '../ahp/helpers.ts';
import { obsOf, ruleRows } from './helpers.ts';

const { valid, invalid } = ruleRows([
  'ahp/overlay',
  'ahp/content-part',
  'ahp/elicitation-body',
  'ahp/elicitation-mode-mismatch',
  'ahp/elicitation-action-mismatch',
  'ahp/elicitation-content',
]);

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
    assert.doesNotMatch(issues[0]!.message, /`type` is required/);
    // a titled single-select without `type` says what it lacks
    issues = invalid(reqEvent(form({ a: { oneOf: [{ const: 'x', title: 'X' }] } })), 'ahp/elicitation-body', P);
    assert.deepEqual(inner(issues), ['/requestedSchema/properties/a']);
    assert.match(issues[0]!.message, /: `type` is required; a form field schema must be one of/);
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
  test('the form root carries only the subset: title and description there are errors too (python-sdk: pydantic model_json_schema)', () => {
    // pydantic's key order, the model name as root title and its docstring as root description
    const py = {
      mode: 'form',
      message: 'Who are you?',
      requestedSchema: {
        description: 'The user.',
        properties: {
          age: { default: 18, minimum: 0, title: 'Age', type: 'integer' },
          name: { title: 'Name', type: 'string' },
        },
        required: ['name'],
        title: 'UserInfo',
        type: 'object',
      },
    };
    const issues = invalid(reqEvent(JSON.stringify(py)), 'ahp/elicitation-body', P);
    assert.deepEqual(inner(issues).sort(), ['/requestedSchema/description', '/requestedSchema/title']);
    // the same form without them, and with $schema (declared by MCP), is valid
    const { title: _t, description: _d, ...rest } = py.requestedSchema;
    valid(reqEvent(JSON.stringify({ ...py, requestedSchema: rest })));
    valid(reqEvent(form({ a: { type: 'string' } }, { $schema: 'https://json-schema.org/draft/2020-12/schema' })));
  });
  test('URL requests need mode, message, url and elicitationId', () => {
    const issues = invalid(
      reqEvent(JSON.stringify({ mode: 'url', message: 'm', url: 'not a url' }), 'url'),
      'ahp/elicitation-body',
      P,
    );
    assert.deepEqual(inner(issues).sort(), ['', '/url']);
    // "MUST contain a valid URL": an http(s) URI that no URL parser takes (no host, a port beyond 65535, a host
    // ending in a number that is no IPv4 address) is invalid; a valid one passes; other schemes are URIs alone
    const url = (u: string) =>
      reqEvent(JSON.stringify({ mode: 'url', message: 'm', url: u, elicitationId: 'e' }), 'url');
    // https:host, https:/host, https:///host: a URL parser repairs them into https://host/, yet none names a host
    // (replays of https://github.com/colinhacks/zod/issues/5284 and https://github.com/nodejs/node/issues/50919)
    for (const u of [
      'https://',
      'http://',
      'https://x.example:65536/',
      'https://999.1.1.1/',
      'https:x.example',
      'https:/x.example/a',
      'https:///x.example',
    ])
      assert.deepEqual(inner(invalid(url(u), 'ahp/elicitation-body', P)), ['/url'], u);
    for (const u of ['https://x.example:65535/a?b#c', 'https://10.0.0.1/', 'https://[::1]:8443/', 'urn:example:flow'])
      valid(url(u));
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
    const cut = '{"message": "m", "requestedSchema": ';
    issues = invalid(reqEvent(cut), 'ahp/elicitation-body', P);
    // the syntax error is where the text ends: the character after its last, counted from 1
    assert.deepEqual([issues[0]!.messageId, issues[0]!.args?.index], ['invalidJson', cut.length + 1]);
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
