/**
 * The effects library (src/ahp/analyzers/effects.ts, src/ahp/edit-check.ts) on unit tables: staged, atomic acceptance of a
 * response's effects in a host context (base/composition.md §Atomic effect acceptance;
 * interaction-payloads.md §Elicitation modification target; conformance profile base), the
 * manifest edit-context check, and agreement with the upstream `contextualExpectedValid`
 * verdicts (skipped when the shared corpus is absent).
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import {
  applyEffects,
  hostContextOf,
  returnContractEvents,
  type HostContext,
  type RejectionCode,
} from '../../src/ahp/analyzers/effects.ts';
import { checkEditContext } from '../../src/ahp/edit-check.ts';
import { validateAhpMessage, isAhpValid } from '../../src/run/ahp-message.ts';
import { AHP_CORPUS_DIR, FORM, merge, msg, replace, text } from './helpers.ts';
import { needShared, SHARED } from '../shared.ts';

type Obj = Record<string, unknown>;

const ELICIT: HostContext = {
  event: 'user.elicitation.result',
  current: { content: { name: 'old', notify: true } },
  mode: 'form',
  action: 'accept',
  capabilities: { effects: ['modify', 'message'], modify: { content: { replace: true, merge: true } } },
};
const OUTBOUND: HostContext = {
  event: 'user.message.outbound',
  current: { content: [msg('assistant', 'hello', 'm1')] },
  capabilities: { effects: ['deny', 'modify', 'message'], modify: { content: { replace: true, merge: true } } },
};
const TOOL_AFTER: HostContext = {
  event: 'tool.after',
  current: { output: [msg('tool', 'result', 'm1')] },
  capabilities: {
    effects: ['modify', 'flow', 'inject', 'message'],
    modify: { output: { replace: true, merge: false } },
    flow: { operations: ['stop', 'continue'], remainingContinuations: 0, continuationCount: 2 },
    inject: { context: { append: true, deliverAt: ['next_turn'] } },
  },
};
const TOOL_BEFORE: HostContext = {
  event: 'tool.before',
  current: { input: { command: 'ls', flags: { long: true } } },
  capabilities: { effects: ['deny', 'modify', 'message'], modify: { input: { replace: true, merge: true } } },
};

/** Run and return `accepted` or the sorted `code@pointer` reasons. */
function outcome(effects: unknown, ctx: HostContext): string[] | Record<string, unknown> {
  const r = applyEffects(effects, ctx);
  return r.accepted ? r.values : r.reasons.map((x) => `${x.code}@${x.pointer}`).sort();
}

const rejected = (...reasons: `${RejectionCode}@${string}`[]) => reasons.sort();

test('elicitation result: content is the answer object of an accepted form result', () => {
  const table: Array<[string, unknown[], HostContext, unknown]> = [
    [
      'merge is shallow; omitted fields survive',
      [merge({ name: 'new' })],
      ELICIT,
      { content: { name: 'new', notify: true } },
    ],
    ['replace substitutes the whole answer', [replace({ name: 'x' })], ELICIT, { content: { name: 'x' } }],
    ['replace with {} is allowed', [replace({})], ELICIT, { content: {} }],
    [
      'modifications chain serially',
      [merge({ name: 'a' }), merge({ notify: false }), replace({ name: 'b' })],
      ELICIT,
      { content: { name: 'b' } },
    ],
    ['a list is rejected', [merge([msg('assistant')])], ELICIT, rejected('value@/0/value')],
    // any list, as a list: its items are not judged as the canonical messages content holds at outbound
    ['a list of strings is rejected as a list', [merge(['x'])], ELICIT, rejected('value@/0/value')],
    ['a list of bare parts is rejected as a list', [replace([text('x'), 7])], ELICIT, rejected('value@/0/value')],
    [
      'a URL result cannot be edited',
      [merge({ name: 'x' })],
      { ...ELICIT, mode: 'url' },
      rejected('unavailable@/0/target'),
    ],
    [
      'a declined result cannot be edited',
      [merge({ name: 'x' })],
      { ...ELICIT, action: 'decline' },
      rejected('unavailable@/0/target'),
    ],
    [
      'a cancelled result cannot be edited',
      [replace({})],
      { ...ELICIT, action: 'cancel' },
      rejected('unavailable@/0/target'),
    ],
    [
      'nested objects are not answer values',
      [merge({ name: { first: 'A' } })],
      ELICIT,
      rejected('answer@/0/value/name'),
    ],
    ['null is not an answer value', [merge({ name: null })], ELICIT, rejected('answer@/0/value/name')],
    ['arrays of non-strings are not answer values', [merge({ tags: [1] })], ELICIT, rejected('answer@/0/value/tags')],
    [
      'metadata selection does not expose the target',
      [merge({ name: 'x' })],
      { ...ELICIT, selection: { content: 'metadata' } },
      rejected('unavailable@/0/target'),
    ],
    [
      'read-only permission does not expose the target',
      [merge({ name: 'x' })],
      { ...ELICIT, permissions: { content: { read: true, write: false } } },
      rejected('unavailable@/0/target'),
    ],
    [
      'an unadvertised operation is rejected',
      [replace({ name: 'x' })],
      { ...ELICIT, capabilities: { effects: ['modify'], modify: { content: { replace: false, merge: true } } } },
      rejected('not-advertised@/0/operation'),
    ],
    [
      'an unadvertised target is rejected',
      [merge({ name: 'x' })],
      { ...ELICIT, capabilities: { effects: ['modify'], modify: { prompt: { replace: true, merge: true } } } },
      rejected('not-advertised@/0/target'),
    ],
    [
      'an unadvertised effect type is rejected',
      [merge({ name: 'x' })],
      { ...ELICIT, capabilities: { effects: ['message'] } },
      rejected('not-advertised@/0/type'),
    ],
  ];
  for (const [name, effects, ctx, expected] of table) {
    const r = outcome(effects, ctx);
    assert.deepEqual(r, expected, name);
  }
});

test('elicitation result: the effective answer must satisfy the original requested form (no default injected)', () => {
  const ctx: HostContext = {
    ...ELICIT,
    current: { content: { name: 'Ada', notify: true } },
    requestedSchema: FORM.requestedSchema,
  };
  assert.deepEqual(outcome([merge({ count: 3, team: 'dev' })], ctx), {
    content: { name: 'Ada', notify: true, count: 3, team: 'dev' },
  });
  assert.deepEqual(outcome([merge({ count: 0 })], ctx), rejected('form@/0/value/count'));
  assert.deepEqual(outcome([merge({ team: 'sales' })], ctx), rejected('form@/0/value/team'));
  // replace drops `notify`; its `default` is an annotation, never injected
  assert.deepEqual(outcome([replace({ name: 'Ada' })], ctx), rejected('form@/0/value'));
  // members the form does not declare satisfy it (the requested schema has no additionalProperties)
  assert.deepEqual(outcome([merge({ extra: 'x' })], ctx), { content: { name: 'Ada', notify: true, extra: 'x' } });
  // a required field missing from the effective answer is said as a whole clause, not as "field name the form requires"
  const r = applyEffects([replace({ name: 'Ada' })], ctx);
  assert.equal(r.accepted, false);
  if (!r.accepted)
    assert.deepEqual(
      r.reasons.map((x) => [x.messageId, x.args?.keyword]),
      [['form', 'required']],
    );
  // a merge over an answer not known here (an invalid or hidden body): only what the value sets is judged
  const unknown: HostContext = { ...ctx, current: {} };
  assert.deepEqual(outcome([merge({ notify: false })], unknown), { content: { notify: false } });
  assert.deepEqual(outcome([merge({ count: 9 })], unknown), rejected('form@/0/value/count'));
  assert.deepEqual(outcome([replace({ notify: false })], unknown), rejected('form@/0/value'), 'a replace is whole');
});

test('atomic acceptance: any invalid effect rejects the whole response, even a valid deny', () => {
  // an unknown core-looking type (a reverse-DNS one is an experimental effect, judged by its advertisement)
  const r = applyEffects([merge([msg('assistant', 'more', 'm2')]), { type: 'highlight' }], OUTBOUND);
  assert.equal(r.accepted, false);
  if (!r.accepted) {
    assert.ok(
      r.reasons.every((x) => x.index === 1),
      'only the unknown effect has reasons; the valid modify is not applied either',
    );
    assert.ok(r.reasons.some((x) => x.code === 'malformed'));
  }
  const deny = applyEffects([{ type: 'deny', reason: 'no' }, merge({ x: 1 })], OUTBOUND);
  assert.equal(deny.accepted, false, 'a valid deny is not salvaged from an invalid list');
  assert.deepEqual(outcome('not a list', OUTBOUND), rejected('malformed@'));
  assert.deepEqual(outcome([], OUTBOUND), { content: OUTBOUND.current!.content });
});

test('outbound content is an assistant message list; list merge appends; hidden text and attachments are protected', () => {
  const m2 = msg('assistant', 'more', 'm2');
  assert.deepEqual(outcome([merge([m2])], OUTBOUND), { content: [msg('assistant', 'hello', 'm1'), m2] });
  assert.deepEqual(outcome([replace([m2])], OUTBOUND), { content: [m2] });
  assert.deepEqual(outcome([merge({ name: 'new' })], OUTBOUND), rejected('value@/0/value'));
  assert.deepEqual(outcome([merge([msg('user', 'hi', 'u1')])], OUTBOUND), rejected('value@/0/value/0/role'));
  const hidden: HostContext = {
    ...OUTBOUND,
    current: {
      content: [
        {
          id: 'm1',
          role: 'assistant',
          parts: [{ id: 'p1', kind: 'text', mediaType: 'text/plain', selection: 'metadata', size: 5 }],
        },
      ],
    },
  };
  assert.deepEqual(outcome([replace([m2])], hidden), rejected('hidden-text@/0/operation'));
  assert.equal(applyEffects([merge([m2])], hidden).accepted, true, 'append merge preserves hidden entries');
  const att = { id: 'a1', kind: 'attachment', mediaType: 'image/png', selection: 'body', body: { ref: 'ref-1' } };
  const withAtt: HostContext = {
    ...OUTBOUND,
    current: { content: [{ id: 'm1', role: 'assistant', parts: [text('see', 'p1'), att] }] },
  };
  assert.equal(
    applyEffects([replace([{ id: 'm1', role: 'assistant', parts: [att] }])], withAtt).accepted,
    true,
    'an unchanged attachment may be carried',
  );
  assert.deepEqual(
    outcome([replace([{ id: 'm1', role: 'assistant', parts: [{ ...att, body: { ref: 'ref-2' } }] }])], withAtt),
    rejected('attachment@/0/value'),
  );
});

test('content exists only at outbound and elicitation result; other targets keep their shapes', () => {
  assert.deepEqual(
    outcome([merge([msg('tool')])], {
      ...TOOL_AFTER,
      capabilities: { effects: ['modify'], modify: { content: { replace: true, merge: true } } },
    }),
    rejected('unavailable@/0/target'),
  );
  assert.deepEqual(outcome([replace([msg('tool', 'new', 'm9')], 'output')], TOOL_AFTER), {
    output: [msg('tool', 'new', 'm9')],
  });
  assert.deepEqual(
    outcome([merge([msg('tool', 'new', 'm9')], 'output')], TOOL_AFTER),
    rejected('not-advertised@/0/operation'),
  );
  const parts = outcome([replace([text('bare part')], 'output')], TOOL_AFTER) as string[];
  assert.ok(
    Array.isArray(parts) && parts.length > 0 && parts.every((p) => p.startsWith('malformed@/0/value')),
    `bare parts are not messages: ${parts}`,
  );
  assert.ok(
    (outcome([replace({}, 'output')], TOOL_AFTER) as string[]).every((p) => p.startsWith('malformed@')),
    'an object output is rejected',
  );
});

test('object targets: replace substitutes, merge is shallow and keeps null as a literal', () => {
  assert.deepEqual(outcome([merge({ flags: { all: true }, cwd: null }, 'input')], TOOL_BEFORE), {
    input: { command: 'ls', flags: { all: true }, cwd: null },
  });
  assert.deepEqual(outcome([replace({ command: 'pwd' }, 'input')], TOOL_BEFORE), { input: { command: 'pwd' } });
  assert.deepEqual(
    outcome([merge({ a: 1 }, 'input')], { ...TOOL_BEFORE, current: { input: 'ls -l' } }),
    rejected('current@/0/operation'),
  );
  // an unknown current value: the merge starts from nothing
  assert.deepEqual(outcome([merge({ a: 1 }, 'input')], { ...TOOL_BEFORE, current: {} }), { input: { a: 1 } });
});

test('flow and inject are checked against the advertisement and the continuation allowance', () => {
  const stop = { type: 'flow', operation: 'stop', reason: 'done' };
  const cont = { type: 'flow', operation: 'continue', instruction: 'go on' };
  assert.equal(applyEffects([stop], TOOL_AFTER).accepted, true);
  assert.deepEqual(
    outcome([cont, cont], TOOL_AFTER),
    rejected('not-advertised@/0/operation'),
    'one allowance for all continuations; none left',
  );
  const left: HostContext = {
    ...TOOL_AFTER,
    capabilities: {
      ...(TOOL_AFTER.capabilities as Obj),
      flow: { operations: ['stop', 'continue'], remainingContinuations: 1, continuationCount: 0 },
    },
  };
  assert.equal(applyEffects([cont, cont], left).accepted, true);
  const inject = (deliverAt: string) => ({
    type: 'inject',
    target: 'context',
    operation: 'append',
    deliverAt,
    value: [msg('user', 'note', 'n1')],
  });
  assert.equal(applyEffects([inject('next_turn')], TOOL_AFTER).accepted, true);
  assert.deepEqual(outcome([inject('now')], TOOL_AFTER), rejected('not-advertised@/0/deliverAt'));
});

test('applyEffects never changes its context and returns detached values', () => {
  const current = { content: { name: 'old', notify: true } };
  const frozen = Object.freeze({
    ...ELICIT,
    current: Object.freeze({ content: Object.freeze({ ...current.content }) }),
  });
  const r = applyEffects([merge({ name: 'new' })], frozen);
  assert.equal(r.accepted, true);
  assert.deepEqual(frozen.current.content, { name: 'old', notify: true });
  if (r.accepted) {
    (r.values.content as Obj).name = 'changed';
    assert.equal((frozen.current.content as Obj).name, 'old');
  }
  // unknown capabilities: the advertisement is not checked
  assert.equal(applyEffects([{ type: 'allow' }], { event: 'tool.before' }).accepted, true);
});

test('values nested deeper than the call stack: judged and copied without overflow', () => {
  const deep = JSON.parse(`{"a":${'['.repeat(100_000)}${']'.repeat(100_000)}}`) as Obj;
  const r = applyEffects([merge(deep, 'input')], TOOL_BEFORE);
  assert.equal(r.accepted, true);
  if (r.accepted) assert.notEqual((r.values.input as Obj).a, deep.a, 'a detached copy');
  // a target named like a prototype member stays data
  const ctx = hostContextOf({
    event: 'tool.before',
    current: JSON.parse('{"__proto__": {}}') as Obj,
    mode: '',
    action: '',
  });
  assert.ok(ctx);
  assert.equal(Object.getPrototypeOf((ctx.capabilities as { modify: object }).modify), Object.prototype);
  assert.equal(({} as Obj).replace, undefined);
});

test('checkEditContext: the manifest edit context (replace + merge, body selection, read/write for every current key)', () => {
  const response = (effects: unknown[]) => ({
    jsonrpc: '2.0',
    id: 'edit-1',
    result: { protocolVersion: 'draft', effects },
  });
  const elicit = (mode: string, action: string, content: Obj = { name: 'old' }) => ({
    event: 'user.elicitation.result',
    current: { content },
    mode,
    action,
  });
  const out = { event: 'user.message.outbound', current: { content: [msg('assistant')] }, mode: '', action: '' };
  const table: Array<[string, unknown, unknown, string[]]> = [
    ['object merge at an accepted form', response([merge({ name: 'new' })]), elicit('form', 'accept'), []],
    [
      'list at elicitation',
      response([merge([msg('assistant')])]),
      elicit('form', 'accept'),
      ['ahp/modify-invalid@/result/effects/0/value'],
    ],
    [
      'url result',
      response([merge({ name: 'new' })]),
      elicit('url', 'accept', {}),
      ['ahp/modify-invalid@/result/effects/0/target'],
    ],
    [
      'declined result',
      response([merge({ name: 'new' })]),
      elicit('form', 'decline', {}),
      ['ahp/modify-invalid@/result/effects/0/target'],
    ],
    [
      'nested answer value',
      response([merge({ name: { first: 'A' } })]),
      elicit('form', 'accept', {}),
      ['ahp/modify-invalid@/result/effects/0/value/name'],
    ],
    ['list at outbound', response([merge([msg('assistant')])]), out, []],
    ['object at outbound', response([merge({ name: 'new' })]), out, ['ahp/modify-invalid@/result/effects/0/value']],
    [
      'a target outside the context',
      response([merge({ a: 1 }, 'input')]),
      out,
      ['ahp/effect-not-advertised@/result/effects/0/target'],
    ],
    [
      'non-modify effects are not granted',
      response([{ type: 'deny', reason: 'no' }]),
      out,
      ['ahp/effect-not-advertised@/result/effects/0/type'],
    ],
    ['not an edit context', response([]), { current: {} }, ['ahp/modify-invalid@']],
    [
      'not a response',
      { jsonrpc: '2.0', id: 'x', error: { code: 1, message: 'm' } },
      out,
      ['ahp/modify-invalid@/result'],
    ],
  ];
  for (const [name, message, ctx, expected] of table) {
    assert.deepEqual(
      checkEditContext(message, ctx).map((i) => `${i.ruleId}@${i.pointer}`),
      expected,
      name,
    );
  }
  assert.deepEqual(
    hostContextOf({ event: 'tool.after', current: { output: [] }, mode: '', action: '' })?.capabilities,
    { effects: ['modify'], modify: { output: { replace: true, merge: true } } },
  );
});

test('an answer-shape finding names its field, unescaped, and says which shape it breaks', () => {
  // interaction-payloads.md §Elicitation modification target: content is the MCP answer object of flat values
  const ctx = { event: 'user.elicitation.result', current: { content: {} }, mode: 'form', action: 'accept' };
  const edit = (value: Obj) => ({
    jsonrpc: '2.0',
    id: 'e',
    result: { protocolVersion: 'draft', effects: [merge(value)] },
  });
  const [nested, ...rest] = checkEditContext(edit({ 'a/b': { x: 1 } }), ctx);
  assert.deepEqual(rest, []);
  assert.equal(nested?.pointer, '/result/effects/0/value/a~1b');
  assert.equal(
    nested?.message,
    'The answer field "a/b" breaks the pinned MCP answer shape: an answer value is a string, number (one a double holds), boolean or array of strings, found object.',
  );
  // the same field kept from the current answer by a merge: the effective answer's finding quotes it the same way
  const kept = { ...ctx, current: { content: { 'a/b': { x: 1 } } } };
  assert.deepEqual(
    checkEditContext(edit({ ok: 'y' }), kept).map((i) => i.message),
    [
      'The effective answer is not an MCP answer object: field "a/b" an answer value is a string, number (one a double holds), boolean or array of strings, found object.',
    ],
  );
});

test('a message of the wrong role in an edited list is told the role it must have', () => {
  // interaction-payloads.md: "outbound messages have role assistant"
  const out = { event: 'user.message.outbound', current: { content: [msg('assistant')] }, mode: '', action: '' };
  const edit = { jsonrpc: '2.0', id: 'e', result: { protocolVersion: 'draft', effects: [merge([msg('user')])] } };
  assert.deepEqual(
    checkEditContext(edit, out).map((i) => `${i.pointer} ${i.message}`),
    ['/result/effects/0/value/0/role A message of `content` at user.message.outbound must have role "assistant".'],
  );
});

test('an inject effect with another operation or target is told the one value it takes', () => {
  // base/composition.md: "`inject` appends context at `now` or `next_turn`"
  const inject = (over: Obj) => ({
    jsonrpc: '2.0',
    id: 'e',
    result: {
      protocolVersion: 'draft',
      effects: [{ type: 'inject', target: 'context', operation: 'append', deliverAt: 'now', value: [], ...over }],
    },
  });
  const say = (over: Obj) => validateAhpMessage(inject(over)).map((f) => `${f.pointer} ${f.message}`);
  assert.deepEqual(say({ operation: 'replace' }), [
    '/result/effects/0/operation An `inject` effect appends context, so its `operation` is always "append" (base/composition.md).',
  ]);
  assert.deepEqual(say({ target: 'prompt' }), [
    '/result/effects/0/target An `inject` effect appends context, so its `target` is always "context" (base/composition.md).',
  ]);
  assert.deepEqual(say({}), []);
});

test('upstream manifest: contextualExpectedValid agrees on every present case', (t) => {
  const manifestPath = AHP_CORPUS_DIR + 'manifest.json';
  if (!needShared(t, `${SHARED.ahpCorpus}/manifest.json`)) return;
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
    cases: Array<{ id: string; path: string; contextualExpectedValid?: boolean; editContext?: unknown }>;
  };
  const cases = manifest.cases.filter((c) => c.editContext !== undefined);
  assert.ok(cases.length >= 12, 'the manifest has contextual cases');
  let checked = 0;
  for (const c of cases) {
    const file = AHP_CORPUS_DIR + c.path.slice('fixtures/draft/'.length);
    if (!existsSync(file)) continue;
    const value = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    const valid = isAhpValid(validateAhpMessage(value)) && checkEditContext(value, c.editContext).length === 0;
    assert.equal(
      valid,
      c.contextualExpectedValid,
      `${c.id}: ${JSON.stringify(checkEditContext(value, c.editContext))}`,
    );
    checked++;
  }
  t.diagnostic(`contextual cases: ${cases.length}; checked: ${checked}; absent (skipped): ${cases.length - checked}`);
  assert.ok(checked > 0);
});

test('return contracts: the table covers exactly the events whose capability bounds admit return', () => {
  const caps = JSON.parse(
    readFileSync(new URL('../../schemas/ahp/capabilities.schema.json', import.meta.url), 'utf8'),
  ) as Obj;
  const bounds = ((caps.$defs as Obj).bounds as Obj).$defs as Record<string, Obj>;
  const admits = Object.entries(bounds)
    .filter(([, b]) => {
      const items = ((b.properties as Obj | undefined)?.effects as Obj | undefined)?.items as Obj | undefined;
      const anyOf = (items?.anyOf as Obj[] | undefined) ?? [];
      return anyOf.some((x) => Array.isArray(x.enum) && x.enum.includes('return'));
    })
    .map(([e]) => e)
    .sort();
  assert.deepEqual([...returnContractEvents()].sort(), admits);
  assert.deepEqual(admits, [
    'context.compact.before',
    'model.request.before',
    'tool.before',
    'user.elicitation.request',
  ]);
});

test('return values are checked against the contract of the boundary they answer', () => {
  const at = (event: string, extra: Partial<HostContext> = {}): HostContext => ({
    event,
    current: {},
    capabilities: { effects: ['return', 'deny'] },
    ...extra,
  });
  const ret = (value: unknown) => ({ type: 'return', value });
  const FORM_CTX = at('user.elicitation.request', {
    elicitation: { mode: 'form', requestedSchema: FORM.requestedSchema },
  });
  const codes = (effects: unknown[], ctx: HostContext) => {
    const r = applyEffects(effects, ctx);
    return r.accepted ? 'accepted' : r.reasons.map((x) => `${x.code}@${x.pointer}`).sort();
  };
  const table: Array<[string, unknown[], HostContext, unknown]> = [
    ['messages at model.request.before', [ret([msg('assistant')])], at('model.request.before'), 'accepted'],
    ['a string at model.request.before', [ret('hi')], at('model.request.before'), ['return@/0/value']],
    ['bare parts at model.request.before', [ret([text('hi')])], at('model.request.before'), ['return@/0/value/0']],
    ['messages at tool.before', [ret([msg('tool')])], at('tool.before'), 'accepted'],
    ...[{ stdout: 'x' }, null, false, 0, '', [], [text('x')]].map((v): [string, unknown[], HostContext, unknown] => [
      `${JSON.stringify(v)} at tool.before (any JSON value)`,
      [ret(v)],
      at('tool.before'),
      'accepted',
    ]),
    [
      'a metadata view in a tool.before value is not content',
      [
        ret([
          { id: 'm', role: 'tool', parts: [{ id: 'p', kind: 'text', mediaType: 'text/plain', selection: 'metadata' }] },
        ]),
      ],
      at('tool.before'),
      'accepted',
    ],
    ['text parts at context.compact.before', [ret([text('summary')])], at('context.compact.before'), 'accepted'],
    ['a number at context.compact.before', [ret(7)], at('context.compact.before'), ['return@/0/value']],
    [
      'messages at context.compact.before',
      [ret([msg('assistant')])],
      at('context.compact.before'),
      ['return@/0/value/0'],
    ],
    [
      'a gap part',
      [ret([{ id: 'g', kind: 'text', mediaType: 'text/plain', selection: 'body', gap: { reason: 'limit' } }])],
      at('context.compact.before'),
      ['return@/0/value/0'],
    ],
    [
      'a substituted attachment',
      [
        ret([
          {
            id: 'm',
            role: 'assistant',
            parts: [{ id: 'a', kind: 'attachment', mediaType: 'image/png', selection: 'body', body: { ref: 'r2' } }],
          },
        ]),
      ],
      at('model.request.before'),
      ['return@/0/value/0/parts/0/body'],
    ],
    [
      'an unchanged attachment of the event',
      [
        ret([
          {
            id: 'm',
            role: 'assistant',
            parts: [{ id: 'a', kind: 'attachment', mediaType: 'image/png', selection: 'body', body: { ref: 'r1' } }],
          },
        ]),
      ],
      at('model.request.before', {
        current: {
          request: [
            {
              id: 'u',
              role: 'user',
              parts: [{ id: 'a', kind: 'attachment', mediaType: 'image/png', selection: 'body', body: { ref: 'r1' } }],
            },
          ],
        },
      }),
      'accepted',
    ],
    [
      'an accepted form answer',
      [ret({ action: 'accept', content: { name: 'Ada', notify: true } })],
      FORM_CTX,
      'accepted',
    ],
    [
      'an accepted form answer without content',
      [ret({ action: 'accept' })],
      FORM_CTX,
      ['return@/0/value', 'return@/0/value'],
    ],
    [
      'a declined answer with content',
      [ret({ action: 'decline', content: {} })],
      FORM_CTX,
      ['return@/0/value/content'],
    ],
    [
      'a URL answer with content',
      [ret({ action: 'accept', content: { a: 'b' } })],
      at('user.elicitation.request', { elicitation: { mode: 'url' } }),
      ['return@/0/value/content'],
    ],
    [
      'a URL answer without content',
      [ret({ action: 'accept' })],
      at('user.elicitation.request', { elicitation: { mode: 'url' } }),
      'accepted',
    ],
    [
      'an invalid return rejects a valid deny beside it',
      [ret('x'), { type: 'deny', reason: 'no' }],
      at('model.request.before'),
      ['return@/0/value'],
    ],
    [
      'an unadvertised return is not judged by its contract',
      [ret('x')],
      at('model.request.before', { capabilities: { effects: ['deny'] } }),
      ['not-advertised@/0/type'],
    ],
    ['return outside the four boundaries', [ret([msg('assistant')])], at('tool.after'), ['return@/0/type']],
  ];
  for (const [name, effects, ctx, want] of table) assert.deepEqual(codes(effects, ctx), want, name);
});

test('workspace edits keep the closed workspace state (cwd a path string)', () => {
  const WS: HostContext = {
    event: 'workspace.change.before',
    current: { workspace: { cwd: '/repo' } },
    capabilities: { effects: ['modify'], modify: { workspace: { replace: true, merge: true } } },
  };
  const mod = (operation: string, value: unknown) => ({ type: 'modify', target: 'workspace', operation, value });
  assert.deepEqual(outcome([mod('merge', { workspaceRoots: ['/repo'] })], WS), {
    workspace: { cwd: '/repo', workspaceRoots: ['/repo'] },
  });
  assert.deepEqual(outcome([mod('merge', { cwd: 42 })], WS), rejected('value@/0/value/cwd'));
  assert.deepEqual(outcome([mod('merge', { branch: 'main' })], WS), rejected('value@/0/value/branch'));
  assert.deepEqual(outcome([mod('replace', {})], WS), rejected('value@/0/value'));
  assert.deepEqual(outcome([mod('replace', { cwd: '/srv' })], WS), { workspace: { cwd: '/srv' } });
});
