/**
 * Stdio framing through `ahp validate`'s pipeline: one object per LF-terminated line.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Finding } from '../../src/core/finding.ts';
import { response } from '../ahp/builders.ts';
import { show } from '../ahp/helpers.ts';
import { ruleRows } from './helpers.ts';

const { stdio } = ruleRows([
  'jsonl/carriage-return',
  'jsonl/blank-line',
  'jsonl/no-final-newline',
  'jsonl/empty-input',
  'jsonl/invalid-json',
  'json/duplicate-key',
  'jsonl/not-object',
]);

describe("stdio framing (through ahp validate's pipeline)", () => {
  const line = JSON.stringify(response([]));
  const at = (fs: Finding[]) => fs.map((i) => [i.line, i.ruleId]);
  test('one object per LF-terminated line', async () => {
    assert.deepEqual(await stdio(`${line}\n${line}\n`), []);
    assert.deepEqual(at(await stdio(`${line}\r\n`)), [[1, 'jsonl/carriage-return']]);
    assert.deepEqual(at(await stdio(`${line}\n\n${line}\n`)), [[2, 'jsonl/blank-line']]);
    assert.deepEqual(at(await stdio(line)), [[1, 'jsonl/no-final-newline']]);
    assert.deepEqual(
      (await stdio('')).map((i) => i.ruleId),
      ['jsonl/empty-input'],
    );
    const pretty = await stdio(JSON.stringify(response([]), null, 2) + '\n');
    // a pretty-printed message is one finding naming the binding that reads it (issue 26 item 3), not one per line
    assert.ok(
      pretty.length === 1 &&
        pretty[0]!.ruleId === 'jsonl/invalid-json' &&
        pretty[0]!.messageId === 'unclosedHint' &&
        String(pretty[0]!.args?.hint).includes('--binding http'),
      show(pretty),
    );
    assert.deepEqual(
      (
        await stdio('{"jsonrpc":"2.0","jsonrpc":"2.0","id":"e","result":{"protocolVersion":"draft","effects":[]}}\n')
      ).map((i) => [i.ruleId, i.pointer]),
      [['json/duplicate-key', '/jsonrpc']],
    );
    assert.deepEqual(at(await stdio(`${line}\n[1]\n`)), [[2, 'jsonl/not-object']]);
  });
  test('an array is named a JSON-RPC batch, which base/versioning.md forbids; another non-object is not', async () => {
    // trial 18: an empty batch and a batch of one, as JSON-RPC servers are asked to answer them
    for (const arr of ['[]', `[${line}]`]) {
      const [f, ...rest] = await stdio(`${line}\n${arr}\n`);
      assert.equal(rest.length, 0, show(rest));
      assert.equal(f?.messageId, 'batch', show([f!]));
      assert.match(f!.message, /JSON-RPC batch: "Batch JSON-RPC messages MUST NOT be used" \(base\/versioning\.md/);
    }
    const [str] = await stdio(`${line}\n"x"\n`);
    assert.equal(str?.messageId, 'notObject');
    assert.doesNotMatch(str!.message, /batch/);
  });
});
