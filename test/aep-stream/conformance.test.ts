/**
 * Our conformance cases, run in-process: every `conformance/aep/pass/*.jsonl` gives no
 * finding of any severity; every `conformance/aep/fail/*.jsonl` gives exactly the findings of
 * its sidecar `<name>.expected.json` as a multiset on (ruleId, line, pointer) (an entry
 * without `line` / `pointer` matches any). A sidecar may carry `options` (stream caps
 * `maxSessions` / `maxOpen` / `maxIds` / `maxStateMb`, `forms`, pipeline `maxLineBytes` / `maxDepth`).
 * docs/architecture.md §Fixtures and upstream corpora; the cases of every engineer in the folder are run, not only ours.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { Finding } from '../../src/core/finding.ts';
import { profileOfCaseName } from '../../src/core/case-names.ts';
import { brief, checkText, type RunOptions } from './helpers.ts';

const DIR = fileURLToPath(new URL('../../conformance/aep/', import.meta.url));

interface Expected {
  ruleId: string;
  line?: number;
  pointer?: string;
}

interface Sidecar {
  findings: Expected[];
  options?: {
    maxSessions?: number;
    maxOpen?: number;
    maxIds?: number;
    maxStateMb?: number;
    maxLineBytes?: number;
    maxDepth?: number;
    forms?: 'required' | 'recommended';
  };
}

function cases(group: 'pass' | 'fail'): string[] {
  const dir = DIR + group;
  if (!existsSync(dir)) return [];
  // bridge cases (`*.ce.jsonl`, `*.otlp.jsonl`) are read --from: test/aep-bridges/conformance.test.ts
  return readdirSync(dir)
    .filter((f) => f.endsWith('.jsonl') && !/\.(ce|otlp|ocsf)\.jsonl$/.test(f))
    .sort();
}

/** `*.aep-0007.jsonl` cases run with `--profile aep-0007` (AEP.caseOptions). */
function profileOf(name: string): { profile?: 'aep-0007' } {
  const profile = profileOfCaseName(name);
  return profile ? { profile } : {};
}

function runOptions(o: Sidecar['options'] = {}): RunOptions {
  const stream: RunOptions['stream'] = {};
  if (o.maxSessions !== undefined) stream.maxSessions = o.maxSessions;
  if (o.maxOpen !== undefined) stream.maxOpen = o.maxOpen;
  if (o.maxIds !== undefined) stream.maxIds = o.maxIds;
  if (o.maxStateMb !== undefined) stream.maxStateMb = o.maxStateMb;
  if (o.forms !== undefined) stream.forms = o.forms;
  return { stream, maxLineBytes: o.maxLineBytes, maxDepth: o.maxDepth };
}

/** Exact multiset comparison; returns a description of the difference, or '' when equal. */
export function multisetDiff(expected: readonly Expected[], actual: readonly Finding[]): string {
  const left = [...actual];
  const missing: Expected[] = [];
  // specific entries first, so a wildcard never takes the finding a specific entry needs
  const order = [...expected].sort(
    (a, b) =>
      Number(a.line === undefined) +
      Number(a.pointer === undefined) -
      (Number(b.line === undefined) + Number(b.pointer === undefined)),
  );
  for (const e of order) {
    const i = left.findIndex(
      (f) =>
        f.ruleId === e.ruleId &&
        (e.line === undefined || f.line === e.line) &&
        (e.pointer === undefined || f.pointer === e.pointer),
    );
    if (i === -1) missing.push(e);
    else left.splice(i, 1);
  }
  const parts: string[] = [];
  if (missing.length)
    parts.push(`missing ${missing.map((e) => `${e.ruleId}@${e.line ?? '*'}${e.pointer ?? '*'}`).join(' ')}`);
  if (left.length) parts.push(`unexpected ${brief(left)}`);
  return parts.join('; ');
}

test('conformance/aep exists and has cases', () => {
  assert.ok(cases('pass').length > 0 && cases('fail').length > 0, `no cases under ${DIR}`);
});

for (const name of cases('pass')) {
  test(`pass/${name}: no finding at all`, async () => {
    const text = readFileSync(DIR + 'pass/' + name);
    const findings = await checkText(text, { source: name, ...profileOf(name) });
    assert.equal(findings.length, 0, `pass case produced ${brief(findings)}`);
  });
}

for (const name of cases('fail')) {
  test(`fail/${name}: exactly the findings of its sidecar`, async () => {
    const sidecarPath = DIR + 'fail/' + name.replace(/\.jsonl$/, '.expected.json');
    assert.ok(existsSync(sidecarPath), `fail case has no sidecar ${sidecarPath}`);
    const sidecar = JSON.parse(readFileSync(sidecarPath, 'utf8')) as Sidecar;
    assert.ok(
      Array.isArray(sidecar.findings) && sidecar.findings.length > 0,
      'a fail sidecar lists at least one finding',
    );
    const text = readFileSync(DIR + 'fail/' + name);
    const findings = await checkText(text, { ...runOptions(sidecar.options), source: name, ...profileOf(name) });
    assert.equal(multisetDiff(sidecar.findings, findings), '', `actual: ${brief(findings)}`);
  });
}

test('every case file ends with a newline', () => {
  for (const group of ['pass', 'fail'] as const) {
    for (const name of cases(group)) {
      if (name.startsWith('jsonl.')) continue; // framing cases test final-newline handling on purpose
      const b = readFileSync(DIR + group + '/' + name);
      assert.equal(b[b.length - 1], 0x0a, `${group}/${name} does not end with a newline`);
    }
  }
});
