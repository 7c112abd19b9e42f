/**
 * The binding of each input of one `ahp validate` run comes from that input's name, though it is worked out once per
 * run of lines from the same input (src/ahp/definition.ts): inputs of every binding, interleaved and repeated, get the
 * findings each gets alone.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli } from '../cli/helpers.ts';
import { tempDir } from '../temp.ts';
import { registration } from './builders.ts';

interface Report {
  findings: { ruleId: string; source?: string; line?: number; message: string; spec?: string }[];
}

const findingsOf = async (files: readonly string[]): Promise<Report['findings']> =>
  (JSON.parse((await runCli('ahp', ['validate', '-f', 'json', ...files])).stdout) as Report).findings;

test('registration, HTTP and stdio inputs in one run: each is read by its own binding, as when checked alone', async (t) => {
  const dir = tempDir(t, 'ac-binding-');
  const reg = (n: number) => join(dir, `hooks${n}.registration.json`);
  const body = (n: number) => join(dir, `status${n}.json`);
  const lines = (n: number) => join(dir, `messages${n}.jsonl`);
  for (const n of [1, 2]) {
    writeFileSync(reg(n), JSON.stringify(registration(), null, 2) + '\n');
    // a body with none of JSON-RPC's members: over HTTP a status body, over stdio a message without members
    writeFileSync(body(n), '{"error":"upstream unavailable"}\n');
    writeFileSync(lines(n), '{"error":"upstream unavailable"}\n');
  }
  // a file named twice is read once, so each binding's inputs come back as other files of it
  const order = [lines(1), reg(1), body(1), lines(2), body(2), reg(2)];
  const together = await findingsOf(order);
  const alone = new Map<string, Report['findings']>();
  for (const f of order) alone.set(f, await findingsOf([f]));
  const rules = (fs: Report['findings']) => fs.map((f) => f.ruleId).sort();
  // the HTTP body and the stdio line differ only in their binding, so their findings must differ too
  assert.deepEqual(rules(alone.get(body(1))!), ['ahp/http-status-unverifiable']);
  assert.notDeepEqual(rules(alone.get(lines(1))!), rules(alone.get(body(1))!));
  assert.deepEqual(rules(alone.get(reg(1))!), []);
  for (const f of order) assert.deepEqual(rules(together.filter((x) => x.source === f)), rules(alone.get(f)!), f);
});

test('a registration document or HTTP body that is not JSON is told as a document, not a JSONL line', async (t) => {
  const dir = tempDir(t, 'ac-binding-');
  const reg = join(dir, 'bad.registration.json');
  writeFileSync(reg, '{"hooks": [');
  const body = join(dir, 'body.json');
  writeFileSync(body, '{"jsonrpc": "2.0",');
  for (const f of [reg, body]) {
    const [x, ...rest] = await findingsOf([f]);
    assert.equal(rest.length, 0);
    assert.equal(x!.ruleId, 'jsonl/invalid-json');
    assert.match(x!.message, /^Document is not valid JSON/);
    assert.doesNotMatch(x!.message, /JSONL|pretty-printed/);
    assert.doesNotMatch(x!.spec ?? '', /stdio/);
  }
});
