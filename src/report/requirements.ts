/**
 * The requirements a rule enforces, from src/generated/requirements.json (written by
 * `npm run rules:gen` from the matrix in conformance/requirements/): `explain` and `rules --format json`.
 */
import { readFileSync } from 'node:fs';
import { codeUrl } from '../core/paths.ts';

/** One requirement row as `explain` shows it: id (`AEP-0007 §3 #2`), level, short quote. */
export interface RuleRequirement {
  id: string;
  level: string;
  quote: string;
}

type Index = Record<string, Record<string, [string, string, string][]>>;
let index: Index | undefined;

/** The requirements `ruleId` enforces (empty when none is recorded or the file is missing). */
export function requirementsOf(protocol: string, ruleId: string): RuleRequirement[] {
  if (!index) {
    try {
      index = JSON.parse(readFileSync(codeUrl('generated/requirements.json'), 'utf8')) as Index;
    } catch {
      index = {};
    }
  }
  return (index[protocol]?.[ruleId] ?? []).map(([id, level, quote]) => ({ id, level, quote }));
}
