/**
 * Binding hints (issue 26 item 3): an AHP input that fails to parse as the binding its name
 * chose, but that the other binding reads, says which `--binding` to use, in both directions;
 * an input the hint does not fit keeps its findings as before.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { bindingHint } from '../../src/ahp/binding-hint.ts';
import { runCli } from '../cli/helpers.ts';
import { registration as registrationDocument } from './builders.ts';
import { tempDir } from '../temp.ts';

const message = fc.record(
  {
    jsonrpc: fc.constant('2.0'),
    method: fc.constantFrom('hooks/observe', 'hooks/intercept'),
    id: fc.oneof(fc.integer(), fc.string()),
  },
  { requiredKeys: ['jsonrpc', 'method'] },
);

test('bindingHint: JSONL of two or more objects names stdio as a document, a pretty-printed object names http as stdio, and never the binding that reads the text', () => {
  fc.assert(
    fc.property(fc.array(message, { minLength: 2, maxLength: 6 }), message, (msgs, one) => {
      const jsonl = msgs.map((m) => JSON.stringify(m)).join('\n') + '\n';
      const pretty = JSON.stringify(one, null, 2) + '\n';
      assert.match(bindingHint(jsonl, 'http') ?? '', /`--binding stdio`/);
      assert.match(bindingHint(jsonl, 'registration') ?? '', /`--binding stdio`/);
      assert.match(bindingHint(pretty, 'stdio') ?? '', /`--binding http`/);
      // the binding that reads each text gets no hint (the other one would not read it)
      assert.equal(bindingHint(jsonl, 'stdio'), undefined);
      assert.equal(bindingHint(pretty, 'http'), undefined);
      // text neither binding reads gets none either
      assert.equal(bindingHint(jsonl.replace(/}\n/, '\n'), 'http'), undefined);
      assert.equal(bindingHint(pretty.replace(/}\n$/, '\n'), 'stdio'), undefined);
    }),
    { numRuns: 100 },
  );
});

test('a capture saved as .json, and a pretty-printed body on stdin: one finding naming the binding to use', async (t) => {
  const { writeFileSync } = await import('node:fs');
  const { join } = await import('node:path');
  const dir = tempDir(t, 'ac-hint-');
  const capture = join(dir, 'capture.json');
  writeFileSync(capture, '{"jsonrpc":"2.0","method":"hooks/observe"}\n{"jsonrpc":"2.0","method":"hooks/observe"}\n');
  const asBody = await runCli('ahp', ['validate', '-f', 'json', capture]);
  const f1 = (JSON.parse(asBody.stdout) as { findings: Array<{ ruleId: string; message: string }> }).findings;
  assert.deepEqual(
    f1.map((f) => f.ruleId),
    ['jsonl/invalid-json'],
  );
  assert.match(f1[0]!.message, /expected end of input.*read it with `--binding stdio`/);

  const body =
    JSON.stringify({ jsonrpc: '2.0', method: 'hooks/observe', params: { a: [1, 2], b: 'x' } }, null, 2) + '\n';
  const onStdin = await runCli('ahp', ['validate', '-f', 'json', '-'], body);
  const f2 = (JSON.parse(onStdin.stdout) as { findings: Array<{ ruleId: string; message: string; line: number }> })
    .findings;
  assert.deepEqual(
    f2.map((f) => [f.ruleId, f.line]),
    [['jsonl/invalid-json', 1]],
  );
  assert.match(f2[0]!.message, /are one pretty-printed JSON message.*read it with `--binding http`/);
  // read as the binding named, both are parsed without a framing finding
  for (const [args, input] of [
    [['--binding', 'stdio', capture], ''],
    [['--binding', 'http', '-'], body],
  ] as const) {
    const r = await runCli('ahp', ['validate', '-f', 'json', ...args], input);
    const ids = (JSON.parse(r.stdout) as { findings: Array<{ ruleId: string }> }).findings.map((f) => f.ruleId);
    assert.ok(!ids.some((id) => id.startsWith('jsonl/')), ids.join(' '));
  }
  // a stdio capture with one broken line among good ones: reported as before, no hint
  const mixed = await runCli(
    'ahp',
    ['validate', '-f', 'json', '-'],
    '{"jsonrpc":"2.0","method":"hooks/observe"}\n{\n"x": 1}\n',
  );
  const f3 = (
    JSON.parse(mixed.stdout) as { findings: Array<{ ruleId: string; message: string; line: number }> }
  ).findings.filter((f) => f.ruleId === 'jsonl/invalid-json');
  assert.deepEqual(
    f3.map((f) => f.line),
    [2, 3],
  );
  for (const f of f3) assert.doesNotMatch(f.message, /--binding/);
});

const registration = fc.record(
  {
    protocolVersion: fc.constant('draft'),
    hooks: fc.array(fc.record({ id: fc.string(), subscriptions: fc.array(fc.dictionary(fc.string(), fc.string())) }), {
      maxLength: 3,
    }),
  },
  { requiredKeys: ['hooks'] },
);

test('bindingHint: a pretty-printed registration document (hooks, no jsonrpc) names registration, a message http', () => {
  fc.assert(
    fc.property(registration, message, (doc, msg) => {
      const pretty = (v: unknown) => JSON.stringify(v, null, 2) + '\n';
      assert.match(
        bindingHint(pretty(doc), 'stdio') ?? '',
        /registration document: read it with `--binding registration`/,
      );
      // a wire message carrying a `hooks` member is still a message: jsonrpc decides
      assert.match(bindingHint(pretty({ ...msg, hooks: doc.hooks }), 'stdio') ?? '', /`--binding http`/);
    }),
    { numRuns: 100 },
  );
});

test('a pretty-printed registration document on stdin: the binding the hint names reads it with no framing finding', async () => {
  const doc = registrationDocument();
  const text = JSON.stringify(doc, null, 2) + '\n';
  const asStdio = await runCli('ahp', ['validate', '-f', 'json', '-'], text);
  const findings = (JSON.parse(asStdio.stdout) as { findings: Array<{ ruleId: string; message: string }> }).findings;
  assert.deepEqual(
    findings.map((f) => f.ruleId),
    ['jsonl/invalid-json'],
  );
  const named = /read it with `--binding (\w+)`/.exec(findings[0]!.message)?.[1];
  assert.equal(named, 'registration');
  const r = await runCli('ahp', ['validate', '--binding', named!, '-'], text);
  assert.equal(r.code, 0, r.stdout);
});

test('bindingHint: several messages pretty-printed one after another (`jq .`) name the stdio framing once; compact lines, or a registration document among them, get none', () => {
  fc.assert(
    fc.property(fc.array(message, { minLength: 2, maxLength: 6 }), registration, (msgs, doc) => {
      const pretty = msgs.map((m) => JSON.stringify(m, null, 2)).join('\n') + '\n';
      const lineCount = pretty.split('\n').filter((l) => l.trim() !== '').length;
      assert.equal(
        bindingHint(pretty, 'stdio'),
        `The ${lineCount} lines are ${msgs.length} pretty-printed JSON messages: the stdio binding carries one message per line, with no newline inside it (\`jq -c\` writes them so; the other lines are not reported one by one).`,
      );
      // one message per line is what stdio reads: nothing to hint
      assert.equal(bindingHint(msgs.map((m) => JSON.stringify(m)).join('\n') + '\n', 'stdio'), undefined);
      assert.equal(bindingHint(`${pretty}${JSON.stringify(doc, null, 2)}\n`, 'stdio'), undefined);
      // a value cut short is not a run of messages
      assert.equal(bindingHint(pretty.replace(/}\n$/, '\n'), 'stdio'), undefined);
    }),
    { numRuns: 100 },
  );
});

test('a capture pretty-printed by `jq .`: one jsonl/invalid-json naming its messages by file, stdin, validateStream and createSession', async (t) => {
  const { writeFileSync, readFileSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { createSession, validate, validateStream } = await import('../../src/index.ts');
  const lines = readFileSync('examples/ahp/session.jsonl', 'utf8').split('\n').filter(Boolean);
  const text = `${lines.map((l) => JSON.stringify(JSON.parse(l), null, 2)).join('\n')}\n`;
  const file = join(tempDir(t, 'ac-jq-'), 'capture.jsonl');
  writeFileSync(file, text);
  const want = [['jsonl/invalid-json', 1, 2]];
  const shape = (fs: ReadonlyArray<{ ruleId: string; line?: number; column?: number }>) =>
    fs.map((f) => [f.ruleId, f.line, f.column]);
  const byFile = (await validate('ahp', [{ path: file }])).findings;
  assert.deepEqual(shape(byFile), want);
  assert.match(byFile[0]!.message, new RegExp(`are ${lines.length} pretty-printed JSON messages: .*\`jq -c\``));
  const streamed = [];
  for await (const f of validateStream('ahp', [{ path: file }])) streamed.push(f);
  const s = createSession('ahp');
  const session = [...s.check(text), ...s.end()];
  for (const [route, fs] of [
    ['validateStream', streamed],
    ['createSession', session],
  ] as const)
    assert.deepEqual(
      fs.map((f) => [f.ruleId, f.line, f.message]),
      byFile.map((f) => [f.ruleId, f.line, f.message]),
      route,
    );
  const cli = await runCli('ahp', ['validate', '-f', 'json', '-'], text);
  const onStdin = (JSON.parse(cli.stdout) as { findings: Array<{ ruleId: string; message: string; line: number }> })
    .findings;
  assert.deepEqual(
    onStdin.map((f) => [f.ruleId, f.line, f.message]),
    byFile.map((f) => [f.ruleId, f.line, f.message]),
  );
  // the same messages one per line pass the framing; one good line first: each later line is reported, no hint
  assert.ok(
    !(await validate('ahp', [{ text: `${lines.join('\n')}\n` }])).findings.some((f) => f.ruleId.startsWith('jsonl/')),
  );
  const mixed = (await validate('ahp', [{ text: `${lines[0]}\n${text}` }])).findings.filter((f) =>
    f.ruleId.startsWith('jsonl/'),
  );
  assert.ok(mixed.length > lines.length, String(mixed.length));
  for (const f of mixed) assert.doesNotMatch(f.message, /pretty-printed JSON messages/);
});
