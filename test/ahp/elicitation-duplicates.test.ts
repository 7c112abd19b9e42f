/**
 * Repeated member names inside an MCP elicitation body (issue 14 item 5, AHP half): the findings
 * never depend on which copy comes first. A repeat whose copies differ leaves the value
 * undetermined (only the repeat is reported, saying so); equal copies leave it determined.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { differingCopies } from '../../src/core/json-copies.ts';
import { parseJsonText } from '../../src/core/json.ts';
import { runStdio, show } from './helpers.ts';

const SRC = 'urn:uuid:6d1f2c3a-0b4e-4c7a-9e21-5f8a7b6c4d30';

/** One observed elicitation event whose body text is `body` (request or result). */
function line(kind: 'request' | 'result', body: string, mode: string, action = 'accept'): string {
  const elicitation: Record<string, unknown> = {
    server: 'mcp:x',
    mode,
    [kind]: { id: 'p1', kind: 'text', mediaType: 'text/plain', selection: 'body', text: body },
  };
  if (kind === 'result') elicitation.action = action;
  const event = {
    id: 'evt_1',
    source: SRC,
    time: '2026-09-15T12:00:00Z',
    type: `user.elicitation.${kind}`,
    session: { id: 's1' },
    elicitation,
  };
  return (
    JSON.stringify({ jsonrpc: '2.0', method: 'hooks/observe', params: { protocolVersion: 'draft', event } }) + '\n'
  );
}

const key = (fs: Awaited<ReturnType<typeof runStdio>>) =>
  fs.map((f) => `${f.ruleId} ${f.pointer} ${f.column} ${f.message}`).sort();

/** The repeats of `text` whose copies differ, as the parse reports the repeats. */
function differ(text: string): string[] {
  const parsed = parseJsonText(text);
  assert.ok(parsed.ok);
  return [
    ...differingCopies(
      text,
      parsed.duplicates.map((d) => d.pointer),
    ).keys(),
  ].sort();
}

test('differingCopies names repeats whose copies differ (a repeat inside differing parents differs too)', () => {
  assert.deepEqual(differ('{"a":1,"a":1}'), []);
  assert.deepEqual(differ('{"a":{"x":1,"y":2},"a":{"y":2,"x":1}}'), []);
  assert.deepEqual(differ('{"a":1,"a":2}'), ['/a']);
  assert.deepEqual(differ('{"o":[{"k":"s","k":"t"}],"p":"q","p":"q"}'), ['/o/0/k']);
  assert.deepEqual(differ('{"a":{"x":1,"x":1},"a":{"x":2,"x":2}}'), ['/a', '/a/x']);
  assert.deepEqual(differ(' { "a" : "x\\"}" , "a" : "x\\"}" } '), []);
  assert.deepEqual(differ('{"n":12345678901234567890,"n":12345678901234567891}'), ['/n']);
  assert.deepEqual(differ('{"n":1.0,"n":1}'), []);
});

test('the findings of a body with a repeated member do not depend on member order', async () => {
  // [kind, envelope mode, first copy, second copy, the rest of the body]
  const cases: Array<[kind: 'request' | 'result', mode: string, a: string, b: string, rest: string, action?: string]> =
    [
      [
        'request',
        'form',
        '"mode":"form"',
        '"mode":"url"',
        '"message":"m","url":"https://x.example/a","elicitationId":"e1"',
      ],
      [
        'request',
        'url',
        '"mode":"form"',
        '"mode":"url"',
        '"message":"m","requestedSchema":{"type":"object","properties":{}}',
      ],
      [
        'request',
        'form',
        '"requestedSchema":{"type":"object","properties":{"password":{"type":"string"}}}',
        '"requestedSchema":{"type":"object","properties":{}}',
        '"message":"m"',
      ],
      ['result', 'form', '"action":"accept"', '"action":"decline"', '"content":{"name":"Ada"}'],
      ['result', 'form', '"content":{"name":"Ada"}', '"content":{"name":null}', '"action":"accept"'],
    ];
  for (const [kind, mode, a, b, rest, action] of cases) {
    const ab = await runStdio(line(kind, `{${a},${rest},${b}}`, mode, action));
    const ba = await runStdio(line(kind, `{${b},${rest},${a}}`, mode, action));
    assert.deepEqual(key(ab), key(ba), `${a} / ${b}: ${show(ab)} vs ${show(ba)}`);
    // a result here has no parent (ahp/elicitation-uncorrelated): not about the body
    assert.deepEqual(
      ab.map((f) => f.ruleId).filter((r) => r !== 'ahp/elicitation-uncorrelated'),
      ['ahp/elicitation-body'],
      show(ab),
    );
    assert.match(ab[0]!.message, /differing values/);
  }
});

test('equal copies leave the body determined: its other problems are still reported', async () => {
  const fs = await runStdio(
    line(
      'request',
      '{"mode":"url","mode":"url","message":"m","url":"https://a:b@x.example/","elicitationId":"e1"}',
      'form',
    ),
  );
  assert.deepEqual(
    fs.map((f) => f.ruleId).sort(),
    // the userinfo password is the credential detector's: an error of ahp/credential-exposed (issue 43)
    ['ahp/credential-exposed', 'ahp/elicitation-body', 'ahp/elicitation-mode-mismatch'],
    show(fs),
  );
  assert.match(fs.find((f) => f.ruleId === 'ahp/elicitation-body')!.message, /copies are equal/);
});
