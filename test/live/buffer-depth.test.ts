// `aep live` against endpoints whose advertised replay buffer is small (AEP-0003 §5: a count per session or a global
// one): resume and replay-all expect only what a buffer of that depth holds, take a legal eviction announced by
// replay-exhausted, and still catch an inclusive resume where the buffer holds the position resumed after.
// Every server listens on 127.0.0.1 only and stops inside its test.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkEndpoint } from '../../src/live/check.ts';
import { type Broken, startEndpoint, TOKEN } from './endpoint.ts';

const TIMEOUT = 5000;
const show = (fs: { ruleId: string; message: string }[]) => fs.map((f) => `${f.ruleId}: ${f.message}`).join('\n');
const errors = (fs: { ruleId: string; severity: string }[]) => [
  ...new Set(fs.filter((f) => f.severity !== 'info' && f.ruleId !== 'aep/live-skipped').map((f) => f.ruleId)),
];

for (const depth of [1, 3]) {
  test(`an endpoint advertising a per-session buffer of ${depth} passes every check, the destructive ones too`, async () => {
    const ep = await startEndpoint(undefined, { bufferDepth: depth });
    try {
      const r = await checkEndpoint(ep.url, { token: TOKEN, timeoutMs: TIMEOUT, destructive: true });
      assert.deepEqual(errors(r.findings), [], show(r.findings));
      for (const c of ['resume', 'replay-all', 'eviction'] as const) assert.ok(r.ran.includes(c), c);
    } finally {
      await ep.close();
    }
  });
}

test('a busy global buffer of 3 that evicts the position resumed after announces it (replay-exhausted) and passes resume', async () => {
  const ep = await startEndpoint(undefined, { busyBuffer: 3 });
  try {
    const r = await checkEndpoint(ep.url, { token: TOKEN, timeoutMs: TIMEOUT, checks: ['resume'] });
    assert.deepEqual(r.findings, [], show(r.findings));
    assert.deepEqual(r.ran, ['resume']);
  } finally {
    await ep.close();
  }
});

// with a buffer of 2 the position resumed after is held, so a resume that includes it shows on every binding
for (const [variant, how] of [
  ['resume-inclusive', 'Last-Event-ID'],
  ['sse-from-inclusive', 'the from parameter'],
  ['ws-from-inclusive', 'subscribe.from'],
] as [Broken, string][])
  test(`a buffer of 2 that resumes inclusively (${variant}) fails resume`, async () => {
    const ep = await startEndpoint(variant, { bufferDepth: 2 });
    try {
      const r = await checkEndpoint(ep.url, { token: TOKEN, timeoutMs: TIMEOUT, checks: ['resume'] });
      assert.deepEqual(errors(r.findings), ['aep/live-resume'], show(r.findings));
      assert.match(
        show(r.findings),
        new RegExp(`Resuming by ${how} after seq (\\d+) delivered seq \\1, \\d+; expected seq \\d+\\.`),
      );
    } finally {
      await ep.close();
    }
  });

test('replay-all by an endpoint advertising a buffer of 0 is skipped with the reason', async () => {
  const ep = await startEndpoint(undefined, { bufferDepth: 0 });
  try {
    const r = await checkEndpoint(ep.url, { token: TOKEN, timeoutMs: TIMEOUT, checks: ['resume', 'replay-all'] });
    assert.deepEqual(r.skipped, ['resume', 'replay-all']);
    assert.match(show(r.findings), /replay-all check was skipped: the endpoint advertises a replay buffer of 0 Events/);
  } finally {
    await ep.close();
  }
});
