// One defect is one finding: over every fail case of ours (conformance/aep, conformance/ahp), no place of a line (line
// and column) carries two findings of one rule at one pointer with one message, nor two of one rule saying one member
// at one object is missing. (A member repeated a thousand times is a thousand places: json.duplicate-key-omitted.)
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { type Finding, validate } from '../../src/index.ts';
import { bridgeOfCaseName, profileOfCaseName } from '../../src/core/case-names.ts';
import type { Protocol } from '../../src/core/protocol.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The fail cases of `protocol`: JSONL captures and (AHP) JSON documents, sidecars aside. */
function failCases(protocol: Protocol): string[] {
  const dir = join(ROOT, 'conformance', protocol, 'fail');
  return readdirSync(dir)
    .filter((n) => n.endsWith('.jsonl') || (n.endsWith('.json') && !n.endsWith('.expected.json')))
    .sort()
    .map((n) => join(dir, n));
}

/** The findings of one line that repeat an earlier one's defect, as text for the assertion message. */
function repeats(findings: readonly Finding[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const f of findings) {
    const member = f.messageId?.startsWith('required') ? f.args?.member : undefined;
    const at = `${f.line}:${f.column}`;
    const ks = [`${at}\u0000${f.ruleId}\u0000${f.pointer}\u0000${f.message}`];
    if (typeof member === 'string') ks.push(`${at}\u0000${f.ruleId}\u0000${f.pointer}\u0000missing ${member}`);
    if (ks.some((k) => seen.has(k))) out.push(`${at}: ${f.ruleId} ${f.pointer} ${f.message}`);
    for (const k of ks) seen.add(k);
  }
  return out;
}

for (const protocol of ['aep', 'ahp'] as const)
  test(`${protocol}: no fail case reports one defect twice on a line`, async () => {
    const files = failCases(protocol);
    assert.ok(files.length > 50, 'the fail cases are found');
    const bad: string[] = [];
    for (const file of files) {
      const from = protocol === 'aep' ? bridgeOfCaseName(file) : undefined;
      const profile = protocol === 'aep' ? profileOfCaseName(file) : undefined;
      const { findings } = await validate(
        protocol,
        { path: file },
        { ...(from ? { from } : {}), ...(profile ? { profile } : {}) },
      );
      for (const r of repeats(findings)) bad.push(`${file.slice(ROOT.length)}: ${r}`);
    }
    assert.deepEqual(bad, []);
  });
