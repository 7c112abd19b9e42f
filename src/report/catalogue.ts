/** Rule catalogue text: `rules`, `explain RULE` and RULES.md (`npm run rules:gen`); pure, no colour. */
import type { Severity } from '../core/finding.ts';
import type { RuleMeta } from '../core/rule.ts';
import { codePointName, visible } from '../core/visible.ts';
import {
  describeExpectation,
  type ExpectedFinding,
  type RuleExample,
  type RuleExamples,
} from '../core/fixture-result.ts';
import { requirementsOf, type RuleRequirement } from './requirements.ts';
import { specUrl } from './spec-links.ts';
import { wrapText } from './util.ts';

/** One catalogue row as JSON (`rules --format json`). */
export interface CatalogueRow {
  id: string;
  severity: Severity;
  spec: string;
  /** A short literal quote of the cited sentence. */
  quote?: string;
  url?: string;
  description: string;
  /** What the one-sentence description leaves out. */
  detail?: string;
  /** The requirements of the matrix (docs/requirements.md) this rule enforces. */
  requirements: RuleRequirement[];
}

/** Catalogue rows of `protocol` (`aep`, `ahp`: whose matrix rows are read) in the registry's order. */
export function catalogueRows(rules: readonly RuleMeta[], protocol: string): CatalogueRow[] {
  return rules.map((r) => {
    const url = specUrl(r.spec);
    return {
      id: r.id,
      severity: r.severity,
      spec: r.spec,
      ...(r.quote ? { quote: r.quote } : {}),
      ...(url ? { url } : {}),
      description: r.description,
      ...(r.detail ? { detail: r.detail } : {}),
      requirements: requirementsOf(protocol, r.id),
    };
  });
}

export { wrapText };

/** `rules`: piped, an aligned table, never cut; on a terminal (`width`) each rule stacked, wrapped between words. */
export function renderRulesText(rules: readonly RuleMeta[], width?: number): string {
  if (width !== undefined) {
    const room = Math.max(20, width);
    const row = (r: RuleMeta): string => {
      // the citation's continuation is indented deeper than the description, so each reads apart
      const head = wrapText(`${r.id}  ${r.severity}  ${r.spec}`, Math.max(14, room - 6));
      const desc = wrapText(r.description, Math.max(16, room - 4));
      return [head[0], ...head.slice(1).map((l) => `      ${l}`), ...desc.map((l) => `    ${l}`)].join('\n') + '\n';
    };
    return rules.map(row).join('') + `\n${rules.length} rules\n`;
  }
  const idW = Math.max(2, ...rules.map((r) => r.id.length));
  const sevW = 8;
  const specW = Math.max(4, ...rules.map((r) => r.spec.length));
  const head = `${'ID'.padEnd(idW)}  ${'SEVERITY'.padEnd(sevW)}  ${'SPEC'.padEnd(specW)}  DESCRIPTION\n`;
  const row = (r: RuleMeta): string =>
    `${`${r.id.padEnd(idW)}  ${r.severity.padEnd(sevW)}  ${r.spec.padEnd(specW)}  ${r.description}`.trimEnd()}\n`;
  return head + rules.map(row).join('') + `\n${rules.length} rules\n`;
}

/** `maxLineBytes` -> `--max-line-bytes`: a case option as the `validate` flag it stands for. */
export function optionFlag(name: string, value: string | number | boolean): string {
  const flag = '--' + name.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase());
  return value === true ? flag : `${flag} ${value}`;
}

/** Options of {@link renderExplain}. */
export interface ExplainOptions {
  /** `aep` or `ahp` (the command shown to run an example). */
  protocol: string;
  /** Wrap example lines to this many columns (a terminal); absent: whole lines (piped). */
  width?: number;
  /** Where a rule that judges a running service has its cases, shown instead of the file examples. */
  cases?: string;
}

/** Cases longer than this many lines show only their marked lines, in context. */
const LONG_CASE_LINES = 60;

/**
 * An example case in full, numbered, expected-finding lines marked `>`; a long one: the marked lines in context. On a
 * terminal (`width`) a marked line is wrapped whole, after a `,` or `:` where it can; an unmarked line longer than three
 * rows is cut to one (a capabilities manifest would bury the lines that matter).
 */
function showCase(text: string, marks: ReadonlyMap<number, string[]>, width: number | undefined): string {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  if (lines.length === 0) return '      (empty file)\n';
  const numW = Math.max(3, String(lines.length).length);
  const room = width === undefined ? Infinity : Math.max(20, width - numW - 7);
  // a long case shows the marked lines with two lines of context each, and says what it leaves out
  const keep =
    lines.length <= LONG_CASE_LINES
      ? undefined
      : new Set([...marks.keys()].flatMap((n) => [n - 2, n - 1, n, n + 1, n + 2]));
  let out = '';
  let skipped = 0;
  lines.forEach((raw, i) => {
    const n = i + 1;
    if (keep && !keep.has(n) && n !== 1) {
      skipped++;
      if (n === lines.length || keep.has(n + 1)) {
        out += `    ${' '.repeat(numW)} ~ (${skipped} unmarked line${skipped === 1 ? '' : 's'} not shown)\n`;
        skipped = 0;
      }
      return;
    }
    const l = visible(raw, bracketed);
    const mark = marks.has(n) ? '>' : ' ';
    const pieces = marks.has(n) || l.length <= 3 * room ? broken(l, room) : [elided(l, room)];
    pieces.forEach((piece, k) => {
      out += k === 0 ? `  ${mark} ${String(n).padStart(numW)} | ${piece}\n` : `    ${' '.repeat(numW)} : ${piece}\n`;
    });
    for (const m of marks.get(n) ?? []) out += `    ${' '.repeat(numW)}   ^ ${m}\n`;
  });
  return out;
}

/** `line` in pieces of at most `room` columns, each ending after a `,` or `:` when one falls in its second half. */
function broken(line: string, room: number): string[] {
  const pieces: string[] = [];
  let rest = line;
  while (rest.length > room) {
    // after a comma first (between members), else after a colon that starts no `//` (a URL's scheme stays whole)
    const after = (ok: (i: number) => boolean) => {
      for (let i = room - 1; i >= room / 2; i--) if (ok(i)) return i + 1;
      return undefined;
    };
    const cut = after((i) => rest[i] === ',') ?? after((i) => rest[i] === ':' && rest[i + 1] !== '/') ?? room;
    pieces.push(rest.slice(0, cut));
    rest = rest.slice(cut);
  }
  pieces.push(rest);
  return pieces;
}

/** A long line that holds no expected finding, cut to one row of `room` columns that says how much it leaves out. */
function elided(line: string, room: number): string {
  const tail = ` … (${line.length} characters)`;
  const keep = Math.max(1, room - tail.length);
  return `${line.slice(0, keep)}${tail}`;
}

/** A case line's invisible and control characters as `<U+XXXX>`, so a case never drives the terminal. */
const bracketed = (cp: number): string => `<${codePointName(cp)}>`;

/** Expectations, each distinct one once with how many times it is expected. */
function distinct(expected: readonly ExpectedFinding[]): Array<{ e: ExpectedFinding; n: number }> {
  const m = new Map<string, { e: ExpectedFinding; n: number }>();
  for (const e of expected) {
    const k = `${e.ruleId}\u0000${e.line ?? ''}\u0000${e.pointer ?? '\u0001'}`;
    const got = m.get(k);
    if (got) got.n++;
    else m.set(k, { e, n: 1 });
  }
  return [...m.values()];
}

/** `explain RULE`: description and detail, linked citation with its quote, a failing example with its expectations, a passing one. */
export function renderExplain(
  rule: RuleMeta,
  examples: RuleExamples,
  opts: ExplainOptions = { protocol: rule.id.split('/')[0]! },
): string {
  const url = specUrl(rule.spec);
  const para = (text: string) => (opts.width === undefined ? text : wrapText(text, opts.width).join('\n'));
  const detail = rule.detail ? `\n\n${para(rule.detail)}` : '';
  const quote = rule.quote
    ? `\n${(opts.width === undefined ? [`"${rule.quote}"`] : wrapText(`"${rule.quote}"`, opts.width - 6)).map((l) => `      ${l}`).join('\n')}`
    : '';
  let out = `${rule.id} (${rule.severity})\n\n${para(rule.description)}${detail}\n\nSpec: ${rule.spec}${quote}${url ? `\n      ${url}` : ''}\n`;
  const reqs = requirementsOf(opts.protocol, rule.id);
  if (reqs.length) {
    // a row's `#n` counts the normative sentences of its section, where a rule's `Spec:` `#n` may be a table row
    out += `\nRequirements it enforces (docs/requirements.md;\n#n is the section's nth requirement, not a table row):\n`;
    for (const q of reqs) {
      const line = `${q.id} (${q.level}): "${q.quote}"`;
      const lines = opts.width === undefined ? [line] : wrapText(line, opts.width - 4);
      out += `${lines.map((l, i) => (i === 0 ? '  ' : '    ') + l).join('\n')}\n`;
    }
  }
  const messages = Object.entries(rule.messages ?? {});
  const shared = Object.keys(rule.sharedMessages ?? {}).length;
  if (messages.length || shared) {
    out += `\nMessages (placeholders filled from the finding's args):\n`;
    const rows = messages.map(([key, template]) => `${key}: ${template}`);
    // a schema rule's table is its protocol's schema stage's: one line here, every template in SARIF
    if (shared)
      rows.push(
        `${messages.length ? 'and ' : ''}the schema stage's ${shared} templates it shares, keyed by the ajv keyword or the schema's x-message (--format sarif lists them as globalMessageStrings)`,
      );
    for (const line of rows) {
      const lines = opts.width === undefined ? [line] : wrapText(line, opts.width - 4);
      out += `${lines.map((l, i) => (i === 0 ? '  ' : '    ') + l).join('\n')}\n`;
    }
  }
  if (opts.cases !== undefined) {
    const lines = opts.width === undefined ? [opts.cases] : wrapText(opts.cases, opts.width - 2);
    return `${out}\nCases:\n${lines.map((l) => `  ${l}`).join('\n')}\n`;
  }
  const origin = (e: RuleExample) =>
    `conformance/${e.name}${e.bundled ? ' in the repository; a copy is bundled with this package' : ''}`;
  const fail = examples.fail[0];
  out += `\nFailing example${fail ? ` (${origin(fail)})` : ''}:\n`;
  if (fail) {
    const flags = Object.entries(fail.options ?? {}).map(([k, v]) => optionFlag(k, v));
    const expected = distinct(fail.expected ?? []);
    const marks = new Map<number, string[]>();
    for (const { e, n } of expected) {
      if (e.line === undefined) continue;
      const list = marks.get(e.line) ?? [];
      list.push(
        `${describeExpectation({ ruleId: e.ruleId, ...(e.pointer !== undefined ? { pointer: e.pointer } : {}) })}${n > 1 ? ` (${n} times)` : ''}`,
      );
      marks.set(e.line, list);
    }
    if (flags.length) out += `  needs: ${flags.join(' ')} (the defaults do not trigger it)\n`;
    out += showCase(fail.text, marks, opts.width);
    const file = fail.bundled ? 'FILE' : `conformance/${fail.name}`;
    out += `  run: ${opts.protocol} validate ${[...flags, file].join(' ')}${fail.bundled ? '   (FILE: the lines above saved to a file)' : ''}\n`;
    if (expected.length) {
      out += `  expected findings:\n`;
      for (const { e, n } of expected) out += `    ${describeExpectation(e)}${n > 1 ? ` (${n} times)` : ''}\n`;
    }
  } else out += '  none yet in conformance/ (see RULES.md for how cases are named)\n';
  const pass = examples.pass[0];
  out += `\nPassing example${pass ? ` (${origin(pass)})` : ''}:\n`;
  out += pass ? showCase(pass.text, new Map(), opts.width) : '  none yet in conformance/\n';
  return out;
}

function cell(s: string): string {
  return s.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

/** One protocol's section of RULES.md. */
export interface CatalogueSection {
  title: string;
  command?: string;
  rules: readonly RuleMeta[];
  note?: string;
}

/** The whole RULES.md text. Deterministic: same registry -> same bytes. */
export function renderRulesMarkdown(sections: readonly CatalogueSection[]): string {
  let out =
    '<!-- GENERATED by `npm run rules:gen` (tools/gen-rules.ts) from the rule registries. Do not edit by hand:\n' +
    '     test/report/catalogue.test.ts fails when this file is stale. -->\n' +
    '# Rules\n\n' +
    'Every rule the checkers can report, with its default severity (`--strict` raises warnings to errors),\n' +
    'its spec citation and one sentence on what it checks (then, where there is more to say, the detail).\n' +
    '`aep explain RULE` / `ahp explain RULE` show a\n' +
    'failing and a passing example from `conformance/<protocol>/{fail,pass}/<slug>*.jsonl`, where the\n' +
    'slug is the rule id with `/` replaced by `.`.\n';
  for (const s of sections) {
    out += `\n## ${s.title}\n\n`;
    if (s.command) out += `Listed by \`${s.command}\`.\n\n`;
    if (s.rules.length === 0) {
      out += `${s.note ?? 'No rules registered.'}\n`;
      continue;
    }
    out += '| id | severity | spec | description |\n|---|---|---|---|\n';
    for (const r of s.rules) {
      const url = specUrl(r.spec);
      const spec = `${url ? `[${cell(r.spec)}](${url})` : cell(r.spec)}${r.quote ? `: "${cell(r.quote)}"` : ''}`;
      out += `| \`${r.id}\` | ${r.severity} | ${spec} | ${cell(r.description)}${r.detail ? `<br>${cell(r.detail)}` : ''} |\n`;
    }
  }
  return out;
}
