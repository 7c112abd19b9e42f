/**
 * The AHP checker's memos change no finding: clean MCP bodies keep their parse (src/ahp/schema/elicitation.ts) and
 * answers found clean against a form are clean again (src/ahp/analyzers/elicitation.ts). Every conformance, example,
 * corpus and generated stream gives the same findings checked cold and again with the memos warm; a body clean under
 * one depth limit is not clean under a smaller one; an answer clean against one form is checked again against another.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseElicitationBody } from '../../src/ahp/schema/elicitation.ts';
import { generateAhp } from '../../tools/bench/generate-ahp.ts';
import { filesUnder, observeLine, REPO_DIR, runStdio } from './helpers.ts';
import { optionalShared, SHARED } from '../shared.ts';
import { sweep } from '../scale.ts';
import { tempDir } from '../temp.ts';

const brief = (fs: readonly { ruleId: string; pointer?: string; line?: number; message: string }[]) =>
  fs.map((f) => `${f.line}:${f.ruleId}:${f.pointer}:${f.message}`);

test('every stream gives the same findings cold and with warm memos', async (t) => {
  const upstream = optionalShared(t, SHARED.ahpCorpus);
  const dir = tempDir(t, 'ahp-memo-');
  const generated = join(dir, 'gen.jsonl');
  generateAhp(generated, { messages: 3000, seed: 5 });
  const paths = [
    ...filesUnder(join(REPO_DIR, 'conformance/ahp')),
    ...filesUnder(join(REPO_DIR, 'examples/ahp')),
    ...(upstream ? filesUnder(upstream) : []),
  ].filter((p) => p.endsWith('.jsonl'));
  assert.ok(paths.length > 100);
  for (const p of [generated, ...sweep(t, paths)]) {
    const text = readFileSync(p, 'utf8');
    const cold = brief(await runStdio(text));
    assert.deepEqual(brief(await runStdio(text)), cold, p);
    // the stream twice in one run: the second copy meets every memo of the run warm (repeats are findings of their own)
    const twice = brief(await runStdio(text.endsWith('\n') ? text + text : text));
    assert.deepEqual(brief(await runStdio(text.endsWith('\n') ? text + text : text)), twice, p);
  }
});

test('a body parsed clean is parsed again under a smaller depth limit', () => {
  const text = JSON.stringify({
    message: 'm',
    requestedSchema: { type: 'object', properties: { a: { type: 'string' } } },
  });
  const event = {
    type: 'user.elicitation.request',
    elicitation: { server: 's', mode: 'form', request: { id: 'p', kind: 'text', selection: 'body', text } },
  };
  assert.equal(parseElicitationBody(event, '/params/event', true)?.status, 'parsed');
  assert.equal(parseElicitationBody(event, '/params/event', true)?.status, 'parsed');
  const shallow = parseElicitationBody(event, '/params/event', true, 2);
  assert.equal(shallow?.status, 'invalid');
  assert.equal(parseElicitationBody(event, '/params/event', true)?.status, 'parsed');
});

test('an answer clean against one form is checked again against another', async () => {
  const form = (max: number) =>
    JSON.stringify({
      message: 'Pick',
      requestedSchema: { type: 'object', properties: { replicas: { type: 'integer', minimum: 1, maximum: max } } },
    });
  const answer = JSON.stringify({ action: 'accept', content: { replicas: 3 } });
  const session = { id: 's1', cwd: '/repo', workspaceRoots: ['/repo'] };
  const line = (id: string, type: string, elicitation: object, parent?: string) =>
    observeLine({
      id,
      source: 'https://harness.example/r',
      type,
      time: '2026-08-24T08:00:03Z',
      session,
      ...(parent ? { parentEventId: parent } : {}),
      elicitation,
    });
  const part = (id: string, text: string) => ({ id, kind: 'text', mediaType: 'text/plain', selection: 'body', text });
  const pair = (n: number, max: number) => [
    line(`q${n}`, 'user.elicitation.request', { server: 'x', mode: 'form', request: part(`q${n}p`, form(max)) }),
    line(
      `r${n}`,
      'user.elicitation.result',
      { server: 'x', mode: 'form', action: 'accept', result: part(`r${n}p`, answer) },
      `q${n}`,
    ),
  ];
  const alone = await runStdio(`${pair(2, 2).join('\n')}\n`);
  const after = await runStdio(`${[...pair(1, 9), ...pair(2, 2)].join('\n')}\n`);
  const content = (fs: typeof alone) => fs.filter((f) => f.ruleId === 'ahp/elicitation-content-schema').length;
  assert.equal(content(alone), 1);
  assert.equal(content(after), 1, brief(after).join('\n'));
});
