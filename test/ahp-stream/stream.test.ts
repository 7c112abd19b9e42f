/**
 * The AHP stream rules on small streams, run through the real pipeline and driver: request /
 * response correlation, effects against the advertisement and in context, elicitation pairs,
 * lineage, configuration before/after, event id reuse, end-of-input summary and the caps.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { AHP_STREAM_RULES } from '../../src/ahp/rules/index.ts';
import {
  brief,
  capsRequest,
  capsResponse,
  cfgAfter,
  cfgBefore,
  check,
  elicRequest,
  elicResult,
  ev,
  fail,
  intercept,
  runRule,
  merge,
  msg,
  observe,
  ok,
  outbound,
  replace,
  REPO_DIR,
  SRC2,
  text,
  toolAfter,
  toolBefore,
  URL_REQUEST,
} from './helpers.ts';
import { ahpDriver, runPipeline } from '../run.ts';
import type { Finding } from '../../src/core/finding.ts';

test('every stream rule declares an ahp/ id, a description and a citation; state-cap runs last', () => {
  const ids = AHP_STREAM_RULES.map((r) => r.id);
  assert.equal(new Set(ids).size, ids.length);
  for (const r of AHP_STREAM_RULES) {
    assert.match(r.id, /^ahp\/[a-z0-9-]+$/);
    assert.ok(r.description.length > 20 && r.spec.length > 5, r.id);
  }
  assert.equal(ids.at(-1), 'ahp/state-cap');
});

test('the example session is clean, with the stream rules too', async () => {
  const lines = readFileSync(REPO_DIR + 'examples/ahp/session.jsonl', 'utf8')
    .trimEnd()
    .split('\n');
  assert.deepEqual(brief(await check(lines)), []);
});

test('responses correlate with pending requests, once each; notifications are never answered', async () => {
  const a = toolBefore('e1');
  assert.deepEqual(brief(await check([intercept(a), ok('e1'), capsRequest('d1'), fail('d1')])), []);
  assert.deepEqual(brief(await check([intercept(a), ok('e1'), ok('e1')])), ['error:ahp/response-duplicate@3/id']);
  assert.deepEqual(brief(await check([intercept(a), ok('zz')])), [
    'error:ahp/response-unmatched@2/id',
    'info:ahp/open-at-end@1/id',
  ]);
  assert.deepEqual(brief(await check([intercept(a), ok('e1'), observe(toolBefore('n1')), ok('n1')])), [
    'error:ahp/response-unmatched@4/id',
  ]);
  // an identical retry is a further delivery: two responses are fine, a third is not
  assert.deepEqual(brief(await check([intercept(a), intercept(a), ok('e1'), ok('e1'), ok('e1')])), [
    'error:ahp/response-duplicate@5/id',
  ]);
  // ids are typed: "1" and 1 differ
  const num = { ...intercept(toolBefore('1')), id: 1 };
  assert.deepEqual(
    brief(await check([num, ok('1'), ok(1)])).filter((b) => !b.includes('intercept-id-mismatch')),
    ['error:ahp/response-unmatched@2/id'],
  );
  // a null-id error response cannot be correlated and is not reported
  assert.deepEqual(
    brief(
      await check([
        intercept(a),
        ok('e1'),
        { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse_error' } },
      ]),
    ),
    [],
  );
  // a new request may reuse an answered id
  assert.deepEqual(brief(await check([capsRequest('d1'), fail('d1'), capsRequest('d1'), fail('d1')])), []);
});

test('a capture of one direction is said once to be uncorrelatable, never silently passed', async () => {
  assert.deepEqual(brief(await check([ok('a'), ok('b'), fail('c')])), ['info:ahp/response-uncorrelated@1/id']);
});

test('one rule alone: its own findings only, the same as among all rules; framing always appears', async () => {
  const a = toolBefore('e1');
  const lines = [ok('x'), intercept(a), ok('zz'), observe(elicResult('r2', undefined, { action: 'cancel' }))];
  assert.deepEqual(await runRule('ahp/response-uncorrelated', lines), ['info:ahp/response-uncorrelated@1/id']);
  assert.deepEqual(await runRule('ahp/response-unmatched', lines), ['error:ahp/response-unmatched@3/id']);
  assert.deepEqual(await runRule('ahp/open-at-end', lines), ['info:ahp/open-at-end@2/id']);
  assert.deepEqual(await runRule('ahp/elicitation-uncorrelated', lines), [
    'warning:ahp/elicitation-uncorrelated@4/params/event',
  ]);
  assert.deepEqual(await runRule('ahp/elicitation-unpaired', lines), []);
  const all = brief(await check(lines));
  for (const id of [
    'ahp/response-uncorrelated',
    'ahp/response-unmatched',
    'ahp/open-at-end',
    'ahp/elicitation-uncorrelated',
  ] as const) {
    assert.deepEqual(
      await runRule(id, lines),
      all.filter((b) => b.includes(`:${id}@`)),
      id,
    );
  }
  // per-message findings follow the selection too; framing (jsonl/*, json/*) is always on
  const broken = [
    '{"jsonrpc":"2.0","jsonrpc":"2.0","id":"d1","method":"hooks/capabilities","params":{"protocolVersion":"draft"}}',
    '{"jsonrpc":"1.0","id":"d2","method":"hooks/capabilities","params":{"protocolVersion":"draft"}}',
    'not json',
  ];
  const every = brief(await check(broken));
  assert.ok(
    every.some((b) => b.includes(':ahp/jsonrpc@2')),
    every.join(' '),
  );
  assert.deepEqual(
    await runRule('ahp/open-at-end', broken),
    every.filter((b) => /:(json|jsonl)\//.test(b)),
  );
  assert.ok(
    every.some((b) => b.includes(':json/duplicate-key@1')) && every.some((b) => b.includes(':jsonl/')),
    every.join(' '),
  );
  assert.deepEqual(
    await runRule('ahp/jsonrpc', broken),
    every.filter((b) => /:(json|jsonl|ahp\/jsonrpc)[/@]/.test(b)),
  );
});

test('results of the wrong method are unmatched', async () => {
  assert.deepEqual(brief(await check([capsRequest('d1'), ok('d1', [{ type: 'allow' }])])), [
    'error:ahp/response-unmatched@2/result',
  ]);
  assert.deepEqual(brief(await check([intercept(toolBefore('e1')), capsResponse('e1', [])])), [
    'error:ahp/response-unmatched@2/result',
  ]);
});

test('returned effects, targets and operations are among those advertised', async () => {
  const a = toolBefore('e1');
  assert.deepEqual(
    brief(await check([intercept(a, { effects: ['deny'] }), ok('e1', [{ type: 'deny', reason: 'no' }])])),
    [],
  );
  assert.deepEqual(
    brief(
      await check([
        intercept(a, { effects: ['deny'] }),
        ok('e1', [{ type: 'allow' }, { type: 'message', text: 'hi' }]),
      ]),
    ),
    [
      'error:ahp/effect-not-advertised@2/result/effects/0/type',
      'error:ahp/effect-not-advertised@2/result/effects/1/type',
    ],
  );
  const o = outbound('e2');
  const mergeOnly = { effects: ['modify'], modify: { content: { replace: false, merge: true } } };
  assert.deepEqual(brief(await check([intercept(o, mergeOnly), ok('e2', [replace([msg('assistant', 'x', 'm2')])])])), [
    'error:ahp/effect-not-advertised@2/result/effects/0/operation',
  ]);
  // a malformed advertisement is the request's problem (reported there), not every effect's
  const noCaps = intercept(a);
  delete (noCaps.params as Record<string, unknown>).capabilities;
  assert.ok(
    !brief(await check([noCaps, ok('e1', [{ type: 'allow' }])])).some((b) => b.includes('effect-not-advertised')),
  );
});

test('modify in context: elicitation answer object, outbound message list, atomic rejection', async () => {
  const req = elicRequest('r1');
  const res = elicResult('r2', 'r1', { content: { name: 'Ada', notify: true } });
  const pre = [intercept(req), ok('r1'), intercept(res)];
  assert.deepEqual(brief(await check([...pre, ok('r2', [merge({ count: 2 })])])), []);
  assert.deepEqual(brief(await check([...pre, ok('r2', [merge([msg('assistant')])])])), [
    'error:ahp/modify-invalid@4/result/effects/0/value',
  ]);
  assert.deepEqual(brief(await check([...pre, ok('r2', [merge({ count: 9 })])])), [
    'error:ahp/modify-invalid@4/result/effects/0/value/count',
  ]);
  assert.deepEqual(
    brief(await check([...pre, ok('r2', [replace({ name: 'Ada' })])])),
    ['error:ahp/modify-invalid@4/result/effects/0/value'],
    'replace drops a required field',
  );
  // the answer of a declined result or a metadata view is not exposed
  const declined = elicResult('r3', 'r1', { action: 'decline' });
  assert.deepEqual(
    brief(await check([intercept(req), ok('r1'), intercept(declined), ok('r3', [merge({ name: 'x' })])])),
    ['error:ahp/modify-invalid@4/result/effects/0/target'],
  );
  const view = elicResult('r4', 'r1');
  (view.elicitation as Record<string, unknown>).result = {
    id: 'v',
    kind: 'text',
    mediaType: 'text/plain',
    selection: 'metadata',
    size: 10,
  };
  assert.deepEqual(brief(await check([intercept(req), ok('r1'), intercept(view), ok('r4', [merge({ name: 'x' })])])), [
    'error:ahp/modify-invalid@4/result/effects/0/target',
  ]);
  // outbound: objects rejected, lists fine; [valid modify, invalid effect] rejected as a whole
  const o = outbound('o1');
  assert.deepEqual(brief(await check([intercept(o), ok('o1', [merge([msg('assistant', 'more', 'm2')])])])), []);
  assert.deepEqual(brief(await check([intercept(o), ok('o1', [merge({ name: 'x' })])])), [
    'error:ahp/modify-invalid@2/result/effects/0/value',
  ]);
  // the valid modify of a rejected response is not applied, but the one defect is the invalid effect: one finding
  // (base/composition.md §Atomic effect acceptance; README §Decisions on a rejected response's valid effects)
  const good = merge([msg('assistant', 'more', 'm2')]);
  assert.deepEqual(brief(await check([intercept(o), ok('o1', [good, { type: 'allow' }])])), [
    'error:ahp/effect-not-advertised@2/result/effects/1/type',
  ]);
  assert.deepEqual(brief(await check([intercept(o), ok('o1', [good, { type: 'com.example.x' }])])), [
    'error:ahp/effect-not-advertised@2/result/effects/1/type',
  ]);
  // a schema-invalid effect: its schema finding alone, none on the valid modify beside it
  assert.deepEqual(brief(await check([intercept(o), ok('o1', [good, { type: 'message', text: 5 }, good])])), [
    'error:ahp/effect@2/result/effects/1/text',
  ]);
  // a modify that is itself invalid next to another invalid effect: each defect once
  assert.deepEqual(brief(await check([intercept(o), ok('o1', [merge({ name: 'x' }), { type: 'allow' }])])), [
    'error:ahp/effect-not-advertised@2/result/effects/1/type',
    'error:ahp/modify-invalid@2/result/effects/0/value',
  ]);
});

test('elicitation modes must be advertised when an advertisement is in the stream', async () => {
  const url = elicRequest('u1', { mode: 'url', body: URL_REQUEST });
  assert.deepEqual(brief(await check([intercept(url), ok('u1')])), [
    'error:ahp/elicitation-mode-not-advertised@1/params/event/elicitation/mode',
  ]);
  assert.deepEqual(
    brief(await check([intercept(url, { effects: ['deny'], elicitation: { form: {}, url: {} } }), ok('u1')])),
    [],
  );
  assert.deepEqual(brief(await check([intercept(url, { effects: ['deny'], elicitation: {} }), ok('u1')])), [
    'error:ahp/elicitation-mode-not-advertised@1/params/event/elicitation/mode',
  ]);
  // no advertisement at all: nothing to compare with
  assert.deepEqual(brief(await check([observe(url)])), []);
  const manifest = capsResponse('d1', [
    {
      event: 'user.elicitation.request',
      modes: ['intercept', 'observe'],
      capabilities: { effects: ['deny'], elicitation: { form: {} } },
    },
  ]);
  assert.deepEqual(brief(await check([capsRequest('d1'), manifest, observe(url), observe(elicRequest('f1'))])), [
    'error:ahp/elicitation-mode-not-advertised@3/params/event/elicitation/mode',
  ]);
  // reported once per event, not again on its observation
  assert.deepEqual(brief(await check([intercept(url), ok('u1'), observe(url)])), [
    'error:ahp/elicitation-mode-not-advertised@1/params/event/elicitation/mode',
  ]);
});

test('elicitation pairs: parent request, same server, same mode', async () => {
  const req = observe(elicRequest('r1'));
  assert.deepEqual(brief(await check([req, observe(elicResult('r2', 'r1', { action: 'cancel' }))])), []);
  assert.deepEqual(brief(await check([req, observe(elicResult('r2', 'r1', { action: 'cancel', server: 'mcp:y' }))])), [
    'error:ahp/elicitation-server-mismatch@2/params/event/elicitation/server',
  ]);
  assert.deepEqual(brief(await check([req, observe(elicResult('r2', 'r1', { action: 'cancel', mode: 'url' }))])), [
    'error:ahp/elicitation-result-mode@2/params/event/elicitation/mode',
  ]);
  assert.deepEqual(
    brief(await check([observe(toolBefore('t1')), observe(elicResult('r2', 't1', { action: 'cancel' }))])),
    ['error:ahp/elicitation-unpaired@2/params/event/parentEventId'],
  );
  assert.deepEqual(brief(await check([observe(elicResult('r2', undefined, { action: 'cancel' }))])), [
    'warning:ahp/elicitation-uncorrelated@1/params/event',
  ]);
  // the request of another source is not the parent: a result naming it is miscorrelated (error), and its lineage stays unverified (info)
  const other = observe({ ...elicRequest('r1'), source: SRC2 });
  assert.deepEqual(brief(await check([other, observe(elicResult('r2', 'r1', { action: 'cancel' }))])), [
    'error:ahp/elicitation-source-mismatch@2/params/event/parentEventId',
    'info:ahp/parent-unknown@2/params/event/parentEventId',
  ]);
  // a parent nowhere in the input stays a lineage info only
  assert.deepEqual(brief(await check([observe(elicResult('r2', 'r9', { action: 'cancel' }))])), [
    'info:ahp/parent-unknown@1/params/event/parentEventId',
  ]);
});

test('elicitation correlation: a missing parent is an error when the request is in the input, a warning when it is not', async () => {
  const req = observe(elicRequest('r1'));
  const orphan = (id: string, opts: Parameters<typeof elicResult>[2] = {}) =>
    observe(elicResult(id, undefined, { action: 'cancel', ...opts }));
  assert.deepEqual(brief(await check([req, orphan('r2')])), ['error:ahp/elicitation-parent-missing@2/params/event']);
  assert.deepEqual(await runRule('ahp/elicitation-parent-missing', [req, orphan('r2')]), [
    'error:ahp/elicitation-parent-missing@2/params/event',
  ]);
  // answered already: a later orphan result cannot be taken for its answer
  assert.deepEqual(brief(await check([req, observe(elicResult('r2', 'r1', { action: 'cancel' })), orphan('r3')])), [
    'warning:ahp/elicitation-uncorrelated@3/params/event',
  ]);
  // another server or mode is not a matching request
  assert.deepEqual(brief(await check([req, orphan('r2', { server: 'mcp:y' })])), [
    'warning:ahp/elicitation-uncorrelated@2/params/event',
  ]);
  assert.deepEqual(brief(await check([req, orphan('r2', { mode: 'url' })])), [
    'warning:ahp/elicitation-uncorrelated@2/params/event',
  ]);
  // another session: the parent is named but belongs elsewhere
  const inSession = (e: Record<string, unknown>, session: string) => ({ ...e, session: { id: session } });
  // the class: (request session, result session) -> verdict; a result drops or changes the
  // session of its request at its peril, a request without one is never compared
  const table: [string | undefined, string | undefined, string[]][] = [
    ['s1', 's1', []],
    ['s1', 's2', ['error:ahp/elicitation-session-mismatch@2/params/event/session/id']],
    ['s1', undefined, ['error:ahp/elicitation-session-mismatch@2/params/event']],
    [undefined, 's1', []],
    [undefined, undefined, []],
  ];
  for (const [rq, rs, want] of table) {
    for (const action of ['cancel', 'decline'] as const) {
      const request = rq === undefined ? elicRequest('r1') : inSession(elicRequest('r1'), rq);
      const result =
        rs === undefined ? elicResult('r2', 'r1', { action }) : inSession(elicResult('r2', 'r1', { action }), rs);
      assert.deepEqual(
        brief(await check([observe(request), observe(result)])),
        want,
        `request ${rq}, result ${rs}, ${action}`,
      );
      assert.deepEqual(await runRule('ahp/elicitation-session-mismatch', [observe(request), observe(result)]), want);
    }
  }
});

test('an accepted form answer must satisfy the request form; unverifiable answers are info', async () => {
  const req = observe(elicRequest('r1'));
  const res = (content: unknown, id = 'r2') => observe(elicResult(id, 'r1', { content }));
  assert.deepEqual(brief(await check([req, res({ name: 'Ada', notify: false, team: 'dev', count: 5 })])), []);
  const pointer = '/params/event/elicitation/result/text';
  assert.deepEqual(brief(await check([req, res({ name: 'Ada' })])), [
    `error:ahp/elicitation-content-schema@2${pointer}`,
  ]);
  assert.deepEqual(brief(await check([req, res({ name: 'Ada', notify: true, team: 'sales' })])), [
    `error:ahp/elicitation-content-schema@2${pointer}`,
  ]);
  const below = await check([req, res({ name: 'Ada', notify: true, count: 0 })]);
  assert.deepEqual(
    below.map((f) => [f.args?.innerPointer, f.args?.keyword]),
    [['/content/count', 'minimum']],
  );
  assert.deepEqual(brief(await check([res({ name: 'Ada', notify: true })])), [
    `info:ahp/elicitation-content-unverifiable@1${pointer}`,
    'info:ahp/parent-unknown@1/params/event/parentEventId',
  ]);
  const metaReq = observe(
    elicRequest('r1', { part: { id: 'q', kind: 'text', mediaType: 'text/plain', selection: 'metadata', size: 12 } }),
  );
  assert.deepEqual(brief(await check([metaReq, res({ name: 'Ada', notify: true })])), [
    `info:ahp/elicitation-content-unverifiable@2${pointer}`,
  ]);
  // an intercepted result and its unchanged observation: checked once; an edited observation again
  const r = elicResult('r2', 'r1', { content: { name: 'Ada' } });
  const fixed = elicResult('r2', 'r1', { content: { name: 'Ada', notify: true } });
  const broken = elicResult('r2', 'r1', { content: { name: 'Ada', notify: 'x' } });
  assert.deepEqual(brief(await check([req, intercept(r), ok('r2'), observe(r), observe(fixed)])), [
    `error:ahp/elicitation-content-schema@2${pointer}`,
  ]);
  assert.deepEqual(brief(await check([req, intercept(r), ok('r2'), observe(broken)])), [
    `error:ahp/elicitation-content-schema@2${pointer}`,
    `error:ahp/elicitation-content-schema@4${pointer}`,
  ]);
});

test('lineage: unknown parents at the end (late parents are fine), cycles, source scope', async () => {
  assert.deepEqual(brief(await check([observe(toolAfter('a2', 'a1')), observe(toolBefore('a1'))])), []);
  assert.deepEqual(brief(await check([observe(toolAfter('a2', 'nope')), observe(toolBefore('a3'))])), [
    'info:ahp/parent-unknown@1/params/event/parentEventId',
  ]);
  assert.deepEqual(brief(await check([observe(toolBefore('a1', { parentEventId: 'a1' }))])), [
    'error:ahp/parent-cycle@1/params/event/parentEventId',
  ]);
  const three = [
    observe(toolBefore('a1', { parentEventId: 'a3' })),
    observe(toolBefore('a2', { parentEventId: 'a1' })),
    observe(toolBefore('a3', { parentEventId: 'a2' })),
  ];
  const found = await check(three);
  assert.deepEqual(brief(found), ['error:ahp/parent-cycle@3/params/event/parentEventId']);
  assert.deepEqual(
    found[0]!.related?.map((l) => l.line),
    [2, 1],
  );
  // the same ids in another source form no cycle
  assert.deepEqual(
    brief(
      await check([
        observe(toolBefore('a1', { parentEventId: 'a2' })),
        observe(toolBefore('a2', { parentEventId: 'a1' }, 0, SRC2)),
      ]),
    ),
    ['info:ahp/parent-unknown@1/params/event/parentEventId', 'info:ahp/parent-unknown@2/params/event/parentEventId'],
  );
});

test('no config.change.after for a denied config.change.before', async () => {
  const deny = { type: 'deny', reason: 'not now' };
  assert.deepEqual(
    brief(
      await check([
        intercept(cfgBefore('c1')),
        ok('c1', [{ type: 'message', text: 'noted' }]),
        observe(cfgAfter('c2', 'c1')),
      ]),
    ),
    [],
  );
  assert.deepEqual(brief(await check([intercept(cfgBefore('c1')), ok('c1', [deny]), observe(cfgAfter('c2', 'c1'))])), [
    'error:ahp/config-after-denied@3/params/event/parentEventId',
  ]);
  // a rejected response denies nothing by itself
  assert.deepEqual(
    brief(
      await check([intercept(cfgBefore('c1')), ok('c1', [deny, { type: 'allow' }]), observe(cfgAfter('c2', 'c1'))]),
    ),
    ['error:ahp/effect-not-advertised@2/result/effects/1/type'],
  );
  // a fail-closed operational failure is a synthetic denial; fail-open is not
  const failure = (policy: string) =>
    observe(
      ev('f1', 'hook.failure', {
        parentEventId: 'c1',
        failure: { backendId: 'com.example.p', reason: 'timeout', policy },
      }),
    );
  assert.deepEqual(
    brief(await check([intercept(cfgBefore('c1')), fail('c1'), failure('fail-closed'), observe(cfgAfter('c2', 'c1'))])),
    ['error:ahp/config-after-denied@4/params/event/parentEventId'],
  );
  assert.deepEqual(
    brief(await check([intercept(cfgBefore('c1')), fail('c1'), failure('fail-open'), observe(cfgAfter('c2', 'c1'))])),
    [],
  );
});

test('event ids: identical retries and views of one event are fine; anything else is reuse', async () => {
  const a = toolBefore('e1');
  const reordered = Object.fromEntries(Object.entries(a).reverse());
  assert.deepEqual(brief(await check([intercept(a), intercept(reordered), ok('e1'), observe(a)])), []);
  assert.deepEqual(
    brief(
      await check([
        intercept(a),
        intercept({ ...a, tool: { name: 'Bash', kind: 'shell', input: { command: 'rm' }, origin: 'native' } }),
        ok('e1'),
      ]),
    ),
    ['error:ahp/event-id-reuse@2/params/event/tool/input/command'],
  );
  assert.deepEqual(brief(await check([observe(a), observe({ ...a, time: '2026-09-15T12:01:00Z' })])), [
    'error:ahp/event-id-reuse@2/params/event/time',
  ]);
  assert.deepEqual(brief(await check([observe(a), observe(outbound('e1'))])), [
    'error:ahp/event-id-reuse@2/params/event/type',
  ]);
  // the same id from another source is another event
  assert.deepEqual(brief(await check([observe(a), observe({ ...outbound('e1'), source: SRC2 })])), []);
  // an observation may carry the effective (edited) content of an intercepted event
  const o = outbound('o1');
  assert.deepEqual(
    brief(
      await check([
        intercept(o),
        ok('o1', [merge([msg('assistant', 'more', 'm2')])]),
        observe(outbound('o1', [msg('assistant'), msg('assistant', 'more', 'm2')])),
      ]),
    ),
    [],
  );
  // big integers keep their exact text in the identity digest
  const big = (n: string) =>
    `{"jsonrpc":"2.0","method":"hooks/observe","params":{"protocolVersion":"draft","event":{"id":"b1","source":"urn:test:harness","time":"2026-09-15T12:00:00Z","type":"tool.before","tool":{"name":"Bash","kind":"shell","input":{"n":${n}},"origin":"native"},"call":{"id":"c"},"path":"native"}}}`;
  assert.deepEqual(
    brief(await check([intercept(toolBefore('x')), ok('x'), big('9007199254740993'), big('9007199254740993')])),
    [],
  );
});

test('requests without a response are summarised once at the end', async () => {
  const f = await check([intercept(toolBefore('e1')), capsRequest('d1'), intercept(toolBefore('e2')), ok('e2')]);
  assert.deepEqual(brief(f), ['info:ahp/open-at-end@1/id']);
  assert.equal(f[0]!.args?.open, 2);
  assert.deepEqual(
    f[0]!.related?.map((l) => l.line),
    [1, 2],
  );
});

test('caps: a finding, never a crash; state is dropped on completion', async () => {
  const reqs = [intercept(toolBefore('e1')), intercept(toolBefore('e2')), intercept(toolBefore('e3'))];
  // completed pairs free their slot: three sequential exchanges fit in one pending slot
  assert.deepEqual(
    brief(await check([reqs[0], ok('e1'), reqs[1], ok('e2'), reqs[2], ok('e3')], { maxPending: 1 })),
    [],
  );
  // overlapping requests exceed it: reported once; untracked responses are not called unmatched
  assert.deepEqual(brief(await check([...reqs, ok('e1'), ok('e2'), ok('e3')], { maxPending: 1 })), [
    'warning:ahp/state-cap@2',
  ]);
  const many = Array.from({ length: 6 }, (_, i) => observe(toolBefore(`n${i}`)));
  assert.deepEqual(brief(await check(many, { maxEvents: 3 })), ['warning:ahp/state-cap@4']);
});

test('values nested deeper than the call stack are digested and compared without overflow', async () => {
  const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
  const request = JSON.stringify(intercept(toolBefore('d1'))).replace('{"command":"ls"}', `{"command":${deep}}`);
  const text = [request, request, JSON.stringify(ok('d1'))].join('\n') + '\n';
  const findings: string[] = [];
  await runPipeline(
    [
      {
        source: 'deep.jsonl',
        open: async function* () {
          yield text;
        },
      },
    ],
    ahpDriver(),
    (f) => findings.push(f.ruleId),
    { maxDepth: 1_000_000 },
  );
  assert.deepEqual(findings, [], 'an identical retry of a deep event is recognised');
});

test('odd but wire-valid shapes never crash the rules', async () => {
  const weird = [
    intercept(
      {
        id: 'w1',
        source: 'urn:x',
        time: '2026-09-15T12:00:00Z',
        type: 'user.elicitation.result',
        elicitation: 'not an object',
      },
      { effects: ['modify'], modify: { content: { replace: true, merge: true } } },
    ),
    ok('w1', [merge({ a: 1 })]),
    intercept({ id: 'w2', source: 'urn:x', time: '2026-09-15T12:00:00Z', type: 'tool.before' }, { effects: 'nope' }),
    { jsonrpc: '2.0', id: 'w2', result: { protocolVersion: 'draft', effects: 'nope' } },
    observe({ id: 5, source: 'urn:x', type: 'tool.after', parentEventId: 7 }),
    observe(elicResult('w3', 'w3', { result: { action: 'accept', content: [1, 2] } })),
    observe({ ...elicRequest('w4'), elicitation: { server: 'mcp:x', mode: 'form', request: text('{"message":') } }),
    observe(elicResult('w5', 'w4', { content: { name: 'x' } })),
  ];
  const f = await check(weird);
  assert.ok(f.every((x) => typeof x.ruleId === 'string'));
});

test('an HTTP response body needs no request in the input (AHP-HTTP-001: the exchange correlates it); a stdio capture still says it once', async () => {
  const bodies = async (objs: readonly unknown[], name = (i: number) => `resp-${i}.json`) => {
    const findings: Finding[] = [];
    await runPipeline(
      objs.map((o, i) => ({
        source: name(i),
        open: async function* () {
          yield `${JSON.stringify(o)}\n`;
        },
      })),
      ahpDriver(),
      (f) => findings.push(f),
    );
    return brief(findings);
  };
  assert.deepEqual(await bodies([ok('a')]), []);
  assert.deepEqual(await bodies([ok('a'), fail('b')]), []);
  // a request body in the input still correlates: a response naming another id is unmatched
  assert.deepEqual(await bodies([capsRequest('d1'), fail('d2')]), ['error:ahp/response-unmatched@1/id']);
  // the same lone response read as a stdio capture (one direction of the traffic): the info, once
  assert.deepEqual(await bodies([ok('a'), ok('b')], (i) => `capture-${i}.jsonl`), [
    'info:ahp/response-uncorrelated@1/id',
  ]);
});

test('an intercept request whose capabilities have no elicitation member grants no mode', async () => {
  const bare = intercept(elicRequest('r1'), { effects: ['deny'] });
  assert.deepEqual(brief(await check([bare, ok('r1')])), [
    'error:ahp/elicitation-mode-not-advertised@1/params/event/elicitation/mode',
  ]);
  const granted = intercept(elicRequest('r1'), { effects: ['deny'], elicitation: { form: {} } });
  assert.deepEqual(brief(await check([granted, ok('r1')])), []);
});
