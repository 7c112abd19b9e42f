/**
 * One run, every format: the same inputs give the same findings (rule id, severity, file, line, column, pointer,
 * message) in json, ndjson, sarif, junit, github, html and text, and the same counts in every summary; with
 * --max-findings, the same first findings and still the whole counts. Inputs: every failing conformance case of both
 * protocols (many finding kinds), a file whose name needs escaping in each format with non-ASCII text before its errors
 * and a member name of control characters, and standard input. The formats a person reads (text, github, junit, html)
 * show a pointer's control characters as `U+XXXX` (src/report/util.ts pointerText); json, ndjson and sarif keep it exact.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';
import { visible } from '../../src/core/visible.ts';
import { REPO, runCli } from '../cli/helpers.ts';
import { fileTempDir } from '../temp.ts';

/** A finding as every format can say it. */
interface Row {
  source: string;
  line?: number;
  column?: number;
  ruleId: string;
  severity: string;
  pointer?: string;
  message: string;
}

interface Counts {
  errors: number;
  warnings: number;
  infos: number;
}

const key = (r: Row) =>
  JSON.stringify([r.source, r.line ?? null, r.column ?? null, r.ruleId, r.severity, r.pointer || null, r.message]);

/** The multiset of rows as sorted keys. */
const keys = (rows: readonly Row[]) => rows.map(key).sort();

function fromJson(out: string): { rows: Row[]; counts: Counts } {
  const doc = JSON.parse(out) as { findings: Row[]; summary: Counts };
  return { rows: doc.findings, counts: doc.summary };
}

function fromNdjson(out: string): { rows: Row[]; counts: Counts } {
  const lines = out
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as Row & { kind?: string; summary?: Counts });
  const last = lines.at(-1)!;
  assert.equal(last.kind, 'summary');
  return { rows: lines.filter((l) => l.kind === undefined), counts: last.summary! };
}

interface SarifLog {
  runs: Array<{
    columnKind?: string;
    tool: { driver: { rules: Array<{ id: string }> } };
    invocations: Array<{ exitCode?: number; executionSuccessful: boolean; properties: { summary: Counts } }>;
    results: Array<{
      ruleId: string;
      ruleIndex: number;
      level: string;
      message: { text: string };
      locations?: Array<{
        physicalLocation: { artifactLocation: { uri: string }; region?: { startLine?: number; startColumn?: number } };
        logicalLocations?: Array<{ fullyQualifiedName: string }>;
      }>;
      properties: { pointer?: string };
    }>;
  }>;
}

const SEVERITY_OF_LEVEL: Record<string, string> = { error: 'error', warning: 'warning', note: 'info' };

/** The path a SARIF artifact URI names, relative to the repository (as the other formats print it). */
function pathOfUri(uri: string): string {
  if (uri.startsWith('file://')) return relative(REPO, decodeURIComponent(new URL(uri).pathname));
  return decodeURIComponent(uri.replace(/^\.\//, ''));
}

function fromSarif(out: string): { rows: Row[]; counts: Counts; log: SarifLog } {
  const log = JSON.parse(out) as SarifLog;
  const run = log.runs[0]!;
  const rows = run.results.map((r) => {
    assert.equal(run.tool.driver.rules[r.ruleIndex]?.id, r.ruleId, 'ruleIndex names the rule of ruleId');
    const loc = r.locations?.[0];
    // GitHub code scanning refuses a whole log for one result without an artifact URI, or one of a scheme not `file:`
    const uri = loc?.physicalLocation.artifactLocation.uri;
    assert.ok(uri && (!/^[A-Za-z][\w+.-]*:/.test(uri) || uri.startsWith('file:')), `${r.ruleId}: ${uri}`);
    const region = loc?.physicalLocation.region;
    return {
      source: loc ? pathOfUri(loc.physicalLocation.artifactLocation.uri) : '',
      ...(region?.startLine !== undefined ? { line: region.startLine } : {}),
      ...(region?.startColumn !== undefined ? { column: region.startColumn } : {}),
      ruleId: r.ruleId,
      severity: SEVERITY_OF_LEVEL[r.level]!,
      ...(r.properties.pointer !== undefined ? { pointer: r.properties.pointer } : {}),
      message: r.message.text,
    };
  });
  return { rows, counts: run.invocations[0]!.properties.summary, log };
}

const XML_ENTITY: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const unXml = (s: string) => s.replace(/&(amp|lt|gt|quot|apos);/g, (_m, e: string) => XML_ENTITY[e]!);
const unHtml = (s: string) => s.replace(/&#(\d+);/g, (_m, n: string) => String.fromCharCode(Number(n)));

/** `source:line:column severity rule: message (at pointer)`, as junit bodies list findings. */
const JUNIT_LINE = /^(.*?)(?::(\d+)(?::(\d+))?)? (error|warning|info) (\S+): (.*?)(?: \(at (\/.*)\))?$/;

function fromJunit(out: string): { rows: Row[]; tests: number; failures: number } {
  const rows: Row[] = [];
  for (const body of out.matchAll(/<(failure|system-out)\b[^>]*>([^<]*)<\/\1>/g)) {
    for (const line of unXml(body[2]!).split('\n')) {
      const m = JUNIT_LINE.exec(line);
      assert.ok(m, `junit finding line: ${line}`);
      rows.push({
        source: m[1] === '<run>' ? '' : m[1]!,
        ...(m[2] ? { line: Number(m[2]) } : {}),
        ...(m[3] ? { column: Number(m[3]) } : {}),
        severity: m[4]!,
        ruleId: m[5]!,
        message: m[6]!,
        ...(m[7] ? { pointer: m[7] } : {}),
      });
    }
  }
  const head = /<testsuites [^>]*tests="(\d+)" failures="(\d+)"/.exec(out)!;
  return { rows, tests: Number(head[1]), failures: Number(head[2]) };
}

/** The reverse of the workflow-command escaping (`%25` last, as the runner does). */
const unData = (s: string) => s.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%25/g, '%');
const unProperty = (s: string) => unData(s.replace(/%3A/g, ':').replace(/%2C/g, ','));
const SEVERITY_OF_COMMAND: Record<string, string> = { error: 'error', warning: 'warning', notice: 'info' };

function fromGithub(out: string, spec: Map<string, string>): Row[] {
  return out
    .split('\n')
    .filter((l) => l.startsWith('::'))
    .map((l) => {
      const m = /^::(error|warning|notice)(?: ([^:]*))?::(.*)$/.exec(l);
      assert.ok(m, l);
      const props = Object.fromEntries(
        (m[2] ?? '').split(',').map((p) => [p.slice(0, p.indexOf('=')), unProperty(p.slice(p.indexOf('=') + 1))]),
      );
      let data = unData(m[3]!);
      const cite = ` [${spec.get(props.title!)}]`;
      assert.ok(data.endsWith(cite), `${data} ends with its citation`);
      data = data.slice(0, -cite.length);
      const at = /^(.*) \(at (\/.*)\)$/.exec(data);
      return {
        source: props.file ?? '<stdin>',
        ...(props.line ? { line: Number(props.line) } : {}),
        ...(props.col ? { column: Number(props.col) } : {}),
        ruleId: props.title!,
        severity: SEVERITY_OF_COMMAND[m[1]!]!,
        message: at ? at[1]! : data,
        ...(at ? { pointer: at[2] } : {}),
      };
    });
}

function fromHtml(out: string): { rows: Row[]; counts: Counts } {
  const rows: Row[] = [];
  for (const section of out.split('<section class="input"').slice(1)) {
    const source = unHtml(/<h2>([^<]*)<\/h2>/.exec(section)![1]!);
    const re =
      /<tr class="f" data-sev="(\w+)" data-rule="([^"]*)"><td class="loc mono">(?:<a [^>]*>)?(?:line (\d+)(?::(\d+))?|—)(?:<\/a>)?<\/td><td class="msg">([^<]*)<\/td><td class="ptr"><code>([^<]*)<\/code><\/td><\/tr>/g;
    for (const m of section.matchAll(re)) {
      rows.push({
        source,
        ...(m[3] ? { line: Number(m[3]) } : {}),
        ...(m[4] ? { column: Number(m[4]) } : {}),
        ruleId: unHtml(m[2]!),
        severity: m[1]!,
        message: unHtml(m[5]!),
        ...(m[6] ? { pointer: unHtml(m[6]) } : {}),
      });
    }
  }
  const box = (label: string) =>
    Number(new RegExp(`<b>([\\d,]+)</b><span>${label}</span>`).exec(out)![1]!.replace(/,/g, ''));
  return { rows, counts: { errors: box('errors'), warnings: box('warnings'), infos: box('infos') } };
}

/** Text: `source:line:column  severity  rule  …`: location, severity and rule of each finding line. */
function fromText(out: string): string[] {
  return out
    .split('\n')
    .map((l) => /^(.*?)(?::(\d+)(?::(\d+))?)? {2}(error|warning|info) {2}(\S+) {2}/.exec(l))
    .filter((m) => m !== null)
    .map((m) => JSON.stringify([m[1], m[2] ? Number(m[2]) : null, m[3] ? Number(m[3]) : null, m[5], m[4]]))
    .sort();
}

const dir = fileTempDir('ac-format-relation-');
/** A name that needs escaping in a URI, a workflow-command property, XML and HTML. */
const ODD = join(dir, 'we, ird:%20 <b>&"é".jsonl');
// non-ASCII text (an accent, an emoji: a surrogate pair) before each error on the line
const AEP_LINE = (time: string) =>
  JSON.stringify({ aep: '0.1', id: 'é😀-1', type: 'agent.heartbeat', time, source: 'urn:é😀', agent: 'a' });
/** A member name that would colour the terminal and set its title, with a NUL and a lone surrogate. */
const CONTROL_NAME = '\u001b[31mred\u001b]0;title\u0007\u0000\ud800';

/** An event of conformance/ahp whose extension (named `name`) holds a token: ahp/event-secret points into it. */
function secretUnder(name: string): string {
  const line = readFileSync(join(REPO, 'conformance/ahp/fail/ahp.event-secret.jsonl'), 'utf8').split('\n')[1]!;
  const msg = JSON.parse(line) as { params: { event: { extensions: Record<string, unknown> } } };
  const ext = msg.params.event.extensions;
  msg.params.event.extensions = { [name]: ext['com.example.trace'] };
  return JSON.stringify(msg);
}

const INPUTS = {
  aep: {
    dir: 'conformance/aep/fail',
    odd: `${AEP_LINE('2026-01-01T00:00:00')}\n\uFEFF${AEP_LINE('x')}\n\n{"é": "😀" x}\n${JSON.stringify({ ...JSON.parse(AEP_LINE('2026-01-01T00:00:00Z')), [CONTROL_NAME]: 1 })}\n[1]`,
    stdin: `${AEP_LINE('2026-13-01T00:00:00Z')}\n{`,
  },
  ahp: {
    dir: 'conformance/ahp/fail',
    odd: `{"jsonrpc":"2.0","id":"é😀","method":"x/é","params":{"é":1}}\n\n{"é😀": 1, x}\n${secretUnder(CONTROL_NAME)}\n`,
    stdin: '{"jsonrpc":"1.0","id":"é😀"}\n',
  },
} as const;

/** What each format said of one run of `validate ARGS --format F` (exit 1 each time, the CLI's code for findings). */
async function everyFormat(protocol: 'aep' | 'ahp', args: readonly string[], stdin: string) {
  const run = async (format: string) => {
    const r = await runCli(protocol, ['validate', ...args, '--format', format], stdin);
    assert.equal(r.code, 1, `${format}: ${r.stderr}`);
    return r.stdout;
  };
  const out = Object.fromEntries(
    await Promise.all(
      ['json', 'ndjson', 'sarif', 'junit', 'github', 'html', 'text'].map(async (f) => [f, await run(f)] as const),
    ),
  ) as Record<'json' | 'ndjson' | 'sarif' | 'junit' | 'github' | 'html' | 'text', string>;
  const json = fromJson(out.json);
  const spec = new Map(
    (JSON.parse(out.json) as { findings: Array<{ ruleId: string; spec: string }> }).findings.map((f) => [
      f.ruleId,
      f.spec,
    ]),
  );
  // the formats a person reads show a pointer's control characters as U+XXXX
  const shown = json.rows.map((r) => (r.pointer ? { ...r, pointer: visible(r.pointer) } : r));
  for (const f of ['text', 'github', 'junit', 'html'] as const) {
    const control = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/.exec(out[f]);
    assert.equal(control, null, `${f} writes no control character`);
  }
  return {
    out,
    json,
    shown,
    ndjson: fromNdjson(out.ndjson),
    sarif: fromSarif(out.sarif),
    junit: fromJunit(out.junit),
    github: fromGithub(out.github, spec),
    html: fromHtml(out.html),
    text: fromText(out.text),
  };
}

const textKeys = (rows: readonly Row[]) =>
  rows.map((r) => JSON.stringify([visible(r.source), r.line ?? null, r.column ?? null, r.ruleId, r.severity])).sort();

for (const protocol of ['aep', 'ahp'] as const) {
  const input = INPUTS[protocol];
  const oddName = ODD.replace('.jsonl', `.${protocol}.jsonl`);
  const odd = relative(REPO, oddName);
  const cases = readdirSync(join(REPO, input.dir))
    .filter((f) => !f.endsWith('.expected.json'))
    .sort()
    .map((f) => `${input.dir}/${f}`);
  const args = [...cases, odd, '-', '--each', '--fail-on', 'info'];

  test(`${protocol} validate --quiet: text, github and html show what is at or above --fail-on; the data formats every finding`, async () => {
    writeFileSync(oddName, input.odd);
    const all = await everyFormat(protocol, args, input.stdin);
    const quiet = await everyFormat(protocol, [...args, '--fail-on', 'error', '-q'], input.stdin);
    const want = keys(all.json.rows);
    assert.ok(all.json.rows.some((x) => x.severity !== 'error'));
    for (const [name, rows] of [
      ['json', quiet.json.rows],
      ['ndjson', quiet.ndjson.rows],
      ['sarif', quiet.sarif.rows],
    ] as const)
      assert.deepEqual(keys(rows), want, name);
    assert.deepEqual(keys(quiet.junit.rows), keys(all.shown), 'junit');
    const errors = all.shown.filter((x) => x.severity === 'error');
    assert.deepEqual(keys(quiet.github), keys(errors), 'github');
    assert.deepEqual(keys(quiet.html.rows), keys(errors), 'html');
    assert.deepEqual(quiet.text, textKeys(all.json.rows.filter((x) => x.severity === 'error')), 'text');
  });

  test(`${protocol} validate: every format says the same findings and counts`, async () => {
    writeFileSync(oddName, input.odd);
    const r = await everyFormat(protocol, args, input.stdin);
    const { json } = r;
    const want = keys(json.rows);
    assert.ok(want.length > 300, `${want.length} findings`);
    const kinds = new Set(json.rows.map((x) => x.ruleId));
    assert.ok(kinds.size > 60, `${kinds.size} rules found`);
    for (const sev of ['error', 'warning', 'info'])
      assert.ok(
        json.rows.some((x) => x.severity === sev),
        sev,
      );
    assert.ok(json.rows.some((x) => x.source === odd));
    assert.ok(json.rows.some((x) => x.source === '<stdin>'));
    assert.ok(
      json.rows.some((x) => x.pointer?.includes(CONTROL_NAME)),
      'a pointer with control characters',
    );

    assert.deepEqual(keys(r.ndjson.rows), want, 'ndjson');
    assert.deepEqual(keys(r.sarif.rows), want, 'sarif');
    const shown = keys(r.shown);
    assert.deepEqual(keys(r.junit.rows), shown, 'junit');
    assert.deepEqual(keys(r.github), shown, 'github');
    assert.deepEqual(keys(r.html.rows), shown, 'html');
    assert.deepEqual(r.text, textKeys(json.rows), 'text locations');

    const counts = (c: Counts) => [c.errors, c.warnings, c.infos];
    const total = counts(json.counts);
    assert.deepEqual(
      total,
      ['error', 'warning', 'info'].map((sev) => json.rows.filter((x) => x.severity === sev).length),
    );
    for (const [name, c] of [
      ['ndjson', r.ndjson.counts],
      ['sarif', r.sarif.counts],
      ['html', r.html.counts],
    ] as const)
      assert.deepEqual(counts(c), total, name);
    const last = r.out.text
      .trimEnd()
      .split('\n')
      .findLast((l) => l.startsWith('✖ '));
    assert.ok(last?.includes(`${total[0]} errors, ${total[1]} warnings, ${total[2]} infos`), last);
    assert.ok(r.out.github.trimEnd().endsWith(`${total[0]} errors, ${total[1]} warnings, ${total[2]} infos`));
    // junit: a testcase per (input, rule) with findings, one per clean input; each failed at --fail-on info
    const pairs = new Set(json.rows.map((x) => `${x.source}\u0000${x.ruleId}`));
    const clean = new Set([...cases, odd, '<stdin>'].filter((s) => !json.rows.some((x) => x.source === s)));
    assert.deepEqual([r.junit.tests, r.junit.failures], [pairs.size + clean.size, pairs.size]);
    // SARIF 2.1.0 §3.14.27 (the unit of its columns, UTF-16 as ours), §3.20.13 (the exit code of the run)
    const run = r.sarif.log.runs[0]!;
    assert.equal(run.columnKind, 'utf16CodeUnits');
    assert.deepEqual([run.invocations[0]!.exitCode, run.invocations[0]!.executionSuccessful], [1, true]);
    // a column after an accent and an emoji counts UTF-16 code units, as JavaScript indexes them
    const line = input.odd.split('\n')[0]!;
    for (const f of json.rows.filter((x) => x.source === odd && x.line === 1 && x.column !== undefined)) {
      const name = f.pointer?.split('/')[1] ?? '';
      if (name && line.includes(`"${name}"`)) assert.equal(f.column, line.indexOf(`"${name}"`) + 1, key(f));
    }
  });

  test(`${protocol} validate --max-findings: every format shows the same first findings and the whole counts`, async () => {
    writeFileSync(oddName, input.odd);
    const r = await everyFormat(protocol, [...args, '--max-findings', '7'], input.stdin);
    const want = keys(r.json.rows);
    assert.equal(want.length, 7);
    assert.deepEqual(keys(r.ndjson.rows), want, 'ndjson');
    assert.deepEqual(keys(r.sarif.rows), want, 'sarif');
    const shown = keys(r.shown);
    assert.deepEqual(keys(r.junit.rows), shown, 'junit');
    assert.deepEqual(keys(r.github), shown, 'github');
    assert.deepEqual(keys(r.html.rows), shown, 'html');
    assert.deepEqual(r.text, textKeys(r.json.rows), 'text locations');
    const all = r.json.counts.errors + r.json.counts.warnings + r.json.counts.infos;
    assert.ok(all > 300, `${all} counted`);
    const counts = (c: Counts) => [c.errors, c.warnings, c.infos];
    for (const c of [r.ndjson.counts, r.sarif.counts, r.html.counts])
      assert.deepEqual(counts(c), counts(r.json.counts));
    assert.match(r.out.html, /[\d,]+ more findings not shown \(--max-findings\)/);
    assert.match(r.out.text, new RegExp(`\\(${all - 7} more not shown: --max-findings\\)`));
  });
}
