// A line that could not be read as a message never turns into a stream-rule error or warning elsewhere (README
// §Decisions on unreadable lines): cutting any one line of our pass cases and examples short adds framing findings
// and infos only, never an error or a warning of a stream rule that the intact input did not have.
import assert from 'node:assert/strict';
import { isUtf8 } from 'node:buffer';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { Finding } from '../../src/core/finding.ts';
import type { Protocol } from '../../src/core/protocol.ts';
import { checkBytes } from '../../src/fixture-runner/check.ts';
import { PROTOCOLS } from '../../src/run/protocols.ts';
import { sweep } from '../scale.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const POLICY = { strict: false, failOn: 'error' } as const;

/** Our pass cases of `protocol` read as JSONL, and its examples. */
function inputs(protocol: Protocol): string[] {
  const pass = join(ROOT, 'conformance', protocol, 'pass');
  const examples = join(ROOT, 'examples', protocol);
  return [
    ...readdirSync(pass)
      .filter((n) => n.endsWith('.jsonl'))
      .map((n) => join(pass, n)),
    ...readdirSync(examples)
      .filter((n) => n.endsWith('.jsonl'))
      .map((n) => join(examples, n)),
  ].sort();
}

/** The verdicts the relation holds: errors and warnings of the protocol's rules (framing findings aside). */
function verdicts(fs: readonly Finding[]): string[] {
  return fs
    .filter((f) => f.severity !== 'info' && !f.ruleId.startsWith('jsonl/') && !f.ruleId.startsWith('json/'))
    .map((f) => `${f.ruleId}|${f.severity}|${f.line}|${f.pointer ?? '-'}`)
    .sort();
}

async function run(protocol: Protocol, file: string, text: string): Promise<Finding[]> {
  const def = PROTOCOLS[protocol];
  const flags = def.caseOptions?.(file) ?? {};
  const r = await checkBytes({ def, options: flags }, file, Buffer.from(text, 'utf8'), POLICY);
  assert.equal(r.incomplete, false, `${file}: a rule threw`);
  return r.findings;
}

/** `text` with line `i` (0-based) cut to half its length: a message whose end is lost. */
function cut(lines: readonly string[], i: number): string {
  const copy = [...lines];
  copy[i] = copy[i]!.slice(0, Math.floor(copy[i]!.length / 2));
  return copy.join('\n');
}

for (const protocol of ['ahp', 'aep'] as const) {
  describe(`${protocol}: a line cut short adds no stream-rule error or warning`, () => {
    test('every line of every pass case and example', async (t) => {
      let checked = 0;
      const problems: string[] = [];
      for (const path of sweep(t, inputs(protocol))) {
        const file = path.slice(ROOT.length);
        const bytes = readFileSync(path);
        // gzip and other binary cases are not lines of text to cut
        if (!isUtf8(bytes) || bytes[0] === 0x1f) continue;
        const text = bytes.toString('utf8');
        const lines = text.split('\n');
        const intact = new Set(verdicts(await run(protocol, file, text)));
        for (let i = 0; i < lines.length; i++) {
          if (lines[i]!.trim() === '') continue;
          const findings = await run(protocol, file, cut(lines, i));
          assert.ok(
            findings.some((f) => f.line === i + 1 && f.ruleId.startsWith('jsonl/')),
            `${file}: cutting line ${i + 1} gives a framing finding there`,
          );
          for (const v of verdicts(findings)) if (!intact.has(v)) problems.push(`${file}: line ${i + 1} cut: ${v}`);
          checked++;
        }
      }
      assert.ok(checked > 0);
      assert.deepEqual(problems, [], 'verdicts added by cutting a line short');
    });
  });
}
