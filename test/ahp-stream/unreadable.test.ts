/**
 * A line of an AHP stream that gave no message (README §Decisions on unreadable lines): a later verdict that a request,
 * a retry or a parent is absent becomes a cannot-verify info naming that line, never an error (the trial's two
 * reproductions, and each route by which a line gives no message).
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { test } from 'node:test';
import type { Finding } from '../../src/core/finding.ts';
import { checkBytes } from '../../src/fixture-runner/check.ts';
import { PROTOCOLS } from '../../src/run/protocols.ts';
import { REPO_DIR } from './helpers.ts';

const EXAMPLE = readFileSync(`${REPO_DIR}examples/ahp/session.jsonl`, 'utf8');
const LINES = EXAMPLE.split('\n');
const POLICY = { strict: false, failOn: 'error' } as const;

async function run(bytes: Uint8Array | string, flags: Record<string, unknown> = {}): Promise<Finding[]> {
  const b = typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes;
  return (await checkBytes({ def: PROTOCOLS.ahp, options: {} }, 'session.jsonl', b, POLICY, { flags })).findings;
}

/** `rule@line` of each finding that is not info, framing aside; and of each info. */
const brief = (fs: readonly Finding[], severity: 'info' | 'verdict') =>
  fs
    .filter((f) => (severity === 'info' ? f.severity === 'info' : f.severity !== 'info'))
    .map((f) => `${f.ruleId}@${f.line}`);

/** The example with line `n` (1-based) replaced. */
const withLine = (n: number, text: string) => LINES.map((l, i) => (i === n - 1 ? text : l)).join('\n');

test('the trial: a hooks/intercept request cut short gives the framing error and an info at its response', async () => {
  const fs = await run(withLine(3, LINES[2]!.slice(0, 60)));
  assert.deepEqual(brief(fs, 'verdict'), ['jsonl/invalid-json@3']);
  assert.deepEqual(brief(fs, 'info'), ['ahp/response-unverifiable@4']);
  const info = fs.find((f) => f.ruleId === 'ahp/response-unverifiable')!;
  assert.match(info.message, /line 3 could not be read/);
  assert.deepEqual(
    info.related?.map((r) => r.line),
    [3],
  );
});

test('the trial: --max-line-bytes 200 on the example gives line-too-long errors and infos, no response-unmatched', async () => {
  const fs = await run(EXAMPLE, { maxLineBytes: 200 });
  assert.ok(fs.filter((f) => f.severity !== 'info').every((f) => f.ruleId === 'jsonl/line-too-long'));
  assert.equal(fs.filter((f) => f.ruleId === 'ahp/response-unverifiable').length, 6);
  assert.equal(fs.filter((f) => f.ruleId === 'ahp/response-unmatched').length, 0);
});

test('every route by which a line gives no message makes the response after it unverifiable', async () => {
  const routes: [string, string | Uint8Array, Record<string, unknown>?][] = [
    ['not an object', withLine(3, '[1, 2]')],
    ['too deep', withLine(3, `${'['.repeat(300)}${']'.repeat(300)}`)],
    ['an invalid JSON-RPC shape', withLine(3, LINES[2]!.replace('"jsonrpc":"2.0"', '"jsonrpc":"1.0"'))],
    [
      'invalid UTF-8',
      Buffer.concat([
        Buffer.from(`${LINES.slice(0, 2).join('\n')}\n`),
        Buffer.from([0x7b, 0xff, 0x7d, 0x0a]),
        Buffer.from(LINES.slice(3).join('\n')),
      ]),
    ],
  ];
  for (const [name, input] of routes) {
    const fs = await run(input);
    assert.deepEqual(
      fs.filter((f) => f.line === 4).map((f) => `${f.severity}:${f.ruleId}`),
      ['info:ahp/response-unverifiable'],
      name,
    );
  }
});

test('a gzip input cut inside a request: the response in the next input of the stream is unverifiable', async () => {
  // the first input of a rotated pair breaks inside the request; the second starts with its response
  const gz = gzipSync(Buffer.from(`${LINES.slice(0, 3).join('\n')}\n`));
  const cut = gz.subarray(0, gz.length - 40);
  const findings: Finding[] = [];
  const { runInputs } = await import('../../src/run/run.ts');
  const input = (source: string, bytes: Uint8Array) => ({
    source,
    open: async function* () {
      yield bytes;
    },
  });
  await runInputs(
    PROTOCOLS.ahp,
    [input('a.jsonl.gz', cut), input('b.jsonl', Buffer.from(`${LINES.slice(3).join('\n')}`))],
    { each: false },
    { finding: (f) => void findings.push(f) },
  );
  assert.ok(findings.some((f) => f.ruleId === 'jsonl/gzip-corrupt'));
  assert.equal(findings.filter((f) => f.ruleId === 'ahp/response-unmatched').length, 0);
  assert.ok(findings.some((f) => f.ruleId === 'ahp/response-unverifiable' && f.source === 'b.jsonl' && f.line === 1));
});

test('without an unreadable line the verdicts stay errors', async () => {
  const dup = `${EXAMPLE.trimEnd()}\n${LINES[3]}\n`;
  assert.deepEqual(brief(await run(dup), 'verdict'), [`ahp/response-duplicate@${LINES.length}`]);
  const orphan = withLine(3, LINES[6]!);
  assert.ok(brief(await run(orphan), 'verdict').includes('ahp/response-unmatched@4'));
});

test('a second response after an unreadable line may answer a retry there', async () => {
  const retried = `${EXAMPLE.trimEnd()}\n${LINES[2]!.slice(0, 50)}\n${LINES[3]}\n`;
  const fs = await run(retried);
  assert.deepEqual(brief(fs, 'verdict'), [`jsonl/invalid-json@${LINES.length}`]);
  const info = fs.find((f) => f.ruleId === 'ahp/response-unverifiable')!;
  assert.equal(info.messageId, 'duplicate');
});

test('an elicitation result with no parentEventId after an unreadable line: its request may have been answered there', async () => {
  const fail = readFileSync(`${REPO_DIR}conformance/ahp/fail/ahp.elicitation-parent-missing.jsonl`, 'utf8').split('\n');
  // the request (line 1), a line cut short after it (line 2), the result that names no parent (line 3)
  const fs = await run([fail[0], fail[0]!.slice(0, 70), fail[1]].join('\n'));
  assert.deepEqual(brief(fs, 'verdict'), ['jsonl/invalid-json@2']);
  const info = fs.find((f) => f.ruleId === 'ahp/parent-unverifiable');
  assert.equal(info?.messageId, 'candidate');
  assert.equal(info?.line, 3);
  // a line cut before the request cannot have held its result: the error stays
  const before = await run([fail[0]!.slice(0, 70), fail[0], fail[1]].join('\n'));
  assert.ok(brief(before, 'verdict').includes('ahp/elicitation-parent-missing@3'));
});

test('a line cut before the manifest cannot have replaced it: ahp/advertisement-exceeds-manifest stays an error', async () => {
  const fail = readFileSync(`${REPO_DIR}conformance/ahp/fail/ahp.advertisement-exceeds-manifest.jsonl`, 'utf8').split(
    '\n',
  );
  const after = await run([fail[0], fail[1], fail[1]!.slice(0, 80), fail[2], fail[3], ''].join('\n'));
  assert.deepEqual(brief(after, 'verdict'), ['jsonl/invalid-json@3']);
  assert.deepEqual(brief(after, 'info'), ['ahp/manifest-unverifiable@4']);
  const before = await run([fail[0]!.slice(0, 60), fail[0], fail[1], fail[2], fail[3], ''].join('\n'));
  assert.ok(brief(before, 'verdict').includes('ahp/advertisement-exceeds-manifest@4'));
});
