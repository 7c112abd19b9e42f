// `checkEndpoint` / `aep live` against an endpoint written in test/live/endpoint.ts from AEP-0003:
// the compliant endpoint passes every check; each broken variant fails exactly its own check and
// no other; nothing listening is one connection error; a check that waits too long is named.
// Every server listens on 127.0.0.1 only and stops inside its test.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { checkEndpoint } from '../../src/live/check.ts';
import { LiveConnectError } from '../../src/live/client.ts';
import { CONTROL_CHECKS } from '../../src/live/control-rules.ts';
import { type Broken, startEndpoint } from './endpoint.ts';

const TIMEOUT = 1500;
const errors = (fs: { ruleId: string; severity: string }[]) =>
  [...new Set(fs.filter((f) => f.severity !== 'info').map((f) => f.ruleId))].sort();

test('the compliant endpoint passes every check and its deliveries are recorded', async () => {
  const ep = await startEndpoint();
  try {
    const r = await checkEndpoint(ep.url, { timeoutMs: TIMEOUT });
    assert.deepEqual(
      r.findings.filter((f) => f.ruleId !== 'aep/live-skipped').map((f) => `${f.ruleId}: ${f.message}`),
      [],
    );
    // the control checks past the authentication gate need a token and a --control-session (test/live/control.test.ts)
    assert.deepEqual(r.skipped, CONTROL_CHECKS.slice(1));
    assert.equal(r.ran.length, 12);
    assert.ok(r.delivered.length >= 5, `delivered ${r.delivered.length}`);
  } finally {
    await ep.close();
  }
});

const VARIANTS: [Broken, string[]][] = [
  ['no-discovery', ['aep/live-discovery']],
  ['no-version-gate', ['aep/live-version-gate']],
  ['accepts-invalid', ['aep/live-invalid-envelope']],
  ['ingest-200', ['aep/live-ingest']],
  ['sse-no-id', ['aep/live-fanout']],
  ['rewrites', ['aep/live-delivery-identity']],
  ['ignores-filter', ['aep/live-filter']],
  ['up-levels', ['aep/live-capture-ceiling']],
  ['resume-inclusive', ['aep/live-resume']],
  ['hello-two-versions', ['aep/live-hello']],
  ['closes-on-refusal', ['aep/live-subscribe-refusal']],
  ['closes-on-unknown-frame', ['aep/live-unknown-frame']],
];

for (const [broken, want] of VARIANTS) {
  test(`a broken endpoint (${broken}) fails ${want.join(' and ')} and nothing else`, async () => {
    const ep = await startEndpoint(broken);
    try {
      const r = await checkEndpoint(ep.url, { timeoutMs: TIMEOUT });
      // without discovery the endpoints are unknown: the stream and socket checks are skipped, never passed
      assert.deepEqual(errors(r.findings), want, r.findings.map((f) => f.message).join('\n'));
      if (broken === 'no-discovery') assert.ok(r.skipped.includes('fanout') && r.skipped.includes('hello'));
    } finally {
      await ep.close();
    }
  });
}

test('nothing listening is one LiveConnectError; a silent endpoint is a named timeout', async () => {
  const free = createServer();
  await new Promise<void>((r) => free.listen(0, '127.0.0.1', r));
  const { port } = free.address() as AddressInfo;
  await new Promise<void>((r) => free.close(() => r()));
  await assert.rejects(checkEndpoint(`http://127.0.0.1:${port}`, { timeoutMs: TIMEOUT }), LiveConnectError);

  // accepts connections, never answers
  const silent = createServer(() => {});
  await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
  try {
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    const r = await checkEndpoint(url, { timeoutMs: 300, checks: ['discovery'] });
    assert.deepEqual(
      r.findings.map((f) => f.ruleId),
      ['aep/live-timeout'],
    );
    assert.match(r.findings[0]!.message, /discovery check got no answer within 300 ms/);
  } finally {
    silent.closeAllConnections();
    await new Promise<void>((r) => silent.close(() => r()));
  }
});

test('aep live: exit 0 on the compliant endpoint with --record, 1 on a broken one, 2 with one line when nothing listens', async () => {
  const { runCli } = await import('../cli/helpers.ts');
  const { mkdtempSync, readFileSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const record = join(mkdtempSync(join(tmpdir(), 'ac-live-')), 'delivered.jsonl');
  const ok = await startEndpoint();
  try {
    const r = await runCli('aep', ['live', ok.url, '--timeout', String(TIMEOUT), '--record', record]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const lines = readFileSync(record, 'utf8').trimEnd().split('\n');
    assert.ok(lines.length >= 5 && lines.every((l) => JSON.parse(l).aep === '0.1'));
    const json = await runCli('aep', ['live', ok.url, '--checks', 'discovery,fanout', '--format', 'json']);
    assert.equal(json.code, 0);
    assert.deepEqual(JSON.parse(json.stdout).findings, []);
  } finally {
    await ok.close();
  }
  const bad = await startEndpoint('rewrites');
  try {
    const r = await runCli('aep', ['live', bad.url, '--timeout', String(TIMEOUT), '--checks', 'fanout']);
    assert.equal(r.code, 1);
    assert.match(r.stdout, /aep\/live-delivery-identity/);
    // piped (no terminal): no colour, as for validate
    assert.doesNotMatch(r.stdout, /\u001b\[/);
  } finally {
    await bad.close();
  }
  const gone = await runCli('aep', ['live', 'http://127.0.0.1:1']);
  assert.equal(gone.code, 2);
  assert.equal(gone.stderr.trim().split('\n').length, 1);
  assert.match(gone.stderr, /cannot reach .*connection refused/);
  const usage = await runCli('aep', ['live', 'ftp://x', '--checks', 'fanout']);
  assert.equal(usage.code, 2);
  const unknown = await runCli('aep', ['live', 'http://127.0.0.1:1', '--checks', 'nope']);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /unknown check nope/);
});
