/**
 * Every option the documentation names is one a verb takes: README.md, RULES.md (the rules' own texts) and the docs
 * name `--flags`, and each must appear in some `--help` of `aep` or `ahp`, or be another tool's (listed below, with
 * whose it is). A renamed flag left in a sentence (`--ack-window-ms` for `--ack-window`) fails here.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { REPO, runCli } from '../cli/helpers.ts';

/** Flags of other tools the documents mention, by whose they are. */
const OTHER_TOOLS: Readonly<Record<string, string>> = {
  '--listen': "the README's example collector",
  '--ignore-rules': 'attw (@arethetypeswrong/cli)',
  '--write': 'biome',
  '--import': 'node',
  '--test': 'node',
  '--optimize-for-size': 'V8 (node)',
  '--events': 'npm run bench',
  '--routes': 'npm run bench',
  '--startup': 'npm run bench',
  '--runs': 'npm run bench',
  '--findings': 'npm run bench',
  '--experimental-websocket': "node 20 (to run the AEP maintainers' live.js)",
  '--evict': "the AEP maintainers' live.js",
  '--control': 'tools/test-endpoint.ts',
  '--broken': 'tools/test-endpoint.ts',
};
const DOCUMENTS = ['README.md', 'RULES.md', 'docs/requirements.md', 'docs/architecture.md'];
const FLAG = /(?<![\w-])--[a-z][a-z0-9-]*[a-z0-9](?![\w*-])/g;

/** Every flag in the `--help` of each verb (and `pin` sub-verb) of both bins. */
async function flagsOfVerbs(): Promise<Set<string>> {
  const flags = new Set<string>();
  const add = (text: string) => {
    for (const m of text.matchAll(FLAG)) flags.add(m[0]);
  };
  for (const bin of ['aep', 'ahp'] as const) {
    const top = (await runCli(bin, ['--help'])).stdout;
    add(top);
    const verbs = [...(top.split('Commands:')[1] ?? '').matchAll(/^ {2}([a-z][a-z-]*)/gm)].map((m) => m[1]!);
    assert.ok(verbs.includes('validate'), `${bin} --help lists its verbs: ${verbs}`);
    for (const verb of verbs) {
      add((await runCli(bin, [verb, '--help'])).stdout);
      if (verb === 'pin')
        for (const sub of ['verify', 'refresh']) add((await runCli(bin, [verb, sub, '--help'])).stdout);
    }
  }
  return flags;
}

test('every --flag the documents name is an option of some verb, or another tool’s', async () => {
  const known = await flagsOfVerbs();
  assert.ok(known.has('--max-state-mb') && known.has('--ceiling'), 'the help texts were read');
  const unknown: string[] = [];
  for (const doc of DOCUMENTS) {
    const text = readFileSync(join(REPO, doc), 'utf8');
    for (const m of text.matchAll(FLAG))
      if (!known.has(m[0]) && !(m[0] in OTHER_TOOLS)) unknown.push(`${doc}: ${m[0]}`);
  }
  assert.deepEqual([...new Set(unknown)], []);
});

test('each flag listed as another tool’s is still named by a document (the list cannot go stale)', () => {
  const all = DOCUMENTS.map((d) => readFileSync(join(REPO, d), 'utf8')).join('\n');
  for (const flag of Object.keys(OTHER_TOOLS)) assert.match(all, new RegExp(`(?<![\\w-])${flag}(?![\\w-])`), flag);
});
