// Every request a live check sends that AEP-0003 lets an endpoint refuse `limit-exceeded` (§6.5: a subscribe, "Limits
// are the endpoint's own"; §4.1 #2: a roster request, refused with the §6.5 pattern) gets one answer
// (buffer-run.ts `limited`): the check is skipped naming the code and the limit, or, where part of it was judged, the
// part left is an aep/live-skipped `binding` info; never a pass, never the check's own refusal finding. A `detail`
// names a limit only as aep/live-limit-detail reads it (a string with text, an object or array with a member). The
// text and html reports call a check with a binding left unjudged "partly judged", never passed. Servers listen on
// 127.0.0.1 only and stop inside their test.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkEndpoint } from '../../src/live/check.ts';
import type { LiveCheck } from '../../src/live/rules.ts';
import { runCli } from '../cli/helpers.ts';
import { startEndpoint, TOKEN } from './endpoint.ts';

const TIMEOUT = 5000;
const LIMIT = { code: 'limit-exceeded', detail: 'at most 1 concurrent subscription' };
const NAMED =
  /"limit-exceeded" \(the limit named "at most 1 concurrent subscription"\): a resource limit of the endpoint's own \(AEP-0003 §6\.5\)/;
type Found = { ruleId: string; severity: string; message: string; messageId?: string };
const show = (fs: readonly Found[]) => fs.map((f) => `${f.ruleId}: ${f.message}`).join('\n');
const errors = (fs: readonly Found[]) => fs.filter((f) => f.severity !== 'info').map((f) => f.ruleId);
const parts = (fs: readonly Found[]) => fs.filter((f) => f.ruleId === 'aep/live-skipped' && f.messageId === 'binding');

/** Run `checks` against a test endpoint started with `opts` (and `broken`), closed after. */
async function run(
  checks: LiveCheck[],
  opts: Parameters<typeof startEndpoint>[1],
  broken?: Parameters<typeof startEndpoint>[0],
) {
  const ep = await startEndpoint(broken, opts);
  try {
    return await checkEndpoint(ep.url, { token: TOKEN, timeoutMs: TIMEOUT, checks });
  } finally {
    await ep.close();
  }
}

/** The check skipped naming the limit, with no finding but the skip. */
function skippedForLimit(r: Awaited<ReturnType<typeof run>>, check: LiveCheck) {
  assert.deepEqual(errors(r.findings), [], show(r.findings));
  assert.deepEqual(r.skipped, [check], show(r.findings));
  assert.match(r.checks.find((c) => c.check === check)!.reason!, NAMED);
}

/** The check ran, with no error, and one part named unjudged over the WebSocket for the limit. */
function partForLimit(r: Awaited<ReturnType<typeof run>>, check: LiveCheck, what: RegExp) {
  assert.deepEqual(errors(r.findings), [], show(r.findings));
  assert.deepEqual(r.ran, [check], show(r.findings));
  const left = parts(r.findings);
  assert.equal(left.length, 1, show(r.findings));
  assert.match(
    left[0]!.message,
    new RegExp(`^Part of the ${check} check was not judged over the WebSocket: ${what.source}`),
  );
  assert.match(left[0]!.message, NAMED);
  assert.deepEqual(r.checks.find((c) => c.check === check)!.unjudged, ['the WebSocket']);
}

test('unsubscribe: the second concurrent subscribe refused limit-exceeded skips the check naming the limit, never aep/live-subscriptions', async () => {
  skippedForLimit(await run(['unsubscribe'], { refuseSubscribe: { ...LIMIT, after: 1 } }), 'unsubscribe');
});

test('unsubscribe: the first subscribe refused limit-exceeded skips it naming the limit, not "not subscribed"', async () => {
  skippedForLimit(await run(['unsubscribe'], { refuseSubscribe: LIMIT }), 'unsubscribe');
});

test('unsubscribe: the watching connection refused limit-exceeded after the acks leaves that part unjudged, never a bare pass', async () => {
  const r = await run(['unsubscribe'], { refuseSubscribe: { ...LIMIT, after: 2 } });
  partForLimit(r, 'unsubscribe', /the subscribe of a second connection watching/);
});

test('unsubscribe: the watching connection refused with another code names that part unjudged too, never a bare pass', async () => {
  const r = await run(['unsubscribe'], { refuseSubscribe: { code: 'invalid-filter', after: 2 } });
  assert.deepEqual(errors(r.findings), [], show(r.findings));
  assert.deepEqual(r.ran, ['unsubscribe']);
  assert.match(
    show(parts(r.findings)),
    /^aep\/live-skipped: Part of the unsubscribe check was not judged over the WebSocket: the subscribe of a second connection .* was answered an "error" frame with code "invalid-filter", not subscribed\.$/,
  );
  assert.deepEqual(r.checks.find((c) => c.check === 'unsubscribe')!.unjudged, ['the WebSocket']);
});

test('roster: a consumer roster request refused limit-exceeded skips the check naming the limit, never aep/live-roster', async () => {
  skippedForLimit(await run(['roster'], { refuseRoster: LIMIT }), 'roster');
});

test('roster: a request refused limit-exceeded after one was answered leaves the rest unjudged, not failed', async () => {
  partForLimit(await run(['roster'], { refuseRoster: { ...LIMIT, after: 1 } }), 'roster', /a roster request/);
});

test('subscribe-refusal: the valid subscribe after the refused one answered limit-exceeded is no noSubscribed error', async () => {
  const r = await run(['subscribe-refusal'], { refuseSubscribe: LIMIT });
  partForLimit(r, 'subscribe-refusal', /a valid subscribe after the refused one/);
});

test('binary-frame and backpressure: their watching subscribe refused limit-exceeded skips them naming the limit', async () => {
  for (const check of ['binary-frame', 'backpressure'] as const)
    skippedForLimit(await run([check], { refuseSubscribe: LIMIT }), check);
});

test('filter: the fail-closed probe refused limit-exceeded is neither failOpen nor a pass: the WebSocket part is named unjudged', async () => {
  const r = await run(['filter'], { refuseSubscribe: { ...LIMIT, early: true } });
  assert.deepEqual(errors(r.findings), [], show(r.findings));
  assert.deepEqual(r.ran, ['filter']);
  // the type and severity subscriptions (judged over SSE), and the fail-closed probe
  assert.equal(parts(r.findings).length, 3, show(r.findings));
  assert.match(
    show(r.findings),
    /over the WebSocket: a WebSocket subscribe whose filter names "data" .*"limit-exceeded"/,
  );
});

test('token: a tokenless WebSocket subscribe refused limit-exceeded beside a POST refused 401 names the WebSocket unjudged', async () => {
  const r = await run(['token'], { refuseSubscribe: LIMIT }, 'tokenless-ws');
  partForLimit(r, 'token', /a subscribe on the WebSocket duplex without credentials/);
});

test('binary-frame: an Event sent after the binary frame never delivered skips the check, never a pass', async () => {
  const ep = await startEndpoint('binary-mutes');
  try {
    const r = await checkEndpoint(ep.url, { token: TOKEN, timeoutMs: 1000, checks: ['binary-frame'] });
    assert.deepEqual(r.skipped, ['binary-frame'], show(r.findings));
    assert.match(r.checks.find((c) => c.check === 'binary-frame')!.reason!, /after the binary frame was not delivered/);
  } finally {
    await ep.close();
  }
});

test('a control check whose sender subscribe is refused limit-exceeded is skipped naming the limit', async () => {
  skippedForLimit(await run(['control-ambiguous'], { refuseSubscribe: LIMIT }), 'control-ambiguous');
});

test('a limit-exceeded detail that is a number or boolean is said as naming no limit, as aep/live-limit-detail reads it', async () => {
  for (const detail of [64, true, {}, '  '] as const) {
    const r = await run(['redelivery'], { wsOnly: true, refuseSubscribe: { code: 'limit-exceeded', detail } });
    const reason = r.checks.find((c) => c.check === 'redelivery')!.reason!;
    assert.match(reason, /\(a detail, .*, naming no limit\)/, `${JSON.stringify(detail)}: ${reason}`);
    assert.doesNotMatch(reason, /the limit named/);
  }
  const named = await run(['redelivery'], {
    wsOnly: true,
    refuseSubscribe: { code: 'limit-exceeded', detail: { max: 1 } },
  });
  assert.match(named.checks.find((c) => c.check === 'redelivery')!.reason!, /the limit named "\{\\"max\\":1\}"/);
});

test('aep/live-limit-detail: a numeric detail is reported as naming no limit (AEP-0003 §6.5), not as missing', async () => {
  const r = await run(['subscribe-refusal'], {}, 'limit-number-detail');
  assert.deepEqual(errors(r.findings), ['aep/live-limit-detail'], show(r.findings));
  const f = r.findings.find((f) => f.ruleId === 'aep/live-limit-detail')!;
  assert.equal(f.messageId, 'unnamed');
  assert.match(f.message, /with a detail, 256, that names no limit/);
});

test('aep live text and html: a check with a binding left unjudged is counted and listed partly judged, never passed', async () => {
  const ep = await startEndpoint(undefined, { refuseSubscribe: LIMIT });
  try {
    const args = ['live', ep.url, '--token', TOKEN, '--timeout', String(TIMEOUT), '--checks', 'redelivery'];
    const text = await runCli('aep', args);
    assert.equal(text.code, 0, text.stderr + text.stdout);
    assert.match(text.stdout, /^checks: 1 passed, 1 partly judged, 0 failed, 0 skipped$/m);
    assert.match(text.stdout, /^ {2}passed {3}discovery$/m);
    assert.match(text.stdout, /^ {2}partly {3}redelivery: passed, not judged over the WebSocket \(1 info\)$/m);
    assert.doesNotMatch(text.stdout, /passed .*redelivery/);
    // said with --quiet too: what it did not judge is not verified
    const quiet = await runCli('aep', [...args, '--quiet']);
    assert.match(quiet.stdout, /^ {2}partly {3}redelivery/m);
    const html = await runCli('aep', [...args, '--format', 'html']);
    assert.match(html.stdout, /1 passed, 1 partly judged, 0 failed, 0 skipped/);
    assert.match(
      html.stdout,
      /data-status="partly"><td class="st st-skip">◐ partly<\/td><td><code>redelivery<\/code><\/td><td>not judged over the WebSocket; 1 info</,
    );
    const junit = (await runCli('aep', [...args, '--format', 'junit'])).stdout;
    assert.match(junit, /name="redelivery">\s*<system-out>partly judged: not judged over the WebSocket<\/system-out>/);
    const json = JSON.parse((await runCli('aep', [...args, '--format', 'json'])).stdout);
    const c = json.checks.find((c: { check: string }) => c.check === 'redelivery');
    assert.deepEqual([c.status, c.unjudged], ['passed', ['the WebSocket']]);
  } finally {
    await ep.close();
  }
});
