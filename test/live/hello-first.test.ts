// `aep live` against an endpoint that sends its own hello as the WebSocket opens (AEP-0003 §3.5 #1 orders hello first
// in each direction, not who speaks first): every check passes, and the hello refusals are judged on the frame after
// that hello, while a hello answered to a hello naming no common version is still caught.
// Every server listens on 127.0.0.1 only and stops inside its test.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkEndpoint } from '../../src/live/check.ts';
import { startEndpoint, TOKEN } from './endpoint.ts';

const TIMEOUT = 5000;
const show = (fs: { ruleId: string; message: string }[]) => fs.map((f) => `${f.ruleId}: ${f.message}`).join('\n');
const errors = (fs: { ruleId: string; severity: string }[]) => [
  ...new Set(fs.filter((f) => f.severity !== 'info').map((f) => f.ruleId)),
];

test('an endpoint sending its hello on connect passes every check', async () => {
  const ep = await startEndpoint(undefined, { helloFirst: true });
  try {
    const r = await checkEndpoint(ep.url, { token: TOKEN, timeoutMs: TIMEOUT });
    assert.deepEqual(errors(r.findings), [], show(r.findings));
    for (const c of ['hello', 'subscribe-refusal', 'unknown-frame', 'unsubscribe', 'roster'] as const)
      assert.ok(r.ran.includes(c), c);
  } finally {
    await ep.close();
  }
});

test('an endpoint sending its hello on connect that accepts a hello offering only 99.0 still fails hello', async () => {
  const ep = await startEndpoint('hello-any-version', { helloFirst: true });
  try {
    const r = await checkEndpoint(ep.url, { token: TOKEN, timeoutMs: TIMEOUT, checks: ['hello'] });
    assert.deepEqual(errors(r.findings), ['aep/live-hello'], show(r.findings));
    assert.match(show(r.findings), /offering only version "99\.0" was answered a "hello" frame, not an error frame/);
    assert.equal(r.findings.length, 1, show(r.findings));
  } finally {
    await ep.close();
  }
});
