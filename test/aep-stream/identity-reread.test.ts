/**
 * AEP identity (AEP-0001 §7.4) when the input is a regular file: the tracker keeps only a
 * fingerprint of each first occurrence and reads the line back from the file when its
 * `(source, id)` repeats, comparing exactly (byte-identical, else canonical text). These
 * tests run the real input plumbing (`openInputs` -> `InputSpec.reread`) on files in a temp
 * folder, and hold the verdicts equal to the in-memory path, which compares SHA-256 digests.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { openInputs, type CliIO } from '../../src/cli/common.ts';
import type { Finding } from '../../src/core/finding.ts';
import { readLineAt, type InputSpec } from '../../src/core/pipeline.ts';
import { brief, event, jsonl } from './helpers.ts';
import { aepDriver, runPipeline } from '../run.ts';
import { runs } from '../scale.ts';
import { fileTempDir } from '../temp.ts';

const dir = fileTempDir('aep-reread-');
let n = 0;
const noIO = {} as CliIO;

/** Write `text` (or bytes) to a new file and return its path. */
function file(text: string | Uint8Array): string {
  const p = join(dir, `in-${++n}.jsonl`);
  writeFileSync(p, text);
  return p;
}

async function check(inputs: InputSpec[]): Promise<Finding[]> {
  const out: Finding[] = [];
  await runPipeline(inputs, aepDriver(), (f) => out.push(f));
  return out;
}

/** Findings for files, read through the CLI's input plumbing (re-readable inputs). */
const onFiles = (...paths: string[]) => check(openInputs(paths, noIO, () => 'jsonl'));

/** Findings for the same bytes as a stream (no re-read: digests). */
const inMemory = (text: string, source: string) =>
  check([
    {
      source,
      open: async function* () {
        yield text;
      },
    },
  ]);

const streamRules = (fs: readonly Finding[]) =>
  fs
    .filter(
      (f) => f.ruleId === 'aep/redelivery' || f.ruleId === 'aep/id-collision' || f.ruleId === 'aep/id-unverifiable',
    )
    .map((f) => `${f.ruleId}@${f.line}:${f.severity}`);

test('a regular file is an input with a path; a line is read back by its offset, without LF or CRLF', () => {
  const long = 'x'.repeat(40_000);
  const p = file(`{"a":1}\n{"b":"é"}\r\n${long}\n{"last":true}\r`);
  const [spec] = openInputs([p], noIO, () => 'jsonl');
  assert.equal(spec.path, p);
  assert.equal(readLineAt(p, 0, 100), '{"a":1}');
  assert.equal(readLineAt(p, 8, 100), '{"b":"é"}', 'CRLF terminator dropped');
  assert.equal(readLineAt(p, 20, 50_000), long, 'a line longer than the first read');
  assert.equal(readLineAt(p, 20, 30_000), undefined, 'no line end within the cap');
  assert.equal(readLineAt(p, 20 + 40_001, 100), '{"last":true}\r', 'last line without LF: a lone CR is text');
  assert.equal(readLineAt(p, 15, 100), undefined, 'starts inside a UTF-8 sequence');
  assert.equal(readLineAt(join(dir, 'missing.jsonl'), 0, 100), undefined);
});

test('file input: an exact repeat is a redelivery, reordered members and spacing too, other content is a collision', async () => {
  const a = event('progress.status', 0, { id: 'x1', data: { message: 'm' } });
  const reordered = `{${Object.entries(a)
    .reverse()
    .map(([k, v]) => `${JSON.stringify(k)} : ${JSON.stringify(v)}`)
    .join(' , ')}}`;
  const other = { ...a, data: { message: 'other' } };
  const text = jsonl([a, a, reordered, other]);
  const fs = await onFiles(file(text));
  assert.deepEqual(
    streamRules(fs),
    ['aep/redelivery@2:info', 'aep/redelivery@3:info', 'aep/id-collision@4:error'],
    brief(fs),
  );
  assert.deepEqual(fs, await inMemory(text, fs[0].source), 'same findings as the digest path');
});

test('file input: integers beyond 2^53 are compared exactly when the first line is read back', async () => {
  const a =
    '{"aep":"0.1","id":"big","type":"progress.status","time":"2026-11-30T12:00:00Z","source":"aep://h/agent/a/session/s","agent":"a","session":"s","seq":0,"data":{"message":"m"},"n":9007199254740993}';
  const b = a.replace('9007199254740993', '9007199254740992');
  const c = a.replace('"seq":0,', '"seq":0 ,');
  const fs = await onFiles(file([a, b, c].join('\n') + '\n'));
  assert.deepEqual(streamRules(fs), ['aep/id-collision@2:error', 'aep/redelivery@3:info'], brief(fs));
});

test('file input: BOM, CRLF, multi-byte text and a first line across read chunks are read back at the right bytes', async () => {
  const a = event('progress.status', 0, { id: 'u1', data: { message: 'ünïcödé ✓ 𝄞' } });
  // a filler of ~1.2 MiB pushes the repeated line across the CLI's 1 MiB read chunks
  const filler = event('progress.status', 1, { id: 'fill', data: { message: 'f'.repeat(1_200_000) } });
  const b = event('progress.status', 2, { id: 'u2', data: { message: 'ü'.repeat(10) } });
  const body =
    [JSON.stringify(a), JSON.stringify(filler), JSON.stringify(b), JSON.stringify(a), JSON.stringify(b)].join('\r\n') +
    '\r\n';
  const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(body)]);
  const fs = await onFiles(file(bytes));
  assert.deepEqual(streamRules(fs), ['aep/redelivery@4:info', 'aep/redelivery@5:info'], brief(fs));
});

test('first occurrence on stdin (digest) and the repeat in a file, and the other way round', async () => {
  const a = event('progress.status', 0, { id: 'm1' });
  const b = event('progress.status', 1, { id: 'm2' });
  const changed = { ...b, data: { message: 'changed' } };
  const p = file(jsonl([b, a]));
  const stdinFirst = await check([
    {
      source: '<stdin>',
      open: async function* () {
        yield jsonl([a, b]);
      },
    },
    ...openInputs([p], noIO, () => 'jsonl'),
  ]);
  assert.deepEqual(streamRules(stdinFirst), ['aep/redelivery@1:info', 'aep/redelivery@2:info']);
  const fileFirst = await check([
    ...openInputs([p], noIO, () => 'jsonl'),
    {
      source: '<stdin>',
      open: async function* () {
        yield jsonl([a, changed]);
      },
    },
  ]);
  assert.deepEqual(streamRules(fileFirst), ['aep/redelivery@1:info', 'aep/id-collision@2:error']);
});

test('a first line that cannot be read back as it was: a warning names it, and nothing is deduplicated by guess', async () => {
  const a = event('progress.status', 0, { id: 'c1' });
  const text = jsonl([a, a]);
  // the file at `path` no longer holds what was read: other bytes, or nothing at that offset
  for (const now of [text.replace(/[a-z]/g, 'q'), '']) {
    const fs = await check([
      {
        source: 'changed.jsonl',
        open: async function* () {
          yield text;
        },
        path: file(now),
      },
    ]);
    assert.deepEqual(streamRules(fs), ['aep/id-unverifiable@2:warning'], brief(fs));
    assert.equal(fs.find((f) => f.ruleId === 'aep/id-unverifiable')!.messageId, 'reread');
  }
});

test('property: on random repeats and edits, file input and in-memory input give the same findings', async () => {
  const base = Array.from({ length: 6 }, (_, i) =>
    event('progress.status', i, { id: `p${i}`, data: { message: `m${i}` } }),
  );
  const variant = fc.record({
    pick: fc.nat({ max: base.length - 1 }),
    edit: fc.constantFrom('same', 'reorder', 'message', 'spaces', 'seq'),
  });
  await fc.assert(
    fc.asyncProperty(fc.array(variant, { maxLength: 12 }), async (vs) => {
      const lines = base.map((e) => JSON.stringify(e));
      for (const { pick, edit } of vs) {
        const e = base[pick];
        if (edit === 'same') lines.push(JSON.stringify(e));
        else if (edit === 'reorder') lines.push(JSON.stringify(Object.fromEntries(Object.entries(e).reverse())));
        else if (edit === 'message') lines.push(JSON.stringify({ ...e, data: { message: 'edited' } }));
        else if (edit === 'spaces') lines.push(JSON.stringify(e, null, 1).replace(/\n/g, ''));
        else lines.push(JSON.stringify({ ...e, seq: 100 + pick }));
      }
      const text = lines.join('\n') + '\n';
      const p = file(text);
      assert.deepEqual(await onFiles(p), await inMemory(text, p));
    }),
    { numRuns: runs(60) },
  );
});
