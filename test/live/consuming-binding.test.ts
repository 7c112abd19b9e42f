// The checks with a form on each consuming binding (filter, capture-ceiling, resume, replay-all, redelivery, eviction,
// byte-identity) run over the one an endpoint offers: a relay naming only a `socket` (AEP-0003 §1: no binding is
// mandatory) is judged by its WebSocket subscribe `filter`, `capture` and `from` (§6.5, §7), an SSE-only one by SSE,
// fail-closed included (§6.2 #1), and one naming neither is skipped saying so. A subscribe refused `limit-exceeded`
// (§6.5: the endpoint's own limit) leaves its binding unjudged, never failed. Servers listen on 127.0.0.1 only and
// stop inside their test.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { checkEndpoint } from '../../src/live/check.ts';
import { runCli } from '../cli/helpers.ts';
import { type Broken, startEndpoint, TOKEN } from './endpoint.ts';

const TIMEOUT = 5000;
const CHECKS = [
  'redelivery',
  'filter',
  'capture-ceiling',
  'resume',
  'replay-all',
  'eviction',
  'byte-identity',
] as const;
type Found = { ruleId: string; severity: string; message: string; spec?: string };
const show = (fs: Found[]) => fs.map((f) => `${f.ruleId}: ${f.message}`).join('\n');
const errors = (fs: Found[]) => [
  ...new Set(fs.filter((f) => f.severity !== 'info' && f.ruleId !== 'aep/live-skipped').map((f) => f.ruleId)),
];

for (const only of ['wsOnly', 'sseOnly'] as const)
  test(`a compliant ${only === 'wsOnly' ? 'WebSocket' : 'SSE'}-only relay runs and passes ${CHECKS.join(', ')}`, async () => {
    const ep = await startEndpoint(undefined, { [only]: true });
    try {
      const r = await checkEndpoint(ep.url, { token: TOKEN, timeoutMs: TIMEOUT, checks: [...CHECKS] });
      assert.deepEqual(errors(r.findings), [], show(r.findings));
      assert.deepEqual(r.skipped, [], show(r.findings));
      assert.deepEqual(r.ran, [...CHECKS]);
      // the Events judged came over the binding offered, and are the run's record
      assert.ok(r.delivered.length > 0);
    } finally {
      await ep.close();
    }
  });

test('a WebSocket-only relay: the SSE-only checks are still skipped naming the missing stream', async () => {
  const ep = await startEndpoint(undefined, { wsOnly: true });
  try {
    const r = await checkEndpoint(ep.url, { token: TOKEN, timeoutMs: TIMEOUT, checks: ['fanout', 'filter'] });
    assert.deepEqual(r.ran, ['filter'], show(r.findings));
    assert.match(r.checks.find((c) => c.check === 'fanout')!.reason!, /names no "stream" endpoint \(SSE\)/);
  } finally {
    await ep.close();
  }
});

// each broken the same way on every binding: over the WebSocket alone, the finding names it and cites §6.5
for (const [variant, check, rule, says] of [
  [
    'ignores-filter',
    'filter',
    'aep/live-filter',
    /over the WebSocket with filter \{"type":"error\.raised"\} received a progress\.status Event/,
  ],
  [
    'severity-by-name',
    'filter',
    'aep/live-filter',
    /over the WebSocket .* did not receive an Event of severity critical/,
  ],
  [
    'filter-fail-open',
    'filter',
    'aep/live-filter',
    /filter names "data" \(not filterable\) was answered a "subscribed" frame/,
  ],
  [
    'up-levels',
    'capture-ceiling',
    'aep/live-capture-ceiling',
    /over the WebSocket with capture=metadata received an Event at capture full/,
  ],
  [
    'keeps-content',
    'capture-ceiling',
    'aep/live-capture-ceiling',
    /over the WebSocket with capture=metadata received the progress\.status Event .* at \/data\/message/,
  ],
  ['ws-from-inclusive', 'resume', 'aep/live-resume', /Resuming by subscribe\.from after seq (\d+) delivered seq \1, /],
] as [Broken, (typeof CHECKS)[number], string, RegExp][])
  test(`a WebSocket-only relay broken as ${variant} fails ${check} (${rule}, AEP-0003 §6.5)`, async () => {
    const ep = await startEndpoint(variant, { wsOnly: true });
    try {
      const r = await checkEndpoint(ep.url, { token: TOKEN, timeoutMs: TIMEOUT, checks: [check] });
      assert.deepEqual(r.ran, [check], show(r.findings));
      assert.deepEqual(errors(r.findings), [rule], show(r.findings));
      const found = r.findings.filter((f) => f.ruleId === rule);
      assert.ok(
        found.some((f) => says.test(f.message)),
        `${says} in\n${show(r.findings)}`,
      );
      for (const f of found) assert.match(String(f.spec), /§6\.5/);
    } finally {
      await ep.close();
    }
  });

// the checks moved off SSE alone: over the WebSocket alone, each broken the same way fails naming the binding
for (const [variant, check, rule, says, opts] of [
  [
    'fanout-dedupes',
    'redelivery',
    'aep/live-redelivery-hop',
    /reached a live subscriber over the WebSocket 1 time\(s\)/,
    {},
  ],
  [
    'exhausted-late',
    'eviction',
    'aep/live-eviction',
    /Resuming by subscribe\.from from an evicted position delivered an Event before replay-exhausted/,
    {},
  ],
  [
    'reserializes',
    'byte-identity',
    'aep/live-byte-identity',
    /delivered by the WebSocket with other bytes than posted/,
    { identity: 'strict' },
  ],
] as [Broken, (typeof CHECKS)[number], string, RegExp, { identity?: 'strict' }][])
  test(`a WebSocket-only relay broken as ${variant} fails ${check} over the WebSocket (${rule})`, async () => {
    const ep = await startEndpoint(variant, { wsOnly: true, bufferDepth: 5 });
    try {
      const r = await checkEndpoint(ep.url, { token: TOKEN, timeoutMs: TIMEOUT, checks: [check], ...opts });
      assert.deepEqual(r.ran, [check], show(r.findings));
      assert.deepEqual(errors(r.findings), [rule], show(r.findings));
      assert.ok(
        r.findings.some((f) => f.ruleId === rule && says.test(f.message)),
        `${says} in\n${show(r.findings)}`,
      );
    } finally {
      await ep.close();
    }
  });

const LIMIT = { code: 'limit-exceeded', detail: 'at most 0 concurrent subscriptions' };

test('a WebSocket-only relay refusing every subscribe limit-exceeded: the consuming checks are skipped naming the code and the limit (AEP-0003 §6.5)', async () => {
  const ep = await startEndpoint(undefined, { wsOnly: true, refuseSubscribe: LIMIT });
  const checks = ['redelivery', 'filter', 'capture-ceiling', 'resume', 'replay-all', 'byte-identity'] as const;
  try {
    const r = await checkEndpoint(ep.url, { token: TOKEN, timeoutMs: TIMEOUT, checks: [...checks] });
    assert.deepEqual(errors(r.findings), [], show(r.findings));
    assert.deepEqual(r.ran, [], show(r.findings));
    assert.deepEqual(r.skipped, [...checks]);
    for (const c of checks)
      assert.match(
        r.checks.find((o) => o.check === c)!.reason!,
        /a WebSocket subscribe .*was refused with code "limit-exceeded" \(the limit named "at most 0 concurrent subscriptions"\): a resource limit of the endpoint's own \(AEP-0003 §6\.5\)/,
      );
  } finally {
    await ep.close();
  }
});

test('a relay offering both bindings, refusing a WebSocket subscribe limit-exceeded: judged over SSE, the WebSocket named as left out', async () => {
  const ep = await startEndpoint(undefined, { refuseSubscribe: { code: 'limit-exceeded' } });
  try {
    const r = await checkEndpoint(ep.url, { token: TOKEN, timeoutMs: TIMEOUT, checks: ['filter', 'resume'] });
    assert.deepEqual(errors(r.findings), [], show(r.findings));
    assert.deepEqual(r.ran, ['filter', 'resume'], show(r.findings));
    // filter's type and severity subscriptions, and resume's subscribe.from
    const left = r.findings.filter((f) =>
      /^Part of the (filter|resume) check was not judged over the WebSocket/.test(f.message),
    );
    assert.equal(left.length, 3, show(r.findings));
    for (const f of left) assert.deepEqual([f.ruleId, f.severity], ['aep/live-skipped', 'info']);
    for (const f of left) assert.match(f.message, /"limit-exceeded" \(no detail naming the limit\)/);
  } finally {
    await ep.close();
  }
});

test('a relay offering both bindings whose WebSocket subscription delivers nothing: redelivery names the WebSocket unjudged; eviction and byte-identity fail over it, never pass', async () => {
  const ep = await startEndpoint('ws-silent', { bufferDepth: 5 });
  try {
    const checks = ['redelivery', 'eviction', 'byte-identity'] as const;
    const r = await checkEndpoint(ep.url, { token: TOKEN, timeoutMs: 1500, checks: [...checks] });
    assert.deepEqual(r.ran, [...checks], show(r.findings));
    const left = r.findings.filter((f) => f.ruleId === 'aep/live-skipped');
    assert.deepEqual(
      left.map((f) => f.message),
      [
        'Part of the redelivery check was not judged over the WebSocket: the Events posted were not delivered, so a redelivery cannot be told there.',
      ],
    );
    const status = (c: string) => r.checks.find((o) => o.check === c)!;
    assert.deepEqual([status('redelivery').status, status('redelivery').infos], ['passed', 1]);
    assert.deepEqual(errors(r.findings), ['aep/live-eviction', 'aep/live-byte-identity'], show(r.findings));
    for (const f of r.findings.filter((f) => f.severity === 'error'))
      assert.match(f.message, /WebSocket|subscribe\.from/);
  } finally {
    await ep.close();
  }
});

test('aep live text: a check run with one binding left unjudged shows that finding and is listed partly judged, not passed', async () => {
  const ep = await startEndpoint(undefined, { refuseSubscribe: LIMIT });
  try {
    const r = await runCli('aep', [
      'live',
      ep.url,
      '--token',
      TOKEN,
      '--timeout',
      String(TIMEOUT),
      '--checks',
      'redelivery',
    ]);
    assert.equal(r.code, 0, r.stderr + r.stdout);
    assert.match(r.stdout, /^ {2}passed {3}discovery$/m);
    assert.match(r.stdout, /^ {2}partly {3}redelivery: passed, not judged over the WebSocket \(1 info\)$/m);
    assert.match(
      r.stdout,
      /aep\/live-skipped {2}Part of the redelivery check was not judged over the WebSocket: a WebSocket subscribe .* "limit-exceeded" \(the limit named "at most 0 concurrent subscriptions"\)/,
    );
  } finally {
    await ep.close();
  }
});

test('a WebSocket-only relay advertising no buffer, refusing subscribe.from limit-exceeded: resume is skipped naming the refusal too', async () => {
  const ep = await startEndpoint('no-buffer-advert', { wsOnly: true, refuseSubscribe: LIMIT });
  try {
    const r = await checkEndpoint(ep.url, { token: TOKEN, timeoutMs: TIMEOUT, checks: ['resume'] });
    assert.deepEqual(r.skipped, ['resume'], show(r.findings));
    assert.match(
      r.checks[r.checks.length - 1]!.reason!,
      /advertises no replay buffer .*; whether it keeps one unadvertised \(aep\/live-buffer-advertised\) was not judged: a WebSocket subscribe .* "limit-exceeded"/,
    );
  } finally {
    await ep.close();
  }
});

test('a limit-exceeded refusal with a null detail names no limit, never a limit named "null"', async () => {
  const ep = await startEndpoint(undefined, {
    wsOnly: true,
    refuseSubscribe: { code: 'limit-exceeded', detail: null },
  });
  try {
    const r = await checkEndpoint(ep.url, { token: TOKEN, timeoutMs: TIMEOUT, checks: ['redelivery'] });
    const reason = r.checks.find((c) => c.check === 'redelivery')!.reason!;
    assert.match(reason, /"limit-exceeded" \(no detail naming the limit\)/);
    assert.doesNotMatch(reason, /null/);
  } finally {
    await ep.close();
  }
});

test('a stream beside a socket on another origin: redelivery, resume, replay-all and eviction run over SSE and name the WebSocket unjudged', async () => {
  const ep = await startEndpoint('plain-off-host', { bufferDepth: 5 });
  try {
    const checks = ['redelivery', 'resume', 'replay-all', 'eviction'] as const;
    const r = await checkEndpoint(ep.url, { token: TOKEN, timeoutMs: TIMEOUT, checks: [...checks] });
    assert.deepEqual(r.ran, [...checks], show(r.findings));
    // the plain ws:// socket off-host is discovery's own finding (AEP-0003 §8.1), none of these checks'
    assert.deepEqual(errors(r.findings), ['aep/live-tls-off-host'], show(r.findings));
    for (const c of checks)
      assert.ok(
        r.findings.some(
          (f) =>
            f.message.startsWith(`Part of the ${c} check was not judged over the WebSocket: `) &&
            f.message.includes('"socket" endpoint on another origin (ws://aep.example.com)'),
        ),
        `${c} in\n${show(r.findings)}`,
      );
  } finally {
    await ep.close();
  }
});

test('a WebSocket-only relay refusing a subscribe with another code fails the check (refused), never skips it', async () => {
  const ep = await startEndpoint(undefined, { wsOnly: true, refuseSubscribe: { code: 'unknown-dialect' } });
  try {
    const r = await checkEndpoint(ep.url, { token: TOKEN, timeoutMs: TIMEOUT, checks: ['redelivery', 'filter'] });
    assert.deepEqual(r.ran, ['redelivery', 'filter'], show(r.findings));
    assert.deepEqual(errors(r.findings), ['aep/live-redelivery-hop', 'aep/live-filter'], show(r.findings));
    assert.match(
      show(r.findings),
      /A WebSocket subscribe .* was answered an "error" frame with code "unknown-dialect"/,
    );
  } finally {
    await ep.close();
  }
});

test('an SSE-only relay that takes a filter naming "data" fails filter over SSE (AEP-0003 §6.2 #1, fail closed)', async () => {
  const ep = await startEndpoint('filter-fail-open', { sseOnly: true });
  try {
    const r = await checkEndpoint(ep.url, { token: TOKEN, timeoutMs: TIMEOUT, checks: ['filter'] });
    assert.deepEqual(errors(r.findings), ['aep/live-filter'], show(r.findings));
    assert.match(
      show(r.findings),
      /GET \/stream with a filter naming "data" \(not filterable\) was answered 200 text\/event-stream, not refused/,
    );
  } finally {
    await ep.close();
  }
});

test('an SSE-only relay resuming inclusively by from fails resume over SSE', async () => {
  const ep = await startEndpoint('sse-from-inclusive', { sseOnly: true });
  try {
    const r = await checkEndpoint(ep.url, { token: TOKEN, timeoutMs: TIMEOUT, checks: ['resume'] });
    assert.deepEqual(errors(r.findings), ['aep/live-resume'], show(r.findings));
    assert.match(show(r.findings), /Resuming by the from parameter after seq/);
  } finally {
    await ep.close();
  }
});

test('a relay naming neither a stream nor a socket: the consuming checks are skipped saying so, nothing asked', async () => {
  let asked = 0;
  const server = createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/events') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ aep: ['0.1'], endpoints: { events: '/events' } }));
    }
    // discovery's own /.well-known/aep (the SHOULD at an origin root) aside
    if (req.url !== '/.well-known/aep') asked++;
    req.resume();
    req.on('end', () => res.writeHead(404).end());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const r = await checkEndpoint(url, { timeoutMs: TIMEOUT, checks: [...CHECKS] });
    assert.deepEqual(r.skipped, [...CHECKS]);
    for (const c of CHECKS)
      assert.match(
        r.checks.find((o) => o.check === c)!.reason!,
        /names neither a "stream" \(SSE\) nor a "socket" \(WebSocket\) endpoint/,
      );
    assert.equal(asked, 0);
  } finally {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  }
});
