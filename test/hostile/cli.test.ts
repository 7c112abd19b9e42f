/**
 * Hostile input through the CLI (in-process through `main`, with the bins' exit codes and output): a file that mixes every framing problem gives a
 * report with a located finding per problem, exit 1, and no stack trace; and no code path
 * compiles a regular expression taken from input data.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { runCli } from '../cli/helpers.ts';
import { aepEvent, hasStackTrace, ROOT } from './helpers.ts';

interface Report {
  findings: { ruleId: string; line?: number; column?: number; byteOffset?: number }[];
  summary: { lines: number; events: number };
}

function hostileAep(): { bytes: Buffer; lines: number } {
  const ok = (seq: number, over: Record<string, unknown> = {}) =>
    JSON.stringify(aepEvent('progress.status', seq, over));
  const parts: (string | Buffer)[] = [
    Buffer.from([0xef, 0xbb, 0xbf]),
    ok(0) + '\r\n',
    '\n',
    Buffer.concat([Buffer.from(ok(1).slice(0, 30)), Buffer.from([0xff, 0xfe]), Buffer.from(ok(1).slice(30) + '\n')]),
    ok(2).replace('"aep":"0.1"', '"aep":"0.1","aep":"0.1"') + '\n',
    ok(3, { capture: 'redacted', data: { message: `${'['.repeat(1000)}${']'.repeat(1000)}` } }).replace(
      /"message":"(\[+\]+)"/,
      '"message":$1',
    ) + '\n',
    ok(4, { data: { message: 'x'.repeat(5000) } }) + '\n',
    ok(5, { capture: 'redacted', data: { message: 'a\u2028b' } }) + '\n',
    ok(6).slice(0, 50),
  ];
  const bytes = Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : p)));
  return { bytes, lines: 8 };
}

test('aep validate: every framing problem at once gives located findings, exit 1, no stack trace', async () => {
  const { bytes, lines } = hostileAep();
  const r = await runCli('aep', ['validate', '-', '--format', 'json', '--max-line-bytes', '4096'], bytes);
  assert.equal(r.code, 1, r.stderr);
  assert.equal(hasStackTrace(r.stderr), false, r.stderr);
  assert.equal(r.stderr, '');
  const report = JSON.parse(r.stdout) as Report;
  const got = report.findings.map((f) => `${f.ruleId}@${f.line}`).sort();
  assert.deepEqual(got, [
    'json/duplicate-key@4',
    'jsonl/blank-line@2',
    'jsonl/bom@1',
    'jsonl/invalid-json@8',
    'jsonl/invalid-utf8@3',
    'jsonl/line-too-long@6',
    'jsonl/max-depth@5',
    'jsonl/no-final-newline@8',
  ]);
  for (const f of report.findings) {
    assert.ok(f.line !== undefined && f.line >= 1 && f.line <= lines, `${f.ruleId} line ${f.line}`);
    assert.ok(
      f.byteOffset !== undefined && f.byteOffset >= 0 && f.byteOffset <= bytes.length,
      `${f.ruleId} offset ${f.byteOffset}`,
    );
  }
  assert.equal(report.summary.lines, lines);
});

test('ahp validate: CRLF, a repeated member and a truncated line are located findings, exit 1, no stack trace', async () => {
  const req =
    '{"jsonrpc":"2.0","id":"e1","method":"hooks/intercept","params":{"protocolVersion":"draft","event":{"id":"e1","source":"https://h.example/r","type":"tool.before","time":"2026-08-24T08:51:14Z","tool":{"name":"Bash","kind":"shell","input":{},"origin":"native"},"call":{"id":"c1"}},"capabilities":{"effects":["deny"]}}}';
  const input = `${req}\r\n{"jsonrpc":"2.0","id":"e1","id":"e1","result":{"protocolVersion":"draft","effects":[]}}\n{"jsonrpc":"2.0","id":"e2",`;
  const r = await runCli('ahp', ['validate', '-', '--format', 'json'], input);
  assert.equal(r.code, 1, r.stderr);
  assert.equal(hasStackTrace(r.stderr), false, r.stderr);
  const report = JSON.parse(r.stdout) as Report;
  const got = new Set(report.findings.map((f) => `${f.ruleId}@${f.line}`));
  for (const want of ['jsonl/carriage-return@1', 'json/duplicate-key@2', 'jsonl/invalid-json@3'])
    assert.ok(got.has(want), `${want} in ${[...got].join(' ')}`);
  for (const f of report.findings)
    assert.ok(f.line === undefined || (f.line >= 1 && f.line <= 3), `${f.ruleId} line ${f.line}`);
});

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...sources(p));
    else if (name.endsWith('.ts')) out.push(p);
  }
  return out;
}

/**
 * Every `new RegExp(` / `RegExp(` in src/, reviewed: none compiles a pattern taken from input
 * data. A new occurrence fails this test until it is reviewed and listed here.
 */
const REVIEWED_REGEXP: Record<string, string> = {
  'src/fixture-runner/aep-case-files.ts#needle':
    'a corpus case name, fully escaped (every metacharacter backslashed): a literal match, not a pattern from the data',
  'src/fixture-runner/aep-mappings.ts#grammar': 'the type pattern of our own envelope schema (schemas/aep), not input',
  'src/core/schema/formats.ts#URI':
    'the RFC 3986 §3 URI grammar composed from constant ABNF pieces in the module, not input',
  'src/aep/redact.ts#namesRe':
    "the operator's --secret-name list (createRedactor options), every metacharacter escaped, compiled once per redactor: literal names, not input data",
  'src/aep/redact.ts#valuesRe':
    "the operator's secret values (createRedactor options), escaped, compiled once per redactor: literal values, not input data",
  'src/aep/redact.ts#HOME_TEST':
    'the constant HOME_GENERIC pattern without its g flag (a stateless test for homePathIn): a literal of our source, not input data',
  'src/aep/redact.ts#homeRe':
    "the operator's --home path (createRedactor options), escaped, compiled once per redactor: a literal prefix, not input data",
  'src/core/schema/formats.ts#MAILBOX':
    'the RFC 5321 §4.1.2 Mailbox grammar composed from constant ABNF pieces in the module, not input',
  'src/core/schema/formats.ts#IP_LITERAL':
    'the RFC 3986 §3.2.2 IP-literal content grammar composed from constant ABNF pieces in the module, not input',
  'src/core/schema/formats.ts#ADDRESS_LITERAL':
    'the RFC 5321 §4.1.3 address-literal content grammar composed from constant ABNF pieces in the module, not input',
  'src/core/secret-patterns.ts#PROVIDER':
    'the provider token shapes, a constant list of literal patterns in the module joined once at load, not input',
  'src/core/secret-patterns.ts#ASSIGNMENT':
    'the §9.4(a) keywords and the constant ASSIGNED tail of the module, joined once at load, not input',
  'src/core/secret-patterns.ts#SECRET_NAME':
    'the closed list of well-known secret names and the constant ASSIGNED tail of the module, joined once at load, not input',
  'src/core/secret-patterns.ts#SECRET_NAME_UPPER':
    'the constant `_SK` name and ASSIGNED tail of the module, joined once at load, not input',
  'src/aep/capture-checks.ts#CONTENT_SCREEN':
    'the constant SECRET_OPENINGS and PHONE_SCREEN patterns of the module and `@`, joined once at load: one screen for the three tests, not input',
  'src/aep/bridges/numbers.ts#CE_DISALLOWED_ALL':
    'the constant CloudEvents §3.1.1 String pattern of the module with the g flag, compiled once at load, not input',
  'src/aep/bridges/numbers.ts#LONE_SURROGATE_ALL':
    'the constant unpaired-surrogate pattern of the module with the g flag, compiled once at load, not input',
  'src/core/schema/memo-pattern.ts#re':
    'a `pattern` of our own schemas, written into the generated verdict code at build time (tools/gen-validators.ts), not input',
};

test('invalid UTF-8 on the only line is one finding, the same from a file, stdin and gzip, in both bins', async () => {
  const file = 'conformance/aep/fail/jsonl.invalid-utf8--only-line.jsonl';
  const bytes = readFileSync(file);
  const at = (stdout: string) =>
    (JSON.parse(stdout) as Report).findings.map((f) => [f.ruleId, f.line, f.column, f.byteOffset]);
  for (const bin of ['aep', 'ahp'] as const) {
    const byFile = await runCli(bin, ['validate', '--format', 'json', file]);
    assert.equal(byFile.code, 1, bin);
    assert.deepEqual(at(byFile.stdout), [['jsonl/invalid-utf8', 1, 126, 125]], bin);
    for (const input of [bytes, gzipSync(bytes)]) {
      const r = await runCli(bin, ['validate', '--format', 'json', '-'], input);
      assert.equal(r.code, 1, bin);
      assert.deepEqual(at(r.stdout), at(byFile.stdout), bin);
    }
  }
});

test('the empty-input finding comes after the findings of the lines it sums up, in streamed and sorted reports', async () => {
  for (const [stdin, rules] of [
    [Buffer.from([0xef, 0xbb, 0xbf]), ['jsonl/bom', 'jsonl/empty-input']],
    ['\n \n', ['jsonl/blank-line', 'jsonl/blank-line', 'jsonl/empty-input']],
  ] as const) {
    const json = await runCli('aep', ['validate', '--format', 'json', '-'], stdin);
    assert.deepEqual(
      (JSON.parse(json.stdout) as Report).findings.map((f) => f.ruleId),
      rules,
    );
    const text = await runCli('aep', ['validate', '-'], stdin);
    assert.deepEqual(
      text.stdout.split('\n').flatMap((l) => l.match(/^<stdin>:[\d:]+ {2}error {2}(\S+)/)?.[1] ?? []),
      rules,
    );
  }
});

test('no regular expression is compiled from input data (every RegExp constructor in src/ is reviewed)', () => {
  const found: string[] = [];
  for (const file of sources(join(ROOT, 'src'))) {
    const rel = relative(ROOT, file).replace(/\\/g, '/');
    const lines = readFileSync(file, 'utf8').split('\n');
    lines.forEach((line, i) => {
      if (/^\s*(\*|\/\/)/.test(line)) return;
      if (!/\bRegExp\s*\(/.test(line)) return;
      // the formatter may put the constructor on the line after its declaration
      const declared = [line, lines[i - 1] ?? '', lines[i - 2] ?? ''].map(
        (l) => /(?:const|let|var)\s+(\w+)\s*=/.exec(l)?.[1],
      );
      const name = declared.find((n) => n !== undefined) ?? `line ${i + 1}`;
      found.push(`${rel}#${name}`);
    });
  }
  assert.deepEqual(
    found.sort(),
    Object.keys(REVIEWED_REGEXP).sort(),
    'review new RegExp constructors: a pattern must never come from input data',
  );
});
