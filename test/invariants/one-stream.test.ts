// Several JSONL inputs are one stream in the order given (README §Streams): two of our cases checked together give
// the findings of their concatenation as one file, each line where it lands there (rule, severity, line, column,
// pointer). Pairs whose inputs are whole lines of text with no unreadable line: an unreadable line of an earlier input
// may stand for a later one's missing message, and its place keeps no order of inputs (README §Decisions on unreadable
// lines), so there the two may differ by design. (test/invariants/define.ts holds `--each` = each input alone.)
import assert from 'node:assert/strict';
import { isUtf8 } from 'node:buffer';
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { type Finding, validate } from '../../src/index.ts';
import { bridgeOfCaseName, profileOfCaseName } from '../../src/core/case-names.ts';
import { jsonlBelow } from '../case-files.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

const key = (f: Finding, line = f.line) =>
  `${f.ruleId}|${f.severity}|${line ?? '-'}|${f.column ?? '-'}|${f.pointer ?? '-'}`;
const lineCount = (b: Buffer) => b.toString('utf8').split('\n').length - 1;

for (const protocol of ['aep', 'ahp'] as const)
  test(`${protocol}: two JSONL inputs checked as one stream = their concatenation as one file`, async () => {
    // the cases that are whole lines of text, grouped by the options their name gives (a pair shares them)
    const groups = new Map<string, { file: string; bytes: Buffer }[]>();
    for (const file of jsonlBelow(join(ROOT, 'conformance', protocol))) {
      const bytes = readFileSync(file);
      const text = bytes.toString('utf8');
      if (!isUtf8(bytes) || !text.endsWith('\n') || text.startsWith('\uFEFF') || text.trim() === '') continue;
      const from = protocol === 'aep' ? bridgeOfCaseName(file) : undefined;
      const profile = protocol === 'aep' ? profileOfCaseName(file) : undefined;
      const g = `${from ?? ''}|${profile ?? ''}`;
      groups.set(g, [...(groups.get(g) ?? []), { file, bytes }]);
    }
    let pairs = 0;
    for (const [g, cases] of groups) {
      const [from, profile] = g.split('|');
      const o = { ...(from ? { from: from as 'otlp' } : {}), ...(profile ? { profile: profile as 'aep-0007' } : {}) };
      for (let i = 0; i + 1 < cases.length; i += 2) {
        const [a, b] = [cases[i]!, cases[i + 1]!];
        const together = (await validate(protocol, [{ path: a.file }, { path: b.file }], o)).findings;
        // an unreadable line (framing, or an AHP message whose JSON-RPC shape is invalid) in the first input: by design
        if (together.some((f) => f.source === a.file && (/^jsonl?\//.test(f.ruleId) || f.ruleId === 'ahp/jsonrpc')))
          continue;
        const cat = (await validate(protocol, { bytes: Buffer.concat([a.bytes, b.bytes]), source: 'cat.jsonl' }, o))
          .findings;
        const shift = lineCount(a.bytes);
        const moved = together.map((f) =>
          key(f, f.line === undefined || f.source === a.file ? f.line : f.line + shift),
        );
        assert.deepEqual(
          moved.sort(),
          cat.map((f) => key(f)).sort(),
          `${relative(ROOT, a.file)} + ${relative(ROOT, b.file)}`,
        );
        pairs++;
      }
    }
    assert.ok(pairs > 100, `${pairs} pairs`);
  });
