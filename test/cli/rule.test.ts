/**
 * `validate --rule ID` (repeatable) runs only the named rules; framing and parse findings
 * (`jsonl/*`, `json/*`) always appear; an unknown id is a usage error naming the nearest id.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runCli } from './helpers.ts';

interface Report {
  findings: { ruleId: string; line?: number }[];
}

const ruleIds = (stdout: string) => (JSON.parse(stdout) as Report).findings.map((f) => `${f.ruleId}@${f.line}`);

test('aep validate --rule aep/seq-regression prints only aep/seq-regression findings', async () => {
  const all = await runCli('aep', ['validate', '-f', 'json', 'examples/aep/session-broken.jsonl']);
  assert.ok(ruleIds(all.stdout).length > 1, 'the example has findings of several rules');
  const one = await runCli('aep', [
    'validate',
    '-f',
    'json',
    '--rule',
    'aep/seq-regression',
    'examples/aep/session-broken.jsonl',
  ]);
  assert.equal(one.code, 1);
  assert.equal(one.stderr, '');
  assert.deepEqual(ruleIds(one.stdout), ['aep/seq-regression@4']);
  const text = await runCli('aep', ['validate', '--rule', 'aep/seq-regression', 'examples/aep/session-broken.jsonl']);
  assert.equal(text.stdout.match(/ {2}error {2}/g)?.length, 1);
  assert.match(text.stdout, /^examples\/aep\/session-broken\.jsonl:4:\d+ {2}error {2}aep\/seq-regression {2}/);
  const two = await runCli('aep', [
    'validate',
    '-f',
    'json',
    '--rule',
    'aep/seq-regression',
    '--rule',
    'aep/time-format',
    'examples/aep/session-broken.jsonl',
  ]);
  assert.deepEqual(ruleIds(two.stdout), ['aep/time-format@3', 'aep/seq-regression@4']);
});

test('aep validate --rule: framing findings always appear; a rule with nothing to say exits 0', async () => {
  const input =
    '{"aep":"0.1","id":"e1","type":"agent.heartbeat","time":"yesterday","source":"aep://h/a","agent":"a"}\n\n{"x":';
  const r = await runCli('aep', ['validate', '-f', 'json', '--rule', 'aep/seq-regression', '-'], input);
  // the missing newline is about the end of line 3, after what is found in it
  assert.deepEqual(ruleIds(r.stdout), ['jsonl/blank-line@2', 'jsonl/invalid-json@3', 'jsonl/no-final-newline@3']);
  assert.equal(r.code, 1);
  const clean = await runCli('aep', ['validate', '--rule', 'aep/seq-regression', 'examples/aep/session.jsonl']);
  assert.equal(clean.code, 0);
});

test('ahp validate --rule runs only the named rule, framing always', async () => {
  const all = ruleIds((await runCli('ahp', ['validate', '-f', 'json', 'examples/ahp/session-broken.jsonl'])).stdout);
  assert.ok(
    all.some((s) => !s.startsWith('jsonl/') && !s.startsWith('ahp/overlay@')),
    'the example has findings of other rules',
  );
  const r = await runCli('ahp', [
    'validate',
    '-f',
    'json',
    '--rule',
    'ahp/overlay',
    'examples/ahp/session-broken.jsonl',
  ]);
  assert.equal(r.code, 1);
  assert.equal(r.stderr, '');
  assert.deepEqual(ruleIds(r.stdout), ['jsonl/carriage-return@1', 'ahp/overlay@7', 'ahp/overlay@7', 'ahp/overlay@21']);
});

test('validate --rule with an unknown id: exit 2, one line naming the nearest id and `rules`', async () => {
  const aep = await runCli('aep', ['validate', '--rule', 'aep/seq-regresion', 'examples/aep/session.jsonl']);
  assert.equal(aep.code, 2);
  assert.equal(aep.stdout, '');
  assert.equal(
    aep.stderr,
    'aep: unknown rule "aep/seq-regresion"; did you mean aep/seq-regression? (`aep rules` lists them all)\n',
  );
  const ahp = await runCli('ahp', ['validate', '--rule', 'ahp/json-rpc', 'examples/ahp/session.jsonl']);
  assert.equal(ahp.code, 2);
  assert.equal(ahp.stdout, '');
  assert.equal(
    ahp.stderr,
    'ahp: unknown rule "ahp/json-rpc"; did you mean ahp/jsonrpc? (`ahp rules` lists them all)\n',
  );
  const cross = await runCli('aep', ['validate', '--rule', 'ahp/jsonrpc', '-']);
  assert.equal(cross.code, 2);
  assert.match(
    cross.stderr,
    /^aep: unknown rule "ahp\/jsonrpc"; that is an ahp rule: try `ahp validate --rule ahp\/jsonrpc` \(`aep rules` lists them all\)\n$/,
  );
});
