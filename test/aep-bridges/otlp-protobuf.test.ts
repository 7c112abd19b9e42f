/**
 * `--from otlp` over OTLP binary protobuf (src/aep/bridges/otlp-binary.ts, otlp-proto.ts): the same requests by
 * OTLP/JSON and by protobuf give the same findings and events; a request body, a Collector `format: proto` file, stdin,
 * chunks and gzip read alike; bytes that do not decode are one finding at their message and offset, never a throw.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { otlpInputKind } from '../../src/aep/bridges/otlp-binary.ts';
import { decodeOtlpProtobuf } from '../../src/aep/bridges/otlp-proto.ts';
import type { Finding } from '../../src/core/finding.ts';
import { validate } from '../../src/index.ts';
import { runCli } from '../cli/helpers.ts';
import { tempDir } from '../temp.ts';
import { encodeRequest, frame, notRepresentable } from './otlp-protobuf-encode.ts';

/** The protobuf varint of `n`. */
function varint(n: number): Buffer {
  const out: number[] = [];
  for (; n > 0x7f; n >>>= 7) out.push((n & 0x7f) | 0x80);
  out.push(n);
  return Buffer.from(out);
}

const CASES = new URL('../../conformance/aep/', import.meta.url);
const TRACE = new URL('pass/aep.otlp-trace.otlp.jsonl', CASES);

/** Every finding of `input` read `--from otlp`. */
async function findings(input: Parameters<typeof validate>[1]): Promise<Finding[]> {
  return (await validate('aep', input, { from: 'otlp' })).findings;
}

/** What a finding says, without where in the bytes (JSON has columns, protobuf byte offsets of another encoding). */
const said = (fs: readonly Finding[]) =>
  fs.map((f) => `${f.ruleId} ${f.severity} @${f.line} ${f.pointer ?? ''} ${f.messageId ?? ''}`).sort();

const traceRequests = () =>
  readFileSync(TRACE, 'utf8')
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as unknown);

test('each OTLP case line protobuf can carry gives, framed, the findings and events of its OTLP/JSON line', async () => {
  let lines = 0;
  let withFindings = 0;
  const skipped: string[] = [];
  for (const group of ['pass', 'fail']) {
    const dir = new URL(`${group}/`, CASES);
    for (const name of readdirSync(dir).filter((n) => n.endsWith('.otlp.jsonl') && !n.startsWith('jsonl.'))) {
      const kept: string[] = [];
      for (const [i, l] of readFileSync(new URL(name, dir), 'utf8').trimEnd().split('\n').entries()) {
        const why = notRepresentable(JSON.parse(l));
        if (why) skipped.push(`${name}:${i + 1} ${why}`);
        else kept.push(l);
      }
      if (!kept.length) continue;
      // one line, one message: line numbers agree, and the stream rules see the same stream
      const text = kept.join('\n') + '\n';
      const bytes = frame(kept.map((l) => encodeRequest(JSON.parse(l))));
      const byJson = await findings({ text, source: name });
      const byProtobuf = await findings({ bytes, source: name });
      assert.deepEqual(said(byProtobuf), said(byJson), `${group}/${name}`);
      for (const f of byProtobuf) assert.equal(f.column, undefined, `${name}: a protobuf finding has no column`);
      const j = await runCli('aep', ['convert', '--from', 'otlp', '--max-capture', 'full', '-'], text);
      const p = await runCli('aep', ['convert', '--from', 'otlp', '--max-capture', 'full', '-'], bytes);
      assert.equal(p.stdout, j.stdout, `${name}: convert`);
      assert.equal(p.code, j.code, `${name}: convert exit`);
      lines += kept.length;
      if (byJson.length) withFindings++;
    }
  }
  // the lines protobuf cannot carry are few and each says why (a wrong JSON type, an unknown member, a proto3 default)
  assert.ok(lines > 80 && withFindings > 8, `${lines} lines, ${withFindings} files with findings`);
  assert.ok(skipped.length < 20, skipped.join('\n'));
});

test('one request body (.pb, stdin) and a Collector file of several requests read as their OTLP/JSON lines', async (t) => {
  const reqs = traceRequests();
  const dir = tempDir(t, 'ac-otlp-pb-');
  const traced = reqs.find((r) => JSON.stringify(r).includes('"traceId"'));
  const one = join(dir, 'request.pb');
  writeFileSync(one, encodeRequest(traced));
  const json = join(dir, 'request.json');
  writeFileSync(json, JSON.stringify(traced));
  const a = await runCli('aep', ['convert', '--from', 'otlp', one]);
  const b = await runCli('aep', ['convert', '--from', 'otlp', json]);
  assert.equal(a.code, 0, a.stderr);
  assert.equal(a.stdout, b.stdout);
  assert.match(a.stdout, /"traceparent":"00-/);
  const framed = join(dir, 'logs.binpb');
  writeFileSync(framed, frame(reqs.map(encodeRequest)));
  const all = await runCli('aep', ['convert', '--from', 'otlp', framed]);
  const lines = await runCli('aep', ['convert', '--from', 'otlp', '-'], reqs.map((r) => JSON.stringify(r)).join('\n'));
  assert.equal(all.code, 0, all.stderr);
  assert.equal(all.stdout, lines.stdout);
  assert.equal(all.stdout.trimEnd().split('\n').length, reqs.length);
  // standard input, a gzip file of it, and chunks of every size read alike
  const stdin = await runCli('aep', ['validate', '--from', 'otlp', '-'], readFileSync(framed));
  assert.equal(stdin.code, 0, stdin.stdout);
  const bytes = readFileSync(framed);
  const want = said(await findings({ path: framed }));
  assert.deepEqual(said(await findings({ bytes: gzipSync(bytes), source: 'x' })), want);
  for (const size of [1, 3, 5, 64])
    assert.deepEqual(
      said(
        await findings({
          stream: (async function* () {
            for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
          })(),
          source: 'x',
        }),
      ),
      want,
      `chunks of ${size}`,
    );
});

test('a cut or corrupt message is one jsonl/invalid-protobuf at its number and byte offset; the next messages are read', async () => {
  const msgs = traceRequests().map(encodeRequest);
  const m1 = msgs[1]!;
  // message 2 cut 5 bytes short inside its frame; 3 to 5 still read
  const bytes = frame([msgs[0]!, m1.subarray(0, m1.length - 5), ...msgs.slice(2)]);
  const fs = await findings({ bytes, source: 'cut.binpb' });
  assert.deepEqual(
    fs.map((f) => `${f.ruleId}@${f.line}`),
    ['jsonl/invalid-protobuf@2'],
  );
  const f = fs[0]!;
  const start = 4 + msgs[0]!.length + 4;
  assert.ok(f.byteOffset! >= start && f.byteOffset! < start + m1.length, `${f.byteOffset}`);
  assert.match(f.message, /^Protobuf message 2 \(\d+ bytes at byte offset \d+\)/);
  assert.equal(f.column, undefined);
  const r = await validate('aep', { bytes, source: 'cut.binpb' }, { from: 'otlp' });
  assert.equal(r.summary.events, msgs.length - 1);
  // a file cut inside its last message, or inside a length prefix: what came before is checked
  const cut = await findings({ bytes: frame(msgs).subarray(0, frame(msgs).length - 10), source: 'x' });
  assert.deepEqual(
    cut.map((x) => `${x.ruleId}@${x.line}:${x.messageId}`),
    [`jsonl/invalid-protobuf@${msgs.length}:frameCut`],
  );
  const prefix = await findings({ bytes: Buffer.concat([frame(msgs), Buffer.from([0, 0])]), source: 'x' });
  assert.deepEqual(
    prefix.map((x) => `${x.ruleId}@${x.line}:${x.messageId}`),
    [`jsonl/invalid-protobuf@${msgs.length + 1}:prefixCut`],
  );
  // the CLI: a finding and exit 1, no stack trace
  const cli = await runCli('aep', ['validate', '--from', 'otlp', '-'], bytes);
  assert.equal(cli.code, 1);
  assert.match(cli.stdout, /<stdin>:2 {2}error {2}jsonl\/invalid-protobuf/);
  assert.doesNotMatch(cli.stdout + cli.stderr, /\n\s+at /);
});

test('what a message cannot be: each fault named with its offset', () => {
  const ok = encodeRequest(traceRequests()[0]);
  const problem = (b: Uint8Array) => {
    const d = decodeOtlpProtobuf(b);
    assert.ok(!d.ok);
    return `${d.problem.messageId}@${d.problem.offset}`;
  };
  // cut inside resource_logs: the offset is past that field's tag and length
  assert.match(problem(ok.subarray(0, 10)), /^truncated@[1-9]$/);
  // a varint of 11 continuation bytes
  assert.equal(problem(Buffer.from([0x0a, ...Array(11).fill(0xff)])).split('@')[0], 'varint');
  // wire type 7 in a tag
  assert.equal(problem(Buffer.from([0x0f])).split('@')[0], 'wireType');
  // field 1 (resource_logs, a message) written as a varint
  const wrong = decodeOtlpProtobuf(Buffer.from([...ok, 0x08, 0x01]));
  assert.ok(!wrong.ok);
  assert.equal(wrong.problem.messageId, 'fieldWireType');
  assert.equal(wrong.problem.offset, ok.length);
  assert.deepEqual(
    [wrong.problem.args.field, wrong.problem.args.found, wrong.problem.args.expected],
    ['resourceLogs', 'varint', 'length-delimited'],
  );
  // a string (ResourceLogs.schema_url) that is not UTF-8
  assert.equal(problem(Buffer.from([0x0a, 0x04, 0x1a, 0x02, 0xff, 0xfe])), 'utf8@6');
  // field number 0 (a length-delimited tag 0x02)
  assert.equal(problem(Buffer.from([0x02, 0x00])).split('@')[0], 'fieldZero');
  // a body of kvlists 40 deep: 4 messages above it and 3 a level, past protobuf's 100, where JSON (256) reads it
  // (written by hand: protobufjs's writer stops at that depth too)
  const field = (tag: number, b: Buffer) => Buffer.concat([Buffer.from([tag]), varint(b.length), b]);
  let any = field(0x0a, Buffer.from('x'));
  for (let i = 0; i < 40; i++)
    any = field(0x32, field(0x0a, Buffer.concat([field(0x0a, Buffer.from('k')), field(0x12, any)])));
  const deep = field(0x0a, field(0x12, field(0x12, field(0x2a, any))));
  assert.equal(problem(deep).split('@')[0], 'depth');
  // an unknown field is skipped, as OTLP/JSON skips an unknown name
  const unknown = decodeOtlpProtobuf(Buffer.from([...ok, 0x78, 0x05]));
  assert.ok(unknown.ok);
  assert.deepEqual(unknown.request, (decodeOtlpProtobuf(ok) as { request: unknown }).request);
});

test('told from the first bytes: JSON (after blank lines too) and UTF-16 stay text; 0x0A and 0x00 are protobuf', async () => {
  const pb = encodeRequest(traceRequests()[0]);
  assert.equal(otlpInputKind(pb, true), 'request');
  assert.equal(otlpInputKind(frame([pb]), true), 'framed');
  assert.equal(otlpInputKind(Buffer.from('\n\n{"resourceLogs":[]}\n'), true), 'text');
  assert.equal(otlpInputKind(Buffer.from('\n\n'), false), undefined);
  assert.equal(otlpInputKind(Buffer.from('\n{"resourceLogs":[]}\n'), false), 'text');
  // a request whose first ResourceLogs is 123 bytes starts "\n{\n": its control bytes tell it from JSON
  const r123 = encodeRequest({
    resourceLogs: [{ resource: { attributes: [{ key: 'k', value: { stringValue: 'v'.repeat(112) } }] } }],
  });
  assert.deepEqual([...r123.subarray(0, 3)], [0x0a, 0x7b, 0x0a]);
  assert.equal(otlpInputKind(r123.subarray(0, 3), false), undefined);
  assert.equal(otlpInputKind(r123, true), 'request');
  assert.equal(otlpInputKind(Buffer.from([0x00]), false), undefined);
  // NUL bytes alone are no frames: /dev/zero stays one jsonl/binary-input, read no further
  assert.equal(otlpInputKind(Buffer.alloc(1024), false), 'text');
  assert.equal(otlpInputKind(Buffer.alloc(64), false), undefined);
  let taken = 0;
  const zeros = await findings({
    stream: (async function* () {
      for (; taken < 1000; taken++) yield Buffer.alloc(65536);
    })(),
    source: 'zeros',
  });
  assert.deepEqual(
    zeros.map((f) => f.ruleId),
    ['jsonl/binary-input'],
  );
  assert.ok(taken < 10, `${taken} chunks of zeros read`);
  assert.equal(otlpInputKind(Buffer.from('{"a":1}'), false), 'text');
  assert.equal(otlpInputKind(Buffer.from('\u0000{\u0000"\u0000a\u0000"\u0000:\u00001\u0000}', 'latin1'), true), 'text');
  const blank = await findings({ text: `\n${readFileSync(TRACE, 'utf8')}`, source: 'x' });
  assert.deepEqual(
    blank.map((f) => f.ruleId),
    ['jsonl/blank-line'],
  );
  const utf16 = await findings({ bytes: Buffer.from(`\ufeff${JSON.stringify(traceRequests()[0])}`, 'utf16le') });
  assert.deepEqual(
    utf16.map((f) => f.ruleId),
    ['jsonl/binary-input'],
  );
});

test('a message over --max-line-bytes is jsonl/line-too-long at its number; the others are read', async () => {
  const msgs = traceRequests().map(encodeRequest);
  const big = Math.max(...msgs.map((m) => m.length));
  const r = await validate('aep', { bytes: frame(msgs), source: 'x' }, { from: 'otlp', maxLineBytes: big - 1 });
  const long = r.findings.filter((f) => f.ruleId === 'jsonl/line-too-long');
  assert.deepEqual(
    long.map((f) => f.line),
    [msgs.findIndex((m) => m.length === big) + 1],
  );
  assert.equal(r.summary.events, msgs.length - 1);
  const one = await validate('aep', { bytes: msgs[0]!, source: 'x' }, { from: 'otlp', maxLineBytes: 10 });
  assert.deepEqual(
    one.findings.map((f) => `${f.ruleId}@${f.line}`),
    ['jsonl/line-too-long@1'],
  );
});

test('a request with no LogRecords (JSON or protobuf) counts 0 events, as convert writes 0', async () => {
  const inputs = [
    { text: '{"resourceLogs":[{}]}\n', source: 'a.jsonl' },
    { text: '{"resourceLogs":[]}\n', source: 'b.jsonl' },
    // the empty request in the proto3 JSON mapping (every field at its default; trial 15)
    { text: '{}\n{"resourceLogs":null}\n', source: 'e.jsonl' },
    { bytes: Buffer.from([0x0a, 0x00]), source: 'c.binpb' },
  ];
  for (const input of inputs) {
    const r = await validate('aep', input, { from: 'otlp' });
    assert.equal(r.summary.events, 0, input.source);
  }
  // a value that is no request at all (another signal's) is still one (refused) event
  const spans = await validate('aep', { text: '{"resourceSpans":[]}\n', source: 'd.jsonl' }, { from: 'otlp' });
  assert.equal(spans.summary.events, 1);
});

test('a bad single request body says nothing of length-prefixed files; convert counts protobuf in messages', async () => {
  const m = encodeRequest(traceRequests()[0]);
  const cut = m.subarray(0, m.length - 5);
  const [one] = await findings({ bytes: cut, source: 'req.binpb' });
  assert.equal(one!.ruleId, 'jsonl/invalid-protobuf');
  assert.doesNotMatch(one!.message, /length-prefixed/);
  assert.doesNotMatch(one!.spec, /Collector/);
  // in a Collector file the messages after a bad one are still read, and the message says so
  const [framed] = await findings({ bytes: frame([cut, m]), source: 'f.binpb' });
  assert.match(framed!.message, /in a length-prefixed file/);
  const cli = await runCli('aep', ['convert', '--from', 'otlp', '-'], cut);
  assert.match(cli.stderr, /1 message not written/);
  assert.doesNotMatch(cli.stderr, /\bline\b/);
});
