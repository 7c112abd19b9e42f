/**
 * Integers beyond 2^53: where order or identity depends on them they are compared exactly,
 * from the literal text (JSON.parse rounds 9007199254740993 to 9007199254740992).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { exactInteger } from '../../src/aep/event.ts';
import { parseJsonText } from '../../src/core/json.ts';
import { parseLine } from '../../src/core/pipeline.ts';
import { aepEvent, hasAepRule, ids, jsonl, run } from './helpers.ts';

const TWO53 = '9007199254740992';
const TWO53_PLUS_1 = '9007199254740993';

test('literals beyond the safe range are kept exactly, with their pointers; safe ones are not listed', () => {
  const out = parseJsonText(
    `{"seq":${TWO53_PLUS_1},"epoch":9007199254740991,"data":{"n":[-${TWO53_PLUS_1},1e400,123456789012345678901234567890]}}`,
  );
  assert.equal(out.ok, true);
  assert.deepEqual(out.ok && out.bigIntegers.map((b) => [b.pointer, b.text]), [
    ['/seq', TWO53_PLUS_1],
    ['/data/n/0', `-${TWO53_PLUS_1}`],
    ['/data/n/2', '123456789012345678901234567890'],
  ]);
});

test('exactInteger reads seq from the literal, not from the rounded double', () => {
  const line = JSON.stringify(aepEvent('progress.status', 0)).replace('"seq":0', `"seq":${TWO53_PLUS_1}`);
  const ev = parseLine(
    { source: 't', line: 1, byteOffset: 0, text: line, byteLength: line.length, unterminated: false },
    () => {},
  );
  assert.ok(ev);
  assert.equal(ev.value.seq, Number(TWO53), 'JSON.parse rounded it');
  assert.equal(exactInteger(ev, '/seq'), BigInt(TWO53_PLUS_1));
});

test('a seq going from 2^53+1 back to 2^53 is a regression; the other way round is not', {
  skip: !hasAepRule('aep/seq-regression') && 'aep/seq-regression not present',
}, async () => {
  const at = (seq: string, id: string) =>
    JSON.stringify(aepEvent('progress.status', 0, { id })).replace('"seq":0', `"seq":${seq}`);
  const down = await run(jsonl([at(TWO53_PLUS_1, 'a'), at(TWO53, 'b')]));
  assert.deepEqual(ids(down.findings), ['aep/seq-regression']);
  assert.equal(down.findings[0].line, 2);
  assert.equal(down.findings[0].pointer, '/seq');
  const up = await run(jsonl([at(TWO53, 'a'), at(TWO53_PLUS_1, 'b')]));
  assert.deepEqual(up.findings, []);
});

test('two events that differ only in a big integer are different events (an id collision, not a redelivery)', {
  skip: !hasAepRule('aep/id-collision') && 'aep/id-collision not present',
}, async () => {
  const a = JSON.stringify(
    aepEvent('progress.status', 0, { id: 'same', capture: 'redacted', data: { percent: 1 } }),
  ).replace('"percent":1', `"percent":1,"n":${TWO53}`);
  const b = a.replace(`"n":${TWO53}`, `"n":${TWO53_PLUS_1}`);
  assert.deepEqual(JSON.parse(a), JSON.parse(b), 'JSON.parse cannot tell them apart');
  const { findings } = await run(jsonl([a, b]));
  assert.ok(ids(findings).includes('aep/id-collision'), ids(findings).join(' '));
  const again = await run(jsonl([a, a]));
  assert.ok(!ids(again.findings).includes('aep/id-collision'), 'a byte-identical repeat is redelivery');
});

test('aep redact and aep downlevel write every number of an event they change as it was written', async () => {
  const { runCli } = await import('../cli/helpers.ts');
  const numbers = '{"n":[1e400,9007199254740993.0,0.10000000000000000001,-1e-400,9007199254740993,2.5]}';
  const line = JSON.stringify(
    aepEvent('tool.requested', 0, {
      capture: 'redacted',
      data: { tool: { name: 'sh' }, args_redacted: { cmd: 'echo hi' } },
    }),
  ).replace('"args_redacted":{', `"args_redacted":{"numbers":${numbers},`);
  assert.ok(line.includes(numbers), line);
  // redact rewrites the event (the home path), so every number goes through the serializer
  const withHome = line.replace('echo hi', 'cat /home/me/notes');
  const redacted = await runCli('aep', ['redact', '--home', '/home/me', '-'], withHome + '\n');
  assert.ok(redacted.stdout.includes('cat ~/notes'), redacted.stdout + redacted.stderr);
  assert.ok(redacted.stdout.includes(numbers), redacted.stdout);
  // a full event lowered to redacted through the pipeline: args go, args_redacted stays with its numbers
  const full = withHome
    .replace('"capture":"redacted"', '"capture":"full"')
    .replace('"tool":{', '"args":{"a":1},"tool":{');
  const lowered = await runCli('aep', ['downlevel', '--ceiling', 'redacted', '--redact', '-'], full + '\n');
  assert.ok(lowered.stdout.includes('"capture":"redacted"'), lowered.stdout + lowered.stderr);
  assert.ok(lowered.stdout.includes(numbers), lowered.stdout);
});

test('aep convert --to cloudevents keeps a number a double would change beside one beyond a double', async () => {
  const { runCli } = await import('../cli/helpers.ts');
  const line = JSON.stringify(aepEvent('progress.status', 0, { data: { percent: 1 } })).replace(
    '"percent":1',
    '"percent":1,"x":{"a":0.10000000000000000001,"n":1e400,"b":1.50}',
  );
  const r = await runCli('aep', ['convert', '--to', 'cloudevents', '-'], line + '\n');
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /"x":\{"a":0\.10000000000000000001,"n":1e400,"b":1\.5\}/);
});
