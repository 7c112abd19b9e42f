/**
 * The down-level relation (AEP-0001 §7 rule 2, §8.2(b)): every passing case and clean example, validated together with
 * its own `aep downlevel` output at every ceiling (either order, from files and from memory), gives no finding but
 * `aep/redelivery` warnings: each copy is recognised as the copy it is, and nothing else sees it.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { downlevelStream } from '../../src/aep/downlevel.ts';
import type { AepCaptureLevel } from '../../src/aep/schema/registry.ts';
import { openInputs, type CliIO } from '../../src/cli/common.ts';
import { profileOfCaseName } from '../../src/core/case-names.ts';
import type { Finding } from '../../src/core/finding.ts';
import { runAepFilter } from '../../src/run/aep-filter.ts';
import { aepDriver, runPipeline } from '../run.ts';
import { brief } from './helpers.ts';
import { sweep } from '../scale.ts';
import { fileTempDir } from '../temp.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CEILINGS: readonly AepCaptureLevel[] = ['none', 'metadata', 'redacted', 'full'];
const dir = fileTempDir('aep-downlevel-relation-');
const noIO = {} as CliIO;

/** The passing cases (bridge cases are read --from elsewhere) and the clean examples. */
function inputs(): string[] {
  const pass = readdirSync(join(ROOT, 'conformance/aep/pass'))
    .filter((f) => f.endsWith('.jsonl') && !/\.(ce|otlp|ocsf)\.jsonl$/.test(f))
    .map((f) => `conformance/aep/pass/${f}`);
  const examples = readdirSync(join(ROOT, 'examples/aep'))
    .filter((f) => f.endsWith('.jsonl') && !f.includes('broken'))
    .map((f) => `examples/aep/${f}`);
  return [...pass, ...examples].sort();
}

/** `aep downlevel --ceiling` over `path`, as the CLI runs it; the lines written. */
async function downlevel(
  path: string,
  ceiling: AepCaptureLevel,
  redact: boolean,
  profile: 'aep-0007' | undefined,
): Promise<string> {
  const step = downlevelStream(ceiling, { ...(redact ? { redact: true } : {}), ...(profile ? { profile } : {}) });
  let out = '';
  await runAepFilter(
    openInputs([path], noIO, () => 'jsonl'),
    (ev) => step(ev.value),
    (line) => {
      out += line;
    },
    () => {},
    { refuseLeaks: !redact && (ceiling === 'redacted' || ceiling === 'full'), ...(profile ? { profile } : {}) },
  );
  return out;
}

/** Findings of `paths` as one stream: read from the files (first copies read back) and from memory (digests). */
async function validate(paths: readonly string[], profile: 'aep-0007' | undefined): Promise<Finding[][]> {
  const fromFiles: Finding[] = [];
  await runPipeline(
    openInputs([...paths], noIO, () => 'jsonl'),
    aepDriver(profile ? { profile } : {}),
    (f) => fromFiles.push(f),
  );
  const fromMemory: Finding[] = [];
  await runPipeline(
    paths.map((p) => ({
      source: p,
      open: async function* () {
        yield readFileSync(p);
      },
    })),
    aepDriver(profile ? { profile } : {}),
    (f) => fromMemory.push(f),
  );
  return [fromFiles, fromMemory];
}

/**
 * The copies' own findings: a redelivery, a redacted copy redacted beyond our pipeline, and a `stream.delta` a hop kept
 * below `redacted` with its text dropped (AEP-0007 §6 item 3), which the rule warns of as from an emitter (item 2).
 */
const ALLOWED = new Set(['aep/redelivery', 'aep/id-unverifiable', 'aep/stream-delta-metadata']);

let n = 0;
test("each passing case and clean example with its own down-level at every ceiling: only the copies' own findings", async (t) => {
  const all = inputs();
  assert.ok(all.length > 100, `${all.length} inputs`);
  for (const name of sweep(t, all)) {
    const path = join(ROOT, name);
    await relation(path, name);
  }
});

/** Assert the relation for one input (`name` in messages). */
async function relation(path: string, name: string): Promise<void> {
  for (const ceiling of CEILINGS)
    for (const redact of ceiling === 'redacted' ? [false, true] : [false]) {
      const out = join(dir, `out-${++n}.jsonl`);
      // a case of a sub-profile is down-leveled and validated under it, as `--profile` gives both verbs
      const profile = profileOfCaseName(name) as 'aep-0007' | undefined;
      writeFileSync(out, await downlevel(path, ceiling, redact, profile));
      for (const order of [
        [path, out],
        [out, path],
      ])
        for (const findings of await validate(order, profile)) {
          const other = findings.filter((f) => !ALLOWED.has(f.ruleId));
          assert.equal(
            other.length,
            0,
            `${name} ${ceiling}${redact ? ' --redact' : ''}, ${order[0] === path ? 'IN then OUT' : 'OUT then IN'}: ${brief(other)}`,
          );
        }
    }
}
