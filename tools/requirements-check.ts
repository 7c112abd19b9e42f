/**
 * `npm run requirements:check [FILE...]`: the requirements matrix's problems (tools/requirements.ts),
 * against this checkout's rule catalogues, conformance cases and, where ../shared is present, the
 * spec text. With files named, only their rows are checked and the "every rule has a row" check is
 * skipped. Exit 0 when it holds, 1 with one line per problem.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { aepRules } from '../src/aep/protocol.ts';
import { ahpRules } from '../src/ahp/driver.ts';
import { LIVE_RULES } from '../src/live/rules.ts';
import { LIVE_CASES } from '../test/live/cases.ts';
import {
  loadMatrix,
  type MatrixContext,
  type MatrixProtocol,
  matrixProblems,
  parseMatrix,
  type Requirement,
} from './requirements.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

/** Rules that need no row: internal/rule-error is a bug of ours, not a requirement. */
export const EXEMPT: ReadonlySet<string> = new Set(['internal/rule-error']);
/** Rules whose failing case cannot be a static file (test/meta/rule-coverage.test.ts says why). */
export const NO_FAIL_CASE: ReadonlySet<string> = new Set(['ahp/event-id-unverifiable', 'ahp/wire-root']);

/** Each `aep live` rule -> the broken variants of the test endpoint that fail it (test/live/cases.ts). */
export function liveCases(): ReadonlyMap<string, readonly string[]> {
  const out = new Map<string, string[]>(LIVE_RULES.map((r) => [r.id, []]));
  for (const c of LIVE_CASES) for (const id of c.rules) out.get(id)?.push(c.variant);
  return out;
}

/** The catalogues, the conformance cases and the spec text of this checkout. */
export function defaultContext(): MatrixContext {
  const catalogue = (rules: readonly { id: string; severity: string }[]) =>
    new Map(rules.map((r) => [r.id, r.severity]));
  const cases = (p: MatrixProtocol) => {
    const list = (kind: string) => {
      const d = join(ROOT, 'conformance', p, kind);
      return existsSync(d) ? readdirSync(d) : [];
    };
    return { pass: list('pass'), fail: list('fail') };
  };
  return {
    catalogue: { aep: catalogue([...aepRules(), ...LIVE_RULES]), ahp: catalogue(ahpRules()) },
    serviceCases: liveCases(),
    exempt: EXEMPT,
    noFailCase: NO_FAIL_CASE,
    cases: { aep: cases('aep'), ahp: cases('ahp') },
    specText: (file) => (existsSync(file) ? readFileSync(file, 'utf8') : undefined),
  };
}

/** The named files' rows (or the whole matrix) and every problem with them. */
export function checkMatrix(files: readonly string[] = []): { rows: Requirement[]; problems: string[] } {
  const ctx = defaultContext();
  if (files.length === 0) {
    const { rows, problems } = loadMatrix();
    return { rows, problems: [...problems, ...matrixProblems(rows, ctx)] };
  }
  const rows: Requirement[] = [];
  const problems: string[] = [];
  for (const f of files) {
    const rel = relative(ROOT, resolve(f)).replace(/\\/g, '/');
    const m = /^conformance\/requirements\/(aep|ahp)\/[^/]+\.tsv$/.exec(rel);
    if (!m) {
      problems.push(`${f}: not a matrix file (conformance/requirements/{aep,ahp}/NAME.tsv)`);
      continue;
    }
    const p = parseMatrix(m[1] as MatrixProtocol, rel, readFileSync(f, 'utf8'));
    rows.push(...p.rows);
    problems.push(...p.problems);
  }
  return { rows, problems: [...problems, ...matrixProblems(rows, { ...ctx, coverage: [] })] };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { rows, problems } = checkMatrix(process.argv.slice(2));
  for (const p of problems) process.stdout.write(`${p}\n`);
  const by = (v: string) => rows.filter((r) => r.verdict === v).length;
  process.stdout.write(
    `${rows.length} rows: ${by('enforced')} enforced, ${by('runtime-only')} runtime-only, ${by('accepts')} accepts, ${by('gap')} gap; ${problems.length} problem${problems.length === 1 ? '' : 's'}\n`,
  );
  process.exitCode = problems.length ? 1 : 0;
}
