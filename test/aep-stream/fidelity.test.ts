/**
 * Verdicts that must not depend on what the tool happens to read: duplicate member order
 * (RFC 8259 §4; aep/payload-duplicate-conflict), the `[metadata*]` heuristic on prompts and
 * labels (AEP-0002 §5.3; AEP-0003 §9.2), prose constraints the registry lacks (AEP-0002
 * Abstract; aep/registry-prose-conflict).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isStructuralText } from '../../src/aep/form-text.ts';
import { brief, checkText } from './helpers.ts';

const SRC = 'aep://fid-host/agent/demo/session/s';
const head = (id: string, type: string, seq: number, extra = '') =>
  `{"aep":"0.1","id":"${id}","type":"${type}","time":"2026-11-30T10:00:00Z","source":"${SRC}","agent":"demo","session":"s","seq":${seq}${extra}`;
const REQUEST =
  head('q', 'attention.requested', 0, ',"capture":"redacted"') +
  ',"data":{"kind":"form","prompt":"demo requests form","fields":[{"id":"name","type":"string","label":"Name","required":true},{"id":"n","type":"number","label":"N"}]}}';

/** The error verdict of one event (after `prefix` lines), as the set of error rule ids. */
async function errors(prefix: string[], line: string): Promise<string[]> {
  const fs = await checkText([...prefix, line].join('\n') + '\n');
  return fs.filter((f) => f.severity === 'error' && f.line === prefix.length + 1).map((f) => f.ruleId);
}

test('a payload duplicate with differing copies is an error in every member order', async () => {
  const pairs: [string, string, string[]][] = [
    // [type, data member texts, prefix lines]
    ['progress.status', '"percent":500|"percent":50', []],
    ['attention.answered', '"answer":{"values":{"name":"Ada"}}|"answer":{"values":{}}', [REQUEST]],
    [
      'attention.answered',
      '"answer":{"values":{"n":1,"name":"x"}}|"answer":{"values":{"n":"1","name":"x"}}',
      [REQUEST],
    ],
    ['tool.completed', '"tool":{"name":"a"}|"tool":{"name":"a","id":"2"}', []],
    ['run.finished', '"cost":{"currency":"usd"}|"cost":{"currency":"USD"}', []],
  ];
  for (const [type, members, prefix] of pairs) {
    const [a, b] = members.split('|');
    const seq = prefix.length;
    const extra = type === 'attention.answered' ? ',"subject":"q"' : '';
    const one = await errors(prefix, head('e', type, seq, extra) + `,"data":{${a},${b}}}`);
    const two = await errors(prefix, head('e', type, seq, extra) + `,"data":{${b},${a}}}`);
    assert.ok(one.includes('aep/payload-duplicate-conflict'), `${type} ${a},${b}: ${one}`);
    assert.ok(two.includes('aep/payload-duplicate-conflict'), `${type} ${b},${a}: ${two}`);
  }
});

test('a payload duplicate with equal copies (key order, whitespace, number spelling aside) stays a warning', async () => {
  for (const data of [
    '{"percent":50,"percent":50}',
    '{"percent":50,"percent":5e1}',
    '{"m":{"a":1,"b":[2]},"m":{ "b":[2], "a":1 }}',
    '{"x":{"y":1,"y":1},"x":{"y":1}}',
  ]) {
    const fs = await checkText(head('e', 'progress.status', 0) + `,"data":${data}}\n`);
    assert.ok(
      fs.length > 0 && fs.every((f) => f.ruleId === 'aep/payload-duplicate-key' && f.severity === 'warning'),
      `${data}: ${brief(fs)}`,
    );
  }
  // big integers are compared exactly: JSON.parse would make these equal
  const fs = await checkText(
    head('e', 'progress.status', 0) + ',"data":{"n":9007199254740993,"n":9007199254740992}}\n',
  );
  assert.deepEqual(
    fs.map((f) => f.ruleId),
    ['aep/payload-duplicate-conflict'],
  );
});

test('a vendor payload (no schema reads it) keeps the warning even when copies differ', async () => {
  const fs = await checkText(head('e', 'x.acme.progress.noted', 0) + ',"data":{"a":1,"a":2}}\n');
  assert.equal(brief(fs), 'warning:aep/payload-duplicate-key@1/data/a');
});

test('isStructuralText: template words, numbers and the given structural values only', () => {
  const s = new Set(['claude-code', 'Bash', 'permission']);
  for (const t of [
    'claude-code requests permission: Bash',
    'claude-code asks 2 questions',
    'claude-code requests input (4 fields)',
    '3',
    'Bash',
    'Option 2',
  ])
    assert.equal(isStructuralText(t, s), true, t);
  for (const t of [
    'Deploy to production?',
    'claude-code requests permission: rm -rf build',
    'Which database?',
    'bash',
    '',
  ])
    assert.equal(isStructuralText(t, s), t === '', t);
});

test('the synthesised prompt passes at metadata; authored text is reported, not at redacted', async () => {
  const req = (id: string, seq: number, prompt: string, extra = '') =>
    head(id, 'attention.requested', seq, extra) + `,"data":{"kind":"permission","prompt":${JSON.stringify(prompt)}}}`;
  const fs = await checkText(
    [
      req('a', 0, 'demo requests permission: Bash', ',"subject":"Bash"'),
      req('b', 1, 'demo requests permission: Bash', ',"subject":"Write"'),
      req('c', 2, 'demo requests permission: Bash'),
      req('d', 3, 'Run rm -rf build?', ',"capture":"redacted"'),
      req('e', 4, 'Run rm -rf build?'),
    ].join('\n') + '\n',
    { rules: new Set(['aep/prompt-placeholder']) },
  );
  assert.equal(brief(fs), 'warning:aep/prompt-placeholder@2/data/prompt warning:aep/prompt-placeholder@5/data/prompt');
});

test('prose REQ members and values entry shapes the registry lacks are warnings that name the conflict', async () => {
  const fs = await checkText(
    [
      head('a', 'resource.citation.recorded', 0) + ',"data":{"citations":[{"cited_text_redacted":"x"},{"source":{}}]}}',
      head('b', 'assessment.guardrail.recorded', 1) + ',"data":{"guardrail":{"categories":[{"score":1}]}}}',
      head('c', 'control.attention.respond', 2).replace(/,"seq":2/, '') +
        ',"subject":"q","capture":"redacted","data":{"answer":{"values":{"k":{"v":1}}}}}',
    ].join('\n') + '\n',
    { rules: new Set(['aep/registry-prose-conflict']) },
  );
  assert.equal(
    brief(fs),
    'warning:aep/registry-prose-conflict@1/data/citations/0 warning:aep/registry-prose-conflict@2/data/guardrail/categories/0 warning:aep/registry-prose-conflict@3/data/answer/values/k',
  );
  assert.deepEqual(
    fs.map((f) => f.messageId),
    ['citation', 'category', 'values'],
  );
});
