/**
 * AHP intercept retries (base/failure.md §Duplicate delivery and retries, AHP-CORE-004) when
 * the input is a regular file: the event-identity analyzer (src/ahp/analyzers/identity.ts) keeps only a fingerprint of the first intercepted
 * line and reads it back when the event is re-sent, comparing the events exactly. These tests
 * run the real input plumbing (`openInputs` -> `InputSpec.reread`) on files in a temp folder
 * and hold the findings equal to the in-memory path, which compares SHA-256 digests.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import fc from 'fast-check';
import { openInputs, type CliIO } from '../../src/cli/common.ts';
import type { Finding } from '../../src/core/finding.ts';
import type { InputSpec } from '../../src/core/pipeline.ts';
import { brief, intercept, ok, toolBefore } from './helpers.ts';
import { ahpDriver, runPipeline } from '../run.ts';

const dir = mkdtempSync(join(tmpdir(), 'ahp-reread-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

function file(text: string): string {
  const p = join(dir, `in-${++n}.jsonl`);
  writeFileSync(p, text);
  return p;
}

async function check(inputs: InputSpec[]): Promise<Finding[]> {
  const out: Finding[] = [];
  await runPipeline(inputs, ahpDriver(), (f) => out.push(f));
  return out;
}

const onFile = (p: string) => check(openInputs([p], {} as CliIO, () => 'jsonl'));
const inMemory = (text: string, source: string) =>
  check([
    {
      source,
      open: async function* () {
        yield text;
      },
    },
  ]);
const lines = (...xs: unknown[]) => xs.map((x) => (typeof x === 'string' ? x : JSON.stringify(x))).join('\n') + '\n';

test('file input: an identical or reordered retry is fine, a changed one is an id reuse; same findings as in memory', async () => {
  const a = intercept(toolBefore('e1'));
  const reordered = JSON.stringify(Object.fromEntries(Object.entries(a).reverse()));
  const changed = intercept(toolBefore('e1', { path: 'mcp' }));
  const text = lines(a, a, reordered, ok('e1'), changed, ok('e1'));
  const p = file(text);
  const fs = await onFile(p);
  assert.ok(brief(fs).includes('error:ahp/event-id-reuse@5/params/event/id'), brief(fs).join(' '));
  assert.ok(!brief(fs).some((b) => /event-id-reuse@[23]/.test(b)), brief(fs).join(' '));
  assert.deepEqual(fs, await inMemory(text, p));
});

test('file input with CRLF line ends: the first line is read back without its CR', async () => {
  const a = intercept(toolBefore('c1'));
  const text = [JSON.stringify(a), JSON.stringify(a), JSON.stringify(ok('c1'))].join('\r\n') + '\r\n';
  const fs = await onFile(file(text));
  assert.ok(
    fs.every((f) => f.ruleId === 'jsonl/carriage-return'),
    brief(fs).join(' '),
  );
  assert.equal(fs.length, 3);
});

test('a first line that cannot be read back as it was: a warning, not a verdict by guess', async () => {
  const a = intercept(toolBefore('w1'));
  const text = lines(a, a, ok('w1'));
  const fs = await check([
    {
      source: 'changed.jsonl',
      open: async function* () {
        yield text;
      },
      path: file(text.replace(/tool/g, 'lot')),
    },
  ]);
  assert.deepEqual(brief(fs), ['warning:ahp/event-id-unverifiable@2/params/event/id']);
  assert.match(fs[0].message, /could not be read back/);
});

test('property: on random retries and edits, file input and in-memory input give the same findings', async () => {
  const base = Array.from({ length: 4 }, (_, i) => intercept(toolBefore(`p${i}`)));
  const step = fc.record({
    pick: fc.nat({ max: base.length - 1 }),
    edit: fc.constantFrom('same', 'reorder', 'path', 'answer'),
  });
  await fc.assert(
    fc.asyncProperty(fc.array(step, { maxLength: 10 }), async (steps) => {
      const out: unknown[] = [...base];
      for (const { pick, edit } of steps) {
        const m = base[pick];
        if (edit === 'same') out.push(m);
        else if (edit === 'reorder') out.push(JSON.stringify(Object.fromEntries(Object.entries(m).reverse())));
        else if (edit === 'path') out.push(intercept(toolBefore(`p${pick}`, { path: 'mcp' })));
        else out.push(ok(`p${pick}`));
      }
      const text = lines(...out);
      const p = file(text);
      assert.deepEqual(await onFile(p), await inMemory(text, p));
    }),
    { numRuns: 40 },
  );
});
