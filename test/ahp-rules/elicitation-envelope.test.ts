/**
 * An elicitation request text holding the JSON-RPC envelope instead of the `elicitation/create` params object
 * (interaction-payloads.md §MCP elicitation binding: "not the JSON-RPC envelope"): one finding that says so, not the
 * members the params object lacks. Built from the upstream catalogue fixture when ../shared has it.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import type { Finding } from '../../src/core/finding.ts';
import { isObj, type Obj } from '../../src/core/value.ts';
import { text } from '../ahp/builders.ts';
import { needShared, SHARED, sharedPath } from '../shared.ts';
import { obsOf, ruleRows } from './helpers.ts';

const { valid, validate } = ruleRows(['ahp/elicitation-body']);

const FIXTURE = `${SHARED.ahpCorpus}/http/catalogue-user.elicitation.request.valid.json`;
const P = '/params/event/elicitation/request/text';

/** `message` with its request text replaced by `body` (a deep copy: the fixture's value is never changed). */
function withBody(message: Obj, body: string): Obj {
  const copy = structuredClone(message);
  const req = (((copy.params as Obj).event as Obj).elicitation as Obj).request as Obj;
  req.text = body;
  return copy;
}
/** The request text's params object of `message`. */
const paramsOf = (message: Obj): Obj =>
  JSON.parse(((((message.params as Obj).event as Obj).elicitation as Obj).request as Obj).text as string) as Obj;
const brief = (fs: readonly Finding[]) => fs.map((f) => `${f.severity}:${f.ruleId}:${f.messageId}@${f.pointer}`);
const ENVELOPE = [`error:ahp/elicitation-body:jsonRpcEnvelope@${P}`];
const reverse = (o: Obj): Obj => Object.fromEntries(Object.entries(o).reverse());

describe('the JSON-RPC envelope in an elicitation request text', () => {
  test('the upstream catalogue request wrapped in its envelope is one finding that names the envelope', (t) => {
    if (!needShared(t, FIXTURE)) return;
    const upstream = JSON.parse(readFileSync(sharedPath(FIXTURE), 'utf8')) as Obj;
    assert.ok(isObj(upstream.params));
    valid(upstream);
    const params = paramsOf(upstream);
    const envelope = { jsonrpc: '2.0', id: 1, method: 'elicitation/create', params };
    const found = validate(withBody(upstream, JSON.stringify(envelope)));
    assert.deepEqual(brief(found), ENVELOPE);
    assert.match(found[0]!.message, /JSON-RPC envelope/);
    assert.match(found[0]!.message, /COMPLETE MCP elicitation\/create params object, not the JSON-RPC envelope/);
    assert.deepEqual(
      [found[0]!.args?.partPointer, found[0]!.args?.innerPointer],
      ['/params/event/elicitation/request', ''],
    );
    // member order is irrelevant: the envelope's, and the params object's inside it
    const turned = { ...reverse(envelope), params: reverse(params) };
    assert.deepEqual(brief(validate(withBody(upstream, JSON.stringify(turned)))), ENVELOPE);
    // the params object itself, serialized from the envelope, passes again
    valid(withBody(upstream, JSON.stringify(envelope.params)));
  });

  const request = (body: unknown, mode = 'form') =>
    obsOf('user.elicitation.request', {
      elicitation: {
        server: 'mcp:x',
        mode,
        request: text(typeof body === 'string' ? body : JSON.stringify(body)),
      },
    });
  const form = { message: 'Pick one', requestedSchema: { type: 'object', properties: { a: { type: 'string' } } } };

  test('an envelope of any method or without an id is named, and only it is reported', () => {
    assert.deepEqual(
      brief(validate(request({ jsonrpc: '2.0', method: 'elicitation/create', params: form }))),
      ENVELOPE,
    );
    const url = { mode: 'url', message: 'Sign in', url: 'https://auth.example/x', elicitationId: 'e1' };
    assert.deepEqual(
      brief(validate(request({ jsonrpc: '2.0', id: 'r', method: 'elicitation/create', params: url }, 'url'))),
      ENVELOPE,
    );
    // another method's envelope is no params object either
    assert.deepEqual(brief(validate(request({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: {} }))), ENVELOPE);
    // an envelope whose params are themselves invalid: still one finding, about the envelope
    assert.deepEqual(
      brief(validate(request({ jsonrpc: '2.0', id: 2, method: 'elicitation/create', params: {} }))),
      ENVELOPE,
    );
    assert.deepEqual(brief(validate(request('{"jsonrpc":"2.0","id":3,"params":{"message":1e400}}'))), ENVELOPE);
  });

  test('what is not an envelope keeps its own findings', () => {
    // a params object with an extra member named jsonrpc (MCP params are open): valid
    valid(request({ ...form, jsonrpc: '2.0' }));
    // a member named jsonrpc alone, without method or params: the missing members are what is wrong
    assert.deepEqual(brief(validate(request({ jsonrpc: '2.0' }))), [
      `error:ahp/elicitation-body:schemaRoot.required@${P}`,
      `error:ahp/elicitation-body:schemaRoot.required@${P}`,
    ]);
    // a result text is an ElicitResult; the request sentence does not apply to it
    const res = obsOf('user.elicitation.result', {
      elicitation: {
        server: 'mcp:x',
        mode: 'form',
        action: 'accept',
        result: text(JSON.stringify({ jsonrpc: '2.0', id: 1, result: { action: 'accept' } })),
      },
    });
    assert.ok(brief(validate(res)).every((b) => !b.includes(':jsonRpcEnvelope@')));
  });
});
