/**
 * `aep redact` on the envelope (AEP-0003 §9 item 2, §9.4): `subject` and extension attributes, at any depth, at
 * every capture level (`full` too, which a replacement lowers to `redacted`); the core attributes never; an event with nothing to replace written byte for byte.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createRedactor, redactEvent } from '../../src/aep/redact.ts';
import { runCli } from '../cli/helpers.ts';

const r = createRedactor({ home: false, secretNames: ['DEPLOY_KEY'] });
const ev = (capture: string, extra: Record<string, unknown>) => ({
  aep: '0.1',
  source: 'aep://h/agent/a/session/s',
  agent: 'a',
  session: 's',
  id: 'e1',
  type: 'progress.status',
  time: '2026-11-30T10:00:00Z',
  seq: 1,
  capture,
  ...extra,
  data: { percent: 5 },
});

test('a subject holding an AWS access key id is redacted to the secret mark', () => {
  for (const capture of ['none', 'metadata', 'redacted']) {
    const out = redactEvent(ev(capture, { subject: 'AKIAQ7VLM2XC9RTY4BNA' }), r);
    assert.equal(out.subject, '[REDACTED:secret]');
    assert.equal(out.capture, capture);
  }
});

test('an extension attribute password assignment, a configured name and a nested value are redacted', () => {
  const out = redactEvent(
    ev('metadata', {
      acmenote: 'password=hunter2sequel',
      acmeenv: 'DEPLOY_KEY=abc123',
      deploy_key: 'opaque',
      acmex: { deep: ['mail ops@example.com', { k: 'ghp_Q7vLm2Xc9RtY4bNa8KdE3wPz6HsJ1uFo0iGk' }], n: 3 },
    }),
    r,
  );
  assert.equal(out.acmenote, 'password=[REDACTED:secret]');
  assert.equal(out.acmeenv, 'DEPLOY_KEY=[REDACTED:secret]');
  assert.equal(out.deploy_key, '[REDACTED:secret]');
  assert.deepEqual(out.acmex, { deep: ['mail [REDACTED:pii]', { k: '[REDACTED:secret]' }], n: 3 });
});

test('core attributes other than subject are never changed, and a full event keeps its envelope', () => {
  const secret = 'AKIAQ7VLM2XC9RTY4BNA';
  const input = { ...ev('metadata', { subject: secret }), source: `aep://h/agent/${secret}/session/s`, agent: secret };
  const out = redactEvent(input, r);
  assert.equal(out.source, input.source);
  assert.equal(out.agent, secret);
  assert.equal(out.subject, '[REDACTED:secret]');
});

test('at full and without capture the envelope is read too; a full event with a replaced one is written at redacted', () => {
  const secret = 'AKIAQ7VLM2XC9RTY4BNA';
  // nothing else to replace: the outcome does not hang on an unrelated member holding a token
  const full = {
    ...ev('full', { subject: `curl ${secret}`, acmekey: secret }),
    type: 'tool.requested',
    data: { tool: { name: 'sh', call_id: 'k1' }, args: { cmd: 'ls' } },
  };
  const out = redactEvent(full, r);
  assert.equal(out.subject, 'curl [REDACTED:secret]');
  assert.equal(out.acmekey, '[REDACTED:secret]');
  assert.equal(out.capture, 'redacted');
  assert.deepEqual(out.data, { tool: { name: 'sh', call_id: 'k1' } });
  const bare: Record<string, unknown> = ev('metadata', { acmenote: `key ${secret}` });
  delete bare.capture;
  const plain = redactEvent(bare, r);
  assert.equal(plain.acmenote, 'key [REDACTED:secret]');
  assert.equal('capture' in plain, false);
  const clean = ev('full', { subject: 'shell' });
  assert.equal(redactEvent(clean, r), clean);
});

test('nothing to replace: the same object, and the same line byte for byte', async () => {
  const input = ev('metadata', { subject: 'q1', acmenote: 'hello', acmeflag: true });
  assert.equal(redactEvent(input, r), input);
  const text = `${JSON.stringify(input).replace('{"aep"', '{ "aep"')}\n`;
  const red = await runCli('aep', ['redact', '-'], text);
  assert.equal(red.stdout, text, red.stderr);
});
