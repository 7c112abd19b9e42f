/**
 * `npm run rules:gen`: regenerate RULES.md from the rule registries (and, when the reference
 * copy of the AEP spec is present, src/report/spec-anchors.json, the section anchors the spec
 * links use). test/report/catalogue.test.ts fails when RULES.md differs from
 * {@link buildRulesMarkdown}'s output.
 *
 * Sections: AEP (`aep rules`), AHP (`ahp rules` when the AHP CLI is present, else the AHP
 * message-rule registry), pin (`pin verify` / `pin refresh`).
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { aepRules } from '../src/aep/protocol.ts';
import { AHP_MESSAGE_RULES } from '../src/ahp/rules/index.ts';
import type { RuleMeta } from '../src/core/rule.ts';
import { PIN_RULES } from '../src/pin/rules.ts';
import { renderRulesMarkdown, type CatalogueSection } from '../src/report/catalogue.ts';
import { AEP_DOCS, githubSlug, resetSpecAnchors, type SpecAnchors } from '../src/report/spec-links.ts';

const ROOT = new URL('../', import.meta.url);
/** RULES.md at the repository root. */
export const RULES_MD = fileURLToPath(new URL('RULES.md', ROOT));
const ANCHORS_JSON = fileURLToPath(new URL('src/report/spec-anchors.json', ROOT));
/** The reference AEP spec (shared checkout next to the repo); `AEP_SPEC_DIR` overrides. */
const AEP_SPEC_DIR = process.env.AEP_SPEC_DIR ?? fileURLToPath(new URL('../shared/reference/aep/spec/', ROOT));

function meta(rules: readonly RuleMeta[]): RuleMeta[] {
  return rules.map(({ id, severity, description, spec }) => ({ id, severity, description, spec }));
}

/** The AHP rule catalogue: the AHP CLI's (`ahp rules`) when src/cli/ahp.ts exists, else the message rules. */
async function ahpRules(): Promise<{ rules: RuleMeta[]; fromCli: boolean }> {
  if (existsSync(fileURLToPath(new URL('src/cli/ahp.ts', ROOT)))) {
    const mod = (await import(new URL('src/cli/ahp.ts', ROOT).href)) as Record<string, unknown>;
    for (const v of Object.values(mod)) {
      const p = v as { name?: unknown; rules?: unknown };
      if (p && typeof p === 'object' && p.name === 'ahp' && typeof p.rules === 'function') return { rules: meta((p.rules as () => RuleMeta[])()), fromCli: true };
    }
  }
  return { rules: meta(AHP_MESSAGE_RULES), fromCli: false };
}

/** RULES.md as it should be for the current registries. */
export async function buildRulesMarkdown(): Promise<string> {
  const ahp = await ahpRules();
  const sections: CatalogueSection[] = [
    { title: 'AEP (`aep validate`)', command: 'aep rules', rules: meta(aepRules()) },
    {
      title: 'AHP (`ahp validate`)',
      ...(ahp.fromCli ? { command: 'ahp rules' } : {}),
      rules: ahp.rules,
    },
    { title: 'Pins (`pin verify`, `pin refresh`)', rules: meta(PIN_RULES as unknown as RuleMeta[]) },
  ];
  return renderRulesMarkdown(sections);
}

/** Section number -> GitHub anchor for every numbered heading of every AEP document in `dir`. */
export function extractAepAnchors(dir: string): SpecAnchors {
  const out: SpecAnchors = {};
  const files = new Set(readdirSync(dir));
  for (const [doc, file] of Object.entries(AEP_DOCS)) {
    if (!files.has(file)) continue;
    const anchors: Record<string, string> = {};
    for (const line of readFileSync(`${dir}/${file}`, 'utf8').split('\n')) {
      const m = /^#{2,4}\s+((\d+(?:\.\d+)*)\.?\s+.*?)\s*$/.exec(line);
      if (m && !(m[2]! in anchors)) anchors[m[2]!] = githubSlug(m[1]!);
    }
    out[doc] = anchors;
  }
  return out;
}

async function main(): Promise<void> {
  if (existsSync(AEP_SPEC_DIR)) {
    writeFileSync(ANCHORS_JSON, JSON.stringify(extractAepAnchors(AEP_SPEC_DIR), null, 2) + '\n');
    resetSpecAnchors();
    process.stdout.write(`wrote ${ANCHORS_JSON}\n`);
  } else {
    process.stdout.write(`reference AEP spec not found at ${relative(fileURLToPath(ROOT), AEP_SPEC_DIR)} (expected the shared checkout ../shared next to the repo): kept ${ANCHORS_JSON}\n`);
  }
  writeFileSync(RULES_MD, await buildRulesMarkdown());
  process.stdout.write(`wrote ${RULES_MD}\n`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
