/**
 * The requirements matrix (conformance/requirements/{aep,ahp}/*.tsv): one row per normative
 * sentence of the specs the tool checks, each with its verdict (the rules that enforce it, or why
 * a recorded stream cannot show it, or that the tool must let it pass, or an honest gap).
 * conformance/requirements/README.md documents the format. This module parses the files, checks
 * them against the rule catalogues, the conformance cases and (where ../shared is present) the
 * spec text, and renders what `npm run rules:gen` writes from them: docs/requirements.md, the
 * README's completeness table and src/generated/requirements.json (read by `explain`).
 *
 * `npm run requirements:check [FILE...]` prints the problems of the whole matrix (or of the
 * files named) and exits 1 when there are any; test/meta/requirements.test.ts holds the same.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AEP_DOCS } from '../src/report/spec-links.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
/** The matrix folder. */
export const MATRIX_DIR = join(ROOT, 'conformance', 'requirements');
/** The shared reference checkout beside the repository (`AGENT_CONFORMANCE_SHARED` overrides). */
export const SHARED_DIR = process.env.AGENT_CONFORMANCE_SHARED ?? join(ROOT, '..', 'shared');

/** The matrix's protocols: one folder each, whose rows name that protocol's rules. */
export type MatrixProtocol = 'aep' | 'ahp';

/** The exact header line of every matrix file. */
export const HEADER = 'section\tn\tlevel\tverdict\trules\tquote\tnote';

/**
 * Requirement levels: RFC 2119 keywords, plus closed sets and formats stated in tables, and `statement`: a normative
 * sentence with no BCP 14 keyword (RFC 8174: only the capitals are), whose rules' severity the row's note explains.
 */
export const LEVELS = [
  'MUST',
  'MUST NOT',
  'SHALL',
  'SHALL NOT',
  'REQUIRED',
  'SHOULD',
  'SHOULD NOT',
  'RECOMMENDED',
  'MAY',
  'closed-set',
  'format',
  'statement',
] as const;
/** One requirement level. */
export type Level = (typeof LEVELS)[number];

/** Verdicts: enforced by rules, not visible in a recorded stream, to be let pass, or not enforced yet. */
export const VERDICTS = ['enforced', 'runtime-only', 'accepts', 'gap'] as const;
/** One verdict. */
export type Verdict = (typeof VERDICTS)[number];

/** One row of the matrix. */
export interface Requirement {
  /** `AEP-0007 §3 #2`: document, section, ordinal. */
  id: string;
  protocol: MatrixProtocol;
  /** `AEP-0007`, `AHP base/events.md`, `MCP 2025-11-25 elicitation`, `RFC`, `agent-conformance`. */
  doc: string;
  section: string;
  n: number;
  level: Level;
  verdict: Verdict;
  /** Rules that enforce it (their severity follows the level, or the note says why not). */
  rules: string[];
  /** `~`-prefixed rules: say only that the requirement cannot be verified here (infos). */
  companions: string[];
  quote: string;
  note: string;
  /** Where the row is: `conformance/requirements/aep/AEP-0007.tsv:4`. */
  at: string;
}

/** A matrix file's document: its label and, where the spec text is kept in ../shared, that file. */
export interface MatrixDocument {
  doc: string;
  /** The spec text's path, when the document has one (quotes and sections are checked against it). */
  text?: string;
  /** `aep` documents number their sections (`§7.2`); the others name them by heading text. */
  numbered: boolean;
}

/** The document a matrix file covers, from its name (`AEP-0001-fidelity.tsv` is AEP-0001 too). */
export function documentOf(protocol: MatrixProtocol, file: string): MatrixDocument | undefined {
  const name = basename(file, '.tsv');
  if (name === 'TOOL' || name.startsWith('TOOL-')) return { doc: 'agent-conformance', numbered: false };
  // one file per RFC, so a row id reads as the RFC is cited: `RFC 8259 §8.1 #2`
  const rfc = /^RFC-(\d+)$/.exec(name);
  if (rfc) return { doc: `RFC ${rfc[1]}`, numbered: true };
  const aep = /^(AEP-\d{4})(?:-[a-z0-9-]+)?$/.exec(name);
  if (aep) {
    const f = AEP_DOCS[aep[1]!];
    return f ? { doc: aep[1]!, text: join(SHARED_DIR, 'reference/aep/spec', f), numbered: true } : undefined;
  }
  if (protocol !== 'ahp') return undefined;
  const mcp = /^mcp\.([a-z0-9-]+)$/.exec(name);
  if (mcp)
    return {
      doc: `MCP 2025-11-25 ${mcp[1]}`,
      text: join(SHARED_DIR, `reference/mcp/2025-11-25/${mcp[1]}.mdx`),
      numbered: false,
    };
  if (!/^[a-z0-9-]+(\.[a-z0-9-]+)*$/.test(name)) return undefined;
  const path = `${name.replace(/\./g, '/')}.md`;
  return { doc: `AHP ${path}`, text: join(SHARED_DIR, 'reference/ahp/spec/draft', path), numbered: false };
}

/** The severity a rule enforcing a requirement of this level has, unless the row's note says why not. */
export function severityOfLevel(level: Level): 'error' | 'warning' | undefined {
  if (level === 'MAY' || level === 'statement') return undefined;
  return level === 'SHOULD' || level === 'SHOULD NOT' || level === 'RECOMMENDED' ? 'warning' : 'error';
}

/** A parsed file: its rows and what is wrong with its form. */
export interface ParsedMatrixFile {
  rows: Requirement[];
  problems: string[];
}

/** Parse one matrix file's text (`rel` names it in problems). */
export function parseMatrix(protocol: MatrixProtocol, rel: string, text: string): ParsedMatrixFile {
  const rows: Requirement[] = [];
  const problems: string[] = [];
  const doc = documentOf(protocol, rel);
  if (!doc)
    return {
      rows,
      problems: [`${rel}: the file name names no known document (see conformance/requirements/README.md)`],
    };
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  if (lines[0]?.replace(/\r$/, '') !== HEADER)
    problems.push(`${rel}:1: the first line must be exactly the header "${HEADER.replace(/\t/g, '\\t')}"`);
  for (let i = 1; i < lines.length; i++) {
    const at = `${rel}:${i + 1}`;
    const line = lines[i]!.replace(/\r$/, '');
    if (line.trim() === '') {
      problems.push(`${at}: blank line`);
      continue;
    }
    const cells = line.split('\t');
    if (cells.length !== 7) {
      problems.push(`${at}: ${cells.length} cells, expected 7 (section, n, level, verdict, rules, quote, note)`);
      continue;
    }
    const [section, n, level, verdict, rules, quote, note] = cells.map((c) => c.trim()) as [
      string,
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    if (!section.startsWith('§') || section.length < 2) problems.push(`${at}: section "${section}" must start with §`);
    if (!/^[1-9]\d*$/.test(n)) problems.push(`${at}: n "${n}" must be a positive integer`);
    if (!(LEVELS as readonly string[]).includes(level))
      problems.push(`${at}: level "${level}" is not one of ${LEVELS.join(', ')}`);
    if (!(VERDICTS as readonly string[]).includes(verdict))
      problems.push(`${at}: verdict "${verdict}" is not one of ${VERDICTS.join(', ')}`);
    const listed = rules === '' ? [] : rules.split(',').map((r) => r.trim());
    rows.push({
      id: `${doc.doc} ${section} #${n}`,
      protocol,
      doc: doc.doc,
      section,
      n: Number(n),
      level: level as Level,
      verdict: verdict as Verdict,
      rules: listed.filter((r) => !r.startsWith('~')),
      companions: listed.filter((r) => r.startsWith('~')).map((r) => r.slice(1)),
      quote,
      note,
      at,
    });
  }
  return { rows, problems };
}

/** Every matrix file below {@link MATRIX_DIR}, as `protocol/name.tsv`, sorted. */
export function matrixFiles(dir = MATRIX_DIR): { protocol: MatrixProtocol; rel: string; path: string }[] {
  const out: { protocol: MatrixProtocol; rel: string; path: string }[] = [];
  for (const protocol of ['aep', 'ahp'] as const) {
    const d = join(dir, protocol);
    if (!existsSync(d)) continue;
    for (const name of readdirSync(d).sort())
      if (name.endsWith('.tsv'))
        out.push({ protocol, rel: `conformance/requirements/${protocol}/${name}`, path: join(d, name) });
  }
  return out;
}

/** The whole matrix, parsed. */
export function loadMatrix(dir = MATRIX_DIR): ParsedMatrixFile {
  const rows: Requirement[] = [];
  const problems: string[] = [];
  for (const f of matrixFiles(dir)) {
    const p = parseMatrix(f.protocol, f.rel, readFileSync(f.path, 'utf8'));
    rows.push(...p.rows);
    problems.push(...p.problems);
  }
  return { rows, problems };
}

/** Spec text as the quote check compares it: markdown emphasis and code marks removed, whitespace collapsed. */
export function normalizeSpecText(s: string): string {
  return s
    .replace(/[*`]/g, '')
    .replace(/\\([|_[\]])/g, '$1')
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The sections a document's headings name: numbers (`7.2`) and texts (`Common message envelope`). */
export function headingsOf(text: string): Set<string> {
  const out = new Set<string>();
  for (const line of text.split('\n')) {
    const m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const heading = normalizeSpecText(m[1]!);
    out.add(heading);
    const num = /^((?:\d+|[A-Z])(?:\.\d+)*)\.?\s+(.*)$/.exec(heading);
    if (num) {
      out.add(num[1]!);
      out.add(num[2]!);
    }
  }
  return out;
}

/** What the checks know besides the rows. */
export interface MatrixContext {
  /** Each protocol's catalogue: rule id -> severity. */
  catalogue: Record<MatrixProtocol, ReadonlyMap<string, string>>;
  /** Rule ids that need no row (`internal/rule-error`: no requirement, a bug of ours). */
  exempt?: ReadonlySet<string>;
  /** Conformance case file names per protocol and kind, to hold "a failing and a passing case". */
  cases?: Record<MatrixProtocol, { pass: readonly string[]; fail: readonly string[] }>;
  /**
   * Rules that judge a running service (`aep live`): rule id -> the broken variants of the test endpoint that fail it
   * (test/live/cases.ts). Their passing case is the compliant test endpoint, their failing case a variant, not a file.
   */
  serviceCases?: ReadonlyMap<string, readonly string[]>;
  /** Rules whose failing case cannot be a static file (documented in test/meta/rule-coverage.test.ts). */
  noFailCase?: ReadonlySet<string>;
  /** The spec text of a document, or undefined when ../shared is absent (then quotes are not checked). */
  specText?: (file: string) => string | undefined;
  /** Restrict the coverage check (every rule named by a row) to these protocols; all by default. */
  coverage?: readonly MatrixProtocol[];
}

function caseOf(names: readonly string[], ruleId: string): boolean {
  const slug = ruleId.replace('/', '.');
  return names.some(
    (f) =>
      f === `${slug}.jsonl` ||
      f === `${slug}.json` ||
      f.startsWith(`${slug}--`) ||
      (f.startsWith(`${slug}.`) && !f.endsWith('.expected.json')),
  );
}

/** Everything wrong with the matrix, one sentence each naming the row; empty when it holds. */
export function matrixProblems(rows: readonly Requirement[], ctx: MatrixContext): string[] {
  const problems: string[] = [];
  const ids = new Map<string, string>();
  const texts = new Map<string, { norm: string; headings: Set<string> } | undefined>();
  const docText = (r: Requirement) => {
    const d = documentOf(r.protocol, r.at.split(':')[0]!);
    if (!d?.text || !ctx.specText) return undefined;
    if (!texts.has(d.text)) {
      const t = ctx.specText(d.text);
      texts.set(d.text, t === undefined ? undefined : { norm: normalizeSpecText(t), headings: headingsOf(t) });
    }
    return texts.get(d.text);
  };
  for (const r of rows) {
    // ids are unique per protocol: a shared sentence (an RFC's, the tool's limits) has a row in each
    const id = `${r.protocol} ${r.id}`;
    const prior = ids.get(id);
    if (prior) problems.push(`${r.at}: ${r.id} repeats the row at ${prior}`);
    else ids.set(id, r.at);
    const catalogue = ctx.catalogue[r.protocol];
    for (const id of [...r.rules, ...r.companions]) {
      if (!catalogue.has(id))
        problems.push(`${r.at}: ${r.id} names "${id}", which is not a rule of \`${r.protocol} rules\``);
    }
    if (r.quote === '') problems.push(`${r.at}: ${r.id} has no quote`);
    if (r.quote.length > 240)
      problems.push(`${r.at}: ${r.id}'s quote has ${r.quote.length} characters (at most 240: abbreviate with ...)`);
    switch (r.verdict) {
      case 'enforced': {
        if (r.level === 'MAY')
          problems.push(`${r.at}: ${r.id} is a MAY: it cannot be violated, so its verdict is accepts`);
        if (r.rules.length === 0 && r.companions.length === 0)
          problems.push(`${r.at}: ${r.id} is enforced but names no rule`);
        const want = severityOfLevel(r.level);
        const off = [...r.rules, ...(r.rules.length ? [] : r.companions)].filter(
          (id) => catalogue.get(id) !== undefined && want && catalogue.get(id) !== want,
        );
        if (off.length && !/^severity:/i.test(r.note))
          problems.push(
            `${r.at}: ${r.id} is a ${r.level} (${want}) but ${off.map((id) => `${id} is ${catalogue.get(id)}`).join(', ')}: follow the level, or say why in a note starting "severity:"`,
          );
        for (const id of r.rules) {
          const variants = ctx.serviceCases?.get(id);
          if (variants) {
            if (variants.length === 0)
              problems.push(`${r.at}: ${r.id}'s rule ${id} has no broken variant failing it in test/live/cases.ts`);
            continue;
          }
          const cases = ctx.cases?.[r.protocol];
          if (!cases || !catalogue.has(id)) continue;
          if (!caseOf(cases.pass, id))
            problems.push(`${r.at}: ${r.id}'s rule ${id} has no passing case in conformance/${r.protocol}/pass/`);
          if (!ctx.noFailCase?.has(id) && !caseOf(cases.fail, id))
            problems.push(`${r.at}: ${r.id}'s rule ${id} has no failing case in conformance/${r.protocol}/fail/`);
        }
        break;
      }
      case 'runtime-only':
      case 'gap':
        if (r.rules.length || r.companions.length)
          problems.push(`${r.at}: ${r.id} is ${r.verdict} but names rules (then it is enforced)`);
        if (r.note === '')
          problems.push(
            `${r.at}: ${r.id} is ${r.verdict}: its note must say ${r.verdict === 'gap' ? 'what a rule would check' : 'what a recorded stream cannot show'}`,
          );
        break;
      case 'accepts':
        if (r.note === '')
          problems.push(`${r.at}: ${r.id} is accepts: its note must name the passing case or test that shows it`);
        break;
    }
    const spec = docText(r);
    if (spec) {
      const section = normalizeSpecText(r.section.slice(1));
      if (!spec.headings.has(section)) problems.push(`${r.at}: ${r.id}: "${r.section}" is no heading of ${r.doc}`);
      for (const fragment of r.quote.split(/\.\.\.|\u2026/)) {
        const f = normalizeSpecText(fragment);
        if (f && !spec.norm.includes(f))
          problems.push(`${r.at}: ${r.id}: the quote's words "${f}" are not in ${r.doc}`);
      }
    }
  }
  for (const protocol of ctx.coverage ?? (['aep', 'ahp'] as const)) {
    const named = new Set(rows.filter((r) => r.protocol === protocol).flatMap((r) => [...r.rules, ...r.companions]));
    for (const id of ctx.catalogue[protocol].keys())
      if (!named.has(id) && !ctx.exempt?.has(id))
        problems.push(
          `${id}: no requirement row of conformance/requirements/${protocol}/ names this rule (every rule enforces a requirement)`,
        );
  }
  return problems;
}

/** Counts of one document's rows by verdict. */
export interface Completeness {
  doc: string;
  protocol: MatrixProtocol;
  rows: number;
  enforced: number;
  runtimeOnly: number;
  accepts: number;
  gap: number;
  /** Enforced rows whose rules report below the level (each explained in its note). */
  belowLevel: number;
}

/** Per document, in file order: how much of it the tool enforces. */
export function completeness(rows: readonly Requirement[], catalogue: MatrixContext['catalogue']): Completeness[] {
  const out = new Map<string, Completeness>();
  for (const r of rows) {
    const key = `${r.protocol} ${r.doc}`;
    let c = out.get(key);
    if (!c)
      out.set(
        key,
        (c = {
          doc: r.doc,
          protocol: r.protocol,
          rows: 0,
          enforced: 0,
          runtimeOnly: 0,
          accepts: 0,
          gap: 0,
          belowLevel: 0,
        }),
      );
    c.rows++;
    if (r.verdict === 'enforced') {
      c.enforced++;
      const want = severityOfLevel(r.level);
      const ids = r.rules.length ? r.rules : r.companions;
      if (want && ids.some((id) => catalogue[r.protocol].get(id) !== want)) c.belowLevel++;
    } else if (r.verdict === 'runtime-only') c.runtimeOnly++;
    else if (r.verdict === 'accepts') c.accepts++;
    else c.gap++;
  }
  return [...out.values()];
}

function pct(n: number, d: number): string {
  return d === 0 ? 'n/a' : `${Math.floor((1000 * n) / d) / 10}%`;
}

/** The README's completeness table (between its `requirements` markers). */
export function renderCompletenessTable(rows: readonly Requirement[], catalogue: MatrixContext['catalogue']): string {
  const list = completeness(rows, catalogue);
  let out =
    '| protocol | document | rows | enforced | runtime-only | accepts | gap | checkable enforced |\n' +
    '|---|---|---:|---:|---:|---:|---:|---:|\n';
  const total = { rows: 0, enforced: 0, runtimeOnly: 0, accepts: 0, gap: 0 };
  for (const c of list) {
    out += `| ${c.protocol} | ${c.doc} | ${c.rows} | ${c.enforced} | ${c.runtimeOnly} | ${c.accepts} | ${c.gap} | ${pct(c.enforced, c.enforced + c.gap)} |\n`;
    total.rows += c.rows;
    total.enforced += c.enforced;
    total.runtimeOnly += c.runtimeOnly;
    total.accepts += c.accepts;
    total.gap += c.gap;
  }
  out += `| | **all** | **${total.rows}** | **${total.enforced}** | **${total.runtimeOnly}** | **${total.accepts}** | **${total.gap}** | **${pct(total.enforced, total.enforced + total.gap)}** |\n`;
  return out;
}

function cell(s: string): string {
  return s.replace(/\\/g, '\\\\').replace(/\|/g, '\\|');
}

/** docs/requirements.md: the whole matrix, by document, with the completeness table first. */
export function renderRequirementsMarkdown(
  rows: readonly Requirement[],
  catalogue: MatrixContext['catalogue'],
): string {
  let out =
    '<!-- GENERATED by `npm run rules:gen` (tools/gen-rules.ts) from conformance/requirements/. Do not edit by hand:\n' +
    '     test/meta/requirements.test.ts fails when this file is stale. -->\n' +
    '# Requirements matrix\n\n' +
    'One row per normative sentence of the documents the tool checks (MUST, MUST NOT, SHALL, REQUIRED,\n' +
    'SHOULD, RECOMMENDED, MAY, closed sets and formats stated in tables, statements without a keyword), with its\n' +
    'verdict: the rules\n' +
    'that enforce it; `runtime-only`, what a recorded stream cannot show; `accepts`, what the tool must\n' +
    'let pass; or `gap`, checkable but not enforced yet. The data is `conformance/requirements/`\n' +
    '(format in its README); `aep explain RULE` / `ahp explain RULE` list the rows a rule enforces.\n' +
    'A rule marked `~` only says that the requirement cannot be verified in that input (an info).\n\n' +
    '## Completeness\n\n' +
    '"checkable enforced" is enforced / (enforced + gap): runtime-only and accepts rows are not counted.\n\n' +
    renderCompletenessTable(rows, catalogue);
  let doc = '';
  for (const r of rows) {
    const key = `${r.protocol} ${r.doc}`;
    if (key !== doc) {
      doc = key;
      out += `\n## ${r.doc} (\`${r.protocol}\`)\n\n| id | level | verdict | rules | quote | note |\n|---|---|---|---|---|---|\n`;
    }
    const rules = [...r.rules.map((id) => `\`${id}\``), ...r.companions.map((id) => `~\`${id}\``)].join(', ');
    out += `| ${cell(`${r.section} #${r.n}`)} | ${r.level} | ${r.verdict} | ${rules} | ${cell(r.quote)} | ${cell(r.note)} |\n`;
  }
  return out;
}

/** The severity exceptions: enforced rows whose rules report below (or above) the level, with the reason. */
export function severityExceptions(rows: readonly Requirement[], catalogue: MatrixContext['catalogue']): Requirement[] {
  return rows.filter((r) => {
    if (r.verdict !== 'enforced') return false;
    const want = severityOfLevel(r.level);
    const ids = r.rules.length ? r.rules : r.companions;
    return (
      want !== undefined &&
      ids.some((id) => catalogue[r.protocol].get(id) !== undefined && catalogue[r.protocol].get(id) !== want)
    );
  });
}

/** src/generated/requirements.json: per protocol, rule id -> the rows it enforces (`explain`, `rules --format json`). */
export function buildRequirementsIndex(
  rows: readonly Requirement[],
): Record<MatrixProtocol, Record<string, [string, string, string][]>> {
  const out: Record<MatrixProtocol, Record<string, [string, string, string][]>> = { aep: {}, ahp: {} };
  for (const r of rows) {
    if (r.verdict !== 'enforced') continue;
    for (const id of [...r.rules, ...r.companions]) (out[r.protocol][id] ??= []).push([r.id, r.level, r.quote]);
  }
  return out;
}
