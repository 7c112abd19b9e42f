/**
 * The JSON edge-case decisions written down in README.md §Decisions on JSON edge cases and in
 * the rule descriptions (issue 25 item 10), each checked against what both checkers do:
 * duplicate member names are an error (I-JSON, RFC 7493 §2.3; AEP payload copies compared);
 * a blank JSONL line is an error (AEP-0003 §3.1 "no blank lines"); lone escaped surrogates and
 * numbers beyond a double are accepted JSON (RFC 8259 §8.2, §6); identical file snapshots on an
 * update are a warning.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { validate } from '../../src/api/validate.ts';
import { event, observe, text } from '../ahp/builders.ts';

const AEP = (extra: string, id = 'd1') =>
  `{"aep":"0.1","id":"${id}","type":"x.acme.session.note","time":"2026-11-30T10:00:00Z","source":"aep://h/agent/a/session/s","agent":"a","session":"s","seq":0${extra}}`;
const AHP = (ev: Record<string, unknown>) => JSON.stringify(observe(ev));

async function found(protocol: 'aep' | 'ahp', lines: string[], options: { strict?: boolean } = {}): Promise<string[]> {
  const { findings } = await validate(protocol, { text: lines.join('\n') + '\n', source: 'd.jsonl' }, options);
  return findings.map((f) => `${f.severity}:${f.ruleId}`);
}

describe('duplicate member names are an error (I-JSON), AEP payload copies compared one by one', () => {
  test('an AEP envelope attribute repeated, even with an equal copy', async () => {
    assert.deepEqual(await found('aep', [AEP(',"agent":"a"')]), ['error:json/duplicate-key']);
  });
  test('an AHP member repeated anywhere in a message, equal copies too', async () => {
    const line = AHP(event('user.message.outbound')).replace('"channel":"chat"', '"channel":"chat","channel":"chat"');
    assert.deepEqual(await found('ahp', [line]), ['error:json/duplicate-key']);
  });
  test('an AEP payload member: differing copies an error, equal copies a warning (no verdict depends on the copy kept)', async () => {
    const base =
      '{"aep":"0.1","id":"p1","type":"state.snapshot","time":"2026-11-30T10:00:00Z","source":"aep://h/agent/a/session/s","agent":"a","session":"s","seq":0,"capture":"redacted","data":{"key":"plan","rev":1,"rev":REV,"state":{}}}';
    assert.deepEqual(await found('aep', [base.replace('REV', '2')]), ['error:aep/payload-duplicate-conflict']);
    assert.deepEqual(await found('aep', [base.replace('REV', '1')]), ['warning:aep/payload-duplicate-key']);
  });
});

describe('a blank JSONL line is an error (AEP-0003 §3.1 "no blank lines"; AHP one object per line)', () => {
  for (const protocol of ['aep', 'ahp'] as const) {
    const line = protocol === 'aep' ? AEP('') : AHP(event('user.message.outbound'));
    const next = protocol === 'aep' ? AEP('', 'd2').replace('"seq":0', '"seq":1') : line.replace('"evt1"', '"evt2"');
    test(protocol, async () => {
      assert.deepEqual(await found(protocol, [line, '', next]), ['error:jsonl/blank-line']);
      assert.deepEqual(await found(protocol, [line, '   ', next]), ['error:jsonl/blank-line']);
    });
  }
});

describe('lone escaped surrogates and numbers beyond a double are accepted JSON (RFC 8259 §8.2, §6)', () => {
  const rows: Array<[string, string]> = [
    ['a lone high surrogate', '"\\ud800"'],
    ['a lone low surrogate', '"\\udead"'],
    ['reversed surrogates', '"\\udc00\\ud800"'],
    ['1e400', '1e400'],
    ['-1e400', '-1e400'],
    ['a 400-digit integer', '1' + '0'.repeat(400)],
  ];
  for (const [name, literal] of rows) {
    test(`${name} in an AEP vendor payload and an AHP extension: no finding`, async () => {
      assert.deepEqual(await found('aep', [AEP(`,"capture":"full","data":{"v":${literal}}`)]), []);
      const ahp = AHP(event('user.message.outbound', { extensions: { 'com.example.v': 0 } })).replace(
        '"com.example.v":0',
        `"com.example.v":${literal}`,
      );
      assert.deepEqual(await found('ahp', [ahp]), []);
    });
  }
});

describe('AHP: a lone surrogate escaped is UTF-8 JSON (AHP-RPC-001 holds), the same written raw is not', () => {
  test('escaped in a canonical message text: no finding; its raw bytes (CESU-8): jsonl/invalid-utf8', async () => {
    // AHP-RPC-001 and "All messages MUST be UTF-8 encoded" judge the bytes: `\ud800` is six ASCII bytes; the AHP text
    // does not adopt I-JSON (RFC 7493 §2.1), and RFC 8259 §8.2 states no requirement (README §Decisions on JSON edge cases)
    const line = AHP(event('user.message.outbound')).replace('"text":"', '"text":"\\ud800');
    assert.ok(line.includes('\\ud800'));
    assert.deepEqual(await found('ahp', [line]), []);
    const raw = Buffer.concat([
      Buffer.from(line.split('\\ud800')[0]!),
      Buffer.from([0xed, 0xa0, 0x80]),
      Buffer.from(line.split('\\ud800')[1]! + '\n'),
    ]);
    const { findings } = await validate('ahp', { bytes: raw, source: 'd.jsonl' });
    assert.deepEqual(
      findings.map((f) => `${f.severity}:${f.ruleId}`),
      ['error:jsonl/invalid-utf8'],
    );
  });
});

describe('identical file snapshots on an update are an error', () => {
  test('the same part before and after, members reordered', async () => {
    const same = AHP(
      event('file.changed', {
        changes: [
          {
            path: 'a.txt',
            operation: 'update',
            agentCaused: true,
            before: text('x\n', 'f1'),
            after: Object.fromEntries(Object.entries(text('x\n', 'f1')).reverse()),
          },
        ],
      }),
    );
    assert.deepEqual(await found('ahp', [same]), ['error:ahp/file-change-noop']);
    const changed = AHP(event('file.changed'));
    assert.deepEqual(await found('ahp', [changed]), []);
  });
});

test('the README states each decision this file checks', () => {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const section = readme.slice(readme.indexOf('### Decisions on JSON edge cases'));
  assert.ok(section.length > 0 && readme.includes('### Decisions on JSON edge cases'));
  for (const words of ['RFC 7493', 'blank line', 'no blank lines', 'surrogate', 'beyond a double', 'file-change-noop'])
    assert.ok(section.includes(words), words);
});
